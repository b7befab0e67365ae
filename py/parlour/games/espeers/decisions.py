"""ESPEERS's decisions: what the game does with the choice it waits for (a `Pending`): a
prediction named and answered, a barrier card shown, damage split between Pool and Spent, the
discard down to the hand size at the end of the Active phase, and the End that follows (pure).

The rules (`rules.py`) list the choices and hand the chosen action here (and show a barrier
that attacks with `show_barrier`); a shown barrier and assigned damage resume the card
resolving (`resolve.py`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TypeGuard

from parlour.errors import CommitmentMismatch, IllegalAction
from parlour.fair.commit import Context, Opening, check_opening
from parlour.games.espeers.actions import (
    Action,
    AnswerPrediction,
    AssignDamage,
    Discard,
    Predict,
    RevealBarrier,
)
from parlour.games.espeers.cards import CARDS
from parlour.games.espeers.resolve import add_event, check_loss, run_queue, set_player, take
from parlour.games.espeers.state import HAND, EspeersState, Pending
from parlour.games.espeers.words import PENDING_SENTENCES
from parlour.games.zener import Symbol
from parlour.words import Named


def is_card(value: object) -> TypeGuard[str]:
    """A card's id: an opening's value comes from another device, and may be any JSON (a list
    there is no key of CARDS: `in` would raise, not refuse)."""
    return isinstance(value, str) and value in CARDS


def decide(state: EspeersState, seat: int, action: Action) -> EspeersState:
    """`seat`'s answer to the decision the game waits for."""
    pending = state.pending
    assert pending is not None
    state = replace(state, pending=None)
    if pending.kind == "predict" and isinstance(action, Predict):
        if action.symbol is None:
            return state
        if Symbol.parse(action.symbol) is None:
            raise IllegalAction("Name one of the five symbols.")
        return replace(state, prediction=action.symbol, pending=Pending("answer", 1 - seat))
    if pending.kind == "answer" and isinstance(action, AnswerPrediction):
        return answer(state, seat, action)
    if pending.kind == "reveal-barrier" and isinstance(action, RevealBarrier):
        state = show_barrier(state, seat, action.opening)
        state = check_loss(take(state, seat, pending.amount), seat)
        return run_queue(state)
    if pending.kind == "assign" and isinstance(action, AssignDamage):
        p = state.players[seat]
        a, b = action.from_pool, action.from_spent
        if a < 0 or b < 0 or a + b != pending.amount or a > p.pool or b > p.spent:
            raise IllegalAction(f"Take exactly {pending.amount} from your Pool and Spent.")
        state = set_player(state, seat, pool=p.pool - a, spent=p.spent - b)
        return run_queue(check_loss(state, seat))
    if pending.kind == "discard" and isinstance(action, Discard):
        return discard(state, seat, action)
    raise IllegalAction(PENDING_SENTENCES[pending.kind].format(name=Named(state.name(seat))))


def answer(state: EspeersState, seat: int, action: AnswerPrediction) -> EspeersState:
    """The barrier's owner says whether the prediction is right; right is proven by showing it."""
    guess = state.prediction
    state = replace(state, prediction=None)
    state = add_event(state, seat, "answer", (guess, action.right))
    if not action.right:
        return state
    if action.opening is None:
        raise IllegalAction("A right prediction is proven by showing the barrier card.")
    value = action.opening.value
    if not is_card(value) or CARDS[value].symbol != guess:
        raise CommitmentMismatch(f"{state.name(seat)}'s barrier card is not a {guess}.", seat)
    return show_barrier(state, seat, action.opening)


def show_barrier(state: EspeersState, seat: int, opening: Opening) -> EspeersState:
    """Discard the barrier face up: its card is checked, its points go to Spent."""
    me = state.players[seat]
    barrier = me.barrier
    assert barrier is not None
    if opening.label != barrier.label or not is_card(opening.value):
        raise CommitmentMismatch(f"{state.name(seat)} showed the wrong card.", seat)
    check_opening(
        Context(state.setup.match_id, seat),
        barrier.commitment,
        opening,
        who=state.name(seat),
        what="their barrier card",
        step=barrier.step,
    )
    state = set_player(
        state,
        seat,
        barrier=None,
        spent=me.spent + barrier.points,
        discard=(*me.discard, opening.value),
    )
    return add_event(state, seat, "barrier-shown", opening.value)


# the end of the Active phase, Discard, End


def end_active(state: EspeersState) -> EspeersState:
    """Discard down to HAND (when the hand is larger), then End."""
    seat = state.active
    extra = state.players[seat].hand - HAND
    if extra > 0:
        return replace(state, phase="discard", pending=Pending("discard", seat, extra))
    return begin_end(state)


def begin_end(state: EspeersState) -> EspeersState:
    """End: the Active player has declared the turn over (its pass counts as the first of two
    in a row), so the opponent holds Opportunity once more; when both have passed in a row
    with nothing on the stack, the turn ends. The hand is not checked again: cards drawn
    now stay until the next Discard."""
    return replace(state, phase="end", opportunity=1 - state.active, passes=1)


def discard(state: EspeersState, seat: int, action: Discard) -> EspeersState:
    me = state.players[seat]
    extra = me.hand - HAND
    if len(action.cards) != extra or any(c not in CARDS for c in action.cards):
        raise IllegalAction(f"Discard exactly {extra} card(s) to get down to {HAND}.")
    state = set_player(state, seat, hand=HAND, discard=(*me.discard, *action.cards))
    for card in action.cards:
        state = add_event(state, seat, "discard", card)
    return begin_end(state)
