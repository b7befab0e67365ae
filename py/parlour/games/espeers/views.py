"""What an ESPEERS seat sees, as typed dictionaries: the public view and a seat's view (pure).

The views are the only thing the screen and the bots read (a bot's knowledge is its seat's
view; the screen draws from the view of the seat on screen), so their shape is written down
here once, as TypedDicts the engine builds (`Espeers.public_view`, `Espeers.seat_view`) and its
readers annotate with.

The public view counts hidden cards and never names one: a hand is a number, a barrier its
points and the turn it went down. A seat's view adds only that seat's own hand and barrier card.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypedDict, TypeGuard, cast

from parlour.games.base import OutcomeJson
from parlour.games.espeers.state import (
    START_PSI,
    EspeersState,
    PendingKind,
    Phase,
    total_psi,
)


class BarrierView(TypedDict):
    points: int  # PSI on it: it absorbs up to this much damage
    turn: int  # the turn it went down (it may attack in a later one)


class PlayerView(TypedDict):
    name: str
    pool: int
    spent: int
    removed: int  # PSI out of the game
    barrier: BarrierView | None
    hand: int  # cards in hand, counted
    deck: int  # cards left in the deck
    discard: list[str]  # the discard pile, bottom first
    shield: int  # damage still prevented this turn
    mulligans: int


class StackItemView(TypedDict):
    owner: int
    card: str
    countered: bool


class PendingView(TypedDict):
    kind: PendingKind
    seat: int
    amount: int


class PublicView(TypedDict):
    game: str
    phase: Phase
    turn: int
    active: int
    opportunity: int
    to_move: list[int]
    players: list[PlayerView]
    stack: list[StackItemView]  # bottom first: the last item resolves first
    pending: PendingView | None
    prediction: str | None
    outcome: OutcomeJson | None  # Outcome.to_json()


class MeView(TypedDict):
    seat: int
    hand: list[str]  # sorted
    barrier_card: str | None


class SeatView(PublicView):
    me: MeView


def public_view(state: EspeersState, to_move: Iterable[int]) -> PublicView:
    return {
        "game": "espeers",
        "phase": state.phase,
        "turn": state.turn,
        "active": state.active,
        "opportunity": state.opportunity,
        "to_move": sorted(to_move),
        "players": [
            {
                "name": state.name(s),
                "pool": p.pool,
                "spent": p.spent,
                "removed": START_PSI - p.psi,
                "barrier": None
                if p.barrier is None
                else {"points": p.barrier.points, "turn": p.barrier.placed_turn},
                "hand": p.hand,
                "deck": p.deck,
                "discard": list(p.discard),
                "shield": p.shield,
                "mulligans": p.mulligans,
            }
            for s, p in enumerate(state.players)
        ],
        "stack": [
            {"owner": i.owner, "card": i.card, "countered": i.countered} for i in state.stack
        ],
        "pending": None
        if state.pending is None
        else {
            "kind": state.pending.kind,
            "seat": state.pending.seat,
            "amount": state.pending.amount,
        },
        "prediction": state.prediction,
        "outcome": None if state.outcome is None else state.outcome.to_json(),
    }


def seat_view(public: PublicView, seat: int, hand: list[str], barrier_card: str | None) -> SeatView:
    """The public view with `seat`'s own hand and barrier card added."""
    return {**public, "me": {"seat": seat, "hand": hand, "barrier_card": barrier_card}}


def is_seat_view(view: PublicView) -> TypeGuard[SeatView]:
    """Whether `view` is a seat's (a spectator's view, or the final table's, is public)."""
    return "me" in view


def as_public_view(view: Mapping[str, Any]) -> PublicView:
    """An ESPEERS view that came as a plain mapping (through the `Game` interface or a bot's
    `SeatKnowledge`), read with its type again: the engine built it as a `PublicView`."""
    return cast(PublicView, view)


def as_seat_view(view: Mapping[str, Any]) -> SeatView:
    """A seat's ESPEERS view that came as a plain mapping, read with its type again."""
    return cast(SeatView, view)


def psi(player: PlayerView) -> int:
    """A player's PSI, from the view (the engine's `Player.psi`)."""
    barrier = player["barrier"]
    return total_psi(player["pool"], player["spent"], barrier["points"] if barrier else 0)
