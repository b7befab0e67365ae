"""Second Sight's state: what every device agrees on after each action. No symbol is in it
before its seal is opened: only the commitment."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from parlour.games.base import Outcome, Setup
from parlour.games.zener import Symbol

Stage = Literal["seal", "guess", "reveal", "over"]


def label(round_: int) -> str:
    """The store's label of a seat's symbol in a round (from 0): each round's is its own."""
    return f"symbol-{round_}"


@dataclass(frozen=True)
class Done:
    """A finished round: each seat's symbol and guess."""

    symbols: tuple[Symbol, ...]
    guesses: tuple[Symbol, ...]


@dataclass(frozen=True)
class SightState:
    setup: Setup
    rounds: int
    round: int = 0  # the round under way, from 0
    sealed: tuple[tuple[str, int] | None, ...] = (None, None)  # (commitment, step) per seat
    guesses: tuple[Symbol | None, ...] = (None, None)
    shown: tuple[Symbol | None, ...] = (None, None)
    scores: tuple[int, ...] = (0, 0)
    history: tuple[Done, ...] = ()
    ply: int = 0
    outcome: Outcome | None = None

    @property
    def stage(self) -> Stage:
        if self.outcome is not None:
            return "over"
        if None in self.sealed:
            return "seal"
        if None in self.guesses:
            return "guess"
        return "reveal"

    def name(self, seat: int) -> str:
        return self.setup.seat_names[seat]
