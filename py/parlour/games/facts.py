"""What the tools need to know of a game, declared beside it (games/<game>/facts.py, `FACTS`).

A game's folder holds its rules, and with them the facts that tools outside it would otherwise
keep in lists of their own: whether a position still hides something (play on from a replay),
the tables the arena sweeps, and the tables the tests and tools play. The catalog names the
module (`facts`); games/declared.py loads it. A game without one (a toy in a copy's catalog)
gets `Facts()`: never played on, swept at each seat count, tested at its form's first count.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from parlour.fair.encoding import Json

NAMES = ("Ada", "Bo", "Cy", "Di", "Eve", "Flo", "Gus", "Hal")  # the players of an example


@dataclass(frozen=True)
class Example:
    """A table the tests and tools play: how many seats, the variant, and which seats are bots
    (seat -> level; the others people). `label` says it in a table of figures."""

    label: str
    seats: int
    variant: Mapping[str, Json] = field(default_factory=dict)
    bots: Mapping[int, str] = field(default_factory=dict)

    @property
    def names(self) -> tuple[str, ...]:
        return NAMES[: self.seats]


@dataclass(frozen=True)
class Facts:
    """A game's facts for the tools (see the module's docstring)."""

    # Whether a public view still holds a value of the game nobody may see (a sealed tile, a
    # deck's order): a replay's position is played on only when nothing is hidden. None: never.
    hidden: Callable[[Mapping[str, Any]], bool] | None = None
    # The tables the arena's sweep plays, (seats, variant); empty: each seat count, no variant.
    tables: tuple[tuple[int, Mapping[str, Json]], ...] = ()
    # The tables every suite plays (pass and play, replays, online, the golden screens)...
    examples: tuple[Example, ...] = ()
    # ...and more that the suites sweeping table sizes play too (play by link, link sizes).
    more: tuple[Example, ...] = ()
    # What a seat's device holds of it, in the game's words ("whoever holds it could see the
    # bot's cards"): the disclosure of seats another device plays.
    secrets: str = "secrets"
