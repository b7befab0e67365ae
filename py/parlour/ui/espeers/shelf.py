"""The ESPEERS decks saved in this browser, as the app reads them: an entry that cannot be read
is set aside (the storage note says so) and what could be read of it written back; the set-up
form's deck choices offer them beside the starter decks. The decks' own module
(espeers/decks.py) is imported on first use: most pages never need it."""

from __future__ import annotations

import json
from typing import Any

from parlour.ui import setup_form
from parlour.ui.page import Effects, Storage

DECKS_STORAGE = "psi-parlour:espeers:decks"
DECKS_WHAT = "Your saved ESPEERS decks"


def saved_decks_raw(storage: Storage) -> object:
    """The saved decks as stored. An entry that is not JSON, or whose decks are not all
    readable, is set aside first; what could be read of it is written back."""
    from parlour.ui.espeers.decks import DeckBuilder, saved_decks

    raw = storage.read(DECKS_STORAGE, DECKS_WHAT)
    if raw is None:
        return {}
    decks = raw.get("decks", {}) if isinstance(raw, dict) else None
    if not isinstance(decks, dict) or len(saved_decks(raw)) != len(decks):
        storage.set_aside(DECKS_STORAGE, DECKS_WHAT)
        raw = DeckBuilder.from_json(raw).to_json()
        storage.set(DECKS_STORAGE, json.dumps(raw))
    return raw


def fill_deck_choices(storage: Storage, effects: Effects, form: object) -> None:
    """Offer the decks saved in this browser next to the starter decks of the set-up form,
    keeping each seat's choice if it is still there."""
    from parlour.ui.espeers.decks import deck_options, saved_decks

    saved = saved_decks(saved_decks_raw(storage))
    for seat, (chosen, default) in enumerate(setup_form.deck_choices(form)):
        selector = f"#new-espeers select[data-deck-seat='{seat}']"
        effects.draw(selector, deck_options(saved, chosen, default))


def chosen_decks(storage: Storage, choices: list[tuple[str, str]]) -> list[Any]:
    """The set-up form's deck choices, in seat order, as the game's variant wants them."""
    from parlour.ui.espeers.decks import resolve_choice, saved_decks

    saved = saved_decks(saved_decks_raw(storage))
    decks: list[Any] = []
    for chosen, default in choices:
        choice = resolve_choice(chosen, saved)
        decks.append(choice if choice is not None else default.partition(":")[2])
    return decks


def guest_decks(raw: object) -> list[tuple[str, str]]:
    """The decks a guest may bring (an invite's join screen, online or by link): the starter
    decks and those saved in this browser (`raw`, as stored)."""
    from parlour.ui.espeers.decks import deck_choices, saved_decks

    return deck_choices(saved_decks(raw))


def guest_choices(raw: object, chosen: str) -> dict[str, Any]:
    """What the guest chose on the join screen for dealing: an ESPEERS deck."""
    from parlour.ui.espeers.decks import resolve_choice, saved_decks

    choice = resolve_choice(chosen, saved_decks(raw))
    return {"deck": choice} if choice is not None else {}
