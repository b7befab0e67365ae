"""The bots' judgement of a position: every line of five cells, scored for each seat.

A window (five consecutive cells along an axis) is kept in a table that is updated as the
position changes (only the fifteen windows through a changed cell move), so judging a position
costs nothing but reading a total. A window is worth something to a seat when it can still
become a set that the seat would win: the more of its cells already hold symbol-up tiles of
different symbols, the more; face-down tiles count for less (they need a flip, by their owner);
a set the seat owns for sure counts fully, one it might still win counts a little.

"Hot" windows (four symbol-up tiles of different symbols and one cell that is empty, or holds
a face-down tile of the missing symbol) are kept aside: they are where a set can be completed
by one action, which `winning_action` looks for (`threats.py`, the mixin `Threats` of
`Tracker`, which also finds the cells that complete or lock a set).
"""

from __future__ import annotations

from dataclasses import dataclass

from parlour.bots.esp.cells import LINE_AXES
from parlour.bots.esp.model import (
    FLIP,
    KINDS,
    LENGTH,
    MOVE,
    PASS_ACTION,
    PLACE,
    TILES_PER_SEAT,
    ModelAction,
    Position,
    UndoRecord,
)
from parlour.bots.esp.threats import Threats

WIN = 100000.0
DELTA_CACHE_SIZE = 200000
WINDOW_CACHE_SIZE = 200000
# A play (with what a search does around it) costs about fifty one-ply estimates (measured
# under CPython: about 125 and 2.5 microseconds).
PLAY_WORK = 50
LINE_OFFSETS = tuple(k * a for a in LINE_AXES for k in (-4, -3, -2, -1, 1, 2, 3, 4))

# A window's mark: (index of the cell in the window, symbol, kind); see `Judge.window`.
Mark = tuple[int, int, int]
# A window judged: (worth per seat, mark or None, complete); see `Judge.window`.
WindowValue = tuple[tuple[float, ...], Mark | None, bool]
# A change of worth per seat, and whether it completes a set; see `Judge.delta`.
Delta = tuple[tuple[float, ...], bool]
DeltaKey = tuple[tuple[int, ...], int, int]
# What `Tracker.play` returns for `Tracker.undo`: the position's own record, the changed cell
# (None for a pass) and the windows it re-judged, with their old values (None: not kept yet).
Played = tuple[UndoRecord, int | None, list[tuple[int, WindowValue | None]]]
# An action of the seat to move with its one-ply estimate and whether it completes a set.
Ranked = tuple[float, ModelAction, bool]


@dataclass(frozen=True)
class Weights:
    """The knobs of the judgement (see the module's docstring)."""

    base: float = 3.0  # each symbol-up tile of a live window multiplies its worth by this
    down: float = 0.6  # a face-down tile of a fitting symbol counts as this much of one
    possible: float = 0.25  # a window the seat could still win, against one it owns for sure
    frozen: float = 0.3  # a face-down tile whose owner would lose the window by flipping it
    others: float = 1.0  # how much the other seats' worth weighs against one's own
    four: float = 3.0  # a window the seat owns, four symbol-up and an empty cell
    three: float = 3.0  # three symbol-up, the seat's own fitting face-down tile, an empty cell
    locked: float = 30.0  # four symbol-up tiles and the seat's own face-down fifth that fits
    lock: float = 25.0  # the seat to move can make such a window (or another seat, twice)
    double: float = 20.0  # a seat not to move that could complete winning sets on two cells
    single: float = 1.0  # ... on one cell (the seat to move must answer it)


def code_of(owner: int, symbol: int, up: bool) -> int:
    return 1 + owner + 4 * (symbol + KINDS * up)


class Judge:
    """Window values for one seat count and one set of weights, memoised by contents."""

    def __init__(self, seats: int, weights: Weights) -> None:
        self.seats = seats
        self.weights = weights
        self.cache: dict[tuple[int, ...], WindowValue] = {}
        self.zero: WindowValue = ((0.0,) * seats, None, False)
        self.done: WindowValue = ((0.0,) * seats, None, True)  # a complete set (the game is over)
        self.deltas: dict[DeltaKey, Delta] = {}
        self.rows: dict[DeltaKey, Delta] = {}

    def window(self, codes: tuple[int, ...]) -> WindowValue:
        """(worth per seat, mark, complete) for a window's five codes. The mark is None or
        (index, symbol, kind): kind 0, the window is hot (the symbol on that cell completes
        it); kind 1, it can be locked (three up, a face-down tile, and that symbol placed up on
        that empty cell). Complete says the five make a set."""
        found = self.cache.get(codes)
        if found is None:
            if len(self.cache) > WINDOW_CACHE_SIZE:
                self.cache.clear()
            found = self.cache[codes] = self._window(codes)
        return found

    def _window(self, codes: tuple[int, ...]) -> WindowValue:
        seats, w = self.seats, self.weights
        up_mask = 0
        counts = [0] * seats
        empties = 0
        empty_at = -1
        downs = []
        for i, c in enumerate(codes):
            if not c:
                empties += 1
                empty_at = i
                continue
            c -= 1
            owner, rest = c & 3, c >> 2
            counts[owner] += 1
            if rest >= KINDS:
                bit = 1 << (rest - KINDS)
                if up_mask & bit:
                    return self.zero
                up_mask |= bit
            else:
                downs.append((i, owner, rest))
        down_mask = 0
        for _, _, s in downs:
            bit = 1 << s
            if (up_mask | down_mask) & bit:
                return self.zero
            down_mask |= bit
        ups = LENGTH - empties - len(downs)
        if ups == LENGTH:
            return self.done
        hot: Mark | None = None
        if ups == LENGTH - 1:
            missing = ((1 << KINDS) - 1) & ~up_mask
            symbol = missing.bit_length() - 1
            hot = (empty_at, symbol, 0) if empties else (downs[0][0], symbol, 0)
        elif ups == LENGTH - 2 and len(downs) == 1:
            # Three up, a face-down tile, one empty cell: its owner can lock it (see `locks`).
            missing = ((1 << KINDS) - 1) & ~up_mask & ~down_mask
            hot = (empty_at, missing.bit_length() - 1, 1)
        if ups + len(downs) < 2:
            return ((0.0,) * seats, hot, False)
        worth = w.base ** (ups + w.down * len(downs) - LENGTH + 1)
        values = []
        for s in range(seats):
            mine = counts[s]
            rival = max(counts[o] for o in range(seats) if o != s)
            if mine > rival + empties:
                share = 1.0
            elif mine + empties > rival:
                share = w.possible
            else:
                values.append(0.0)
                continue
            value = worth
            if share == 1.0:
                if downs and any(owner != s for _, owner, _ in downs):
                    share = w.frozen
                elif hot is not None:
                    # Four up: the fifth cell completes it (by a flip of its own tile: locked,
                    # nobody can stop that while placing). Or three up, its own face-down tile,
                    # one cell to fill.
                    four = w.locked if downs else w.four
                    value = four if hot[2] == 0 else w.three
            values.append(value * share)
        return (tuple(values), hot, False)

    def delta(self, lines: tuple[int, ...], old: int, new: int) -> Delta:
        """(change of worth per seat, completes a set) when a cell whose lines hold `lines`
        (see `Tracker.lines`) changes from code `old` to code `new`."""
        key = (lines, old, new)
        found = self.deltas.get(key)
        if found is None:
            if len(self.deltas) > DELTA_CACHE_SIZE:
                self.deltas.clear()
            found = self.deltas[key] = self._delta(lines, old, new)
        return found

    def _delta(self, lines: tuple[int, ...], old: int, new: int) -> Delta:
        rows = self.rows
        change: tuple[float, ...] | None = None
        complete = False
        for i in (0, 8, 16):
            key = (lines[i : i + 8], old, new)
            found = rows.get(key)
            if found is None:
                if len(rows) > DELTA_CACHE_SIZE:
                    rows.clear()
                found = rows[key] = self._row(key[0], old, new)
            if found[1]:
                complete = True
            if change is None:
                change = found[0]
            else:
                change = tuple([x + y for x, y in zip(change, found[0], strict=True)])
        assert change is not None  # (three axes were added up)
        return (change, complete)

    def _row(self, row8: tuple[int, ...], old: int, new: int) -> Delta:
        """(change of worth per seat, completes) along one axis: the five windows through
        the cell, whose row is `row8` (-4..-1, 1..4)."""
        change = [0.0] * self.seats
        complete = False
        window = self.window
        row = (*row8[:4], old, *row8[4:])
        for k in range(LENGTH):
            codes = row[4 - k : 9 - k]
            if not any(codes[:k]) and not any(codes[k + 1 :]):
                continue  # nothing else in this window: worth nothing either way
            before = window(codes)
            after = window((*codes[:k], new, *codes[k + 1 :]))
            if after[2]:
                complete = True
            bv, av = before[0], after[0]
            for s in range(self.seats):
                change[s] += av[s] - bv[s]
        return (tuple(change), complete)


JUDGES: dict[tuple[int, Weights], Judge] = {}


def judge_for(seats: int, weights: Weights) -> Judge:
    """One judge per seat count and weights, kept between decisions (its memos are what make
    it fast; they are pure functions of a window's contents, so keeping them changes nothing
    but speed)."""
    judge = JUDGES.get((seats, weights))
    if judge is None:
        judge = JUDGES[(seats, weights)] = Judge(seats, weights)
    return judge


class Tracker(Threats):
    """A position with its window table kept up to date as it plays and undoes."""

    def __init__(self, pos: Position, judge: Judge) -> None:
        self.pos = pos
        self.judge = judge
        self.codes: dict[int, int] = {}
        self.windows: dict[int, WindowValue] = {}
        self.hot: dict[int, tuple[int, int]] = {}  # window -> (cell, symbol) completing it
        self.warm: dict[int, tuple[int, int]] = {}  # window -> (cell, symbol) locking it
        self.total = [0.0] * pos.seats
        self.work = 0  # what a search has spent, in one-ply estimates (a play costs PLAY_WORK)
        for tile, cell in enumerate(pos.at):
            self.codes[cell] = code_of(pos.owner[tile], pos.symbol[tile], pos.up[tile])
        self._refresh(list(self.codes), [])

    def _refresh(self, cells: list[int], log: list[tuple[int, WindowValue | None]]) -> None:
        """Re-judge the windows through `cells` (which just changed), logging old values."""
        codes, windows, total = self.codes, self.windows, self.total
        marks = (self.hot, self.warm)
        window = self.judge.window
        seats = range(self.pos.seats)
        g = codes.get
        done: set[int] | None = set() if len(cells) > 1 else None
        for cell in cells:
            for ai in (0, 1, 2):
                a = LINE_AXES[ai]
                row = (
                    g(cell - 4 * a, 0), g(cell - 3 * a, 0), g(cell - 2 * a, 0),
                    g(cell - a, 0), g(cell, 0), g(cell + a, 0),
                    g(cell + 2 * a, 0), g(cell + 3 * a, 0), g(cell + 4 * a, 0),
                )  # fmt: skip
                for k in (0, 1, 2, 3, 4):
                    start = cell - k * a
                    wid = start * 4 + ai
                    if done is not None:
                        if wid in done:
                            continue
                        done.add(wid)
                    new = window(row[4 - k : 9 - k])
                    old = windows.get(wid)
                    if old is new:
                        continue
                    log.append((wid, old))
                    if old is not None:
                        ov = old[0]
                        for s in seats:
                            total[s] -= ov[s]
                        if old[1] is not None:
                            del marks[old[1][2]][wid]
                    nv = new[0]
                    for s in seats:
                        total[s] += nv[s]
                    windows[wid] = new
                    mark = new[1]
                    if mark is not None:
                        marks[mark[2]][wid] = (start + mark[0] * a, mark[1])

    def play(self, action: ModelAction) -> Played:
        pos = self.pos
        self.work += PLAY_WORK
        record, changed = pos.play(action)
        kind = action[0]
        log: list[tuple[int, WindowValue | None]] = []
        if kind in (PLACE, FLIP):
            assert changed is not None  # (only a pass changes no cell)
            tile = pos.board[changed]
            self.codes[changed] = code_of(pos.owner[tile], pos.symbol[tile], pos.up[tile])
            self._refresh([changed], log)
        elif kind == MOVE:
            source = record[4]
            assert source is not None and changed is not None
            code = self.codes.pop(source)
            self.codes[changed] = code
            self._refresh([source, changed], log)
        return record, changed, log

    def undo(self, played: Played) -> None:
        record, changed, log = played
        pos = self.pos
        kind = record[0][0]
        if kind == PLACE:
            assert changed is not None  # (only a pass changes no cell)
            del self.codes[changed]
        elif kind == FLIP:
            assert changed is not None
            tile = pos.board[changed]
            self.codes[changed] = code_of(pos.owner[tile], pos.symbol[tile], False)
        elif kind == MOVE:
            source = record[4]
            assert source is not None and changed is not None
            self.codes[source] = self.codes.pop(changed)
        windows, total = self.windows, self.total
        marks = (self.hot, self.warm)
        seats = range(pos.seats)
        a_of = LINE_AXES
        for wid, old in reversed(log):
            new = windows[wid]
            nv = new[0]
            for s in seats:
                total[s] -= nv[s]
            if new[1] is not None:
                del marks[new[1][2]][wid]
            if old is None:
                del windows[wid]
            else:
                windows[wid] = old
                ov = old[0]
                for s in seats:
                    total[s] += ov[s]
                if old[1] is not None:
                    ai = wid & 3
                    start = (wid - ai) // 4
                    i, symbol, kind = old[1]
                    marks[kind][wid] = (start + i * a_of[ai], symbol)
        pos.undo(record)

    # -- judging -------------------------------------------------------------------------

    def score(self, seat: int) -> float:
        """The seat's worth against the others' (positive is good for `seat`)."""
        total = self.total
        others = sum(total) - total[seat]
        return total[seat] - self.judge.weights.others * others

    def leaf(self, me: int) -> float:
        """The judgement of a quiet position (its mover has no winning action): the window
        worth; a lock the mover can make; the threats of the seats not to move (two cells
        cannot both be blocked)."""
        value = self.score(me)
        if not self.hot and not self.warm:
            return value
        w = self.judge.weights
        mover = self.pos.to_move
        others = w.others
        if self.warm and self.locks(mover):
            value += w.lock if mover == me else -w.lock * others
        for seat in range(self.pos.seats):
            if seat == mover:
                continue
            n = len(self.completions(seat))
            bonus = w.double if n >= 2 else w.single if n else 0.0
            if self.warm:
                k = len(self.locks(seat))
                bonus += w.lock if k >= 2 else w.single if k else 0.0
            if bonus:
                value += bonus if seat == me else -bonus * others
        return value

    # -- one-ply estimates ---------------------------------------------------------------

    def lines(self, cell: int, skip: int | None = None) -> tuple[int, ...]:
        """The codes of the 24 cells in line with `cell` within four steps (axis by axis,
        -4..-1 then 1..4), with `skip` read as empty."""
        g = self.codes.get
        if skip is None:
            return tuple([g(cell + o, 0) for o in LINE_OFFSETS])
        return tuple([0 if cell + o == skip else g(cell + o, 0) for o in LINE_OFFSETS])

    def ranked(self, me: int) -> list[Ranked]:
        """Every action of the seat to move with an estimate of `score(me)` after it (one
        ply, from the window table) and whether it completes a set, best first for the
        mover (highest if it is `me`, else lowest)."""
        pos = self.pos
        mover = pos.to_move
        judge = self.judge
        wo = judge.weights.others
        base = self.score(me)
        out: list[Ranked] = []
        if pos.placing:
            if pos.placed[mover] < TILES_PER_SEAT:
                pool = pos.pool[mover]
                codes = [
                    (s, face, code_of(mover, s, face))
                    for s in range(KINDS)
                    if pool[s]
                    for face in (True, False)
                ]
                for cell in pos.placement_cells():
                    lines = self.lines(cell)
                    for s, face, code in codes:
                        dv, complete = judge.delta(lines, 0, code)
                        est = base + dv[me] * (1 + wo) - wo * sum(dv)
                        out.append((est, (PLACE, cell, s, face), complete))
        else:
            at, symbol = pos.at, pos.symbol
            for action in pos.actions(mover):
                kind = action[0]
                if kind == FLIP:
                    cell = at[action[1]]
                    s = symbol[action[1]]
                    dv, complete = judge.delta(
                        self.lines(cell), code_of(mover, s, False), code_of(mover, s, True)
                    )
                elif kind == MOVE:
                    tile = action[1]
                    cell = at[tile]
                    code = self.codes[cell]
                    target = pos.landing(cell, action[2])
                    d1, _ = judge.delta(self.lines(cell), code, 0)
                    d2, complete = judge.delta(self.lines(target, cell), 0, code)
                    dv = tuple(x + y for x, y in zip(d1, d2, strict=True))
                else:
                    out.append((base, action, False))
                    continue
                est = base + dv[me] * (1 + wo) - wo * sum(dv)
                out.append((est, action, complete))
        if not out:
            return [(base, PASS_ACTION, False)]
        self.work += len(out)
        out.sort(key=_first, reverse=mover == me)
        return out


def _first(item: Ranked) -> float:
    return item[0]
