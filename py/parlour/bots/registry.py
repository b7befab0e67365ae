"""Every bot, by game and level: the one table the page, the arena and the tests read.

The levels a player can choose are `base.LEVELS`; the others (random, and each game's reference
players) exist for measuring strength in the arena.
"""

from __future__ import annotations

from parlour.bots import random_bot
from parlour.bots.base import LEVELS, Bot
from parlour.bots.telepathic import bot as telepathic_bot
from parlour.bots.telepathic import reference as telepathic_reference
from parlour.errors import MalformedInput

BOTS: dict[tuple[str, str], Bot] = {}
for _game in ("esp", "espeers", "psi-squad", "telepathic"):
    BOTS[(_game, "random")] = random_bot.choose
BOTS[("telepathic", "easy")] = telepathic_bot.choose_easy
BOTS[("telepathic", "medium")] = telepathic_bot.choose_medium
BOTS[("telepathic", "hard")] = telepathic_bot.choose_hard
BOTS[("telepathic", "plain")] = telepathic_reference.choose_plain
BOTS[("telepathic", "naive")] = telepathic_reference.choose_naive


def bot_for(game: str, level: str) -> Bot:
    """The bot playing `game` at `level`; refuses a level that does not exist."""
    found = BOTS.get((game, level))
    if found is None:
        known = ", ".join(sorted(lv for g, lv in BOTS if g == game))
        raise MalformedInput(f"There is no {level!r} bot for {game}; there are: {known}.")
    return found


def player_levels(game: str) -> tuple[str, ...]:
    """The levels offered to players in the set-up forms (the reference players are not)."""
    return tuple(level for level in LEVELS if (game, level) in BOTS)
