"""ESPEERS's stops: when the page may pass for a person, as digital card games do (pure).

Opportunity comes back to a player many times a turn (each card the other plays, the End of
the other's turn), and most of those times there is nothing worth doing. A stop is a window the
page stops in and asks; in any other window it plays a real `Pass` for the person, through the
engine like a click (logged, checked, undone like any move).

The decision reads that seat's own legal actions (its own hand, through the engine) and the
public state only, so it tells nobody anything; the page uses it only where no other person
watches the timing (one person against bots on one device).

- Default: stop when something could be played, or cycled with an effect (a regain with PSI in
  Spent, a draw the deck still holds): a circle, or a regain with nothing Spent, changes
  nothing but the hand, so it is no reason to stop.
- `THEIR_TURN` ("Pass in the opponent's turn unless something is on the stack"): in the other
  player's turn, stop only when a card of theirs waits on the stack to be answered.
- Never a stop skipped: your own Active phase with an empty stack (passing there ends it, and
  it is where the turn is played), any decision that is not Pass or Act (a mulligan, a
  prediction, the damage's zones, a discard).
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.games.espeers.actions import Action, Cycle, Pass
from parlour.games.espeers.cards import CARDS, CYCLING, DECK_SIZE
from parlour.games.espeers.state import EspeersState, ends_active_phase

THEIR_TURN = "pass-their-turn"  # the option's name, in the seat's notes and the page's button
THEIR_TURN_LABEL = "Pass in the opponent's turn unless something is on the stack"


def worth_stopping_for(state: EspeersState, seat: int, action: Action) -> bool:
    """Whether `action` (one of the seat's legal actions) is a reason to ask the person."""
    if isinstance(action, Pass):
        return False
    if not isinstance(action, Cycle):
        return True  # a card to play, a barrier to lay or to attack with
    ability = CYCLING[CARDS[action.card].symbol]
    if ability is None:
        return False
    verb, n = ability
    me = state.players[seat]
    if verb == "regain":
        return me.spent > 0
    return me.drawn + n <= DECK_SIZE  # a draw from an empty deck loses: never worth it


def auto_pass(
    state: EspeersState, seat: int, legal: Sequence[Action], their_turn: bool = False
) -> Pass | None:
    """The Pass the page plays for `seat` now, or None when it stops and asks.

    `legal` is the seat's own `legal_actions`; `their_turn` the option above."""
    if Pass() not in legal or ends_active_phase(state, seat):
        return None
    if their_turn and seat != state.active and not state.stack:
        return Pass()
    if any(worth_stopping_for(state, seat, a) for a in legal):
        return None
    return Pass()
