"""The 4x4 grid of Telepathic and the ten actions on it (pure).

A grid is a tuple of 16 tiles, row by row from the north-west corner: index = 4 * row + column,
rows 1-4 run north to south and columns A-D west to east. A tile is (colour, shape). The card
data (names, which sets each card offers, which effect it has) lives in cards.json.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Protocol, TypeVar

Tile = tuple[str, str]
Grid = tuple[Tile, ...]
SIZE = 4
LINE = 3  # a condition is three in an unbroken line
T = TypeVar("T")  # what a grid's cells hold: tiles here, tile numbers in the bots' model

_DATA = json.loads(resources.files(__package__).joinpath("cards.json").read_text())
COLOURS: tuple[str, ...] = tuple(_DATA["colours"])
SHAPES: tuple[str, ...] = tuple(_DATA["shapes"])
TILES: tuple[Tile, ...] = tuple((c, s) for c in COLOURS for s in SHAPES)

COLUMNS = "ABCD"
QUADRANTS = ("north-west", "north-east", "south-west", "south-east")


@dataclass(frozen=True)
class ActionCard:
    id: str
    name: str
    sets: str  # "columns", "rows" or "quadrants"
    effect: str
    first_game: bool


ACTION_CARDS: tuple[ActionCard, ...] = tuple(ActionCard(**c) for c in _DATA["action_cards"])
CARDS_BY_ID = {c.id: c for c in ACTION_CARDS}


def set_names(kind: str) -> tuple[str, ...]:
    """The four sets a card offers, as players name them."""
    if kind == "columns":
        return tuple(f"column {c}" for c in COLUMNS)
    if kind == "rows":
        return tuple(f"row {r}" for r in range(1, SIZE + 1))
    return tuple(f"{q} quadrant" for q in QUADRANTS)


def set_cells(kind: str, index: int) -> list[int]:
    """Grid indices of a set, in its own reading order (north to south, west to east)."""
    if kind == "columns":
        return [4 * r + index for r in range(SIZE)]
    if kind == "rows":
        return [4 * index + c for c in range(SIZE)]
    top, left = 2 * (index // 2), 2 * (index % 2)
    # a quadrant read clockwise from its north-west corner
    return [4 * top + left, 4 * top + left + 1, 4 * (top + 1) + left + 1, 4 * (top + 1) + left]


def _rotate(values: list[T], steps: int) -> list[T]:
    """Move every value `steps` places along the list (wrapping)."""
    steps %= len(values)
    return values[-steps:] + values[:-steps] if steps else list(values)


class Effect(Protocol):
    """What a card does to the values of one set, read in the set's order."""

    def __call__(self, values: list[T], /) -> list[T]: ...


EFFECTS: dict[str, Effect] = {
    # columns read north to south: shifting north moves every tile up, the top one to the bottom
    "shift-north": lambda v: _rotate(v, -1),
    "shift-south": lambda v: _rotate(v, 1),
    # rows read west to east: shifting east moves every tile east, the last one to the first
    "shift-east": lambda v: _rotate(v, 1),
    "shift-west": lambda v: _rotate(v, -1),
    # quadrants read clockwise: a quarter turn clockwise moves each tile one place on
    "rotate-cw": lambda v: _rotate(v, 1),
    "rotate-ccw": lambda v: _rotate(v, -1),
    "spin-half": lambda v: _rotate(v, 2),
    "flip-column": lambda v: v[::-1],
    "flip-row": lambda v: v[::-1],
    "swap-halves": lambda v: v[2:] + v[:2],
}


def apply_card(grid: Sequence[T], card: ActionCard, index: int) -> tuple[T, ...]:
    """The grid after `card` acts on its set number `index` (0-3)."""
    cells = set_cells(card.sets, index)
    moved = EFFECTS[card.effect]([grid[i] for i in cells])
    out = list(grid)
    for i, tile in zip(cells, moved, strict=True):
        out[i] = tile
    return tuple(out)


def lines(grid: Sequence[T]) -> list[list[T]]:
    """Every horizontal and vertical run of three cells (no diagonals, no wrap)."""
    runs = []
    for r in range(SIZE):
        for c in range(SIZE - LINE + 1):
            runs.append([grid[4 * r + c + k] for k in range(LINE)])
            runs.append([grid[4 * (c + k) + r] for k in range(LINE)])
    return runs


def attribute(condition: str) -> int:
    """0 for a colour condition, 1 for a shape condition."""
    return 0 if condition in COLOURS else 1


def holds(grid: Sequence[Tile], condition: str) -> bool:
    """Is `condition` (a colour or a shape) three times in an unbroken line?"""
    a = attribute(condition)
    return any(all(tile[a] == condition for tile in run) for run in lines(grid))


def is_calm(grid: Sequence[Tile]) -> bool:
    """No colour and no shape three in a line (how a starting grid must be)."""
    return not any(run[0][a] == run[1][a] == run[2][a] for run in lines(grid) for a in (0, 1))


def cell_name(index: int) -> str:
    return f"{COLUMNS[index % SIZE]}{index // SIZE + 1}"
