"""Each game's driver for the browser tests, one module per game, found by the game's package
name (the catalog's `package_of`: "psi-squad" is psi_squad.py), as its screen and lesson are
found under ui/<package>/. A new game adds its own module here; no list of the games names it.

Each holds `click` (the clicks a player makes for an action on any play screen, `root`, given
the state it was chosen in), `COLOUR_PICTURE` (the seats and the moves before
e2e/test_colour.py's picture) and `LESSON_PHOTOS` (the presses of the lesson after which
e2e/test_tutorial.py photographs it)."""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from parlour.games.catalog import package_of


def driver(game: str) -> ModuleType:
    """The game's module of e2e/games/: its `click`, `COLOUR_PICTURE` and `LESSON_PHOTOS`."""
    return import_module(f"{__name__}.{package_of(game)}")
