"""The ESPEERS bot: easy, medium and hard levels, and the scripted reference player."""

from __future__ import annotations

from typing import Any

from parlour.bots.base import SeatKnowledge
from parlour.bots.espeers.bot import decide


def easy(knowledge: SeatKnowledge, seed: bytes) -> Any:
    return decide(knowledge, seed, "easy")


def medium(knowledge: SeatKnowledge, seed: bytes) -> Any:
    return decide(knowledge, seed, "medium")


def hard(knowledge: SeatKnowledge, seed: bytes) -> Any:
    return decide(knowledge, seed, "hard")
