"""The unbounded hex grid: axial coordinates (q, r), pointy-top hexes.

A cell is a plain (q, r) tuple. The six directions are named by the compass as drawn (pointy-top,
r growing downwards); the three axes pair opposite directions, and a "line" of the game runs
along one axis.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import lru_cache

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


@lru_cache(maxsize=256)
def cut_cells(cells: frozenset[Cell]) -> frozenset[Cell]:
    """The cells whose removal splits the group (articulation points), in one pass.

    Tarjan's low-link method, iterative: a non-root cell is a cut cell when some child's subtree
    cannot reach above it; the root is one when it has two or more children.
    """
    cuts: set[Cell] = set()
    order: dict[Cell, int] = {}
    low: dict[Cell, int] = {}
    for root in cells:
        if root in order:
            continue
        order[root] = low[root] = len(order)
        root_children = 0
        stack: list[tuple[Cell, Cell | None, Iterator[Cell]]] = [(root, None, neighbours(root))]
        while stack:
            cell, parent, pending = stack[-1]
            for n in pending:
                if n not in cells or n == parent:
                    continue
                if n in order:
                    low[cell] = min(low[cell], order[n])
                    continue
                order[n] = low[n] = len(order)
                if cell == root:
                    root_children += 1
                stack.append((n, cell, neighbours(n)))
                break
            else:
                stack.pop()
                if parent is not None:
                    low[parent] = min(low[parent], low[cell])
                    if parent != root and low[cell] >= order[parent]:
                        cuts.add(parent)
        if root_children > 1:
            cuts.add(root)
    return frozenset(cuts)
