"""The ESPEERS bot: easy, medium and hard levels, and the scripted reference player."""

from __future__ import annotations

from typing import Any

from parlour.bots.base import Bot, SeatKnowledge
from parlour.bots.espeers.bot import decide


def easy(knowledge: SeatKnowledge, seed: bytes) -> Any:
    return decide(knowledge, seed, "easy")


def medium(knowledge: SeatKnowledge, seed: bytes) -> Any:
    return decide(knowledge, seed, "medium")


def hard(knowledge: SeatKnowledge, seed: bytes) -> Any:
    return decide(knowledge, seed, "hard")


from parlour.bots.espeers.reference import scripted  # noqa: E402 (it imports the levels' parts)

# Every ESPEERS bot by level (the catalog's `bots`, read by bots/registry.py).
LEVELS: dict[str, Bot] = {"easy": easy, "medium": medium, "hard": hard, "scripted": scripted}
