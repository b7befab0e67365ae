"""ESPEERS's start: both decks sealed, the opening hands drawn, then each player keeps a hand or
takes a mulligan, first player first (pure).

The rules (`rules.py`) deal the decks and hand these actions here until the first Active phase.
"""

from __future__ import annotations

from dataclasses import replace

from parlour.errors import CommitmentMismatch, IllegalAction
from parlour.games.espeers.actions import SealDeck
from parlour.games.espeers.resolve import add_event, draw, set_player
from parlour.games.espeers.state import (
    DECK_LABEL,
    HAND,
    MULLIGAN_PSI,
    EspeersState,
    mulligan_cost,
)


def seal_deck(state: EspeersState, seat: int, action: SealDeck) -> EspeersState:
    """`seat` seals its deck; once both are sealed, both draw their opening hands."""
    promised = state.setup.precommitted(seat, DECK_LABEL)
    if promised is not None and action.commitment != promised:
        raise CommitmentMismatch(
            f"{state.name(seat)} sealed another deck than the one committed before the "
            "shuffle seed was drawn.",
            seat,
        )
    sealed = list(state.sealed)
    sealed[seat] = (action.commitment, state.ply)
    state = replace(state, sealed=tuple(sealed))
    if None in state.sealed:
        return state
    for s in (0, 1):
        state = draw(state, s, HAND)
    return replace(state, phase="mulligan")


def mulligan(state: EspeersState, seat: int, keep: bool) -> EspeersState:
    """`seat` keeps its hand, or takes a mulligan: its deck in a new order and a new hand (the
    first is free, each further one costs PSI: `mulligan_cost`)."""
    if keep:
        done = state.mulligan_done | {seat}
        state = replace(state, mulligan_done=done)
        if done == {0, 1}:
            # the very first turn skips Refresh and Draw
            return replace(state, phase="active", opportunity=state.active)
        return state
    me = state.players[seat]
    cost = mulligan_cost(me.mulligans)
    if cost > me.pool:
        raise IllegalAction(
            f"A further mulligan costs {MULLIGAN_PSI} PSI from your Pool, which is empty."
        )
    state = set_player(
        state,
        seat,
        mulligans=me.mulligans + 1,
        drawn=0,
        hand=0,
        pool=me.pool - cost,
        spent=me.spent + cost,
    )
    state = add_event(state, seat, "mulligan", me.mulligans + 1)
    return draw(state, seat, HAND)
