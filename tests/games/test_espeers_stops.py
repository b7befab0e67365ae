"""ESPEERS's stops (`games/espeers/stops.py`): when the page passes for a person. Only where the
engine's legal actions for that seat hold nothing but Pass, once the choices the person declared
they never want (the standing option) are set aside (issue 39)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from parlour.games.espeers.actions import AssignDamage, Cycle, Mulligan, Pass, Play, Predict
from parlour.games.espeers.cards import CARDS, CYCLING, DECK_SIZE
from parlour.games.espeers.state import StackItem
from parlour.games.espeers.stops import auto_pass, cycle_does_something
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


def state(seat_active: int, opportunity: int, stack: bool, phase: str = "active", owner=None, **me):
    """A state of turn 3 where seat 0 holds Opportunity (or not), with its player's numbers;
    on the stack, a card of the other seat's (or `owner`'s)."""
    base = espeers.initial_state(config().setup(), seed_with_first(0))
    players = list(base.players)
    players[0] = replace(players[0], **me)
    items = (StackItem(1 - opportunity if owner is None else owner, IMPULSE),) if stack else ()
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


def test_your_own_active_phase_with_an_empty_stack_is_asked_while_anything_else_is_legal():
    s = state(0, 0, stack=False)
    assert auto_pass(s, 0, [Pass(), Cycle(IDLE)]) is None
    assert auto_pass(s, 0, [Pass(), Cycle(IDLE), Cycle(DRAW)], standing=True) is None
    assert auto_pass(s, 0, [Pass(), Play(IMPULSE)], standing=True) is None


@pytest.mark.parametrize("stack", [True, False])
@pytest.mark.parametrize("standing", [True, False])
def test_pass_alone_is_passed_for_you(stack, standing):
    phase = "active" if stack else "end"
    s = state(1, 0, stack=stack, phase=phase, spent=0)
    assert auto_pass(s, 0, [Pass()], standing) == Pass()


def test_by_default_any_legal_choice_is_a_stop_even_a_cycle_that_does_nothing():
    """The rules let a circle be cycled, or a regain with nothing in Spent: choices, so the
    page asks (it used to pass over them; only the person may say they never want them)."""
    s = state(1, 0, stack=True, spent=0)
    assert auto_pass(s, 0, [Pass(), Cycle(IDLE)]) is None
    assert auto_pass(s, 0, [Pass(), Cycle(REGAIN)]) is None
    end = state(1, 0, stack=False, phase="end")
    assert auto_pass(end, 0, [Pass(), Cycle(DRAW)]) is None


def test_a_card_to_play_or_a_cycle_with_an_effect_answers_their_card_with_the_option():
    s = state(1, 0, stack=True, spent=2)
    assert auto_pass(s, 0, [Pass(), Play(IMPULSE)], standing=True) is None
    assert auto_pass(s, 0, [Pass(), Cycle(REGAIN)], standing=True) is None  # PSI in Spent
    assert auto_pass(s, 0, [Pass(), Cycle(DRAW)], standing=True) is None
    assert cycle_does_something(s, 0, DRAW)
    assert not cycle_does_something(s, 0, IDLE)


def test_with_the_option_a_cycle_that_does_nothing_is_no_answer():
    s = state(1, 0, stack=True, spent=0)
    assert auto_pass(s, 0, [Pass(), Cycle(IDLE), Cycle(REGAIN)], standing=True) == Pass()
    n = CYCLING[CARDS[DRAW].symbol][1]  # type: ignore[index]
    empty = state(1, 0, stack=True, drawn=DECK_SIZE - n + 1)  # a draw that loses the game
    assert auto_pass(empty, 0, [Pass(), Cycle(DRAW)], standing=True) == Pass()
    assert auto_pass(empty, 0, [Pass(), Cycle(DRAW)]) is None


def test_the_option_passes_unless_a_card_of_theirs_is_on_the_stack():
    legal = [Pass(), Play(IMPULSE), Cycle(DRAW)]
    end = state(1, 0, stack=False, phase="end", spent=3)  # the End of their turn
    assert auto_pass(end, 0, legal) is None
    assert auto_pass(end, 0, legal, standing=True) == Pass()
    answering = state(1, 0, stack=True, spent=3)  # their card waits for your answer
    assert auto_pass(answering, 0, legal, standing=True) is None
    theirs = state(0, 0, stack=True, spent=3)  # your own turn: their answer on your stack
    assert auto_pass(theirs, 0, legal, standing=True) is None
    # your own turn, your own card on top, and they passed: it resolves by itself
    mine = state(0, 0, stack=True, owner=0, spent=3)
    assert auto_pass(mine, 0, legal) is None
    assert auto_pass(mine, 0, legal, standing=True) == Pass()


@pytest.mark.parametrize(
    "legal", [[Mulligan(True), Mulligan(False)], [Predict(None)], [AssignDamage(1, 0)], []]
)
def test_a_decision_that_is_not_a_pass_is_never_taken(legal):
    s = state(1, 0, stack=True)
    assert auto_pass(s, 0, legal, standing=True) is None
    assert auto_pass(s, 0, legal) is None
