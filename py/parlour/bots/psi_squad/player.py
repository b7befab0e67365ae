"""Whole games: the bot's own cypher, whom to target, and which guess, from its seat's view.

What a seat knows is the public record (every guess and answer on every cypher, every Value and
status) and its own cypher. The cyphers of the others are never read: they are whatever is
consistent with the answers heard (`model.consistent`), each as likely as another.

Scoring recap (docs/rulings.md): a guess sets the target's Value to correct + 2 x spotted and moves
the guesser's status by the difference (it can be negative); cracking sets it to Max. Points
telescope: all the changes made on one cypher add up to its final Value, so what matters is who
makes each change. A guess with a high Value gains now and leaves the next guesser on that
cypher little to gain (they lose if they score lower); an informative guess with a low Value
costs now, and every answer is heard by everybody, so the next guessers profit from it too.

The hard bot weighs, for each target and each guess it considers (the candidates and one guess
per symmetry class, within a budget):
- the expected change of its status (Value expected minus Value now, cracking included);
- what the answer leaves: a small class of candidates is a crack for whoever guesses that
  cypher next, so it counts the chance that an opponent does (each opponent picks a target
  among theirs; a consistent guess cracks with one chance in the class size) against the chance
  that it is itself the one, on its next turn;
- the information (entropy) of the answer, lightly, for the cracking later on;
- at the end of the game, whether a crack that ends it leaves it first.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from operator import mul
from typing import Any

from parlour.bots.base import SeatKnowledge
from parlour.bots.psi_squad.model import (
    Split,
    answer_code,
    answer_codes,
    consistent,
    foregone,
    score,
    split_of,
    text_of,
    value_of_code,
)
from parlour.bots.psi_squad.race import RACE_MAX, Race
from parlour.bots.psi_squad.solver import Budget, Record, best_guess, guesses_to_try, sample
from parlour.fair.rng import Rng
from parlour.games.psi_squad.actions import ChooseCypher, Guess
from parlour.games.psi_squad.options import max_status


@dataclass(frozen=True)
class Table:
    """The public record as the bot reads it, plus its own seat."""

    n: int
    me: int
    maximum: int
    status: tuple[int, ...]
    values: tuple[int, ...]
    guessed: tuple[bool, ...]
    records: tuple[Record, ...]  # per seat: (guess, answer code) on that seat's cypher

    @property
    def seats(self) -> int:
        return len(self.status)

    def targets(self, seat: int) -> list[int]:
        return [s for s in range(self.seats) if s != seat and not self.guessed[s]]


def table_of(knowledge: SeatKnowledge) -> Table:
    """The table this seat sees, its cypher length read from the match's set-up (so a length
    added to the game's declaration is played with no change here)."""
    return read_table(knowledge.view, knowledge.number("length"))


def read_table(view: Any, n: int) -> Table:
    """The public record of a view of a game of `n`-digit cyphers (Max from the declaration)."""
    seats = view["seats"]
    records: list[list[tuple[int, int]]] = [[] for _ in seats]
    for r in view["history"]:
        records[r["target"]].append((int(r["digits"]), answer_code(n, r["correct"], r["spotted"])))
    return Table(
        n=n,
        me=view["me"]["seat"],
        maximum=max_status(n),
        status=tuple(s["status"] for s in seats),
        values=tuple(s["value"] for s in seats),
        guessed=tuple(s["guessed"] for s in seats),
        records=tuple(tuple(r) for r in records),
    )


def setting_up(knowledge: SeatKnowledge) -> bool:
    return knowledge.view.get("stage") == "setup"


def own_cypher(knowledge: SeatKnowledge, rng: Rng) -> ChooseCypher:
    """A cypher drawn uniformly (every cypher is as likely, as the bots assume of others)."""
    n = knowledge.number("length")
    return ChooseCypher(text_of(n, rng.below(10**n)))


def guess(table: Table, target: int, code: int) -> Guess:
    return Guess(target, text_of(table.n, code))


def idle(table: Table, action: Guess) -> bool:
    """Is the answer to this guess foregone from the public record (`model.foregone`)?"""
    found = split_of(table.n, consistent(table.n, table.records[action.target]))
    return foregone(found, int(action.digits)) is not None


# -- what a guess does to one target -----------------------------------------------------------


@dataclass(frozen=True)
class Options:
    """The guesses worth weighing against one cypher, and the classes their answers make among
    a sample of its candidates (`sizes[i]`, in `answer_codes` order; the last class is
    "cracked", 1 when the guess is itself a candidate). `idle[i]` marks a guess whose answer
    is foregone (`model.foregone`): weighed as a guess it is a free pass, and the bots never
    make one (see `weigh`)."""

    m: int  # candidates in all
    scored: int  # candidates in the sample
    codes: tuple[int, ...]
    inside: tuple[bool, ...]  # is the guess a candidate
    sizes: tuple[list[int], ...]
    idle: tuple[bool, ...]


_OPTIONS: dict[tuple[int, Record, int, int], Options] = {}


def options(n: int, record: Record, candidates: int, guesses: int) -> Options:
    """The options against a cypher with this record, within a budget of candidates and
    guesses (`solver.guesses_to_try`). A function of the public record only: remembered."""
    key = (n, tuple(sorted(record)), candidates, guesses)
    found = _OPTIONS.get(key)
    if found is not None:
        return found
    everyone = consistent(n, record)
    scored = sample(everyone, candidates, "candidates", record)
    split = Split(n, scored)
    codes = tuple(guesses_to_try(n, record, everyone, Budget(candidates, guesses)))
    inside = set(everyone)
    sizes = tuple(split.sizes(code) for code in codes)
    # One answer over the sample: asked of every candidate (split once), is it still one?
    alike = [i for i, size in enumerate(sizes) if max(size) == len(scored)]
    whole = split_of(n, everyone) if alike and len(scored) < len(everyone) else split
    idle = {i for i in alike if foregone(whole, codes[i]) is not None}
    found = Options(
        m=len(everyone),
        scored=len(scored),
        codes=codes,
        inside=tuple(code in inside for code in codes),
        sizes=sizes,
        idle=tuple(i in idle for i in range(len(codes))),
    )
    if len(_OPTIONS) >= 256:
        _OPTIONS.clear()
    _OPTIONS[key] = found
    return found


_XLOGX: list[float] = [0.0, 0.0]


def _xlogx(upto: int) -> list[float]:
    """s x log(s) for s = 0..upto (0 for 0 and 1)."""
    while len(_XLOGX) <= upto:
        _XLOGX.append(len(_XLOGX) * math.log(len(_XLOGX)))
    return _XLOGX


# -- the levels ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Weights:
    """How the hard and medium players weigh a guess (see the module's docstring)."""

    info: float = 0.3  # per nat of the answer's entropy
    mine: float = 1.0  # my crack on my next turn
    leak: float = 1.0  # an opponent's crack before it
    end: float = 20.0  # ending the game first (or not)
    final: bool = True  # when the next crack ends the game, what a class leaves is worth that
    candidates: int = 500  # scored per target (a sample beyond)
    guesses: int = 4000  # weighed per decision, shared by the targets
    depth: int = 64  # the best of them weighed also by what their answers leave
    pairs: bool = True  # my own cypher has exactly one repeated digit
    race: bool = True  # the last crack searched exactly when few candidates are left
    balance: float = 1.0  # before the last race, per nat of candidates left on the target


HARD = Weights()
MEDIUM = Weights(mine=0.0, leak=0.0, race=False, candidates=200, guesses=600)
MIN_GUESSES = 300  # per target, however many targets there are
# Beyond four digits each guess costs about ten times more to weigh per digit (the candidates
# are 10**n), so the budget shrinks with the length: 0.6 for five digits (measured: the same think
# time as four), and so on for any length a declaration adds.
SCALE_FROM, SCALE_PER_DIGIT = 4, 0.6


def scale(n: int) -> float:
    """The share of the guess budget weighed in a game of `n`-digit cyphers."""
    return SCALE_PER_DIGIT ** max(0, n - SCALE_FROM)


def crack_odds(table: Table, target: int, besides: int | None = None) -> list[float]:
    """For each opponent that moves before my next turn and may target `target`, the chance
    it picks that target (a uniform pick among its targets: the model of the others), in turn
    order from mine. `besides` is a seat left out too (me, when `target` is my own cypher)."""
    odds = []
    for step in range(1, table.seats):
        o = (table.me + step) % table.seats
        if o in (table.me, target, besides):
            continue
        theirs = table.targets(o)
        if target in theirs:
            odds.append(1 / len(theirs))
    return odds


def ends_game(table: Table) -> bool:
    """Does the next crack end the game (two cyphers left)?"""
    return sum(1 for g in table.guessed if not g) == 2


def i_win_if_cracked(table: Table, target: int) -> bool:
    """Would cracking `target` now end the game with this seat first (or tied first)?"""
    status = list(table.status)
    status[table.me] += table.maximum - table.values[target]
    last = next(s for s in range(table.seats) if not table.guessed[s] and s != target)
    status[last] += table.maximum - table.values[last]
    return status[table.me] == max(status)


def weigh(table: Table, target: int, weights: Weights, guesses: int) -> tuple[float, int]:
    """The best (score, guess) against `target`: first every option by its expected change
    of status, its information and its chance to end the game; then the best of those also by
    what their answers leave to the opponents and to me (`_after`)."""
    n, top = table.n, table.maximum
    found = options(n, table.records[target], weights.candidates, guesses)
    m, scored = found.m, found.scored
    values = [value_of_code(n, a) for a in answer_codes(n)]
    values[-1] = top
    now = table.values[target]
    ending = 0.0
    if ends_game(table):
        ending = weights.end if i_win_if_cracked(table, target) else -weights.end
    odds = crack_odds(table, target)
    if ending > 0:
        if weights.race and m <= RACE_MAX and len(odds) <= 3:
            return _race(table, target, ending, m)
        if not odds:  # nobody else guesses this cypher: what its answers tell is mine alone
            budget = Budget(weights.candidates, guesses)
            return ending, best_guess(n, table.records[target], budget)
    xlogx = _xlogx(scored)
    first: list[tuple[float, int, float]] = []  # (score so far, option, sample-to-whole scale)
    # A guess whose answer is foregone changes nothing but (perhaps) the Value: weighed like
    # any other it is a free pass, the best "guess" whenever every real one is expected to
    # lower a high Value, and two bots that each pass so forever end no game. The rules have
    # no pass: such a guess is left out while any other remains (one always does: a
    # candidate, when two or more are left, may get either the crack or another answer).
    skip = found.idle if not all(found.idle) else ()
    for i, sizes in enumerate(found.sizes):
        if skip and skip[i]:
            continue
        hit = sizes[-1]
        rest = scored - hit
        scale = (m - hit) / rest if rest else 0.0
        score = (scale * (sum(map(mul, sizes, values)) - hit * top) + hit * top) / m - now
        if rest:
            spread = scale * sum(map(xlogx.__getitem__, sizes)) + rest * scale * math.log(scale)
            score += weights.info * (math.log(m) - spread / m)
        if found.inside[i]:
            score += ending / m
        first.append((score, i, scale))
    first.sort(key=lambda x: (-x[0], found.codes[x[1]]))
    best = (-math.inf, 0)
    terms: dict[tuple[float, int], float] = {}
    for score, i, scale in first[: weights.depth]:
        after = 0.0
        for size, value in zip(found.sizes[i][:-1], values, strict=False):
            if size:
                whole = size * scale
                term = terms.get((whole, value))
                if term is None:
                    if ending and weights.final:
                        term = _after(whole, ending, weights.end, odds, weights)
                    else:
                        term = _after(whole, top - value, top - value, odds, weights)
                    terms[(whole, value)] = term
                after += whole * term
        total = score + after / m
        code = found.codes[i]
        if total > best[0] or (total == best[0] and code < best[1]):
            best = (total, code)
    return best


def hazard(table: Table, target: int) -> float:
    """The chance that, before my next turn, the game ends by the crack of a cypher other than
    `target` (by an opponent: each guesses a target of theirs at random, consistently)."""
    safe = 1.0
    for other in range(table.seats):
        if other == target or table.guessed[other]:
            continue
        size = len(consistent(table.n, table.records[other]))
        for q in crack_odds(table, other, table.me):
            safe *= 1 - q / size
    return 1 - safe


def _race(table: Table, target: int, ending: float, m: int) -> tuple[float, int]:
    """In the race for the last crack, with few candidates: the exact search (`race.Race`)
    for my chance to be first, worth `ending`, plus the expected change of status."""
    n, top = table.n, table.maximum
    found = consistent(n, table.records[target])
    race = Race(n, found, crack_odds(table, target), hazard(table, target))
    base = race.pass_value(found)
    now = table.values[target]
    best = (-math.inf, 0)
    for g in found:
        values = [value_of_code(n, score(n, g, c)) for c in found]
        gain = (sum(values) - value_of_code(n, score(n, g, g)) + top) / m - now
        total = ending * (race.guess_value(found, g) - base) + gain
        if total > best[0]:
            best = (total, g)
    return best


def _after(size: float, mine: float, theirs: float, odds: list[float], weights: Weights) -> float:
    """What a class of `size` candidates left on a cypher is worth to me, before the next
    round: a crack by an opponent first costs me `theirs`, mine on my next turn earns `mine`."""
    size = max(size, 1.0)
    safe = 1.0
    for q in odds:
        safe *= 1 - q / size
    return weights.mine * safe * mine / size - weights.leak * (1 - safe) * theirs


def choose_weighted(knowledge: SeatKnowledge, weights: Weights) -> Guess:
    """The best guess over every target, each weighed with its share of the budget."""
    table = table_of(knowledge)
    targets = table.targets(table.me)
    share = max(MIN_GUESSES, int(weights.guesses * scale(table.n)) // len(targets))
    best: tuple[float, int, int] | None = None
    balancing = weights.balance and not table.guessed[table.me] and not ends_game(table)
    for target in targets:
        score, code = weigh(table, target, weights, share)
        if balancing:
            score += weights.balance * math.log(len(consistent(table.n, table.records[target])))
        if best is None or score > best[0]:
            best = (score, target, code)
    assert best is not None
    return guess(table, best[1], best[2])


def own_cypher_pair(knowledge: SeatKnowledge, rng: Rng) -> ChooseCypher:
    """A cypher with exactly one digit twice and the others once (4,320 of the 10,000 four-
    digit cyphers): measured, they take every solver a little longer to crack than cyphers of
    all different digits (6.2 guesses against 6.1 for a consistent guesser)."""
    n = knowledge.number("length")
    while True:
        text = text_of(n, rng.below(10**n))
        if len(set(text)) == n - 1:
            return ChooseCypher(text)
