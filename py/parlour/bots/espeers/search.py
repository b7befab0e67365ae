"""Determinised flat Monte Carlo: every candidate action is tried in the same sampled worlds and
played out to the end of the game by the rule-of-thumb player; the best average result wins.

Sequential halving spreads the budget: every candidate gets a few playouts, the worse half is
dropped, the survivors get more, and so on. All candidates see the same worlds and the same
playout dice (common random numbers), so the comparison measures the action, not the luck.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from parlour.bots.espeers import policy
from parlour.bots.espeers.model import Dice, Move, World

MAX_PLAYOUT = 600  # steps; a playout that runs longer is scored on PSI
PRIOR_BONUS = 0.03  # the rule-of-thumb move's head start, in win rate


class Fast:
    """A small 64-bit linear congruential generator (the search draws a great many numbers)."""

    __slots__ = ("x",)

    def __init__(self, seed: int) -> None:
        self.x = (seed * 0x9E3779B97F4A7C15 + 1) & 0xFFFFFFFFFFFFFFFF

    def below(self, n: int) -> int:
        self.x = (self.x * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        return ((self.x >> 32) * n) >> 32


def playout(
    w: World, me: int, rng: Fast, chooser: Callable[[World, Dice], Move] = policy.choose
) -> float:
    """Play `w` to its end with `chooser` for both seats and score it for `me`: 1 for a win and
    0 for a loss, give or take a little (less than 0.1) for winning sooner, losing later and
    the PSI left, so that among moves that all win the bot still takes the quickest."""
    start = w.turn
    for _ in range(MAX_PLAYOUT):
        if w.winner is not None:
            break
        w.step(chooser(w, rng))
    turns = 0.004 * min(10, w.turn - start)
    if w.winner is None:
        return 0.5 + 0.03 * (w.psi(me) - w.psi(1 - me))
    if w.winner == me:
        return 1.0 + 0.003 * w.psi(me) - turns
    return turns - 0.003 * w.psi(1 - me)


def best_action(
    world: Callable[[int], World],
    candidates: Sequence[Move],
    me: int,
    budget: int,
    seed: int,
    apply: Callable[[World, Move], None] | None = None,
    prior: Move | None = None,
) -> Move:
    """The candidate with the best mean playout result, by sequential halving over about
    `budget` playouts in total. `world(i)` is the i-th sampled world (the same for every
    candidate); `apply(world, candidate)` plays the candidate (default: `world.step`). The
    `prior` candidate (the rule-of-thumb choice) gets a small head start: a search that cannot
    tell two moves apart keeps the sensible one."""
    if len(candidates) == 1:
        return candidates[0]
    alive = list(range(len(candidates)))
    totals = [0.0] * len(candidates)
    counts = [0] * len(candidates)
    rounds = (len(candidates) - 1).bit_length()
    used = 0  # worlds already seen by every candidate still alive
    bonus = [PRIOR_BONUS if c == prior else 0.0 for c in candidates]
    for _ in range(rounds):
        share = max(1, budget // (rounds * len(alive)))
        for k in alive:
            for i in range(used, used + share):
                w = world(i).copy()
                if apply is None:
                    w.step(candidates[k])
                else:
                    apply(w, candidates[k])
                totals[k] += playout(w, me, Fast(seed + 7919 * i))
                counts[k] += 1
        used += share
        alive.sort(key=lambda k: (-totals[k] / counts[k] - bonus[k], k))
        alive = alive[: (len(alive) + 1) // 2]
    return candidates[alive[0]]
