"""ESP's facts for the tools (games/facts.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from parlour.games.facts import Example, Facts


def hidden(view: Mapping[str, Any]) -> bool:
    """A symbol-down tile: its symbol is sealed (the trays are known once every tile is up:
    two of each symbol, less those on the board)."""
    return any(tile["face"] == "down" for tile in view["tiles"])


FACTS = Facts(
    secrets="hidden tiles",
    hidden=hidden,
    examples=(Example("ESP, 3", 3),),
    more=(Example("ESP, 2", 2), Example("ESP, 4 (one bot)", 4, bots={3: "easy"})),
)
