"""Whole games: the bot's own cypher, whom to target, and which guess, from its seat's view.

What a seat knows is the public record (every guess and answer on every cypher, every Value and
status) and its own cypher. The cyphers of the others are never read: they are whatever is
consistent with the answers heard (`model.consistent`), each as likely as another.

Scoring recap (RULINGS.md): a guess sets the target's Value to correct + 2 x spotted and moves
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
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from parlour.bots.base import SeatKnowledge
from parlour.bots.psi_squad.model import (
    Split,
    answer_code,
    answer_codes,
    consistent,
    text_of,
    value_of_code,
)
from parlour.bots.psi_squad.solver import Record, _sample
from parlour.bots.psi_squad.symmetry import pool
from parlour.fair.rng import Rng
from parlour.games.psi_squad.rules import ChooseCypher, Guess


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


def read_table(view: Any) -> Table:
    n = view["length"]
    seats = view["seats"]
    records: list[list[tuple[int, int]]] = [[] for _ in seats]
    for r in view["history"]:
        records[r["target"]].append((int(r["digits"]), answer_code(n, r["correct"], r["spotted"])))
    return Table(
        n=n,
        me=view["me"]["seat"],
        maximum=view["max"],
        status=tuple(s["status"] for s in seats),
        values=tuple(s["value"] for s in seats),
        guessed=tuple(s["guessed"] for s in seats),
        records=tuple(tuple(r) for r in records),
    )


def setting_up(knowledge: SeatKnowledge) -> bool:
    return knowledge.view.get("stage") == "setup"


def own_cypher(knowledge: SeatKnowledge, rng: Rng) -> ChooseCypher:
    """A cypher drawn uniformly (every cypher is as likely, as the bots assume of others)."""
    n = knowledge.view["length"]
    return ChooseCypher(text_of(n, rng.below(10**n)))


def guess(table: Table, target: int, code: int) -> Guess:
    return Guess(target, text_of(table.n, code))


# -- what a guess does to one target -----------------------------------------------------------


@dataclass(frozen=True)
class Option:
    """One guess against one target, with the classes of candidates its answers make."""

    code: int
    consistent: bool
    sizes: tuple[int, ...]  # scaled to the whole candidate set, in `answer_codes` order


_OPTIONS: dict[tuple[int, Record, int, int], tuple[int, tuple[Option, ...]]] = {}


def options(
    n: int, record: Record, candidates: int, guesses: int
) -> tuple[int, tuple[Option, ...]]:
    """The candidate count and the guesses worth weighing against a cypher with this record
    (a sample of candidates, then a sample of the symmetry classes), each with the sizes of the
    classes its answers make. A function of the public record only, so it is remembered."""
    key = (n, tuple(sorted(record)), candidates, guesses)
    found = _OPTIONS.get(key)
    if found is not None:
        return found
    everyone = consistent(n, record)
    m = len(everyone)
    scored = _sample(everyone, candidates, "candidates", record)
    split = Split(n, scored)
    inside = set(everyone)
    classes = pool(n, tuple(g for g, _ in record))
    others: Sequence[int] = range(10**n) if classes is None else classes
    tried = list(scored) + [
        g for g in _sample(others, guesses, "guesses", record) if g not in inside
    ]
    made = []
    for code in tried:
        sizes = split.sizes(code)
        hit = sizes[-1]  # the class of "cracked": the guess itself, if it is a candidate
        scale = (m - hit) / (len(scored) - hit) if len(scored) > hit else 0.0
        scaled = (*(s * scale for s in sizes[:-1]), float(hit))
        made.append(Option(code, code in inside, scaled))
    if len(_OPTIONS) > 256:
        _OPTIONS.clear()
    found = _OPTIONS[key] = (m, tuple(made))
    return found


# -- the levels ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Weights:
    """How the hard and medium players weigh a guess (see the module's docstring)."""

    info: float = 0.3  # per nat of the answer's entropy
    mine: float = 1.0  # my crack on my next turn
    leak: float = 1.0  # an opponent's crack before it
    end: float = 20.0  # ending the game first (or not)
    candidates: int = 500
    guesses: int = 2500


HARD = Weights()
MEDIUM = Weights(info=0.3, mine=0.0, leak=0.0, end=0.0, candidates=200, guesses=300)


def crack_odds(table: Table, target: int) -> list[float]:
    """For each opponent that moves before my next turn and may target `target`, the chance
    it picks that target (a uniform pick among its targets: the model of the others)."""
    odds = []
    for o in range(table.seats):
        if o in (table.me, target):
            continue
        theirs = table.targets(o)
        if target in theirs:
            odds.append(1 / len(theirs))
    return odds


def ends_game(table: Table, target: int) -> bool:
    return sum(1 for g in table.guessed if not g) == 2


def i_win_if_cracked(table: Table, target: int) -> bool:
    """Would cracking `target` now end the game with this seat first (or tied first)?"""
    status = list(table.status)
    status[table.me] += table.maximum - table.values[target]
    last = next(s for s in range(table.seats) if not table.guessed[s] and s != target)
    status[last] += table.maximum - table.values[last]
    return status[table.me] == max(status)


def weigh(table: Table, target: int, weights: Weights) -> tuple[float, int]:
    """The best (score, guess) against `target`."""
    n = table.n
    m, found = options(n, table.records[target], weights.candidates, weights.guesses)
    values = [value_of_code(n, a) for a in answer_codes(n)]
    values[-1] = table.maximum
    now = table.values[target]
    odds = crack_odds(table, target)
    ending = 0.0
    if ends_game(table, target):
        ending = weights.end if i_win_if_cracked(table, target) else -weights.end
    # per class of size s with Value v: my chance next turn, and theirs before it
    best = (-math.inf, 0)
    cache: dict[tuple[float, int], float] = {}
    for option in found:
        total = 0.0
        gain = 0.0
        after = 0.0
        entropy = 0.0
        for size, value in zip(option.sizes, values, strict=True):
            if not size:
                continue
            total += size
            gain += size * value
            entropy -= size * math.log(size) if size > 1 else 0.0
            if value == table.maximum:
                continue
            key = (size, value)
            term = cache.get(key)
            if term is None:
                term = _after(size, table.maximum - value, odds, weights)
                cache[key] = term
            after += size * term
        score = gain / total - now + after / total
        score += weights.info * (math.log(total) + entropy / total)
        if option.consistent:
            score += ending / m
        if score > best[0] or (score == best[0] and option.code < best[1]):
            best = (score, option.code)
    return best


def _after(size: float, prize: float, odds: list[float], weights: Weights) -> float:
    """What a class of `size` candidates left on a cypher is worth to me, before the next
    round: a crack by an opponent first costs me its prize, mine on my next turn earns it."""
    size = max(size, 1.0)
    safe = 1.0
    for q in odds:
        safe *= 1 - q / size
    return weights.mine * safe * prize / size - weights.leak * (1 - safe) * prize


def choose_weighted(knowledge: SeatKnowledge, weights: Weights) -> Guess:
    table = read_table(knowledge.view)
    best: tuple[float, int, int] | None = None
    for target in table.targets(table.me):
        score, code = weigh(table, target, weights)
        if best is None or score > best[0]:
            best = (score, target, code)
    assert best is not None
    return guess(table, best[1], best[2])
