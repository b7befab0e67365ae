"""A small fast generator for the bots' sampling (splitmix64), seeded from the bot's seed.

`parlour.fair.rng.Rng` hashes a block per 32 bytes, which is too slow for thousands of draws a
decision; this one is pure integer arithmetic and gives the same stream on every Python.
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")
MASK64 = (1 << 64) - 1


class Prng:
    __slots__ = ("state",)

    def __init__(self, seed: bytes) -> None:
        state = 0x243F6A8885A308D3
        for i in range(0, len(seed), 8):
            state = (state * 0x100000001B3 ^ int.from_bytes(seed[i : i + 8], "big")) & MASK64
        self.state = state

    def next(self) -> int:
        """The next 64-bit value."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        x = self.state
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
        return x ^ (x >> 31)

    def below(self, n: int) -> int:
        """A integer in [0, n) (bias below 2**-40 for the small n used here)."""
        return self.next() % n

    def random(self) -> float:
        return (self.next() >> 11) / 9007199254740992.0

    def shuffle(self, items: list[T]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.next() % (i + 1)
            items[i], items[j] = items[j], items[i]
