"""The arena: seeded games between bots under CPython, for strength figures.

    PYTHONPATH=py python -m parlour.bots.arena --game esp --seats 2 --a hard --b random \
        --games 200 --seed 1 [--variant key=value ...] [--a-seats K]

prints one JSON line: games, wins per side, draws, hung games, the longest game, think times per
side, and side `a`'s games and wins by the seat it held (its first seat, with `--a-seats` above
one). Side `a` takes
`--a-seats` seats (one by default), side `b` the others; the seats of side `a` rotate from game
to game, so every side plays every seat. A draw, or a win shared by both sides, counts half to
each. In a cooperative game (Telepathic) every seat plays side `a`'s level unless `--b` is given
with `--a-seats`, and the line reports the shared wins. ESPEERS's balance table (the starter
decks against each other, one level on both sides) is its own command, built on this module:
`python -m parlour.bots.espeers.balance` (the arena does not import it, which imports the arena).

A game that runs past its game's move cap (`move_cap`: four times the longest game the sweeps
met, per seat) is stopped and counted as hung, never played on for ever. `--sweep` plays every
level against itself at every seat count (and, for Psi Squad, every cypher length), `--games`
games each, and prints one JSON line per table and a last one with the totals:

    PYTHONPATH=py python -m parlour.bots.arena --game psi-squad --sweep --games 12 --seed 1

The arena is its own small table: it deals, seals and applies through the game's interface,
exactly as a device does, and each bot sees only `base.knowledge_of` its seat.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic

from parlour.bots.base import Bot, knowledge_of
from parlour.bots.registry import bot_for, player_levels
from parlour.fair.commit import Context
from parlour.fair.encoding import Json
from parlour.fair.rng import Rng
from parlour.fair.store import PrivateStore
from parlour.games import GAMES, turns
from parlour.games.base import A, Game, Outcome, S, Setup, Termination
from parlour.games.catalog import entry, load
from parlour.games.declared import facts_for, options_for
from parlour.numbers import whole

NAMES = ("Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")

# A game this many times as long as the longest the sweeps met (per seat, each game's
# `Options.longest_per_seat`; docs/bots.md, "Hung games") is not long but hung.
CAP_FACTOR = 4


def move_cap(game_id: str, seats: int) -> int:
    """The steps after which a game of `game_id` at `seats` seats counts as hung."""
    options = options_for(game_id)
    if options.longest_per_seat is None:  # not swept yet: the most moves a real game takes
        return options.max_moves or 1_000 * seats
    return CAP_FACTOR * options.longest_per_seat * seats


@dataclass
class Played(Generic[S]):
    """One finished game: its outcome (None if it hung), its states and log, think times, and
    each seat's private store (what was dealt to it: e.g. an ESPEERS deck, for the balance
    script's count of the cards each seat drew)."""

    outcome: Outcome | None
    states: list[S]
    log: list[tuple[int, Json]]
    think: dict[int, list[float]] = field(default_factory=dict)
    stores: dict[int, PrivateStore] = field(default_factory=dict)


def deal(game: Game[S, A], setup: Setup) -> dict[int, PrivateStore]:
    stores = {s: PrivateStore(Context(setup.match_id, s)) for s in range(setup.seats)}
    for seat, values in game.deal(setup, list(range(setup.seats))).items():
        for label, value in values.items():
            stores[seat].commit(label, value)
    return stores


def play(
    game: Game[S, A],
    setup: Setup,
    seed: bytes,
    bots: Mapping[int, Bot],
    on_step: Callable[[S, int, A], None] | None = None,
    cap: int | None = None,
) -> Played[S]:
    """A whole game: automatic steps taken for every seat, every decision by that seat's bot.
    Optional steps (a seat that is not to move but may act, such as a Telepathic partner's
    Announcement) are offered to their bots first, at every step. After `cap` steps (the
    game's `move_cap` by default) the game is given up as hung: its outcome is None."""
    stores = deal(game, setup)
    states = [game.initial_state(setup, seed)]
    log: list[tuple[int, Json]] = []
    think: dict[int, list[float]] = {s: [] for s in bots}
    rng = Rng(b"arena" + seed)
    for _ in range(move_cap(game.id, setup.seats) if cap is None else cap):
        state = states[-1]
        if game.result(state) is not None:
            return Played(game.result(state), states, log, think, stores)
        seat, choice = _next(game, setup, states, log, stores, bots, think, rng)
        action = game.seal(state, seat, choice, stores[seat])
        new_state = game.apply(state, seat, action)
        if on_step is not None:
            on_step(state, seat, action)
        states.append(new_state)
        log.append((seat, game.action_to_json(action)))
    return Played(None, states, log, think, stores)


def _next(
    game: Game[S, A],
    setup: Setup,
    states: list[S],
    log: list[tuple[int, Json]],
    stores: dict[int, PrivateStore],
    bots: Mapping[int, Bot],
    think: dict[int, list[float]],
    rng: Rng,
) -> tuple[int, A]:
    """Who acts next (`games.turns`): an automatic step, else an optional step a bot takes,
    else the bot of the lowest seat the game waits on."""
    state = states[-1]
    found = turns.first_automatic(game, state, stores)
    if found is not None:
        return found

    def ask(seat: int) -> A | None:
        knowledge = knowledge_of(game, setup, states, log, seat, stores[seat])
        started = time.perf_counter()
        choice: A | None = bots[seat](knowledge, rng.read(32))
        think[seat].append(time.perf_counter() - started)
        return choice

    for seat in turns.offered(game, state, stores, bots):
        choice = ask(seat)
        if choice is not None:
            return seat, choice
    seat = turns.moving(game, state)[0]
    choice = ask(seat)
    if choice is None:
        raise AssertionError(f"the bot of seat {seat} declined a step the game waits on")
    return seat, choice


# -- a tournament ---------------------------------------------------------------------------


def sides_for(index: int, seats: int, a_seats: int) -> list[str]:
    """Which side plays each seat in game `index`: side a's seats rotate around the table."""
    return ["a" if (seat - index) % seats < a_seats else "b" for seat in range(seats)]


def match(
    seed: int, index: int, seats: int, variant: dict[str, Json] | None = None
) -> tuple[Setup, bytes]:
    """The set-up and match seed of game `index` of a run seeded `seed`."""
    setup = Setup(f"m-arena-{seed}-{index}", NAMES[:seats], dict(variant or {}))
    return setup, Rng(f"arena:{seed}:{index}".encode()).read(32)


def tournament(
    game_id: str,
    seats: int,
    a: str,
    b: str,
    games: int,
    seed: int,
    variant: dict[str, Json] | None = None,
    a_seats: int = 1,
) -> dict[str, Any]:
    game = GAMES[game_id]
    bot_a, bot_b = bot_for(game_id, a), bot_for(game_id, b)
    wins = {"a": 0.0, "b": 0.0}
    draws = losses = 0
    hung: list[int] = []  # the indices of the games given up
    longest = (0, -1)  # (steps, index) of the longest finished game
    think: dict[str, list[float]] = {"a": [], "b": []}
    # Side a's games and wins by the first seat it held (e.g. ESPEERS decks go by seat).
    by_seat = {s: {"games": 0, "a": 0.0} for s in range(seats)}
    steps = 0
    for index in range(games):
        side = sides_for(index, seats, a_seats)
        bots = {s: bot_a if side[s] == "a" else bot_b for s in range(seats)}
        setup, match_seed = match(seed, index, seats, variant)
        played = play(game, setup, match_seed, bots)
        for s, times in played.think.items():
            think[side[s]].extend(times)
        steps += len(played.log)
        outcome = played.outcome
        first_a = by_seat[side.index("a")] if "a" in side else None
        if first_a is not None:
            first_a["games"] += 1
        if outcome is None:
            hung.append(index)
            continue
        longest = max(longest, (len(played.log), index))
        won = {side[s] for s in outcome.winners}
        if outcome.termination is Termination.DRAW or won == {"a", "b"}:
            draws += 1
            wins["a"] += 0.5
            wins["b"] += 0.5
            if first_a is not None:
                first_a["a"] += 0.5
        elif won:
            winner = won.pop()
            wins[winner] += 1
            if first_a is not None and winner == "a":
                first_a["a"] += 1
        else:
            losses += 1
    return {
        "game": game_id,
        "seats": seats,
        "variant": variant or {},
        "a": a,
        "b": b,
        "a_seats": a_seats,
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "hung": len(hung),
        "hung_games": hung,
        "longest": {"steps": longest[0], "game": longest[1]},
        "cap": move_cap(game_id, seats),
        "mean_steps": round(steps / max(1, games), 1),
        "a_by_seat": {str(s): v for s, v in by_seat.items()},
        "think_ms": {k: _ms(v) for k, v in think.items()},
    }


# -- the sweep: every level, every table size, no game hung ------------------------------------


def sweep_levels(game_id: str) -> tuple[str, ...]:
    """The levels a sweep plays: the game's own `SWEEP_LEVELS` (bots/<game>/__init__.py: Psi
    Squad's random alone would never end, so it sweeps "consistent" first), or the levels players
    choose."""
    bots_module = entry(game_id).bots.partition(":")[0]
    declared: tuple[str, ...] | None = getattr(load(bots_module), "SWEEP_LEVELS", None)
    return declared or player_levels(game_id)


def tables(game_id: str) -> list[tuple[int, dict[str, Json]]]:
    """Every table size of a game as (seats, variant): its facts' `tables` (games/<game>/facts.py:
    Psi Squad at every cypher length, Telepathic in every arrangement), or each seat count its
    options allow."""
    declared = facts_for(game_id).tables
    if declared:
        return [(seats, dict(variant)) for seats, variant in declared]
    game = GAMES[game_id]
    return [(s, {}) for s in range(game.min_seats, game.max_seats + 1)]


def sweep(
    game_id: str,
    games: int,
    seed: int,
    levels: tuple[str, ...] | None = None,
    sizes: list[tuple[int, dict[str, Json]]] | None = None,
    out: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """`games` games of every level against itself at every table size (`tables`): the hung
    games and the longest game. Each table's line goes to `out` as it is done."""
    total = hung = 0
    longest: dict[str, Any] = {"steps": 0}
    for level in levels or sweep_levels(game_id):
        for seats, variant in sizes or tables(game_id):
            line = tournament(game_id, seats, level, level, games, seed, variant)
            total += games
            hung += line["hung"]
            if line["longest"]["steps"] > longest["steps"]:
                longest = {**line["longest"], "level": level, "seats": seats, "variant": variant}
            if out is not None:
                out({k: line[k] for k in ("seats", "variant", "a", "hung", "hung_games")} | {
                    "longest": line["longest"]["steps"], "cap": line["cap"],
                    "mean_steps": line["mean_steps"]})  # fmt: skip
    return {"game": game_id, "sweep": True, "games": total, "hung": hung, "longest": longest}


def wilson(wins: float, games: int) -> tuple[float, float]:
    """The 95% Wilson interval of a rate (a draw counted as half a win)."""
    if games == 0:
        return 0.0, 1.0
    z = 1.96
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - spread), min(1.0, centre + spread)


def _ms(times: list[float]) -> dict[str, float]:
    if not times:
        return {"mean": 0.0, "median": 0.0, "p95": 0.0, "max": 0.0}
    ordered = sorted(times)
    return {
        "mean": round(1000 * sum(ordered) / len(ordered), 2),
        "median": round(1000 * ordered[len(ordered) // 2], 2),
        "p95": round(1000 * ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 2),
        "max": round(1000 * ordered[-1], 2),
    }


def parse_variant(items: list[str]) -> dict[str, Json]:
    """`key=value` pairs: digits become numbers, commas make lists."""
    variant: dict[str, Json] = {}
    for item in items:
        key, _, raw = item.partition("=")
        parts = raw.split(",")
        values: list[Json] = [p if whole(p) is None else whole(p) for p in parts]
        variant[key] = values if len(values) > 1 else values[0]
    return variant


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m parlour.bots.arena", description=__doc__)
    parser.add_argument("--game", required=True, choices=sorted(GAMES))
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--a", default="medium")
    parser.add_argument("--b", default="random")
    parser.add_argument("--a-seats", type=int, default=1)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", action="append", default=[])
    parser.add_argument("--solver", action="store_true", help="Psi Squad: the cypher solver")
    parser.add_argument("--sweep", action="store_true", help="every level and size: hung games")
    parser.add_argument("--levels", default="", help="the sweep's levels, comma-separated")
    parser.add_argument("--digits", type=int, default=4)
    parser.add_argument("--cyphers", default="all")
    parser.add_argument("--level", default="hard", help="the solver's level")
    args = parser.parse_args(argv)
    if args.solver:
        from parlour.bots.psi_squad import solver_report

        report = solver_report(args.digits, args.cyphers, args.level, args.seed)
    elif args.sweep:

        def line(data: dict[str, Any]) -> None:
            json.dump(data, sys.stdout)
            sys.stdout.write("\n")
            sys.stdout.flush()

        levels = tuple(args.levels.split(",")) if args.levels else None
        report = sweep(args.game, args.games, args.seed, levels, out=line)
    else:
        report = tournament(
            args.game,
            args.seats,
            args.a,
            args.b,
            args.games,
            args.seed,
            parse_variant(args.variant),
            args.a_seats,
        )
    json.dump(report, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
