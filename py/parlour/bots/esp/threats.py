"""Where a set can be made in one action, for the bots' judgement of ESP (`evaluate.py`): the
cells on which a seat could complete a set it would win, those on which it could lock one
while tiles are placed, and an action that wins at once. They are read from the windows a
`Tracker` keeps aside as hot (four symbol-up tiles of different symbols) and warm (three, and
a face-down tile that fits); `Tracker` takes them from its mixin `Threats`.
"""

from __future__ import annotations

from parlour.bots.esp.cells import DIRS, LINE_AXES
from parlour.bots.esp.model import (
    FLIP,
    LENGTH,
    MOVE,
    PLACE,
    TILES_PER_SEAT,
    ModelAction,
    Position,
)


class Threats:
    """Completions, locks and winning actions on a tracked position: `pos`, and its hot and
    warm windows (window -> the cell and symbol that complete or lock it)."""

    pos: Position
    hot: dict[int, tuple[int, int]]
    warm: dict[int, tuple[int, int]]

    def _majority(self, window: list[int], skip: int, seat: int) -> bool:
        """Would `seat` win a set on `window` if its own tile went on `skip`?"""
        board, owner = self.pos.board, self.pos.owner
        counts = [0] * self.pos.seats
        for c in window:
            if c != skip:
                counts[owner[board[c]]] += 1
        counts[seat] += 1
        return counts[seat] >= max(counts)

    def completions(self, seat: int) -> set[int]:
        """The cells on which `seat` could complete, by one action if it were its turn, a set
        it would win (judged on the window alone)."""
        if not self.hot:
            return set()
        pos = self.pos
        board, owner, up, symbol = pos.board, pos.owner, pos.up, pos.symbol
        placing = pos.placing
        cells: set[int] = set()
        for wid, (x, s) in self.hot.items():
            if x in cells:
                continue
            ai = wid & 3
            a = LINE_AXES[ai]
            start = (wid - ai) >> 2
            window = [start + i * a for i in range(LENGTH)]
            if not self._majority(window, x, seat):
                continue
            t = board.get(x)
            if t is not None:
                if not placing and owner[t] == seat and not pos.pinned(x):
                    cells.add(x)
            elif placing:
                if pos.pool[seat][s] and pos.placed[seat] < TILES_PER_SEAT and pos.can_place(x):
                    cells.add(x)
            else:
                for step in DIRS:
                    if x - step not in board:
                        continue
                    y = x - step - step
                    found = False
                    while y in board:
                        t = board[y]
                        if (
                            owner[t] == seat
                            and up[t]
                            and symbol[t] == s
                            and y not in window
                            and not pos.pinned(y)
                        ):
                            found = True
                            break
                        y -= step
                    if found:
                        cells.add(x)
                        break
        return cells

    def locks(self, seat: int) -> set[int]:
        """While placing: on how many cells `seat` could place a symbol-up tile that makes a
        window of four symbol-up tiles and its own fitting face-down tile, a set it would win
        by flipping once flips are allowed, which nobody can block while tiles are placed."""
        pos = self.pos
        if not self.warm or not pos.placing or pos.placed[seat] >= TILES_PER_SEAT:
            return set()
        board, owner = pos.board, pos.owner
        cells: set[int] = set()
        for wid, (x, s) in self.warm.items():
            if x in cells or not pos.pool[seat][s]:
                continue
            ai = wid & 3
            a = LINE_AXES[ai]
            start = (wid - ai) >> 2
            window = [start + i * a for i in range(LENGTH)]
            downs = [c for c in window if c != x and not pos.up[board[c]]]
            if owner[board[downs[0]]] != seat or not self._majority(window, x, seat):
                continue
            if pos.can_place(x):
                cells.add(x)
        return cells

    def winning_action(self, seat: int) -> ModelAction | None:
        """An action of `seat` (assumed to move now) that completes a set it wins, if any."""
        if not self.hot:
            return None
        pos = self.pos
        board, owner, up, symbol = pos.board, pos.owner, pos.up, pos.symbol
        placing = pos.placing
        tried = set()
        for cell, s in list(self.hot.values()):
            candidates: list[ModelAction] = []
            t = board.get(cell)
            if t is not None:
                if not placing and owner[t] == seat and not up[t] and symbol[t] == s:
                    candidates.append((FLIP, t))
            elif placing:
                if pos.pool[seat][s] and pos.placed[seat] < TILES_PER_SEAT and pos.can_place(cell):
                    candidates.append((PLACE, cell, s, True))
            else:
                for d in range(6):
                    step = DIRS[d]
                    y = cell - step
                    j = 1
                    while y in board:
                        if j >= 2:
                            t = board[y]
                            if owner[t] == seat and up[t] and symbol[t] == s:
                                candidates.append((MOVE, t, d))
                        y -= step
                        j += 1
            for action in candidates:
                if action in tried:
                    continue
                tried.add(action)
                if action[0] != PLACE and pos.pinned(pos.at[action[1]]):
                    continue
                record, changed = pos.play(action)
                assert changed is not None  # (not a pass)
                sets = pos.sets_through(changed)
                won = bool(sets) and pos.winners(sets, seat) == frozenset((seat,))
                pos.undo(record)
                if won:
                    return action
        return None
