"""ESPEERS's numbers and its state: what every device agrees on after each action (pure).

Kept apart from the rules (`rules.py`) so that the views, the words, the hand replay and the
bots can read a state and the game's numbers without the machinery that changes a state. Every
number the game is played with is named here once; the rules, the sentences (`words.py`), the
screen and the bot's model all read them from here.

A state is public: it counts the cards in each hand and deck but never names a hidden one
(barriers are commitments; hands are replayed from each seat's own deck, `hands.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from parlour.fair.encoding import Json
from parlour.games.base import Outcome, Setup
from parlour.games.espeers.cards import DECK_SIZE
from parlour.games.espeers.options import OPTIONS

START_PSI = 10  # each player's PSI, all in the Pool, at the start
HAND = 6  # the opening hand, and the most a hand keeps at the end of its owner's Active phase
BARRIER_PSI = 2  # PSI a barrier takes from the Pool, and the damage it can absorb
ATTACK_DAMAGE = 1  # a barrier attack's damage
FREE_MULLIGANS = 1  # mulligans that cost nothing
MULLIGAN_PSI = 1  # each further mulligan moves this much PSI from Pool to Spent
DECK_LABEL = "deck"  # the private value (cards and seed) each seat commits to at set-up
DECK_SEED_BYTES = 32  # the secret half of a deck's shuffle, drawn on its owner's device
SEALED = "sealed"  # a deck the player brings, unseen by the others until the end (online)

# setup, mulligan, then each turn: active (the Active phase), discard (down to HAND, when the
# hand is larger), end (the opponent's last Opportunity, and whatever it starts)
Phase = Literal["setup", "mulligan", "active", "discard", "end"]
PendingKind = Literal["predict", "answer", "assign", "reveal-barrier", "discard"]
# What the public record says of an event: a card, a number of cards, a barrier's label, or a
# prediction and its answer.
EventDetail = str | int | tuple[str | None, bool] | None
Event = tuple[int, int, str, EventDetail]  # (step, seat, event, detail)


def declared_decks(variant: Mapping[str, Json]) -> list[Json]:
    """The decks of the set-up, by seat: a starter's id, card counts, or SEALED (the declared
    default, options.DEFAULT_DECKS, when it names none; `Espeers.check_setup` refuses anything
    but two of these)."""
    decks = OPTIONS.value(variant, "decks")
    return list(decks) if isinstance(decks, list) else [decks]


def barrier_label(number: int) -> str:
    return f"barrier:{number}"


def mulligan_cost(taken: int) -> int:
    """The PSI the next mulligan costs a player who has taken `taken` already."""
    return MULLIGAN_PSI if taken >= FREE_MULLIGANS else 0


def total_psi(pool: int, spent: int, barrier_points: int) -> int:
    """A player's PSI: the Pool, Spent and the points on the barrier; none left loses."""
    return pool + spent + barrier_points


@dataclass(frozen=True)
class Barrier:
    commitment: str
    label: str
    placed_turn: int
    step: int
    points: int = BARRIER_PSI


@dataclass(frozen=True)
class Player:
    pool: int = START_PSI
    spent: int = 0
    barrier: Barrier | None = None
    barriers_made: int = 0
    drawn: int = 0  # cards taken from the current order
    mulligans: int = 0
    hand: int = 0
    discard: tuple[str, ...] = ()
    shield: int = 0  # damage still to prevent this turn

    @property
    def psi(self) -> int:
        return total_psi(self.pool, self.spent, self.barrier.points if self.barrier else 0)

    @property
    def deck(self) -> int:
        """Cards left in the deck."""
        return DECK_SIZE - self.drawn


@dataclass(frozen=True)
class StackItem:
    owner: int
    card: str
    countered: bool = False


@dataclass(frozen=True)
class Pending:
    """A decision the game waits for before anything else happens."""

    kind: PendingKind
    seat: int
    amount: int = 0


@dataclass(frozen=True)
class EspeersState:
    setup: Setup
    seed: bytes
    players: tuple[Player, Player]
    sealed: tuple[tuple[str, int] | None, ...] = (None, None)  # (commitment, step) by seat
    phase: Phase = "setup"
    first: int = 0
    active: int = 0
    opportunity: int = 0
    turn: int = 1
    stack: tuple[StackItem, ...] = ()
    passes: int = 0
    queue: tuple[tuple[int, str, int], ...] = ()  # effects of the resolving card: (owner, verb, n)
    resolving: StackItem | None = None
    pending: Pending | None = None
    prediction: str | None = None
    mulligan_done: frozenset[int] = frozenset()
    events: tuple[Event, ...] = ()
    ply: int = 0
    outcome: Outcome | None = None

    def name(self, seat: int) -> str:
        return self.setup.seat_names[seat]


def ends_active_phase(state: EspeersState, seat: int) -> bool:
    """Whether a pass by `seat` now ends the Active phase: the Active player passes in it with
    nothing suspended (Discard, then End, follow)."""
    return state.phase == "active" and not state.stack and seat == state.active
