"""A simple scripted ESPEERS player, used by the seeded balance simulation (match/simulate.py).

The player sees only its own choices (legal actions, built from its own store) and the public
state. It
answers the opponent's PK with a counter or prevention when it can, attacks with the biggest PK
it can pay for, puts a barrier down when it has spare PSI, and otherwise passes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from parlour.fair.rng import Rng
from parlour.games.espeers.actions import (
    Action,
    AssignDamage,
    BarrierAttack,
    Cycle,
    Discard,
    Mulligan,
    Pass,
    PlaceBarrier,
    Play,
    Predict,
)
from parlour.games.espeers.cards import CARDS
from parlour.games.zener import Symbol

BOOSTS = ("focus", "second-wind", "quick-recall", "clairvoyance")  # Impulses: regain PSI, draw


class SuspendedCard(Protocol):
    """A card on the stack, as the scripted player reads it."""

    @property
    def owner(self) -> int: ...

    @property
    def card(self) -> str: ...


class Side(Protocol):
    """A player's counts, as the scripted player reads them."""

    @property
    def pool(self) -> int: ...

    @property
    def spent(self) -> int: ...

    @property
    def hand(self) -> int: ...


class PublicTable(Protocol):
    """The public parts of a state the scripted player reads: an `EspeersState`, or the
    stand-in the "scripted" bot builds from a seat's view (`bots/espeers/reference.py`)."""

    @property
    def active(self) -> int: ...

    @property
    def stack(self) -> Sequence[SuspendedCard]: ...

    @property
    def players(self) -> Sequence[Side]: ...


def _value(card: str) -> int:
    return sum(n for verb, n in CARDS[card].effects if verb == "damage")


def choose(state: PublicTable, seat: int, legal: Sequence[Action], rng: Rng) -> Action:
    """One decision for `seat` among its `legal` actions, from what that seat may know."""
    if len(legal) == 1:
        return legal[0]
    first = legal[0]
    if isinstance(first, Mulligan):
        return Mulligan(True)
    if isinstance(first, Predict):
        return Predict(rng.choice([symbol.value for symbol in Symbol]))
    if isinstance(first, AssignDamage):
        assigns = [a for a in legal if isinstance(a, AssignDamage)]
        return max(assigns, key=lambda a: a.from_spent)  # keep the Pool to act with
    if isinstance(first, Discard):
        return first
    plays = [a for a in legal if isinstance(a, Play)]
    top = state.stack[-1] if state.stack else None
    if top is not None and top.owner != seat:
        if CARDS[top.card].kind == "PK" and _value(top.card) >= 2:
            for verb in ("counter", "prevent"):
                answers = [a for a in plays if any(v == verb for v, _ in CARDS[a.card].effects)]
                if answers:
                    return answers[0]
        return Pass()
    if seat != state.active or state.stack:
        return Pass()
    attacks = [a for a in legal if isinstance(a, BarrierAttack)]
    if attacks:
        return attacks[0]
    pk = sorted((a for a in plays if CARDS[a.card].kind == "PK"), key=lambda a: -_value(a.card))
    if pk:
        return pk[0]
    me = state.players[seat]
    barriers = [a for a in legal if isinstance(a, PlaceBarrier)]
    if barriers and me.pool >= 4:
        return barriers[0]
    boosts = [a for a in plays if a.card in BOOSTS]
    if boosts and me.spent >= 2:
        return boosts[0]
    cycles = [a for a in legal if isinstance(a, Cycle) and CARDS[a.card].kind == "Impulse"]
    if cycles and me.hand > 4:
        return cycles[0]
    return Pass()
