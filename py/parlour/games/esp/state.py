"""ESP's state: the board every device agrees on after each action (pure), and the numbers
the game is played with. Kept apart from the rules (`rules.py`), as every game's is, so that the
views, the words and the bots read a position without the machinery that changes it. A hidden
tile's symbol is never in a state: it is a commitment until flipped.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from parlour.games.base import Outcome, Setup
from parlour.games.esp.hexgrid import Cell
from parlour.games.esp.views import EspTile
from parlour.games.zener import SYMBOLS, Symbol

COPIES = 2  # of each symbol per seat
TILES_PER_SEAT = COPIES * len(SYMBOLS)
SET_LENGTH = 5
REPETITIONS_FOR_DRAW = 3


def tile_label(index: int) -> str:
    """The store label of a seat's `index`-th tile: its hidden symbol is committed under it, and
    the audit at the end finds the opening by it."""
    return f"tile:{index}"


@dataclass(frozen=True)
class Tile:
    owner: int
    index: int  # the owner's n-th placement (0-9): its commitment's label is tile:<index>
    placed_at: int  # the move that placed it
    symbol: Symbol | None = None  # None while symbol-down
    commitment: str | None = None  # set while symbol-down (and kept once flipped)

    @property
    def up(self) -> bool:
        return self.symbol is not None


# A position as players see it (see `position_key`): (cell, owner, symbol or "") per tile, and
# the seat to move.
PositionKey = tuple[tuple[tuple[Cell, int, str], ...], int]


@dataclass(frozen=True)
class DrawOffer:
    proposer: int
    accepted: frozenset[int]


@dataclass(frozen=True)
class EspState:
    setup: Setup
    board: Mapping[Cell, Tile]  # never mutated: apply builds a new dict
    placed: tuple[int, ...]
    to_move: int = 0
    ply: int = 0
    passes: int = 0
    seen: Mapping[PositionKey, int] = field(default_factory=dict)  # count, movement stage
    offer: DrawOffer | None = None
    outcome: Outcome | None = None
    sets: tuple[tuple[Cell, ...], ...] = ()

    @property
    def seats(self) -> int:
        return self.setup.seats

    @property
    def placing(self) -> bool:
        return sum(self.placed) < TILES_PER_SEAT * self.seats

    def name(self, seat: int) -> str:
        return self.setup.seat_names[seat]


def tile_json(cell: Cell, tile: Tile) -> EspTile:
    if tile.symbol is not None:  # symbol-up
        return {
            "cell": list(cell),
            "owner": tile.owner,
            "placed_at": tile.placed_at,
            "face": "up",
            "symbol": tile.symbol.value,
        }
    return {
        "cell": list(cell),
        "owner": tile.owner,
        "placed_at": tile.placed_at,
        "face": "down",
        "commitment": tile.commitment,
    }
