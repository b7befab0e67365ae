"""The unbounded hex grid: axial coordinates (q, r), pointy-top hexes.

A cell is a plain (q, r) tuple. The six directions are named by the compass as drawn (pointy-top,
r growing downwards); the three axes pair opposite directions, and a "line" of the game runs
along one axis.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

Cell = tuple[int, int]

# In clockwise order from east.
DIRECTIONS: tuple[Cell, ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
DIRECTION_NAMES: tuple[str, ...] = (
    "east",
    "south-east",
    "south-west",
    "west",
    "north-west",
    "north-east",
)
AXES: tuple[Cell, ...] = ((1, 0), (0, 1), (1, -1))


def step(cell: Cell, direction: int, distance: int = 1) -> Cell:
    dq, dr = DIRECTIONS[direction]
    return (cell[0] + dq * distance, cell[1] + dr * distance)


def neighbours(cell: Cell) -> Iterator[Cell]:
    q, r = cell
    for dq, dr in DIRECTIONS:
        yield (q + dq, r + dr)


def is_connected(cells: Iterable[Cell]) -> bool:
    """Do these cells form one group (or none)?"""
    remaining = set(cells)
    if not remaining:
        return True
    stack = [remaining.pop()]
    while stack:
        for n in neighbours(stack.pop()):
            if n in remaining:
                remaining.remove(n)
                stack.append(n)
    return not remaining


def windows_through(cell: Cell, length: int = 5) -> Iterator[tuple[Cell, ...]]:
    """Every run of `length` consecutive cells along any axis that contains `cell`."""
    q, r = cell
    for dq, dr in AXES:
        for offset in range(length):
            start = (q - dq * offset, r - dr * offset)
            yield tuple((start[0] + dq * i, start[1] + dr * i) for i in range(length))


def parse_cell(data: object) -> Cell | None:
    """A cell from its JSON form [q, r]; None for anything else."""
    if (
        isinstance(data, list)
        and len(data) == 2
        and all(type(x) is int and -1000 <= x <= 1000 for x in data)
    ):
        return (data[0], data[1])
    return None
