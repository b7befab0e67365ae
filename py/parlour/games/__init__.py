"""The games' engines behind one interface (pure). `GAMES` maps a game id to its rules, one for
each entry of the catalog (games/catalog.py)."""

from __future__ import annotations

from collections.abc import Mapping

from parlour.errors import MalformedInput
from parlour.games.base import AnyGame


def game_by_id(game_id: object, games: Mapping[str, AnyGame] | None = None) -> AnyGame:
    table = GAMES if games is None else games
    if not isinstance(game_id, str) or game_id not in table:
        raise MalformedInput(f"There is no game called {game_id!r} here.")
    return table[game_id]


# The games themselves import parlour.games.base, so they are loaded last, from the catalog.
from parlour.games.catalog import CATALOG, load  # noqa: E402

GAMES: dict[str, AnyGame] = {entry.id: load(entry.engine)() for entry in CATALOG}
