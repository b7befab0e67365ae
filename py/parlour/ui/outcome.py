"""The title of a result, the same on every result screen (a game's end, a forfeit)."""

from __future__ import annotations

from parlour.games.base import Outcome, Termination


def outcome_title(outcome: Outcome, names: tuple[str, ...]) -> str:
    """ "Ada wins!", "Ada and Bo win!", "A draw" or "Nobody wins"."""
    winners = sorted(outcome.winners)
    if winners:
        title = " and ".join(names[s] for s in winners)
        return title + (" win!" if len(winners) > 1 else " wins!")
    if outcome.termination is Termination.DRAW:
        return "A draw"
    return "Nobody wins"
