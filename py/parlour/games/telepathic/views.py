"""What Telepathic's engine shows: the public view and a seat's view, as the UI and the bots read
them. `Telepathic.public_view` and `Telepathic.seat_view` return these (JSON-safe)."""

from __future__ import annotations

from typing import TypedDict

from parlour.games.base import OutcomeJson


class TeleSeatInfo(TypedDict):
    name: str
    roles: list[list[str]]  # the condition cards it holds: [kind, "win" or "lose"]
    sealed: bool  # it has sealed its condition cards


class TelePublicView(TypedDict):
    game: str
    arrangement: str  # "pair", "director", "four" or "teams"
    mode: str  # "first", "standard" or "challenge"
    phase: str  # "setup", "hand", "perform", "check", "window", "respond" or "reveal"
    to_move: list[int]
    active: int  # the seat whose turn it is to hand over a card
    performer: int | None  # the seat the card was handed to
    receiver: int | None  # who receives the next card handed over (or has received it)
    grid: list[list[str]]  # sixteen tiles, [colour, shape], row by row
    row: list[str | None]  # the face-up action cards (None: an empty slot)
    handed: str | None  # the action card handed over
    handed_slot: int | None
    deck: int  # cards left in the deck
    used: int  # cards on the discard pile
    removed: int  # challenge: cards set aside unseen
    reshuffles: int
    must_announce: bool
    seats: list[TeleSeatInfo]
    claims: list[list[int | str]]  # the Announcement so far: [seat, win condition named]
    announcer: int | None
    revealed: dict[str, dict[str, str]]  # seat (as text) -> "win"/"lose" -> its opened card
    outcome: OutcomeJson | None


class TeleMe(TypedDict):
    seat: int
    conditions: dict[str, str]  # "win"/"lose" -> this seat's own condition card
    met: dict[str, bool]  # whether each is three in a line now (a hint for the owner only)


class TeleSeatView(TelePublicView):
    """The public view plus the viewing seat's own condition cards."""

    me: TeleMe
