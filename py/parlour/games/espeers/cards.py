"""ESPEERS card data (cards.json) and deck rules: the pool, the starter decks, deck checks."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import TypedDict

DECK_SIZE = 30
MAX_COPIES = 3

_DATA = json.loads(resources.files(__package__).joinpath("cards.json").read_text())
VERBS: dict[str, str] = _DATA["verbs"]
CARD_TEXT: dict[str, str] = _DATA["card_text"]  # the shorter wording printed on the cards


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    kind: str  # "PK" (only in your own Active phase) or "Impulse" (whenever you hold Opportunity)
    cost: int
    symbol: str  # a Zener symbol: what cycling it does
    effects: tuple[tuple[str, int], ...]

    def text(self) -> str:
        return "; ".join(VERBS[verb].replace("N", str(n)) for verb, n in self.effects) + "."

    def printed(self) -> str:
        """The text printed on the card: each effect in the short wording of `card_text`."""
        return " ".join(_numbered(CARD_TEXT[verb], n) for verb, n in self.effects)


def _numbered(template: str, n: int) -> str:
    return template.replace("N", str(n)).replace("card(s)", "card" if n == 1 else "cards")


CARDS: dict[str, Card] = {
    c["id"]: Card(
        c["id"],
        c["name"],
        c["kind"],
        c["cost"],
        c["symbol"],
        tuple((v, n) for v, n in c["effects"]),
    )
    for c in _DATA["cards"]
}


class StarterDeck(TypedDict):
    name: str
    character: str  # how it plays, in a line
    cards: dict[str, int]  # card id -> copies


STARTER_DECKS: dict[str, StarterDeck] = _DATA["starter_decks"]

# What cycling a card does, by its symbol (docs/rulings.md).
CYCLING: dict[str, tuple[str, int] | None] = {
    "circle": None,
    "star": ("regain", 2),
    "square": ("regain", 1),
    "cross": ("draw", 1),
    "waves": ("draw", 2),
}


def deck_list(counts: Mapping[str, int]) -> list[str]:
    """A deck as 30 card ids, in a fixed order (the shuffle comes later)."""
    return [card for card in sorted(counts) for _ in range(counts[card])]


def deck_problem(cards: object) -> str | None:
    """Why a deck cannot be played, in words; None when it can."""
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        return "A deck is a list of cards."
    unknown = sorted({c for c in cards if c not in CARDS})
    if unknown:
        return f"There is no card called {unknown[0]!r}."
    if len(cards) != DECK_SIZE:
        return f"A deck has exactly {DECK_SIZE} cards, not {len(cards)}."
    over = [c for c, n in Counter(cards).items() if n > MAX_COPIES]
    if over:
        return f"A deck holds at most {MAX_COPIES} copies of a card ({CARDS[over[0]].name})."
    return None


def resolve_deck(choice: object) -> list[str]:
    """A deck from the set-up: a starter deck's id, or counts of cards from the deck builder."""
    if isinstance(choice, str) and choice in STARTER_DECKS:
        return deck_list(STARTER_DECKS[choice]["cards"])
    if isinstance(choice, dict) and all(isinstance(n, int) and n >= 0 for n in choice.values()):
        return deck_list(choice)
    raise ValueError("unknown deck")
