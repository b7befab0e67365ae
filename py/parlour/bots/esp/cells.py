"""The bots' model of ESP's board in small integers: a cell is `q * STRIDE + r` (the grid is
unbounded; views keep |q|, |r| <= 1000), so a neighbour is one addition and a direction or the
axis of a line one integer; the occupied neighbours of a cell are six bits (`ARCS`, `BITS`); a
position's key is an XOR of its tiles' and its turn's shares (`tile_key`, `TURN_KEYS`).
"""

from __future__ import annotations

from collections.abc import Mapping

from parlour.games.esp.hexgrid import AXES, DIRECTIONS

STRIDE = 1 << 16
HALF = STRIDE >> 1
DIRS: tuple[int, ...] = tuple(dq * STRIDE + dr for dq, dr in DIRECTIONS)
LINE_AXES: tuple[int, ...] = tuple(dq * STRIDE + dr for dq, dr in AXES)
MASK64 = (1 << 64) - 1


def cell_of(q: int, r: int) -> int:
    return q * STRIDE + r


def coords(cell: int) -> tuple[int, int]:
    q = (cell + HALF) // STRIDE
    return q, cell - q * STRIDE


# For each set of occupied neighbours (bit i: direction i), in how many separate arcs they lie
# around the cell: a tile whose neighbours form one arc can always be lifted.
ARCS = tuple(
    sum(1 for i in range(6) if m >> i & 1 and not m >> ((i + 1) % 6) & 1) for m in range(64)
)
BITS = tuple(bin(m).count("1") for m in range(64))


def touch_count(board: Mapping[int, int], cell: int) -> int:
    return sum(1 for d in DIRS if cell + d in board)


# -- position keys ---------------------------------------------------------------------------


def _mix(x: int) -> int:
    """A fixed 64-bit mixer (splitmix64's finaliser): position keys are XORs of these."""
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    return x ^ (x >> 31)


def tile_key(cell: int, owner: int, symbol: int, up: bool) -> int:
    """A tile's share of a position key: as players see it (a face-down symbol is not in it)."""
    face = symbol + 1 if up else 0
    return _mix((cell * 8 + owner) * 8 + face)


TURN_KEYS = tuple(_mix(-1 - seat) for seat in range(8))


def occupancy_key(cell: int) -> int:
    """A cell's share of the key of which cells are occupied (for the cache of pins)."""
    return _mix(cell * 2 + 1 + (1 << 40))
