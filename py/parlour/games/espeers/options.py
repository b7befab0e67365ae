"""ESPEERS's set-up, declared as data (games/options.py): two players, each bringing a deck.

A deck is a starter deck's id or a deck from the deck builder (card counts), so its value is
the engine's to check (`Espeers.check_setup`); the form offers the starters per seat here and
adds the saved decks when the page runs.
"""

from __future__ import annotations

from parlour.games.catalog import entry
from parlour.games.espeers.cards import DECK_SIZE, STARTER_DECKS
from parlour.games.options import Choice, Option, Options, Seats, numbered

# The decks a set-up without a choice plays: the first player Onslaught, the second Mindwall.
DEFAULT_DECKS: tuple[str, str] = ("onslaught", "mindwall")

DECKS = Option(
    key="decks",
    legend="Decks",
    help=f"Each player brings a deck of {DECK_SIZE} cards: a starter or one from the deck builder.",
    choices=(),
    default=list(DEFAULT_DECKS),
    per_seat=tuple(
        Choice(f"starter:{deck_id}", f"{deck['name']} (starter)", name=str(deck["name"]))
        for deck_id, deck in STARTER_DECKS.items()
    ),
    seat_defaults=tuple(f"starter:{deck_id}" for deck_id in DEFAULT_DECKS),
    per_seat_word="deck",
)

GAME = entry("espeers")  # its id and name: the catalog's
OPTIONS = Options(
    game=GAME.id,
    name=GAME.name,
    seats=Seats(
        counts=(2,),
        default=2,
        legend="Players and decks",
        label=numbered("Player"),
        placeholder=numbered("Player"),
    ),
    options=(DECKS,),
    max_moves=2_000,  # ten times the longest arena game: README, "Replays"
    longest_per_seat=65,  # the arena's longest game, per seat: 124 steps (medium)
)
