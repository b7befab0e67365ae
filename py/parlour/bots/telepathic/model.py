"""A fast model of Telepathic's grid for the bot's reasoning (pure, checked against the engine).

A tile is an int 0-15, colour * 4 + shape, in the order of `grid.TILES`; a grid is a tuple of 16
tiles, row by row from the north-west corner as in the engine. A condition is an int 0-7: the
colours 0-3, then the shapes 4-7; a set of conditions is a bit mask. Each of the 40 moves (ten
cards, four sets each) is a permutation of the 16 cells, taken from the engine's own `apply_card`
once, at first use.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from operator import itemgetter

from parlour.games.telepathic.grid import (
    ACTION_CARDS,
    COLOURS,
    SHAPES,
    TILES,
    apply_card,
    lines,
)

CARD_IDS: tuple[str, ...] = tuple(c.id for c in ACTION_CARDS)
CARD_INDEX = {card: i for i, card in enumerate(CARD_IDS)}
CONDITIONS: tuple[str, ...] = COLOURS + SHAPES
CONDITION_INDEX = {name: i for i, name in enumerate(CONDITIONS)}
TILE_INDEX = {tile: i for i, tile in enumerate(TILES)}
LINES: tuple[tuple[int, int, int], ...] = tuple((a, b, c) for a, b, c in lines(tuple(range(16))))

Grid = tuple[int, ...]


@cache
def moves() -> tuple[tuple[Callable[[Grid], Grid], ...], ...]:
    """moves()[card][set]: a function from a grid to the grid after that move."""
    cells = tuple(range(16))
    table = []
    for card in ACTION_CARDS:
        table.append(tuple(itemgetter(*apply_card(cells, card, k)) for k in range(4)))
    return tuple(table)


def encode(tiles: Sequence[Sequence[str]]) -> Grid:
    """A grid from the view's list of [colour, shape] pairs."""
    return tuple(TILE_INDEX[(t[0], t[1])] for t in tiles)


def after(grid: Grid, card: int, index: int) -> Grid:
    return moves()[card][index](grid)


def mask_of(grid: Grid) -> int:
    """The conditions that hold on `grid`: three of a colour or a shape in an unbroken line."""
    found = 0
    for a, b, c in LINES:
        x, y, z = grid[a], grid[b], grid[c]
        if x >> 2 == y >> 2 == z >> 2:
            found |= 1 << (x >> 2)
        if x & 3 == y & 3 == z & 3:
            found |= 16 << (x & 3)
    return found


_MASKS: dict[Grid, int] = {}


def holding(grid: Grid) -> int:
    """`mask_of`, remembered (a game visits a few thousand grids at most)."""
    found = _MASKS.get(grid)
    if found is None:
        if len(_MASKS) > 30_000:
            _MASKS.clear()
        found = _MASKS[grid] = mask_of(grid)
    return found


_REACH: dict[tuple[Grid, tuple[int, ...]], tuple[int, ...]] = {}


def reach(grid: Grid, cards: tuple[int, ...]) -> tuple[int, ...]:
    """The distinct condition masks one move with one of `cards` can leave on `grid`."""
    key = (grid, cards)
    found = _REACH.get(key)
    if found is None:
        table = moves()
        masks = {holding(m(grid)) for card in cards for m in table[card]}
        if len(_REACH) > 10_000:
            _REACH.clear()
        found = _REACH[key] = tuple(sorted(masks))
    return found


def popcount(mask: int) -> int:
    return bin(mask).count("1")
