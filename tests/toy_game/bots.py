"""Count to Ten's bots: "easy" adds 1; "medium" and "hard" leave the total at a multiple of three
short of the target when they can (the game's known winning line)."""

from __future__ import annotations

from typing import Any

from parlour.bots.base import Bot, SeatKnowledge


def easy(knowledge: SeatKnowledge, seed: bytes) -> Any:
    return 1 if knowledge.to_move else None


def best(knowledge: SeatKnowledge, seed: bytes) -> Any:
    if not knowledge.to_move:
        return None
    short = knowledge.number("target") - int(knowledge.view["total"])
    return 2 if short % 3 == 2 else 1


LEVELS: dict[str, Bot] = {"easy": easy, "medium": best, "hard": best}
