"""The ESPEERS deck builder in CPython: counts, limits, saving, storage, the set-up's choices."""

from __future__ import annotations

import json

import pytest

from parlour.games import GAMES
from parlour.games.espeers.cards import CARDS, STARTER_DECKS, deck_list, resolve_deck
from parlour.match.config import MatchConfig
from parlour.ui.espeers.decks import (
    DeckBuilder,
    cost_curve,
    deck_choices,
    mix_words,
    resolve_choice,
    saved_decks,
)
from parlour.ui.tree import to_html

ONSLAUGHT = STARTER_DECKS["onslaught"]["cards"]


def builder_from(deck: str = "onslaught") -> DeckBuilder:
    b = DeckBuilder()
    b.handle({"cmd": "start-from", "name": deck})
    return b


def count_shown(b: DeckBuilder, card: str) -> str:
    (tile,) = [n for n in b.render().find_all(data_card=card) if n.tag == "li"]
    return tile.find_all(data_role="count")[0].text()


def test_adding_and_removing_cards_with_the_limits_in_words():
    b = DeckBuilder()
    for _ in range(3):
        b.handle({"cmd": "add", "card": "mind-spike"})
    assert (
        b.counts == {"mind-spike": 3} and b.message == "" and count_shown(b, "mind-spike") == "3/3"
    )
    b.handle({"cmd": "add", "card": "mind-spike"})
    assert b.counts == {"mind-spike": 3}
    assert b.message == "A deck holds at most 3 copies of Mind Spike."
    b.handle({"cmd": "remove", "card": "mind-spike"})
    b.handle({"cmd": "remove", "card": "focus"})  # none to remove: nothing happens
    assert b.counts == {"mind-spike": 2}
    for _ in range(3):
        b.handle({"cmd": "remove", "card": "mind-spike"})
    assert b.counts == {} and b.size == 0


def test_a_thirty_first_card_is_refused():
    b = builder_from("onslaught")
    assert b.size == 30
    b.handle({"cmd": "add", "card": "null-field"})
    assert b.size == 30 and b.message == "The deck already has 30 cards: take one out first."


def test_the_plus_and_minus_buttons_are_disabled_at_the_limits():
    b = builder_from("onslaught")
    tree = b.render()
    (full,) = tree.find_all(data_cmd="add", data_card="mind-spike")
    (none,) = tree.find_all(data_cmd="remove", data_card="psychic-rebuke")
    assert "disabled" in full.attrs and "disabled" in none.attrs
    (more,) = tree.find_all(data_cmd="add", data_card="psychic-rebuke")
    assert "disabled" not in more.attrs and more.attrs["aria-label"] == "One more Psychic Rebuke"


def test_saving_needs_a_legal_deck_and_a_name():
    b = builder_from("mindwall")
    b.handle({"cmd": "remove", "card": "null-field"})
    b.handle({"cmd": "save", "fields": {"deck-name": "Wall"}})
    assert b.message == "Not saved: A deck has exactly 30 cards, not 29." and b.saved == {}
    b.handle({"cmd": "add", "card": "focus"})
    b.handle({"cmd": "save", "fields": {"deck-name": "   "}})
    assert b.message == "Not saved: give the deck a name."
    b.handle({"cmd": "save", "fields": {"deck-name": "  Wall   of   Mind  "}})
    assert b.saved == {"Wall of Mind": b.counts} and "Saved “Wall of Mind”" in b.message
    assert (
        GAMES["espeers"].check_setup(
            MatchConfig(
                "espeers",
                "m-builder-01",
                ("A", "B"),
                {"decks": [b.saved["Wall of Mind"], "onslaught"]},
            ).setup()
        )
        is None
    )


def test_edit_and_delete_a_saved_deck():
    b = builder_from("onslaught")
    b.handle({"cmd": "save", "fields": {"deck-name": "Mine"}})
    b.handle({"cmd": "start-from", "name": "empty"})
    assert b.counts == {} and b.name == ""
    b.handle({"cmd": "edit", "name": "Mine"})
    assert b.counts == ONSLAUGHT and b.name == "Mine" and "Editing" in b.message
    b.handle({"cmd": "delete", "name": "Mine"})
    assert b.saved == {} and b.message == "Deleted “Mine”."
    b.handle({"cmd": "edit", "name": "Mine"})
    assert b.message == "That does nothing here."


def test_storage_round_trip_and_damaged_storage():
    b = builder_from("onslaught")
    b.handle({"cmd": "save", "fields": {"deck-name": "Mine"}})
    b.handle({"cmd": "remove", "card": "focus"})
    again = DeckBuilder.from_json(json.loads(json.dumps(b.to_json())))
    assert again.saved == b.saved and again.counts == b.counts and again.name == "Mine"
    for raw in (None, [], "x", {"decks": 3}, {"decks": {"A": {"mind-spike": 9}}}, {"draft": 7}):
        damaged = DeckBuilder.from_json(raw)
        assert damaged.saved == {} and damaged.counts == {}
    sneaky = {
        "decks": {"<b>x</b>": ONSLAUGHT, "ok": ONSLAUGHT, "short": {"focus": 3}},
        "draft": {
            "name": 5,
            "counts": {"mind-spike": 2, "nope": 1, "focus": 4, "echo-blast": True},
        },
    }
    loaded = DeckBuilder.from_json(sneaky)
    assert set(loaded.saved) == {"<b>x</b>", "ok"}
    assert loaded.counts == {"mind-spike": 2} and loaded.name == ""
    assert "<b>" not in to_html(loaded.render()).replace("&lt;b&gt;", "")


def test_the_summary_shows_the_count_the_cost_curve_and_the_mix():
    b = builder_from("onslaught")
    text = b.render().find_all(data_role="deck-size")[0].text()
    assert text == "30 / 30 cards · Ready to play."
    b.handle({"cmd": "remove", "card": "overload"})
    assert b.render().find_all(data_role="deck-size")[0].text() == "29 / 30 cards · 1 more to go."
    by_cost = {
        cost: sum(n for c, n in ONSLAUGHT.items() if CARDS[c].cost == cost) for cost in range(6)
    }
    label = f"Cost curve: {', '.join(f'{n} at {c}' for c, n in by_cost.items() if n)}"
    assert f'aria-label="{label}"' in to_html(cost_curve(ONSLAUGHT))
    assert mix_words(ONSLAUGHT) == (
        "19 PK, 11 Impulse · cycling: 5 draw 1, 5 draw 2, 3 nothing, 6 regain 1, 11 regain 2."
    )
    assert mix_words({}) == "Add cards from the pool: + and − beside each card."


def test_the_set_up_offers_starter_decks_and_saved_ones():
    saved = {"Mine": dict(ONSLAUGHT)}
    choices = deck_choices(saved)
    assert choices[:2] == [
        ("starter:onslaught", "Onslaught (starter)"),
        ("starter:mindwall", "Mindwall (starter)"),
    ]
    assert choices[2:] == [("saved:Mine", "Mine")]
    assert resolve_choice("starter:mindwall", saved) == "mindwall"
    assert resolve_choice("saved:Mine", saved) == ONSLAUGHT
    assert sorted(resolve_deck(resolve_choice("saved:Mine", saved))) == sorted(deck_list(ONSLAUGHT))
    for bad in ("saved:Other", "starter:nope", "", None, 3, "mindwall"):
        assert resolve_choice(bad, saved) is None


@pytest.mark.parametrize("cmd", ["add", "remove"])
def test_unknown_cards_change_nothing(cmd):
    b = builder_from("onslaught")
    b.handle({"cmd": cmd, "card": "ace-of-spades"})
    assert b.counts == ONSLAUGHT


def test_saved_decks_keeps_only_playable_ones():
    assert saved_decks({"decks": {"A": ONSLAUGHT, "B": {"focus": 3}}}) == {"A": ONSLAUGHT}
