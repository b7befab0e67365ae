"""Telepathic's moves in words, for the game log ("Ada hands Bo the card Swap rows.")."""

from __future__ import annotations

from parlour.games.telepathic.actions import (
    Announce,
    Continue,
    DeclareLost,
    HandCard,
    Perform,
    PlayOn,
    Respond,
    Reveal,
    SealConditions,
)
from parlour.games.telepathic.grid import CARDS_BY_ID, set_names
from parlour.games.telepathic.state import TeleState, next_performer
from parlour.words import Named, capital, possessive


def describe(before: TeleState, seat: int, action: object) -> str:
    """One sentence for `seat` taking `action` in the position `before` (public facts only);
    "" for a routine automatic step, kept out of the log and the messages."""
    name = Named(before.name(seat))
    handed = before.row[before.handed] if before.handed is not None else None
    if isinstance(action, HandCard) and before.row[action.slot] is not None:
        card = CARDS_BY_ID[before.row[action.slot] or ""]
        performer = Named(before.name(next_performer(before)))
        return f"{name:hands} {performer:in} the card {card.name}."
    if isinstance(action, Perform) and handed is not None:
        card = CARDS_BY_ID[handed]
        target = set_names(card.sets)[action.set_index]
        return f"{name:applies} {card.name} to {target}."
    if isinstance(action, Announce):
        said = "; ".join(f"{possessive(before.name(s))} win is {n}" for s, n in action.claims)
        return f"{name:makes} the Announcement: {said}."
    if isinstance(action, Respond) and before.announcer is not None:
        whose = capital(possessive(before.name(before.announcer)))
        return f"{name:answers}: {whose} win is {action.name}."
    if isinstance(action, Continue):
        return f"{name:lets} play go on."
    if isinstance(action, SealConditions | PlayOn):
        return ""  # routine, automatic: kept out of the log and the messages
    if isinstance(action, DeclareLost):
        return f"{name}: the game is lost."
    if isinstance(action, Reveal):
        return f"{name:shows} {name:their} condition cards."
    return f"{name:acts}."
