"""Every game's set-up declaration and facts for the tools, by its id, loaded through the catalog.

Apart from games/options.py (the classes a declaration is made of) because each game's
declaration (games/<game>/options.py) imports those classes, and this module loads the
declarations by the catalog's import paths: in one module they made an import circle
(tests/test_layers.py follows the catalog's paths).
"""

from __future__ import annotations

from parlour.games import catalog
from parlour.games.facts import Facts
from parlour.games.options import Options


def options_for(game_id: str) -> Options:
    """A game's declaration by its id, without importing its engine (the catalog's `options`,
    games/<game>/options.py); KeyError for a game the catalog does not hold."""
    options: Options = catalog.load(catalog.entry(game_id).options)
    return options


def facts_for(game_id: str) -> Facts:
    """What the tools need to know of a game (the catalog's `facts`, games/<game>/facts.py);
    `Facts()` for a game that declares none."""
    path = catalog.entry(game_id).facts
    facts: Facts = catalog.load(path) if path else Facts()
    return facts


GAME_IDS = catalog.ids()


def default_tables() -> tuple[tuple[str, int], ...]:
    """Every game of the catalog with the number of players its set-up form starts at: the
    tables the tests, the bench and the build's measurements play."""
    return tuple((game_id, options_for(game_id).seats.default) for game_id in GAME_IDS)
