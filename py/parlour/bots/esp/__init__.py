"""The ESP bots (easy, medium, hard): a fast model of the rules, a window judgement, and a
determinised alpha-beta search. See docs/bots-esp.md."""

from parlour.bots.base import Bot
from parlour.bots.esp.player import easy, hard, medium

# Every ESP bot by level (the catalog's `bots`, read by bots/registry.py).
LEVELS: dict[str, Bot] = {"easy": easy, "medium": medium, "hard": hard}

__all__ = ["LEVELS", "easy", "hard", "medium"]
