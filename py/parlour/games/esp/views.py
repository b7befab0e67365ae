"""What ESP's engine shows: the public view and a seat's view, as the UI and the bots read them.

`ESP.public_view` and `ESP.seat_view` return these (JSON-safe: lists, never tuples, on the way
out; a cell is [q, r]).
"""

from __future__ import annotations

from typing import Literal, TypedDict

from parlour.games.base import OutcomeJson


class EspSeatInfo(TypedDict):
    name: str
    colour: str  # "Light", "Dark", "Violet" or "Amber"
    unplaced: int  # tiles still in the seat's hand


class EspUpTile(TypedDict):
    cell: list[int]
    owner: int
    placed_at: int  # the move that placed it
    face: Literal["up"]
    symbol: str  # a `zener.Symbol` value


class EspDownTile(TypedDict):
    cell: list[int]
    owner: int
    placed_at: int
    face: Literal["down"]
    commitment: str | None  # to the hidden symbol


EspTile = EspUpTile | EspDownTile


class EspOffer(TypedDict):
    """A draw offered: by whom, and who has accepted it so far."""

    proposer: int
    accepted: list[int]


class EspPublicView(TypedDict):
    game: str
    stage: Literal["placement", "movement"]
    to_move: list[int]
    seats: list[EspSeatInfo]
    tiles: list[EspTile]  # in cell order
    sets: list[list[list[int]]]  # the completed sets at the end: windows of five cells
    passes: int  # passes in a row
    seen: int  # how often the position on the table has been there (movement), this time too
    draw_at: int  # the set-up's repetitions that draw: every reader states this one number
    offer: EspOffer | None
    outcome: OutcomeJson | None


class EspMe(TypedDict):
    seat: int
    hidden: dict[str, str]  # "q,r" -> the symbol under this seat's own symbol-down tile there
    tray: list[str]  # the symbols this seat has still to place, one entry per tile


class EspSeatView(EspPublicView):
    """The public view plus the viewing seat's own secrets."""

    me: EspMe
