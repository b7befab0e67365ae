"""The scripted player of the balance simulation (`parlour.bots.espeers_scripted`) as a bot:
the "scripted" reference level of the arena.

The scripted player takes a state, but reads only public parts of it (the stack, whose turn it
is, its own Pool and Spent): this adapter hands it a stand-in built from the seat's view, so it
cannot read anything else even by mistake.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from parlour.bots import espeers_scripted
from parlour.bots.base import SeatKnowledge
from parlour.fair.rng import Rng


def public_stand_in(view: dict) -> SimpleNamespace:
    """The parts of a state the scripted player reads, from a view."""
    return SimpleNamespace(
        active=view["active"],
        stack=tuple(
            SimpleNamespace(owner=i["owner"], card=i["card"], countered=i["countered"])
            for i in view["stack"]
        ),
        players=tuple(
            SimpleNamespace(pool=p["pool"], spent=p["spent"], hand=p["hand"])
            for p in view["players"]
        ),
    )


def scripted(knowledge: SeatKnowledge, seed: bytes) -> Any:
    if not knowledge.to_move or not knowledge.legal:
        return None
    state = public_stand_in(knowledge.view)
    return espeers_scripted.choose(state, knowledge.seat, list(knowledge.legal), Rng(seed))
