"""The clicks a player makes for a given action, game by game, on any play screen (`root`).

Shared by the pass-and-play journeys and the online ones, so that "how a tile is placed" is
written once, in the game's own driver (e2e/games/<package>.py). Each takes the action the test
chose (from the engine's legal actions) and the state it was chosen in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from e2e.games import driver
from parlour.games.catalog import ids

Click = Callable[..., None]  # (page, root, state, choice)


class Clicks(Mapping[str, Click]):
    """Each game's `click`, from its driver when first asked for: the catalog's games, and no
    import of a driver that no browser test asks for (a copy of the site with a toy game in its
    catalog, tests/games/test_toy_game.py, imports this module and has none for the toy)."""

    def __getitem__(self, game: str) -> Click:
        return driver(game).click  # type: ignore[no-any-return]

    def __iter__(self) -> Iterator[str]:
        return iter(ids())

    def __len__(self) -> int:
        return len(ids())


CLICKS = Clicks()
