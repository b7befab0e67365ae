"""The ESP bots: read the seat's view, sample what it cannot see, search, answer.

Each level is a `Level` (how many samples of the hidden symbols, how deep, how wide); `choose`
does the rest. Nothing here reads anything but the seat's knowledge and the seed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from parlour.bots.base import PublicStep, SeatKnowledge
from parlour.bots.esp.cells import TURN_KEYS, cell_of, tile_key
from parlour.bots.esp.evaluate import WIN, Tracker, Weights, judge_for
from parlour.bots.esp.model import (
    FLIP,
    MOVE,
    PASS_ACTION,
    PLACE,
    SYMBOL_INDEX,
    ModelAction,
    Seen,
)
from parlour.bots.esp.prng import Prng
from parlour.bots.esp.search import Search
from parlour.games.esp.actions import Action, AnswerDraw, Flip, Move, Pass, Place
from parlour.games.esp.rules import repetitions_for_draw

# How far back the history is read for repeated positions (moves only: a flip or a
# placement makes every earlier position impossible to meet again).
REPETITION_LOOKBACK = 120


@dataclass(frozen=True)
class Level:
    worlds: int  # samples of the other seats' face-down symbols
    depth: int  # plies searched from the root (the root action included)
    root_width: int  # root actions searched beyond the one-ply look
    width: int  # actions kept at each node below the root
    noise: float = 0.0  # random spread added to root values (in window units)
    belief: float = 0.0  # how far face-down symbols are drawn to fit their lines (see model)
    brs: bool = False  # with three or four players, best-reply search (see search.py)
    budget: int = 1 << 40  # work (see `Tracker.work`) after which no other world is searched
    weights: Weights = field(default_factory=Weights)


LEVELS: dict[str, Level] = {
    "easy": Level(worlds=1, depth=1, root_width=6, width=1, noise=4.0),
    "medium": Level(worlds=3, depth=2, root_width=10, width=8, budget=80_000),
    "hard": Level(worlds=6, depth=3, root_width=10, width=8, budget=160_000, brs=True),
}


def choose(knowledge: SeatKnowledge, seed: bytes, level: str = "medium") -> Any:
    if not knowledge.to_move or not knowledge.legal:
        return None
    legal = list(knowledge.legal)
    if isinstance(legal[0], AnswerDraw):
        return answer_draw(knowledge, seed, LEVELS[level])
    if len(legal) == 1:
        return legal[0]
    bot = Bot(knowledge, seed, LEVELS[level])
    choice = bot.choose()
    LAST["work"] = bot.work
    return choice


def answer_draw(knowledge: SeatKnowledge, seed: bytes, level: Level) -> AnswerDraw:
    """Accept a draw when the position looks worse for this seat than for the others."""
    seen = Seen(knowledge.view)
    rng = Prng(seed)
    judge = judge_for(seen.seats, level.weights)
    score = 0.0
    for _ in range(max(1, level.worlds)):
        score += Tracker(seen.determinise(rng), judge).score(seen.seat)
    return AnswerDraw(score < 0)


def model_action(seen_board: Mapping[int, int], action: Action) -> ModelAction:
    """The model's form of one of the engine's legal actions."""
    if isinstance(action, Place) and action.symbol is not None:  # (a seat's own choice)
        return (PLACE, cell_of(*action.cell), SYMBOL_INDEX[action.symbol.value], not action.hidden)
    if isinstance(action, Flip):
        return (FLIP, seen_board[cell_of(*action.cell)])
    if isinstance(action, Move):
        return (MOVE, seen_board[cell_of(*action.cell)], action.direction)
    if isinstance(action, Pass):
        return PASS_ACTION
    raise ValueError(f"no model form for {action!r}")


def view_key(view: Mapping[str, Any]) -> int:
    """The model's key of the position a view shows (tiles, faces, seat to move)."""
    key = TURN_KEYS[view["to_move"][0]] if view["to_move"] else 0
    for t in view["tiles"]:
        up = t["face"] == "up"
        symbol = SYMBOL_INDEX[t["symbol"]] if up else 0
        key ^= tile_key(cell_of(*t["cell"]), t["owner"], symbol, up)
    return key


def drawn_keys(knowledge: SeatKnowledge) -> frozenset[int]:
    """Positions met in the movement stage as often as one short of the draw (twice, by the
    rules; the set-up's choice if ESP declares one): meeting one again draws."""
    history: Sequence[PublicStep] = knowledge.history
    counts: dict[int, int] = {}
    n = len(history)
    after = knowledge.view
    for j in range(n - 1, max(-1, n - 1 - REPETITION_LOOKBACK), -1):
        kind = history[j].action.get("type") if isinstance(history[j].action, dict) else None
        if kind in ("move", "pass", "flip", "place") and after["stage"] == "movement":
            key = view_key(after)
            counts[key] = counts.get(key, 0) + 1
        if kind in ("flip", "place"):
            break
        after = history[j].before
    short = repetitions_for_draw(knowledge.setup) - 1
    return frozenset(k for k, c in counts.items() if c >= short)


LAST: dict[str, int] = {}  # the work of the last decision (for measurements)


class Bot:
    work = 0

    def __init__(self, knowledge: SeatKnowledge, seed: bytes, level: Level) -> None:
        self.knowledge = knowledge
        self.level = level
        self.rng = Prng(seed)
        self.seen = Seen(knowledge.view)
        self.me = self.seen.seat
        self.judge = judge_for(self.seen.seats, level.weights)

    def choose(self) -> Any:
        seen, level = self.seen, self.level
        legal = [a for a in self.knowledge.legal if not isinstance(a, AnswerDraw)]
        base = seen.position()
        board = base.board
        actions = [model_action(board, a) for a in legal]
        by_action = dict(zip(actions, legal, strict=True))
        # A set this seat completes and wins needs no sampling: every tile in it is up.
        tracker = Tracker(base, self.judge)
        win = tracker.winning_action(self.me)
        if win is not None and win in by_action:
            return by_action[win]
        drawn = drawn_keys(self.knowledge) if not seen.placing else frozenset()
        worlds = [
            Tracker(seen.determinise(self.rng, level.belief), self.judge)
            for _ in range(level.worlds)
        ]
        # Ahead by its own judgement (over its worlds), a seat never repeats a position a
        # third time if it can help it (`Search.outcome`).
        ahead = bool(drawn) and sum(t.score(self.me) for t in worlds) > 0
        searches = [Search(t, self.me, level.width, drawn, level.brs, ahead) for t in worlds]
        # One-ply look in every world, then the best few searched deeper.
        totals = {a: 0.0 for a in actions}
        for search in searches:
            for est, a, complete in search.tracker.ranked(self.me):
                totals[a] += search.after(a, 0) if complete else est
        ranked = sorted(actions, key=lambda a: -totals[a])[: level.root_width]
        if level.depth > 0:
            # World by world, every candidate; once the work budget is spent, the worlds
            # searched so far decide (always at least one), so the time stays bounded.
            totals = {a: 0.0 for a in ranked}
            done = 0
            for search in searches:
                best = -WIN - 1
                for a in ranked:
                    v = search.root_value(a, level.depth, best - 200.0)
                    totals[a] += v
                    best = max(best, v)
                done += 1
                if sum(s.tracker.work for s in searches) >= level.budget:
                    break
            searches = searches[:done]
        self.work = sum(s.tracker.work for s in searches)
        noise = level.noise
        scored = [
            (totals[a] / len(searches) + noise * self.rng.random(), self.rng.random(), a)
            for a in ranked
        ]
        scored.sort(reverse=True)
        return by_action[scored[0][2]]


def easy(knowledge: SeatKnowledge, seed: bytes) -> Any:
    return choose(knowledge, seed, "easy")


def medium(knowledge: SeatKnowledge, seed: bytes) -> Any:
    return choose(knowledge, seed, "medium")


def hard(knowledge: SeatKnowledge, seed: bytes) -> Any:
    return choose(knowledge, seed, "hard")
