"""The uniformly random player: any legal action, each as likely. The floor every bot's strength
is measured from, and the bot behind the "random" level of the arena."""

from __future__ import annotations

from typing import Any

from parlour.bots.base import SeatKnowledge
from parlour.fair.rng import Rng


def choose(knowledge: SeatKnowledge, seed: bytes) -> Any:
    """A legal action drawn uniformly; an optional step (the game is not waiting on this seat)
    is declined, or a random player would announce at random."""
    if not knowledge.to_move or not knowledge.legal:
        return None
    return knowledge.legal[Rng(seed).below(len(knowledge.legal))]
