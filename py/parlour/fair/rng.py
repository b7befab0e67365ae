"""A portable deterministic random generator: the same seed draws the same everywhere.

Why not `random`: its algorithms are not promised across Python versions, and every peer (CPython
here, Pyodide in the browser) must draw identically from a shared seed. Specification:

- Block i (i = 0, 1, 2, ...) is SHA-256(seed || i as 8 bytes big-endian); the byte stream is
  block 0, block 1, ... in order.
- below(n): let b = bit length of n - 1 and k = ceil(b / 8); take the next k bytes as a big-endian
  integer, keep its top b bits; return it if < n, else draw again (rejection, so no bias).
  below(1) is 0 and reads nothing.
- shuffle: Fisher-Yates from the last index down: for i = len-1 .. 1, j = below(i + 1), swap.
- sample(k): a partial Fisher-Yates on a copy: for i = 0 .. k-1, j = i + below(n - i), swap;
  the first k items.
- derive(label): a new generator on SHA-256 of the fields ("psi-parlour/rng", seed, label), so
  separate purposes (a grid, a deck) draw from separate streams.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

from parlour.fair.encoding import digest

T = TypeVar("T")
DERIVE_TAG = "psi-parlour/rng"


class Rng:
    """A stream of unbiased integers from a seed. Not for secrets: use `secrets` for those."""

    def __init__(self, seed: bytes) -> None:
        if not isinstance(seed, bytes) or not seed:
            raise ValueError("an Rng needs a non-empty bytes seed")
        self.seed = seed
        self._counter = 0
        self._buffer = b""

    def __repr__(self) -> str:
        return f"Rng(bytes.fromhex({self.seed.hex()!r}))"

    def derive(self, label: str) -> Rng:
        """An independent generator for one purpose, from this one's seed (not its position)."""
        return Rng(digest((DERIVE_TAG, self.seed, label)))

    def read(self, count: int) -> bytes:
        """The next `count` bytes of the stream."""
        while len(self._buffer) < count:
            block = hashlib.sha256(self.seed + self._counter.to_bytes(8, "big")).digest()
            self._buffer += block
            self._counter += 1
        out, self._buffer = self._buffer[:count], self._buffer[count:]
        return out

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n < 1:
            raise ValueError("below() needs n >= 1")
        bits = (n - 1).bit_length()
        if bits == 0:
            return 0
        size = (bits + 7) // 8
        while True:
            candidate = int.from_bytes(self.read(size), "big") >> (8 * size - bits)
            if candidate < n:
                return candidate

    def randint(self, low: int, high: int) -> int:
        """A uniform integer in [low, high], both ends included."""
        if high < low:
            raise ValueError("randint() needs low <= high")
        return low + self.below(high - low + 1)

    def shuffle(self, items: list[T]) -> None:
        """Shuffle `items` in place (Fisher-Yates, last index first)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        copy = list(items)
        self.shuffle(copy)
        return copy

    def choice(self, items: Sequence[T]) -> T:
        if not items:
            raise ValueError("choice() from an empty sequence")
        return items[self.below(len(items))]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """k distinct positions of `items`, in drawn order."""
        if not 0 <= k <= len(items):
            raise ValueError("sample() needs 0 <= k <= len(items)")
        pool = list(items)
        for i in range(k):
            j = i + self.below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]
