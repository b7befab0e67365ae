"""Psi Squad's facts for the tools (games/facts.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from parlour.games.facts import Example, Facts
from parlour.games.psi_squad.options import LENGTHS, OPTIONS


def hidden(view: Mapping[str, Any]) -> bool:
    """A cypher not guessed yet (sealed or still to be chosen)."""
    return any(not seat["guessed"] for seat in view["seats"])


SHORT = {"length": 3}  # the tests' games: shorter with 3-digit cyphers

FACTS = Facts(
    secrets="cypher",
    hidden=hidden,
    # every seat count at every cypher length
    tables=tuple((s, {"length": n}) for n in LENGTHS for s in OPTIONS.seats.counts),
    examples=(Example("Psi Squad, 3", 3, SHORT),),
    more=(
        Example("Psi Squad, 2", 2, SHORT),
        Example("Psi Squad, 8 (two bots)", 8, SHORT, bots={5: "easy", 6: "easy"}),
    ),
)
