"""Every bot, by game and level: the one table the page, the arena and the tests read.

The levels a player can choose are `base.LEVELS`; the others (random, and each game's reference
players) exist for measuring strength in the arena.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from parlour.bots import random_bot
from parlour.bots.base import LEVELS, Bot
from parlour.errors import MalformedInput
from parlour.games.catalog import CATALOG, Entry, load


def bots_of(catalog: Iterable[Entry]) -> dict[tuple[str, str], Bot]:
    """Every game's bots, by (game, level): the generic random player for each game, then the
    game's own levels (the catalog's `bots`), which may replace it (Psi Squad's "random" also
    chooses a cypher at set-up, which the generic one cannot)."""
    table: dict[tuple[str, str], Bot] = {}
    for game in catalog:
        table[(game.id, "random")] = random_bot.choose
        levels: Mapping[str, Bot] = load(game.bots)
        table.update(((game.id, level), bot) for level, bot in levels.items())
    return table


BOTS = bots_of(CATALOG)


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
