"""Telepathic's facts for the tools (games/facts.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from parlour.games.facts import Example, Facts
from parlour.games.telepathic.options import ARRANGEMENTS


def hidden(view: Mapping[str, Any]) -> bool:
    """A condition card not opened, or a card in the deck (its order is secret)."""
    holders = {str(s) for s, seat in enumerate(view["seats"]) if seat["roles"]}
    return view["deck"] > 0 or not holders <= set(view["revealed"])


FACTS = Facts(
    secrets="cards",
    hidden=hidden,
    # every arrangement, at the seats it takes
    tables=tuple((seats, {"arrangement": a}) for a, seats in ARRANGEMENTS.items()),
    examples=(
        Example("Telepathic pair", 2, {"arrangement": "pair", "mode": "first"}),
        Example("Telepathic teams", 4, {"arrangement": "teams"}),
    ),
    more=(
        Example("Telepathic director", 3, {"arrangement": "director"}),
        Example("Telepathic four partners", 4, {"arrangement": "four", "mode": "challenge"}),
        Example("Telepathic teams (one bot)", 4, {"arrangement": "teams"}, bots={3: "easy"}),
        # both recipients of the shape deck on the creator's device (a deal at one device)
        Example(
            "Telepathic four partners (two bots)",
            4,
            {"arrangement": "four", "mode": "challenge"},
            bots={2: "easy", 3: "easy"},
        ),
        Example(
            "Telepathic teams (two bots)", 4, {"arrangement": "teams"}, bots={2: "easy", 3: "easy"}
        ),
    ),
)
