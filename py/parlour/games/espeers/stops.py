"""ESPEERS's stops: when the page passes for a person, as digital card games do (pure).

Opportunity comes back to a player many times a turn (each card the other plays, each card that
resolves, the End of the other's turn). A stop is a window the page stops in and asks; in any
other window it plays a real `Pass` for the person, through the engine like a click (logged,
checked, undone like any move), so the stack resolves by itself and the log tells each
resolution.

The rules decide what a choice is: the page passes for a seat only where the engine's legal
actions for it hold nothing but Pass, once the choices the person said they never want are set
aside. Those are only what the standing option `STANDING` declares:

- Without it: a pass only where Pass is the one legal action (an empty hand and no barrier
  that may attack). That is public (the hand's size, the barrier, the phase), so the quick pass
  tells nobody anything, and pass-and-play may take it too: no hand-off just to press Pass.
- With it ("Pass unless something of theirs is on the stack"): the person never wants to act
  while no card of the opponent's waits on top of the stack, outside their own Active phase on
  an empty stack (where passing ends that phase and the turn is played); so their own cards
  resolve by themselves, and the other's turn goes by until a card of theirs is there to answer.
  Nor a cycle that does nothing (a circle, a regain with nothing in Spent, a draw the deck
  cannot give: that loses). It reads the seat's hand, so it is for one person against bots only,
  where nobody else watches the timing.
- Never a decision that is not Pass or a card: a mulligan, a prediction, the damage's zones, a
  discard.
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.games.espeers.actions import Action, Cycle, Pass
from parlour.games.espeers.cards import CARDS, CYCLING, DECK_SIZE
from parlour.games.espeers.state import EspeersState, ends_active_phase

STANDING = "pass-unless-answering"  # the option's name, in the seat's notes and its button
STANDING_LABEL = "Pass unless something of theirs is on the stack"


def cycle_does_something(state: EspeersState, seat: int, card: str) -> bool:
    """Whether cycling `card` now changes more than the hand: a regain with PSI in Spent, a
    draw the deck still holds (a draw from an empty deck loses the game)."""
    ability = CYCLING[CARDS[card].symbol]
    if ability is None:
        return False
    verb, n = ability
    me = state.players[seat]
    if verb == "regain":
        return me.spent > 0
    return me.drawn + n <= DECK_SIZE


def answering(state: EspeersState, seat: int) -> bool:
    """Whether `seat` holds Opportunity where the standing option still asks: its own Active
    phase on an empty stack, or a card of the other's on top of the stack."""
    if ends_active_phase(state, seat):
        return True
    return bool(state.stack) and state.stack[-1].owner != seat


def wanted(state: EspeersState, seat: int, action: Action) -> bool:
    """Whether `action` is a choice the standing option still asks about."""
    if not answering(state, seat):
        return False
    return not isinstance(action, Cycle) or cycle_does_something(state, seat, action.card)


def auto_pass(
    state: EspeersState, seat: int, legal: Sequence[Action], standing: bool = False
) -> Pass | None:
    """The Pass the page plays for `seat` now, or None when it stops and asks.

    `legal` is the seat's own `legal_actions`; `standing` the option above."""
    if Pass() not in legal:
        return None
    choices = [a for a in legal if a != Pass()]
    if standing:
        choices = [a for a in choices if wanted(state, seat, a)]
    return None if choices else Pass()
