"""One tap to a game against the computer (issue 28, point 1), in CPython: "Play vs computer"
starts at once (medium bots, the game's usual seats, no hand-off), remembers the last choice of
a person alone against bots, never trips on what storage holds, and says "You"."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.games.base import Outcome, Termination
from parlour.games.declared import GAME_IDS, default_tables
from parlour.ui import solo
from parlour.ui.app import App
from parlour.ui.outcome import outcome_title
from tests.ui.test_bot_seats import call, form

KEY = "psi-parlour:{game}:vs-computer"


def started(local: dict[str, str] | None = None) -> App:
    app = App()
    call(app, {"op": "start", "local": local or {}, "session": {}})
    return app


@pytest.mark.parametrize(("game", "seats"), default_tables())
def test_one_tap_starts_a_game_against_medium_bots_with_no_hand_off(game: str, seats: int):
    app = started()
    out = call(app, {"op": "route", "hash": f"#solo-{game}"})
    assert out["go"] == f"#play-{game}"
    s = app.sessions[game]
    assert len(s.names) == seats
    assert s.bots == {seat: "medium" for seat in range(1, seats)}
    assert s.humans == [0] and s.viewer == 0  # the person's own view: no hand-off at all
    html = json.dumps(call(app, {"op": "route", "hash": f"#play-{game}"}))
    assert 'data-role=\\"handoff\\"' not in html


def test_the_person_s_turn_says_your_turn():
    app = started()
    call(app, {"op": "route", "hash": "#solo-esp"})
    out = call(app, {"op": "route", "hash": "#play-esp"})
    assert "Your turn" in out["render"][0][1]


def test_a_set_up_alone_against_bots_is_remembered_for_the_next_tap():
    app = started()
    fields = form("esp", 3, {0: "hard", 2: "hard"})  # the person plays the second seat
    out = call(app, {"op": "route", "hash": "#start-esp", "form": fields})
    remembered = json.loads(out["local"][KEY.format(game="esp")])
    assert remembered["level"] == "hard" and remembered["seats"] == 3
    again = started({KEY.format(game="esp"): out["local"][KEY.format(game="esp")]})
    call(again, {"op": "route", "hash": "#solo-esp"})
    assert again.sessions["esp"].bots == {1: "hard", 2: "hard"}


def test_pass_and_play_between_people_is_not_remembered():
    app = started()
    out = call(app, {"op": "route", "hash": "#start-esp", "form": form("esp", 2, {})})
    assert KEY.format(game="esp") not in out.get("local", {})


def test_the_person_s_deck_and_the_variant_are_remembered():
    deck = [
        {"tag": "select", "value": "starter:mindwall", "data": {"deck-seat": "0",
         "default": "starter:onslaught"}},
        {"tag": "select", "value": "starter:onslaught", "data": {"deck-seat": "1",
         "default": "starter:mindwall"}},
    ]  # fmt: skip
    app = started()
    fields = form("espeers", 2, {1: "easy"}) + deck
    out = call(app, {"op": "route", "hash": "#start-espeers", "form": fields})
    again = started({KEY.format(game="espeers"): out["local"][KEY.format(game="espeers")]})
    call(again, {"op": "route", "hash": "#solo-espeers"})
    config = again.sessions["espeers"].table.match.config
    assert config.variant["decks"] == ["mindwall", "onslaught"] and config.bot_levels == {1: "easy"}
    director = solo.SoloChoice("medium", 3, {"arrangement": "director"})
    app = started({KEY.format(game="telepathic"): director.to_text()})
    call(app, {"op": "route", "hash": "#solo-telepathic"})
    assert len(app.sessions["telepathic"].names) == 3


@pytest.mark.parametrize(
    "raw",
    [
        None,
        "",
        "not json",
        "[" * 5000,
        '{"level": "godlike", "seats": 99, "variant": {"length": "nine"}, "decks": [1, 2]}',
        '{"seats": "2"}',
        '{"variant": {"arrangement": "director"}, "seats": 2}',  # an arrangement of 3, with 2
        "[1, 2, 3]",
        '"\\ud800"',
    ],
)
def test_damaged_or_foreign_storage_falls_back_to_the_defaults(raw: str | None):
    for game in GAME_IDS:
        choice = solo.read_choice(game, raw)
        names, bots = solo.seats_of(game, choice)
        assert set(bots.values()) <= {"easy", "medium", "hard"} and len(names) >= 2
        if raw is None or "godlike" in raw:
            assert choice == solo.default_choice(game)


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=200))
def test_any_text_in_storage_starts_a_game(raw: str):
    app = started({KEY.format(game="psi-squad"): raw})
    out = call(app, {"op": "route", "hash": "#solo-psi-squad"})
    assert out["go"] == "#play-psi-squad"


def test_a_game_in_progress_is_not_replaced_without_asking():
    app = started()
    call(app, {"op": "route", "hash": "#start-esp", "form": form("esp", 2, {})})
    out = call(app, {"op": "route", "hash": "#solo-esp"})
    assert "go" not in out and out["render"][0][0] == "#solo-esp"
    assert "Replace your game of ESP?" in out["render"][0][1]
    out = call(app, {"op": "click", "region": "solo:esp", "data": {"cmd": "replace-game"}})
    assert out["go"] == "#play-esp" and app.sessions["esp"].bots == {1: "medium"}


def test_the_result_says_you():
    won = Outcome(Termination.WIN, frozenset({0}), "")
    both = Outcome(Termination.SHARED_WIN, frozenset({0, 1}), "")
    lost = Outcome(Termination.WIN, frozenset({1}), "")
    names = ("Light", "Dark (bot)")
    assert outcome_title(won, names, you=0) == "You win!"
    assert outcome_title(both, names, you=1) == "You and Light win!"
    assert outcome_title(lost, names, you=0) == "Dark (bot) wins!"
    assert outcome_title(won, names) == "Light wins!"
    three = Outcome(Termination.SHARED_WIN, frozenset({0, 1, 2}), "")  # Psi Squad's team
    assert outcome_title(three, ("Ada", "Bo", "Cy"), you=2) == "You, Ada and Bo win!"
    assert outcome_title(three, ("Ada", "Bo", "Cy")) == "Ada, Bo and Cy win!"


def test_a_finished_game_is_marked_so_that_it_is_not_offered_to_resume():
    from tests.ui.test_play_access import finished

    app = started()
    call(app, {"op": "route", "hash": "#start-esp", "form": form("esp", 2, {})})
    app.sessions["esp"] = finished()
    app.save("esp")
    assert app.effects.local["psi-parlour:esp:pass-and-play:finished"] == "1"
    call(app, {"op": "click", "region": "play:esp", "data": {"cmd": "rematch"}})
    assert app.storage.get("psi-parlour:esp:pass-and-play:finished") is None


def test_the_telepathic_lesson_teaches_reading_a_partner_and_places_nothing_beside():
    from parlour.ui.telepathic.lesson import LESSON

    words = [step.say for step in LESSON.steps]
    assert not any("beside" in said for said in words), "on a phone the cards are not beside"
    assert any(said.startswith("Reading your partner") for said in words)


NAMED = ("Kestrel", "Wim (bot)", "Quin (bot)")  # no name is a word of a sentence


@pytest.mark.parametrize(("game", "seats"), default_tables())
def test_the_status_line_addresses_the_person_alone_as_you(game: str, seats: int):
    """Issue 28: through whole games (easy bots in every seat), every status sentence for the
    person alone against bots (seat 0) is addressed to them ("you", "your", or the bare
    imperative "Choose where…") where the pass-and-play one names their seat, and never names
    it; the bots' own sentences are unchanged. (A game's secrets are drawn afresh each run, and
    a Telepathic game can be lost in its first turns: games are played until four sentences
    have been addressed.)"""
    addressed = 0
    for index in range(6):
        addressed += sentences_addressed_in_a_game(game, seats, index)
        if addressed > 3:
            break
    assert addressed > 3


def sentences_addressed_in_a_game(game: str, seats: int, index: int) -> int:
    from parlour.fair.rng import Rng
    from parlour.games import GAMES
    from parlour.match import bot_seats
    from parlour.match.config import MatchConfig
    from parlour.match.table import Table
    from parlour.ui.screens import screen_for

    config = MatchConfig(game, f"m-solo-words-{game}-{index}", NAMED[:seats])
    rng = Rng(b"%s-%d" % (game.encode(), index))
    table = Table.new(GAMES[game], config, rng.read(32), range(seats))
    screen = screen_for(game)
    addressed = 0
    for _ in range(3000):
        view = table.game.public_view(table.state)
        plain, mine = screen.status(view, 0), screen.status(view, 0, 0)
        assert NAMED[0] not in mine, mine
        if NAMED[0] in plain:
            addressed += 1
            assert mine != plain  # "You hold…", "Your turn: …", or a bare "Choose where…"
        else:
            assert mine == plain or "you" in mine.lower(), (plain, mine)
        if table.match.result() is not None:
            break
        seat = min(table.game.to_move(table.state))
        action = table.game.auto_action(table.state, seat, table.stores[seat])  # an answer
        if action is None:
            action = bot_seats.decide(table, seat, "easy", rng.read(32)).choice
        assert table.act(seat, action).ok
    return addressed


def test_esp_s_heading_says_your_turn_place_a_tile_once():
    app = started()
    call(app, {"op": "route", "hash": "#solo-esp"})
    session = app.sessions["esp"]
    [heading] = session.render().find_all(data_role="status")
    assert heading.text() == "Your turn: Place a tile (0 of 20 placed)."
    assert session.names[0] not in heading.text()
