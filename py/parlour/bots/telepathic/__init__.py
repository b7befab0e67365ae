"""Telepathic bots: a partner that reads the other's choices (see docs/bots-telepathic.md).

Levels: easy, medium and hard (`bot.choose_*`), and two reference players for measurement:
"plain" (plays toward its own win, never signals on purpose) and "naive" (only avoids its own
lose condition and guesses at the end) in `reference`.
"""

from __future__ import annotations

from parlour.bots.base import Bot
from parlour.bots.telepathic import bot, reference

# Every Telepathic bot by level (the catalog's `bots`, read by bots/registry.py).
LEVELS: dict[str, Bot] = {
    "easy": bot.choose_easy,
    "medium": bot.choose_medium,
    "hard": bot.choose_hard,
    "plain": reference.choose_plain,
    "naive": reference.choose_naive,
}
