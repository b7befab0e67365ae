"""The five Zener symbols, shared by ESP and ESPEERS (rule data: names and order only)."""

from __future__ import annotations

from enum import Enum


class Symbol(Enum):
    CIRCLE = "circle"
    CROSS = "cross"
    WAVES = "waves"
    SQUARE = "square"
    STAR = "star"

    @classmethod
    def parse(cls, text: object) -> Symbol | None:
        """The symbol named `text`, or None for anything else."""
        try:
            return cls(text)
        except ValueError:
            return None


SYMBOLS: tuple[Symbol, ...] = tuple(Symbol)
