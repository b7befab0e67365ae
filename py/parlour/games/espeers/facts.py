"""ESPEERS's facts for the tools (games/facts.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from parlour.games.facts import Example, Facts


def hidden(view: Mapping[str, Any]) -> bool:
    """A card in a hand or a deck (their order and faces are secret)."""
    return any(p["hand"] or p["deck"] for p in view["players"])


FACTS = Facts(hidden=hidden, examples=(Example("ESPEERS", 2),), secrets="cards")
