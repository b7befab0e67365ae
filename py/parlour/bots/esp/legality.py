"""The two board rules the bots' model of ESP (`model.py`) checks for every action: where a new
tile may go (touching two tiles, enclosing none) and which tiles may not be lifted (six
neighbours, or a tile that holds the group together). `Position` takes them from `Legality`
and lists its actions from them (`Position.actions`).
"""

from __future__ import annotations

from collections.abc import Iterator

from parlour.bots.esp.cells import ARCS, BITS, DIRS, touch_count

CUT_CACHE: dict[int, frozenset[int]] = {}
CUT_CACHE_SIZE = 20000


class Legality:
    """Placement and pins on a position's board (`board`: cell -> tile; `occ`: the key of which
    cells are occupied). A mixin of `model.Position`, which holds both."""

    __slots__ = ()

    board: dict[int, int]
    occ: int

    def placement_cells(self) -> list[int]:
        board = self.board
        if not board:
            return [0]
        touch: dict[int, int] = {}
        for cell in board:
            for d in DIRS:
                n = cell + d
                if n not in board:
                    touch[n] = touch.get(n, 0) + 1
        if len(board) == 1:
            return sorted(touch)
        cells = []
        for cell, count in touch.items():
            if count < 2 or count == 6:
                continue
            for d in DIRS:
                n = cell + d
                if n in board and touch_count(board, n) == 5:
                    break
            else:
                cells.append(cell)
        cells.sort()
        return cells

    def ring(self, cell: int) -> int:
        """The occupied neighbours of `cell` as bits (bit i: direction i)."""
        board = self.board
        return (
            (cell + DIRS[0] in board)
            | (cell + DIRS[1] in board) << 1
            | (cell + DIRS[2] in board) << 2
            | (cell + DIRS[3] in board) << 3
            | (cell + DIRS[4] in board) << 4
            | (cell + DIRS[5] in board) << 5
        )

    def can_place(self, cell: int) -> bool:
        """May a tile go on the empty `cell` now (touch two, enclose nothing)?"""
        board = self.board
        if not board:
            return True
        ring = self.ring(cell)
        if len(board) == 1:
            return ring != 0
        if ring == 63 or BITS[ring] < 2:
            return False
        for d in DIRS:
            n = cell + d
            if n in board and touch_count(board, n) == 5:
                return False
        return True

    def pinned(self, cell: int) -> bool:
        """Can the tile on `cell` not be lifted (six neighbours, or lifting splits the group)?"""
        ring = self.ring(cell)
        if ring == 63:
            return True
        if ARCS[ring] <= 1:
            return False
        return cell in self.cut_cells()

    def cut_cells(self) -> frozenset[int]:
        """The cells whose tile holds the group together (articulation points), cached by
        which cells are occupied."""
        cuts = CUT_CACHE.get(self.occ)
        if cuts is None:
            if len(CUT_CACHE) >= CUT_CACHE_SIZE:
                CUT_CACHE.clear()
            cuts = CUT_CACHE[self.occ] = frozenset(self._cut_cells())
        return cuts

    def _cut_cells(self) -> set[int]:
        """Tarjan's low-link method, iterative."""
        board = self.board
        cuts: set[int] = set()
        if len(board) < 3:
            return cuts
        root = next(iter(board))
        order = {root: 0}
        low = {root: 0}
        children = 0
        stack: list[tuple[int, int | None, Iterator[int]]] = [(root, None, iter(DIRS))]
        while stack:
            cell, parent, pending = stack[-1]
            for d in pending:
                n = cell + d
                if n not in board or n == parent:
                    continue
                if n in order:
                    if order[n] < low[cell]:
                        low[cell] = order[n]
                    continue
                order[n] = low[n] = len(order)
                if cell == root:
                    children += 1
                stack.append((n, cell, iter(DIRS)))
                break
            else:
                stack.pop()
                if parent is not None:  # (only the root has none, and it is popped last)
                    if low[cell] < low[parent]:
                        low[parent] = low[cell]
                    if parent != root and low[cell] >= order[parent]:
                        cuts.add(parent)
        if children > 1:
            cuts.add(root)
        return cuts
