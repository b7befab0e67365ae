"""Set-up options declared as data (games/options.py): checked by the engines, written into the
page by the build (scripts/pages.py), and extended by one line of data."""

from __future__ import annotations

import dataclasses
import re

import pytest

from parlour.errors import IllegalAction
from parlour.games import game_by_id as get_game
from parlour.games.base import Setup
from parlour.games.declared import GAME_IDS
from parlour.games.options import SEAT_KINDS, Choice, Option
from parlour.games.psi_squad import options as psi_options
from scripts import pages

GAMES = GAME_IDS


def setup(game_id: str, variant: dict, seats: int | None = None) -> Setup:
    game = get_game(game_id)
    n = seats or game.options.seats.default
    return Setup("m-options-0001", tuple(f"P{i}" for i in range(n)), variant)


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("key", ["lenght", "anything", "decks ", ""])
def test_an_unknown_variant_key_is_refused_with_a_sentence(game_id, key):
    game = get_game(game_id)
    with pytest.raises(IllegalAction) as caught:
        game.check_setup(setup(game_id, {key: 1}))
    assert repr(key) in caught.value.sentence
    assert caught.value.sentence.startswith(game.name)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_default_set_up_is_accepted_and_every_declared_choice_too(game_id):
    game = get_game(game_id)
    game.check_setup(setup(game_id, {}))
    for option in game.options.options:
        for choice in option.choices:
            seats = choice.seats or game.options.seats.default
            game.check_setup(setup(game_id, {option.key: choice.value}, seats))


def psi_options_refused() -> str:
    """Psi Squad's refusal, its lengths read from the declaration ("3, 4 or 5")."""
    lengths = [str(n) for n in psi_options.LENGTHS]
    return f"A cypher has {', '.join(lengths[:-1])} or {lengths[-1]} digits."


@pytest.mark.parametrize(
    ("game_id", "variant", "sentence"),
    [
        ("psi-squad", {"length": max(psi_options.LENGTHS) + 1}, psi_options_refused()),
        ("psi-squad", {"length": str(psi_options.LENGTHS[0])}, psi_options_refused()),
        ("telepathic", {"mode": "standard", "discard": 9}, None),
        ("telepathic", {"arrangement": ["pair"]}, "Choose pair, director, four partners or teams."),
    ],
)
def test_a_value_not_declared_is_refused(game_id, variant, sentence):
    with pytest.raises(IllegalAction) as caught:
        get_game(game_id).check_setup(setup(game_id, variant))
    assert caught.value.sentence == (sentence or "A challenge game sets aside 1 to 3 action cards.")


def test_the_engine_reads_defaults_from_the_declaration():
    psi = get_game("psi-squad")
    state = psi.initial_state(setup("psi-squad", {}), bytes(32))
    assert state.length == psi_options.LENGTH.default == 4
    assert state.status[0] == psi_options.max_status(4) == 12


def test_the_page_is_as_the_declarations_say():
    """index.html's generated parts are current (the build rewrites them: `make runtime`)."""
    html = pages.INDEX.read_text(encoding="utf-8")
    assert pages.render(html) == html
    for game_id in GAMES:
        for what in ("setup-form", "here-seats", "options-table"):
            assert f"<!-- generated: {what} {game_id} -->" in html


def _page_with(option_change) -> str:
    games = pages.declarations()
    games["psi-squad"] = option_change(games["psi-squad"])
    return pages.render(pages.INDEX.read_text(encoding="utf-8"), games)


def _section(html: str, section_id: str) -> str:
    start = html.index(f'<section id="{section_id}"')
    return html[start : html.index("</section>", start)]


def test_one_line_of_data_adds_a_six_digit_game_to_the_form_the_rules_and_the_engine(monkeypatch):
    six = psi_options._length(6, "Extra long")  # the one line of data
    longer = dataclasses.replace(psi_options.LENGTH, choices=(*psi_options.LENGTH.choices, six))

    def with_six(options):
        return dataclasses.replace(options, options=(longer,))

    html = _page_with(with_six)
    form, rules = _section(html, "new-psi-squad"), _section(html, "rules-psi-squad")
    assert 'data-variant="length" value="6"> 6 digits (extra long, Max 18)</label>' in form
    assert "<tr><td>Extra long</td><td>6</td><td>18</td></tr>" in rules
    from parlour.games.psi_squad import rules

    psi = get_game("psi-squad")
    six_digit = with_six(psi.options)  # as if the line were written in psi_squad/options.py
    monkeypatch.setattr(psi_options, "LENGTH", longer)
    for holder in (psi_options, rules, type(psi)):
        monkeypatch.setattr(holder, "OPTIONS" if holder is not type(psi) else "options", six_digit)
    state = psi.initial_state(setup("psi-squad", {"length": 6}), bytes(32))
    assert (state.length, state.status[0]) == (6, 18)


def test_one_line_of_data_adds_a_new_option_to_esp(monkeypatch):
    threshold = Option(
        "repetitions",
        "Repetitions for a draw",
        "How often the same position may recur before the game is drawn.",
        (Choice(3, "Three"), Choice(4, "Four")),
        default=3,
    )

    def with_threshold(options):
        return dataclasses.replace(options, options=(threshold,))

    assert "Repetitions for a draw" not in pages.INDEX.read_text(encoding="utf-8")
    games = pages.declarations()
    games["esp"] = with_threshold(games["esp"])
    html = pages.render(pages.INDEX.read_text(encoding="utf-8"), games)
    form, rules = _section(html, "new-esp"), _section(html, "rules-esp")
    assert "<legend>Repetitions for a draw</legend>" in form
    assert 'name="esp-repetitions" data-variant="repetitions" value="4">' in form
    assert "<td>Repetitions for a draw</td><td>Three; Four</td><td>Three</td>" in rules
    esp = get_game("esp")
    monkeypatch.setattr(type(esp), "options", with_threshold(esp.options))
    esp.check_setup(setup("esp", {"repetitions": 4}))
    with pytest.raises(IllegalAction):
        esp.check_setup(setup("esp", {"repetitions": 5}))


@pytest.mark.parametrize("game_id", GAMES)
def test_every_seat_of_every_form_offers_every_seat_kind(game_id):
    form = _section(pages.INDEX.read_text(encoding="utf-8"), f"new-{game_id}")
    seats = max(get_game(game_id).options.seats.counts)
    selects = re.findall(r'<select data-seat-kind="(\d)"[^>]*>(.*?)</select>', form)
    assert [int(s) for s, _ in selects] == list(range(seats))
    for _, options in selects:
        assert re.findall(r'value="([a-z]+)"', options) == [k.value for k in SEAT_KINDS]


def test_the_bots_levels_are_the_declared_seat_kinds():
    from parlour.bots.base import LEVELS

    assert tuple(LEVELS) == tuple(k.value for k in SEAT_KINDS if k.value != "person")


def test_the_form_reads_values_as_the_game_declares_them():
    from parlour.ui import setup_form

    def radio(key, value, checked=True):
        return {"tag": "input", "value": value, "checked": checked, "data": {"variant": key}}

    form = [radio("mode", "challenge"), radio("discard", "2"), radio("discard", "3", False)]
    assert setup_form.variant(form, "telepathic") == {"mode": "challenge", "discard": 2}
    assert setup_form.variant([radio("length", "5")], "psi-squad") == {"length": 5}
    # not declared: kept as typed, so the engine refuses it with a sentence
    assert setup_form.variant([radio("length", "9")], "psi-squad") == {"length": "9"}
    assert setup_form.variant([radio("colour", "red")], "esp") == {"colour": "red"}
