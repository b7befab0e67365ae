"""Telepathic measurements beside the arena: mean turns to a win, failure reasons, opposed
teams, and the all-seeing "oracle" pair that gives the limit (not a bot: it reads both seats'
cards, so it lives here and is never registered).

    PYTHONPATH=py python scripts/telepathic_measure.py --a hard --games 1000 [--b plain
        --a-seats 1] [--variant mode=challenge --variant discard=3] [--seats 3 ...]
    PYTHONPATH=py python scripts/telepathic_measure.py --oracle --games 2000

Games are the arena's (same match seeds, set-ups and seat rotation: `arena.play`). The arena
deals condition cards with `secrets`, so its figures move a little from run to run; with
`--seeded-deals` (the default here) the deal is drawn from the match seed instead, so a run can
be repeated exactly. Neither the bots nor anything they see depends on that choice. Prints one
JSON line.

Teams: side a plays one team (seats 1 and 3, then 2 and 4 in alternate games), side b the other;
a win of side a is a game its team won (whoever announced).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from functools import cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "py"))

from parlour.bots import arena
from parlour.bots.registry import bot_for
from parlour.bots.telepathic import model
from parlour.fair.rng import Rng
from parlour.games import GAMES
from parlour.games.base import Setup, Termination
from parlour.games.telepathic import rules
from parlour.games.telepathic.actions import Announce, HandCard, Perform

GAME = GAMES["telepathic"]
ORACLE_DEPTH = 3  # actions searched, this one included


class _SeededSecrets:
    """Stands in for `secrets` in the rules module: the deal drawn from the match seed."""

    def __init__(self) -> None:
        self.rng = Rng(b"unset")

    def token_bytes(self, count: int) -> bytes:
        return self.rng.read(count)


_SEEDED = _SeededSecrets()
_DEALT: dict[int, dict] = {}  # the oracle's window on every seat's cards, game by game
_real_deal = arena.deal


def _recording_deal(game, setup):
    stores = _real_deal(game, setup)
    _DEALT.clear()
    for seat, store in stores.items():
        if "conditions" in store:
            _DEALT[seat] = dict(store.value("conditions"))
    return stores


# -- the oracle: both seats' cards, three actions of search ---------------------------------


@cache
def _distance(grid: model.Grid, cards: tuple[int, ...], depth: int, goal: int, lose: int) -> int:
    """Fewest moves (at most `depth`) with these face-up cards, each used once unless the row
    keeps them (first game: `cards` ends with -1), to a grid where every goal condition holds
    and no lose condition has held on the way; depth + 1 if none."""
    held = model.holding(grid)
    if held & goal == goal:
        return 0
    if depth == 0:
        return 1
    keep = cards and cards[-1] == -1
    best = depth + 1
    for i, card in enumerate(cards):
        if card == -1:
            continue
        rest = cards if keep else cards[:i] + cards[i + 1 :]
        for k in range(4):
            after = model.after(grid, card, k)
            if model.holding(after) & lose:
                continue
            best = min(best, 1 + _distance(after, rest, depth - 1, goal, lose))
            if best == 1:
                return 1
    return best


def oracle(knowledge, seed):
    """The all-seeing partner: reads the cards of every seat (`_DEALT`), never the deck order."""
    view = knowledge.view
    legal = list(knowledge.legal)
    if not legal:
        return None
    goal = lose = 0
    for cards in _DEALT.values():
        goal |= 1 << model.CONDITION_INDEX[cards["win"]]
        lose |= 1 << model.CONDITION_INDEX[cards["lose"]]
    grid = model.encode(view["grid"])
    held = model.holding(grid)
    announces = [a for a in legal if isinstance(a, Announce)]
    if announces and (held & goal == goal or view["must_announce"]):
        right = tuple((s, _DEALT[s]["win"]) for s, _ in announces[0].claims)
        return next(a for a in announces if a.claims == right)
    if not knowledge.to_move:
        return None
    if view["phase"] == "respond":
        name = _DEALT[view["announcer"]]["win"]
        return next(a for a in legal if getattr(a, "name", None) == name)
    if view["phase"] not in ("hand", "perform"):
        return legal[0]
    first = view["mode"] == "first"
    row = [None if c is None else model.CARD_INDEX[c] for c in view["row"]]

    def rest_after(slot: int) -> tuple[int, ...]:
        kept = tuple(c for i, c in enumerate(row) if c is not None and (first or i != slot))
        return (*kept, -1) if first else kept

    def score(card: int, k: int, slot: int) -> tuple:
        after = model.after(grid, card, k)
        m = model.holding(after)
        if m & lose:
            return (-1, 0, 0)
        d = _distance(after, rest_after(slot), ORACLE_DEPTH - 1, goal, lose)
        return (
            ORACLE_DEPTH - d,
            model.popcount(m & goal),
            len(model.reach(after, rest_after(slot))),
        )

    if view["phase"] == "perform":
        slot = view["handed_slot"]
        card = row[slot]
        return max(
            (a for a in legal if isinstance(a, Perform)),
            key=lambda a: score(card, a.set_index, slot),
        )
    hands = [a for a in legal if isinstance(a, HandCard)]
    return max(hands, key=lambda a: max(score(row[a.slot], k, a.slot) for k in range(4)))


# -- a run -----------------------------------------------------------------------------------


def _bot(name: str):
    return oracle if name == "oracle" else bot_for("telepathic", name)


def measure(args) -> dict:
    variant = arena.parse_variant(args.variant)
    seats = args.seats
    arrangement = variant.get("arrangement", "pair")
    a_seats = args.a_seats if args.a_seats is not None else seats
    wins = Counter()
    turns: list[int] = []
    reasons: Counter = Counter()
    think: dict[str, list[float]] = {"a": [], "b": []}
    for index in range(args.games):
        if arrangement == "teams":
            team = index % 2
            side = ["a" if s % 2 == team else "b" for s in range(seats)]
        else:
            side = arena.sides_for(index, seats, a_seats)
        bots = {s: _bot(args.a if side[s] == "a" else args.b) for s in range(seats)}
        match_seed = Rng(f"arena:{args.seed}:{index}".encode()).read(32)
        setup = Setup(f"m-arena-{args.seed}-{index}", arena.NAMES[:seats], dict(variant))
        _SEEDED.rng = Rng(b"deal" + match_seed)
        played = arena.play(GAME, setup, match_seed, bots)
        for s, times in played.think.items():
            think[side[s]].extend(times)
        outcome = played.outcome
        final = played.states[-1]
        if outcome is None:
            reasons["hung"] += 1
            continue
        won = outcome.termination is Termination.WIN
        if arrangement == "teams":
            winner = side[min(outcome.winners)]
            wins[winner] += 1
            announcer = side[final.announcer] if final.announcer is not None else "?"
            reasons["announcer right" if winner == announcer else "announcer wrong"] += 1
            if winner == "a":
                turns.append(final.turns)
            continue
        if won:
            wins["a"] += 1
            turns.append(final.turns)
            reasons["win"] += 1
        else:
            reasons[_why(final)] += 1
    report = {
        "game": "telepathic",
        "seats": seats,
        "variant": variant,
        "a": args.a,
        "b": args.b,
        "a_seats": a_seats,
        "games": args.games,
        "wins": {"a": wins["a"], "b": wins["b"]},
        "win_rate": round(wins["a"] / max(1, args.games), 4),
        "mean_turns_to_win": round(sum(turns) / max(1, len(turns)), 2),
        "reasons": dict(reasons.most_common()),
        "think_ms": {k: arena._ms(v) for k, v in think.items() if v},
        "seeded_deals": args.seeded_deals,
    }
    return report


def _why(final) -> str:
    if final.announcer is None:
        return "a lose condition was met"
    names = dict(final.claims)
    wrong = any(final.revealed[s]["win"] != n for s, n in names.items())
    unmet = any(
        not model.holding(model.encode(final.grid))
        >> model.CONDITION_INDEX[final.revealed[s]["win"]]
        & 1
        for s in names
    )
    forced = all(c is None for c in final.row) and final.mode != "first"
    return ("compulsory " if forced else "") + (
        "Announcement wrong and unmet"
        if wrong and unmet
        else "Announcement wrong"
        if wrong
        else "Announcement with a win unmet"
    )


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--a", default="hard")
    parser.add_argument("--b", default="plain")
    parser.add_argument("--a-seats", type=int, default=None, help="default: every seat")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", action="append", default=[])
    parser.add_argument("--oracle", action="store_true", help="side a is the all-seeing pair")
    parser.add_argument("--oracle-depth", type=int, default=3)
    parser.add_argument("--arena-deals", dest="seeded_deals", action="store_false")
    return parser


def run(argv: list[str] | None = None) -> dict:
    """One measurement (the command line's arguments), as the dict `main` prints. The arena's
    deal and the rules' `secrets` are swapped for the run and put back after it."""
    global ORACLE_DEPTH
    args = parser().parse_args(argv)
    if args.oracle:
        args.a = "oracle"
        ORACLE_DEPTH = args.oracle_depth
    saved = arena.deal, rules.secrets
    arena.deal = _recording_deal
    if args.seeded_deals:
        rules.secrets = _SEEDED  # type: ignore[assignment]
    try:
        return measure(args)
    finally:
        arena.deal, rules.secrets = saved


def main(argv: list[str] | None = None) -> int:
    json.dump(run(argv), sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
