"""The Psi Squad bot: a cypher solver and a player of whole games (pure).

Levels (registered in `parlour.bots.registry`):
- "random": a random cypher at set-up, then any legal guess whose answer is not foregone (the
  arena's floor);
- "consistent": a random cypher consistent with every answer so far, on a random target (the
  reference player of the issue);
- "easy": consistent guesses too, on the cypher with the fewest candidates left;
- "medium": searched guesses (a budget of candidates and guesses), weighing the Value a guess
  is expected to score against what its answer tells;
- "hard": a bigger budget, and also who is likely to crack what is left before its next turn.

`solver_report` measures the solver alone against every cypher (the arena's `--solver`).
"""

from __future__ import annotations

from typing import Any

from parlour.bots.base import SeatKnowledge
from parlour.bots.psi_squad import player
from parlour.bots.psi_squad.model import consistent
from parlour.bots.psi_squad.report import solver_report
from parlour.fair.rng import Rng

__all__ = ["LEVELS", "SWEEP_LEVELS", "solver_report"]


def _start(knowledge: SeatKnowledge, seed: bytes) -> tuple[Rng, Any]:
    """The seeded generator, and the set-up choice if this is set-up (else None)."""
    rng = Rng(b"psi-squad-bot:" + seed)
    if player.setting_up(knowledge):
        return rng, player.own_cypher(knowledge, rng.derive("cypher"))
    return rng, None


RANDOM_TRIES = 32  # draws of a random guess before falling back on a consistent one


def choose_random(knowledge: SeatKnowledge, seed: bytes) -> Any:
    """A random cypher at set-up, then any legal guess, each as likely, except those whose
    answer is foregone (no bot makes one, `player.idle`). Nearly every draw is kept; should
    32 in a row be idle, a consistent guess is (a candidate is never idle)."""
    rng, setup = _start(knowledge, seed)
    if setup is not None or not knowledge.to_move or not knowledge.legal:
        return setup
    table = player.table_of(knowledge)
    for _ in range(RANDOM_TRIES):
        drawn = knowledge.legal[rng.below(len(knowledge.legal))]
        if not player.idle(table, drawn):
            return drawn
    target = rng.choice(table.targets(table.me))
    found = consistent(table.n, table.records[target])
    return player.guess(table, target, found[rng.below(len(found))])


def choose_consistent(knowledge: SeatKnowledge, seed: bytes) -> Any:
    """A random target, and a random cypher consistent with every answer it gave so far."""
    rng, setup = _start(knowledge, seed)
    if setup is not None or not knowledge.to_move or not knowledge.legal:
        return setup
    table = player.table_of(knowledge)
    target = rng.choice(table.targets(table.me))
    found = consistent(table.n, table.records[target])
    return player.guess(table, target, found[rng.below(len(found))])


def choose_easy(knowledge: SeatKnowledge, seed: bytes) -> Any:
    """A consistent guess on the cypher with the fewest candidates left (ties drawn)."""
    rng, setup = _start(knowledge, seed)
    if setup is not None or not knowledge.to_move or not knowledge.legal:
        return setup
    table = player.table_of(knowledge)
    sizes = {t: len(consistent(table.n, table.records[t])) for t in table.targets(table.me)}
    fewest = min(sizes.values())
    target = rng.choice([t for t, k in sizes.items() if k == fewest])
    found = consistent(table.n, table.records[target])
    return player.guess(table, target, found[rng.below(len(found))])


def _weighted(knowledge: SeatKnowledge, seed: bytes, weights: player.Weights) -> Any:
    rng, setup = _start(knowledge, seed)
    if setup is not None:
        return player.own_cypher_pair(knowledge, rng.derive("cypher")) if weights.pairs else setup
    if not knowledge.to_move or not knowledge.legal:
        return None
    return player.choose_weighted(knowledge, weights)


def choose_medium(knowledge: SeatKnowledge, seed: bytes) -> Any:
    return _weighted(knowledge, seed, player.MEDIUM)


def choose_hard(knowledge: SeatKnowledge, seed: bytes) -> Any:
    return _weighted(knowledge, seed, player.HARD)


LEVELS = {
    "random": choose_random,
    "consistent": choose_consistent,
    "easy": choose_easy,
    "medium": choose_medium,
    "hard": choose_hard,
}
# The arena's sweep (every level against itself, for hung games): "random" alone would never end.
SWEEP_LEVELS = ("consistent", "easy", "medium", "hard")
