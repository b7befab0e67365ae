"""What Psi Squad's engine shows: the public view and a seat's view, as the UI and the bots read
them. `PsiSquad.public_view` and `PsiSquad.seat_view` return these (JSON-safe)."""

from __future__ import annotations

from typing import Literal, TypedDict

from parlour.games.base import OutcomeJson


class PsiSeatInfo(TypedDict):
    name: str
    status: int  # points on the status board
    value: int  # the Value of the last answer about this seat's cypher
    guessed: bool  # its cypher has been guessed
    ready: bool  # it has sealed its cypher
    commitment: str | None  # to its cypher, once sealed


class PsiPending(TypedDict):
    """A guess waiting for its target's answer."""

    guesser: int
    target: int
    digits: str


class PsiRecord(TypedDict):
    """One guess and its answer, as announced at the table."""

    step: int  # the move of the answer
    guesser: int
    target: int
    digits: str
    correct: int
    spotted: int
    value: int
    change: int  # of the guesser's status


class PsiBonus(TypedDict):
    """The points the last unguessed cypher's holder gains at the end."""

    seat: int
    points: int


class PsiPublicView(TypedDict):
    game: str
    length: int  # digits in a cypher
    max: int  # the highest status
    stage: Literal["setup", "play"]
    to_move: list[int]
    first: int
    seats: list[PsiSeatInfo]
    pending: PsiPending | None
    history: list[PsiRecord]
    bonus: PsiBonus | None
    outcome: OutcomeJson | None


class PsiMe(TypedDict):
    seat: int
    cypher: str | None  # this seat's own cypher, once chosen on this device


class PsiSeatView(PsiPublicView):
    """The public view plus the viewing seat's own cypher."""

    me: PsiMe
