"""What Telepathic's engine shows: the public view and a seat's view, as the UI and the bots read
them, and how a state becomes them. `Telepathic.public_view` and `Telepathic.seat_view` return
these (JSON-safe)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypedDict

from parlour.fair.store import PrivateStore
from parlour.games.base import OutcomeJson
from parlour.games.telepathic.grid import holds
from parlour.games.telepathic.state import CONDITIONS_LABEL, TeleState, next_performer


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


def public_view(
    state: TeleState, game: str, to_move: Iterable[int], must_announce: bool
) -> TelePublicView:
    """What everybody may see: the grid, the row, the seats' roles, the Announcement so far."""
    handed = state.row[state.handed] if state.handed is not None else None
    return {
        "game": game,
        "arrangement": state.arrangement,
        "mode": state.mode,
        "phase": state.phase,
        "to_move": sorted(to_move),
        "active": state.active,
        "performer": state.performer,
        "receiver": next_performer(state) if state.phase == "hand" else state.performer,
        "grid": [list(t) for t in state.grid],
        "row": list(state.row),
        "handed": handed,
        "handed_slot": state.handed,
        "deck": len(state.deck),
        "used": len(state.used),
        "removed": state.removed,
        "reshuffles": state.reshuffles,
        "must_announce": must_announce,
        "seats": [
            {
                "name": state.name(s),
                "roles": [list(r) for r in state.roles(s)],
                "sealed": state.sealed[s] is not None,
            }
            for s in range(state.seats)
        ],
        "claims": [list(c) for c in state.claims],
        "announcer": state.announcer,
        "revealed": {str(s): dict(v) for s, v in state.revealed.items()},
        "outcome": None if state.outcome is None else state.outcome.to_json(),
    }


def seat_view(
    view: TelePublicView, state: TeleState, seat: int, store: PrivateStore | None
) -> TeleSeatView:
    """The public view plus `seat`'s own condition cards, from its store."""
    mine: dict[str, str] = (
        dict(store.value(CONDITIONS_LABEL)) if store and CONDITIONS_LABEL in store else {}
    )
    me: TeleMe = {
        "seat": seat,
        "conditions": mine,
        # a private hint for the owner only; the app never tells the partner
        "met": {which: holds(state.grid, c) for which, c in mine.items()},
    }
    return {**view, "me": me}
