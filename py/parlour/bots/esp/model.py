"""A fast model of ESP's rules for the bots' search, checked against the engine by the tests.

The engine (`parlour.games.esp.rules`) is the one source of legality; this model exists only
because search needs tens of thousands of positions a second. It mutates one `Position` in
place (`play` returns what `undo` needs) and speaks in small integers:

- a cell is `q * STRIDE + r` (the grid is unbounded; views keep |q|, |r| <= 1000), so a
  neighbour is one addition (`cells.py`, with the position keys);
- a tile is its index in the position's tile lists (placement order); a symbol is its index
  in `zener.SYMBOLS`;
- an action is a tuple: (PLACE, cell, symbol, up), (FLIP, tile), (MOVE, tile, direction),
  or (PASS,).

Where a tile may go and which tiles are pinned, `Position` takes from its mixin `Legality`
(`legality.py`). Every tile's symbol is known to the model: a bot fills in the symbols its seat
cannot see by sampling them (`determinise`) before it searches.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from parlour.bots.esp.cells import (
    ARCS,
    DIRS,
    LINE_AXES,
    TURN_KEYS,
    cell_of,
    occupancy_key,
    tile_key,
)
from parlour.bots.esp.legality import Legality
from parlour.bots.esp.prng import Prng
from parlour.games.zener import SYMBOLS

SYMBOL_INDEX = {s.value: i for i, s in enumerate(SYMBOLS)}
COPIES = 2
KINDS = len(SYMBOLS)
TILES_PER_SEAT = COPIES * KINDS
LENGTH = 5
ALL_KINDS = (1 << KINDS) - 1

PLACE, FLIP, MOVE, PASS = range(4)
# How much a window of 2, 3 or 4 symbol-up tiles says about the symbol hidden beside them.
FIT_WORTH = (0.0, 0.0, 0.5, 2.0, 8.0)
PASS_ACTION = (PASS,)

# An action in the model's form (see above): its first item is its kind, PLACE to PASS.
ModelAction = tuple[int, ...]
# What `Position.play` returns for `undo`: (action, seat, passes, key, cell, occ): the seat that
# played, the passes, position key and occupancy key before it, and the cell a tile was placed
# on, flipped on or moved from (None for a pass).
UndoRecord = tuple[ModelAction, int, int, int, int | None, int]


class Position(Legality):
    """One position, mutated in place by `play` and restored by `undo`."""

    __slots__ = (
        "at",
        "board",
        "key",
        "occ",
        "owner",
        "passes",
        "placed",
        "pool",
        "seats",
        "symbol",
        "to_move",
        "total",
        "up",
    )

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.board: dict[int, int] = {}  # cell -> tile
        self.owner: list[int] = []
        self.symbol: list[int] = []
        self.up: list[bool] = []
        self.at: list[int] = []  # tile -> cell
        self.pool: list[list[int]] = [[COPIES] * KINDS for _ in range(seats)]  # unplaced
        self.placed: list[int] = [0] * seats
        self.to_move = 0
        self.passes = 0
        self.key = TURN_KEYS[0]
        self.occ = 0
        self.total = TILES_PER_SEAT * seats

    # -- copying and keys ----------------------------------------------------------------

    def copy(self) -> Position:
        new = Position.__new__(Position)
        new.seats = self.seats
        new.board = dict(self.board)
        new.owner = list(self.owner)
        new.symbol = list(self.symbol)
        new.up = list(self.up)
        new.at = list(self.at)
        new.pool = [list(p) for p in self.pool]
        new.placed = list(self.placed)
        new.to_move = self.to_move
        new.passes = self.passes
        new.key = self.key
        new.occ = self.occ
        new.total = self.total
        return new

    @property
    def placing(self) -> bool:
        return len(self.owner) < self.total

    def add_tile(self, cell: int, owner: int, symbol: int, up: bool) -> int:
        """Put a tile on the board without any check (building a position from a view)."""
        tile = len(self.owner)
        self.owner.append(owner)
        self.symbol.append(symbol)
        self.up.append(up)
        self.at.append(cell)
        self.board[cell] = tile
        self.placed[owner] += 1
        self.key ^= tile_key(cell, owner, symbol, up)
        self.occ ^= occupancy_key(cell)
        return tile

    def set_turn(self, seat: int) -> None:
        self.key ^= TURN_KEYS[self.to_move] ^ TURN_KEYS[seat]
        self.to_move = seat

    # -- legality ------------------------------------------------------------------------

    def actions(self, seat: int | None = None) -> list[ModelAction]:
        """Every board action of `seat` (the seat to move by default), or [PASS_ACTION]."""
        if seat is None:
            seat = self.to_move
        found: list[ModelAction] = []
        if self.placing:
            if self.placed[seat] < TILES_PER_SEAT:
                pool = self.pool[seat]
                symbols = [s for s in range(KINDS) if pool[s]]
                for cell in self.placement_cells():
                    for s in symbols:
                        found.append((PLACE, cell, s, True))
                        found.append((PLACE, cell, s, False))
        else:
            owner, up, at = self.owner, self.up, self.at
            cuts = None
            for tile in range(len(owner)):
                if owner[tile] != seat:
                    continue
                cell = at[tile]
                ring = self.ring(cell)
                if ring == 63:
                    continue
                if ARCS[ring] > 1:
                    if cuts is None:
                        cuts = self.cut_cells()
                    if cell in cuts:
                        continue
                if not up[tile]:
                    found.append((FLIP, tile))
                    continue
                for d in range(6):
                    if ring >> d & 1:
                        found.append((MOVE, tile, d))
        return found or [PASS_ACTION]

    def landing(self, cell: int, direction: int) -> int:
        d = DIRS[direction]
        target = cell + d
        board = self.board
        while target in board:
            target += d
        return target

    # -- play and undo -------------------------------------------------------------------

    def play(self, action: ModelAction) -> tuple[UndoRecord, int | None]:
        """Apply `action` for the seat to move; returns what `undo` needs and the changed
        cell (None for a pass)."""
        seat = self.to_move
        kind = action[0]
        passes = self.passes
        key = self.key
        occ = self.occ
        changed: int | None
        if kind == PLACE:
            _, cell, s, up = action
            face = bool(up)  # (it is one already: the action's items are typed as ints)
            tile = len(self.owner)
            self.owner.append(seat)
            self.symbol.append(s)
            self.up.append(face)
            self.at.append(cell)
            self.board[cell] = tile
            self.pool[seat][s] -= 1
            self.placed[seat] += 1
            self.key ^= tile_key(cell, seat, s, face)
            self.occ ^= occupancy_key(cell)
            changed = cell
            self.passes = 0
        elif kind == FLIP:
            tile = action[1]
            cell = self.at[tile]
            s = self.symbol[tile]
            self.up[tile] = True
            self.key ^= tile_key(cell, seat, s, False) ^ tile_key(cell, seat, s, True)
            changed = cell
            self.passes = 0
        elif kind == MOVE:
            _, tile, direction = action
            cell = self.at[tile]
            target = self.landing(cell, direction)
            board = self.board
            del board[cell]
            board[target] = tile
            self.at[tile] = target
            s = self.symbol[tile]
            self.key ^= tile_key(cell, seat, s, True) ^ tile_key(target, seat, s, True)
            self.occ ^= occupancy_key(cell) ^ occupancy_key(target)
            changed = target
            self.passes = 0
        else:
            changed = cell = None
            self.passes = passes + 1
        following = seat + 1 if seat + 1 < self.seats else 0
        self.key ^= TURN_KEYS[seat] ^ TURN_KEYS[following]
        self.to_move = following
        return (action, seat, passes, key, cell, occ), changed

    def undo(self, record: UndoRecord) -> None:
        action, seat, passes, key, cell, occ = record
        kind = action[0]
        if kind == PLACE:
            assert cell is not None  # (None only for a pass)
            s = action[2]
            self.owner.pop()
            self.symbol.pop()
            self.up.pop()
            self.at.pop()
            del self.board[cell]
            self.pool[seat][s] += 1
            self.placed[seat] -= 1
        elif kind == FLIP:
            self.up[action[1]] = False
        elif kind == MOVE:
            assert cell is not None
            tile = action[1]
            del self.board[self.at[tile]]
            self.board[cell] = tile
            self.at[tile] = cell
        self.to_move = seat
        self.passes = passes
        self.key = key
        self.occ = occ

    # -- sets ----------------------------------------------------------------------------

    def sets_through(self, cell: int) -> list[tuple[int, ...]]:
        """Every window of five symbol-up tiles of five different symbols through `cell`."""
        board, up, symbol = self.board, self.up, self.symbol
        t = board.get(cell)
        if t is None or not up[t]:
            return []
        found = []
        for a in LINE_AXES:
            # The run of symbol-up tiles along this axis through `cell`, up to 4 each way;
            # every window of five inside it holds `cell`.
            lo = cell
            for _ in range(LENGTH - 1):
                t = board.get(lo - a)
                if t is None or not up[t]:
                    break
                lo -= a
            hi = cell
            for _ in range(LENGTH - 1):
                t = board.get(hi + a)
                if t is None or not up[t]:
                    break
                hi += a
            start = lo
            while start + (LENGTH - 1) * a <= hi:
                mask = 0
                for i in range(LENGTH):
                    mask |= 1 << symbol[board[start + i * a]]
                if mask == ALL_KINDS:
                    found.append(tuple(start + i * a for i in range(LENGTH)))
                start += a
        return found

    def winners(self, sets: Sequence[Sequence[int]], mover: int) -> frozenset[int]:
        """Who wins when `mover` completes `sets` (the mover wins ties it is in)."""
        union = {c for window in sets for c in window}
        counts = [0] * self.seats
        for c in union:
            counts[self.owner[self.board[c]]] += 1
        best = max(counts)
        leaders = frozenset(s for s in range(self.seats) if counts[s] == best)
        if mover in leaders:
            return frozenset({mover})
        return leaders


# -- from a seat's view ----------------------------------------------------------------------


class Seen:
    """What a seat knows of the board, read from its view: tiles in placement order, with the
    symbols it can see (its own face-down ones included) and None where it cannot."""

    __slots__ = (
        "hidden_pools",
        "occupied",
        "placing",
        "seat",
        "seats",
        "tiles",
        "to_move",
        "tray",
        "ups",
    )

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.seats = len(view["seats"])
        me = view["me"]
        self.seat: int = me["seat"]
        own_hidden = {
            tuple(int(x) for x in key.split(",")): SYMBOL_INDEX[value]
            for key, value in me["hidden"].items()
        }
        tiles: list[tuple[int, int, int | None, bool]] = []
        for t in sorted(view["tiles"], key=lambda t: t["placed_at"]):
            q, r = t["cell"]
            symbol: int | None
            if t["face"] == "up":
                symbol, up = SYMBOL_INDEX[t["symbol"]], True
            else:
                symbol, up = own_hidden.get((q, r)) if t["owner"] == self.seat else None, False
            tiles.append((cell_of(q, r), t["owner"], symbol, up))
        self.tiles = tiles
        # Each seat's symbols not shown (face-down or unplaced): two of each, less those up.
        pools = [[COPIES] * KINDS for _ in range(self.seats)]
        for _cell, owner, symbol, up in tiles:
            if up and symbol is not None:  # (a symbol-up tile's is always known)
                pools[owner][symbol] -= 1
        self.hidden_pools = pools
        tray = [0] * KINDS
        for value in me["tray"]:
            tray[SYMBOL_INDEX[value]] += 1
        self.tray = tray
        to_move = view["to_move"]
        self.to_move: int = to_move[0] if to_move else self.seat
        self.placing = view["stage"] == "placement"
        self.ups: dict[int, tuple[int, int]] | None = None  # for `fits`, made when needed
        self.occupied: dict[int, int] = {}

    def unknown(self) -> list[int]:
        """Indices (in `tiles`) of the face-down tiles of other seats."""
        return [i for i, t in enumerate(self.tiles) if t[2] is None]

    def position(
        self,
        guesses: Mapping[int, int] | None = None,
        pools: Mapping[int, Sequence[int]] | None = None,
    ) -> Position:
        """The position with `guesses` (tile index -> symbol) for the unknown symbols and
        `pools` (seat -> unplaced symbol counts) for the other seats' unplaced tiles."""
        pos = Position(self.seats)
        for i, (cell, owner, symbol, up) in enumerate(self.tiles):
            if symbol is None:
                symbol = guesses[i] if guesses else 0
            pos.add_tile(cell, owner, symbol, up)
        for seat in range(self.seats):
            if seat == self.seat:
                pos.pool[seat] = list(self.tray)
            elif pools is not None:
                pos.pool[seat] = list(pools[seat])
            else:
                pos.pool[seat] = self._unplaced_guess(seat)
        pos.set_turn(self.to_move)
        return pos

    def _unplaced_guess(self, seat: int) -> list[int]:
        """Without a sample, another seat's unplaced symbols: its unshown ones, as evenly as
        possible (only the count matters to legality)."""
        left = TILES_PER_SEAT - sum(1 for t in self.tiles if t[1] == seat)
        pool = [0] * KINDS
        hidden = list(self.hidden_pools[seat])
        s = 0
        while left > 0 and any(hidden):
            if hidden[s]:
                pool[s] += 1
                hidden[s] -= 1
                left -= 1
            s = (s + 1) % KINDS
        return pool

    def determinise(self, rng: Prng, belief: float = 0.0) -> Position:
        """A position with every unseen symbol drawn from each other seat's unshown symbols:
        face-down tiles first (in a random order), the rest stay in its hand.

        With `belief` > 0 a symbol is drawn for a face-down tile in proportion to its copies
        left times exp(belief * fit), where fit says how well it suits the lines of symbol-up
        tiles through that cell (a player hides a symbol that fits its lines)."""
        guesses: dict[int, int] = {}
        pools: dict[int, list[int]] = {}
        for seat in range(self.seats):
            if seat == self.seat:
                continue
            counts = list(self.hidden_pools[seat])
            mine = [i for i, t in enumerate(self.tiles) if t[1] == seat and t[2] is None]
            rng.shuffle(mine)
            for i in mine:
                weights = [float(c) for c in counts]
                if belief > 0.0:
                    fits = self.fits(self.tiles[i][0], seat)
                    top = max(fits[s] for s in range(KINDS) if counts[s])
                    weights = [
                        w * math.exp(belief * (f - top))
                        for w, f in zip(weights, fits, strict=False)
                    ]
                pick = rng.random() * sum(weights)
                s = max(s for s in range(KINDS) if counts[s])  # (rounding: the last one)
                for t in range(KINDS):
                    if counts[t] and pick < weights[t]:
                        s = t
                        break
                    pick -= weights[t]
                guesses[i] = s
                counts[s] -= 1
            pools[seat] = counts
        return self.position(guesses, pools)

    def fits(self, cell: int, owner: int) -> list[float]:
        """For each symbol, how well it would suit the lines through `cell` for `owner`: the
        windows whose symbol-up tiles (of different symbols, none of them this one) the owner
        could win, weighted by how many there are."""
        if self.ups is None:
            self.ups = {t[0]: (t[1], t[2]) for t in self.tiles if t[3] and t[2] is not None}
            self.occupied = {t[0]: t[1] for t in self.tiles}
        ups, occupied = self.ups, self.occupied
        fits = [0.0] * KINDS
        for a in LINE_AXES:
            for k in range(LENGTH):
                start = cell - k * a
                mask = 0
                n = 0
                mine = 0
                others = 0
                dead = False
                for j in range(LENGTH):
                    c = start + j * a
                    if c == cell:
                        continue
                    who = occupied.get(c)
                    if who is None:
                        continue
                    if who == owner:
                        mine += 1
                    else:
                        others += 1
                    up = ups.get(c)
                    if up is not None:
                        bit = 1 << up[1]
                        if mask & bit:
                            dead = True
                            break
                        mask |= bit
                        n += 1
                if dead or n < 2 or mine < others:
                    continue
                worth = FIT_WORTH[n]
                for s in range(KINDS):
                    if not mask >> s & 1:
                        fits[s] += worth
        return fits
