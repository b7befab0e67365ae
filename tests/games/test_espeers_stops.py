"""ESPEERS's stops (`games/espeers/stops.py`): when the page passes for a person, decided from
that seat's own legal actions and the public state only."""

from __future__ import annotations

from dataclasses import replace

import pytest

from parlour.games.espeers.actions import AssignDamage, Cycle, Mulligan, Pass, Play, Predict
from parlour.games.espeers.cards import CARDS, CYCLING, DECK_SIZE
from parlour.games.espeers.state import StackItem
from parlour.games.espeers.stops import auto_pass, worth_stopping_for
from tests.games.test_espeers import config, espeers, seed_with_first


def card(kind: str | None = None, verb: str | None = "none") -> str:
    """A card of the pool with that kind and that cycling verb ("none": a circle)."""
    for cid, info in CARDS.items():
        ability = CYCLING[info.symbol]
        if (kind is None or info.kind == kind) and (ability or ("none",))[0] == verb:
            return cid
    raise LookupError((kind, verb))


IDLE = card(verb="none")  # cycling it does nothing
REGAIN = card(verb="regain")
DRAW = card(verb="draw")
IMPULSE = next(c for c, i in CARDS.items() if i.kind == "Impulse")


def state(seat_active: int, opportunity: int, stack: bool, phase: str = "active", **me):
    """A state of turn 3 where seat 0 holds Opportunity (or not), with its player's numbers."""
    base = espeers.initial_state(config().setup(), seed_with_first(0))
    players = list(base.players)
    players[0] = replace(players[0], **me)
    items = (StackItem(1 - opportunity, IMPULSE),) if stack else ()
    return replace(
        base,
        players=tuple(players),
        phase=phase,
        active=seat_active,
        opportunity=opportunity,
        stack=items,
        turn=3,
        mulligan_done=frozenset({0, 1}),
    )


def test_your_own_active_phase_with_an_empty_stack_is_always_asked():
    s = state(0, 0, stack=False)
    assert auto_pass(s, 0, [Pass(), Cycle(IDLE)]) is None
    assert auto_pass(s, 0, [Pass()], their_turn=True) is None


@pytest.mark.parametrize("stack", [True, False])
def test_nothing_to_play_and_no_cycle_that_does_anything_is_passed_for_you(stack):
    phase = "active" if stack else "end"
    s = state(1, 0, stack=stack, phase=phase, spent=0)
    assert auto_pass(s, 0, [Pass(), Cycle(IDLE), Cycle(REGAIN)]) == Pass()
    assert auto_pass(s, 0, [Pass()]) == Pass()


def test_a_card_to_play_or_a_cycle_with_an_effect_is_a_stop():
    s = state(1, 0, stack=True, spent=2)
    assert auto_pass(s, 0, [Pass(), Play(IMPULSE)]) is None
    assert auto_pass(s, 0, [Pass(), Cycle(REGAIN)]) is None  # PSI in Spent to regain
    assert auto_pass(s, 0, [Pass(), Cycle(DRAW)]) is None
    assert worth_stopping_for(s, 0, Cycle(DRAW))
    assert not worth_stopping_for(s, 0, Cycle(IDLE))


def test_a_draw_the_deck_cannot_give_is_no_reason_to_stop():
    n = CYCLING[CARDS[DRAW].symbol][1]  # type: ignore[index]
    s = state(1, 0, stack=True, drawn=DECK_SIZE - n + 1)
    assert auto_pass(s, 0, [Pass(), Cycle(DRAW)]) == Pass()


def test_the_option_passes_in_their_turn_unless_something_is_on_the_stack():
    end = state(1, 0, stack=False, phase="end", spent=3)
    legal = [Pass(), Play(IMPULSE), Cycle(DRAW)]
    assert auto_pass(end, 0, legal) is None
    assert auto_pass(end, 0, legal, their_turn=True) == Pass()
    answering = state(1, 0, stack=True, spent=3)
    assert auto_pass(answering, 0, legal, their_turn=True) is None
    mine = state(0, 0, stack=True, spent=3)  # your own turn: their answer on your stack
    assert auto_pass(mine, 0, legal, their_turn=True) is None
    assert auto_pass(mine, 0, [Pass(), Cycle(IDLE)], their_turn=True) == Pass()


@pytest.mark.parametrize(
    "legal", [[Mulligan(True), Mulligan(False)], [Predict(None)], [AssignDamage(1, 0)], []]
)
def test_a_decision_that_is_not_a_pass_is_never_taken(legal):
    s = state(1, 0, stack=True)
    assert auto_pass(s, 0, legal, their_turn=True) is None
