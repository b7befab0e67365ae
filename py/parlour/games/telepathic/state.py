"""Telepathic's state: what every device agrees on after each action (pure), and the numbers
and deals it is played with (who holds which condition cards).

Kept apart from the rules (`rules.py`), as ESPEERS's is, so that the views, the words and the
bots can read a state without the machinery that changes it. Nothing secret is in a state: a
seat's condition cards are commitments until opened.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from parlour.fair.rng import Rng
from parlour.games.base import Outcome, Setup
from parlour.games.telepathic.grid import COLOURS, SHAPES, TILES, Grid, is_calm

CONDITIONS_LABEL = "conditions"
ROW_SIZE = 4

# Which condition cards each seat holds: (kind, "win" or "lose").
ROLES: dict[str, tuple[tuple[tuple[str, str], ...], ...]] = {
    "pair": ((("colour", "win"), ("colour", "lose")), (("shape", "win"), ("shape", "lose"))),
    "director": (
        (),
        (("colour", "win"), ("colour", "lose")),
        (("shape", "win"), ("shape", "lose")),
    ),
    "four": (
        (("colour", "lose"),),
        (("colour", "win"),),
        (("shape", "lose"),),
        (("shape", "win"),),
    ),
    "teams": ((("colour", "win"),), (("colour", "win"),), (("shape", "win"),), (("shape", "win"),)),
}
DECKS = {"colour": COLOURS, "shape": SHAPES}


@dataclass(frozen=True)
class TeleState:
    setup: Setup
    seed: bytes
    arrangement: str
    mode: str
    grid: Grid
    row: tuple[str | None, ...]
    deck: tuple[str, ...]
    used: tuple[str, ...] = ()
    removed: int = 0  # challenge: cards set aside unseen
    reshuffles: int = 0
    sealed: tuple[tuple[str, int] | None, ...] = ()
    phase: str = "setup"
    active: int = 0
    turns: int = 0
    handed: int | None = None  # the row slot handed to the performer
    performer: int | None = None
    checked: frozenset[int] = frozenset()
    claims: tuple[tuple[int, str], ...] = ()
    announcer: int | None = None
    revealed: Mapping[int, Mapping[str, str]] = field(default_factory=dict)
    ply: int = 0
    outcome: Outcome | None = None

    @property
    def seats(self) -> int:
        return self.setup.seats

    def name(self, seat: int) -> str:
        return self.setup.seat_names[seat]

    def roles(self, seat: int) -> tuple[tuple[str, str], ...]:
        return ROLES[self.arrangement][seat]

    def holders(self, which: str) -> list[int]:
        """Seats holding a win (or lose) condition."""
        return [s for s in range(self.seats) if any(w == which for _, w in self.roles(s))]

    def kind_of(self, seat: int) -> str:
        return self.roles(seat)[0][0]

    def sealed_at(self, seat: int) -> int | None:
        """The move at which `seat` sealed its condition cards (None: it has not)."""
        sealed = self.sealed[seat]
        return None if sealed is None else sealed[1]


def next_performer(state: TeleState) -> int:
    """Who receives the card the active player hands over now."""
    arrangement, active = state.arrangement, state.active
    if arrangement == "pair":
        return 1 - active
    if arrangement == "director":
        return 1 + state.turns % 2
    if arrangement == "four":
        return (active - 1) % 4  # the player on your right
    return (active + 2) % 4  # teams: your partner sits opposite


def unsealed(state: TeleState) -> list[int]:
    """Seats holding condition cards that have not sealed them yet (a director holds none)."""
    return [s for s, c in enumerate(state.sealed) if c is None and state.roles(s)]


def starting_grid(rng: Rng) -> Grid:
    """Shuffle the sixteen tiles until no colour and no shape is three in a line."""
    while True:
        grid = tuple(rng.shuffled(TILES))
        if is_calm(grid):
            return grid


def conditions_problem(state: TeleState, seat: int, value: object) -> str | None:
    """Why these condition cards cannot be what `seat` was dealt, or None."""
    roles = state.roles(seat)
    if not isinstance(value, dict) or set(value) != {w for _, w in roles}:
        return f"{state.name(seat)}'s condition cards are not the cards of that seat."
    for kind, which in roles:
        if value[which] not in DECKS[kind]:
            return f"{state.name(seat)}'s {which} card {value[which]!r} is not a {kind} card."
    if len(set(value.values())) != len(value):
        return f"{state.name(seat)} holds the same card as win and lose condition."
    return None
