"""The scripted player of the balance simulation (`parlour.bots.espeers_scripted`) as a bot:
the "scripted" reference level of the arena.

The scripted player takes a state, but reads only public parts of it (the stack, whose turn it
is, its own Pool and Spent): this adapter hands it a stand-in built from the seat's view, so it
cannot read anything else even by mistake.
"""

from __future__ import annotations

from dataclasses import dataclass

from parlour.bots import espeers_scripted
from parlour.bots.base import SeatKnowledge
from parlour.fair.rng import Rng
from parlour.games.espeers.actions import Action
from parlour.games.espeers.views import PublicView, as_public_view


@dataclass(frozen=True)
class SuspendedStandIn:
    owner: int
    card: str
    countered: bool


@dataclass(frozen=True)
class SideStandIn:
    pool: int
    spent: int
    hand: int


@dataclass(frozen=True)
class PublicStandIn:
    active: int
    stack: tuple[SuspendedStandIn, ...]
    players: tuple[SideStandIn, ...]


def public_stand_in(view: PublicView) -> PublicStandIn:
    """The parts of a state the scripted player reads, from a view."""
    return PublicStandIn(
        active=view["active"],
        stack=tuple(
            SuspendedStandIn(owner=i["owner"], card=i["card"], countered=i["countered"])
            for i in view["stack"]
        ),
        players=tuple(
            SideStandIn(pool=p["pool"], spent=p["spent"], hand=p["hand"]) for p in view["players"]
        ),
    )


def scripted(knowledge: SeatKnowledge, seed: bytes) -> Action | None:
    if not knowledge.to_move or not knowledge.legal:
        return None
    state = public_stand_in(as_public_view(knowledge.view))
    return espeers_scripted.choose(state, knowledge.seat, list(knowledge.legal), Rng(seed))
