"""The title of a result, the same on every result screen (a game's end, a forfeit)."""

from __future__ import annotations

from parlour.games.base import Outcome, Termination
from parlour.words import YOU, and_list, with_verb


def outcome_title(outcome: Outcome, names: tuple[str, ...], you: int | None = None) -> str:
    """ "Ada wins!", "Ada and Bo win!", "A draw" or "Nobody wins"; told to `you` (the one
    person at the device, against bots or online): "You win!", "You and Bo win!"."""
    winners = sorted(outcome.winners)
    if winners:
        said = [YOU if s == you else names[s] for s in winners]
        said.sort(key=lambda name: name != YOU)  # "You and Bo win!"
        if len(said) > 1:
            return f"{and_list(said)} win!"
        return f"{with_verb(said[0], 'wins')}!"
    if outcome.termination is Termination.DRAW:
        return "A draw"
    return "Nobody wins"
