"""Second Sight's facts for the tools (games/facts.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from parlour.games.facts import Example, Facts


def hidden(view: Mapping[str, Any]) -> bool:
    """A symbol sealed and not opened yet: from a round's first seal to its last opening."""
    return any(seat["sealed"] and seat["shown"] is None for seat in view["seats"])


FACTS = Facts(
    secrets="symbol",
    hidden=hidden,
    tables=((2, {"rounds": 3}), (2, {"rounds": 5})),
    examples=(Example("Second Sight, 2", 2, {"rounds": 3}),),
    more=(Example("Second Sight, 2, five rounds", 2, {"rounds": 5}),),
)
