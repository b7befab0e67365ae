"""What Second Sight shows: the public view and a seat's view (JSON-safe)."""

from __future__ import annotations

from typing import Literal, TypedDict

from parlour.games.base import OutcomeJson


class SightSeat(TypedDict):
    name: str
    score: int
    sealed: bool  # has sealed its symbol this round
    guess: str | None  # its guess at the other's symbol this round, once made
    shown: str | None  # its symbol this round, once opened


class SightRound(TypedDict):
    """A finished round: each seat's symbol and guess."""

    symbols: list[str]
    guesses: list[str]


class SightPublicView(TypedDict):
    game: str
    rounds: int
    round: int  # the round under way, from 1
    stage: Literal["seal", "guess", "reveal", "over"]
    to_move: list[int]
    seats: list[SightSeat]
    history: list[SightRound]
    outcome: OutcomeJson | None


class SightMe(TypedDict):
    seat: int
    symbol: str | None  # this seat's own symbol this round, once chosen on this device


class SightSeatView(SightPublicView):
    me: SightMe
