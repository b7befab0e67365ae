"""Second Sight's moves in words, for the game log ("Ada seals a symbol.")."""

from __future__ import annotations

from parlour.games.zener import Symbol
from parlour.words import Named, possessive
from tests.toy_game.actions import Guess, Reveal, Seal
from tests.toy_game.state import SightState


def describe(before: SightState, seat: int, action: object) -> str:
    """One sentence for `seat` taking `action` in the position `before` (public facts only)."""
    name = Named(before.name(seat))
    other = before.name(1 - seat)
    if isinstance(action, Seal):
        return f"{name:seals} a symbol."
    if isinstance(action, Guess):
        return f"{name:guesses} {action.symbol.value} for {possessive(other)} symbol."
    if isinstance(action, Reveal):
        right = before.guesses[1 - seat] == Symbol.parse(action.opening.value)
        return (
            f"{name:shows} {action.opening.value}: {other} guessed {'right' if right else 'wrong'}."
        )
    return f"{name:acts}."
