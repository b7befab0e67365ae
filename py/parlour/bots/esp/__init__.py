"""The ESP bots (easy, medium, hard): a fast model of the rules, a window judgement, and a
determinised alpha-beta search. See docs/bots-esp.md."""

from parlour.bots.esp.player import easy, hard, medium

__all__ = ["easy", "hard", "medium"]
