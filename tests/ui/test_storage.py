"""Storage that fails, and saves that cannot be read (issue 25, points 2 and 3), in the worker:
nothing is lost in silence. A save that cannot be read is moved aside to `<key>:damaged` (never
deleted, never written over) with one sentence for the player; a write the browser refused is
told to the player, with a way to make room that never touches the game being played."""

from __future__ import annotations

import json

import pytest

from parlour.ui.app import App
from parlour.ui.espeers.shelf import DECKS_STORAGE
from parlour.ui.online.saves import ONLINE_LAST, ONLINE_SAVE
from parlour.ui.page import Storage
from parlour.ui.pass_and_play import new_table
from parlour.ui.saved_game import STORAGE
from parlour.ui.storage_note import ROOT, SAVED_AGAIN, SENTENCES, old_saves, remove_save, retry

ESP = STORAGE.format(game="esp")
TELE = STORAGE.format(game="telepathic")
DEEP = "[" * 100_000 + "]" * 100_000


def call(app: App, request: dict) -> dict:
    out = json.loads(app.call(json.dumps(request)))
    assert "error" not in out, out["error"]
    return out


def started(local: dict[str, str], hash_: str = "#home", **more: object) -> tuple[App, dict]:
    app = App()
    return app, call(app, {"op": "start", "local": local, "session": {}, "hash": hash_, **more})


def note(out: dict) -> str:
    """The storage note's HTML as this answer drew it ("" if it drew none)."""
    return next((html for selector, html in out.get("render", []) if selector == ROOT), "")


def esp_save() -> str:
    app = App()
    app.sessions["esp"] = app._session(new_table("esp", ("Ada", "Bo")), "esp")
    app.save("esp")
    text = app.storage.get(ESP)
    assert text is not None
    return text


def valid_deck_json() -> dict:
    from parlour.ui.espeers.decks import DeckBuilder

    builder = DeckBuilder.from_json({})
    builder.handle({"cmd": "start-from", "name": first_starter()})
    builder.handle({"cmd": "save", "fields": {"deck-name": "Mine"}})
    return builder.to_json()


def first_starter() -> str:
    from parlour.ui.espeers.decks import deck_choices

    return deck_choices({})[0][0].partition(":")[2]


DAMAGED_SAVES = {
    "cut short": lambda: esp_save()[: len(esp_save()) // 2],
    "valid JSON, damaged content": lambda: json.dumps({"table": 5, "notes": {}}),
    "nested 100,000 deep": lambda: DEEP,
    "not text (a lone surrogate)": lambda: '{"table": "\\ud800"}',
}


@pytest.mark.parametrize("kind", DAMAGED_SAVES)
def test_a_pass_and_play_save_that_cannot_be_read_is_set_aside_and_named(kind):
    text = DAMAGED_SAVES[kind]()
    app, _ = started({ESP: text})
    out = call(app, {"op": "route", "hash": "#play-esp"})
    assert out.get("go") == "#new-esp"
    assert out["local"][ESP] is None, "the key is cleared, so Resume no longer shows"
    assert out["local"][ESP + ":damaged"] == text, "moved aside whole, not deleted"
    assert "Your saved ESP game could not be read" in note(out)
    again = call(app, {"op": "route", "hash": "#play-esp"})
    assert again.get("go") == "#new-esp" and ESP + ":damaged" not in again.get("local", {})


def test_a_second_damaged_save_never_writes_over_the_first_one_set_aside():
    app, _ = started({ESP: "{cut", ESP + ":damaged": "older"})
    out = call(app, {"op": "route", "hash": "#play-esp"})
    assert ESP + ":damaged" not in out["local"]
    assert out["local"][ESP + ":damaged:2"] == "{cut"


def test_starting_a_new_game_sets_a_damaged_save_aside_instead_of_writing_over_it():
    app, _ = started({ESP: json.dumps({"table": 5})})
    out = call(app, {"op": "route", "hash": "#start-esp", "form": []})
    assert out["local"][ESP + ":damaged"] == json.dumps({"table": 5})
    assert json.loads(out["local"][ESP])["table"], "the new game is saved"
    assert "could not be read" in note(out)


def test_the_damaged_sentence_goes_when_the_player_says_ok():
    app, out = started({ESP: "{cut"}, "#play-esp")
    assert "could not be read" in note(out)
    out = call(
        app, {"op": "click", "region": "storage", "data": {"cmd": "storage-dismiss", "index": "0"}}
    )
    assert any(sel == ROOT for sel, _ in out["render"]) and "could not be read" not in note(out)


@pytest.mark.parametrize("text", ["{not json", DEEP, json.dumps([1, 2]), json.dumps({"decks": 5})])
def test_damaged_espeers_decks_are_set_aside_never_written_over(text):
    app, out = started({DECKS_STORAGE: text}, "#decks-espeers")
    assert out["local"][DECKS_STORAGE + ":damaged"] == text
    assert "Your saved ESPEERS decks could not be read" in note(out)
    out = call(app, {"op": "click", "region": "builder", "data": {"cmd": "add", "card": "x"}})
    assert app.storage.get(DECKS_STORAGE + ":damaged") == text, "still there after a click"


def test_a_deck_that_cannot_be_read_among_good_ones_keeps_a_copy_of_them_all():
    data = valid_deck_json()
    data["decks"]["Broken"] = {"no-such-card": 9}
    text = json.dumps(data)
    _, out = started({DECKS_STORAGE: text}, "#decks-espeers")
    assert out["local"][DECKS_STORAGE + ":damaged"] == text
    assert set(json.loads(out["local"][DECKS_STORAGE])["decks"]) == {"Mine"}, "the good one kept"


def test_good_decks_are_read_without_a_word():
    text = json.dumps(valid_deck_json())
    _, out = started({DECKS_STORAGE: text}, "#decks-espeers")
    assert "local" not in out and note(out) == ""


@pytest.mark.parametrize("text", ["{cut sho", DEEP, json.dumps({"session": None})])
def test_an_online_save_that_cannot_be_read_is_set_aside_and_named(text):
    key = f"{ONLINE_SAVE}:m-1:guest:1"
    app, _ = started({key: text, ONLINE_LAST: key})
    out = call(app, {"op": "route", "hash": "#online"})
    assert out.get("go") == "#home"
    assert out["local"][key] is None and out["local"][key + ":damaged"] == text
    assert "Your saved online game could not be read" in note(out)


def test_a_damaged_list_of_online_games_is_set_aside():
    storage = Storage({f"{ONLINE_SAVE}:keys": DEEP}, {})
    assert storage.read(f"{ONLINE_SAVE}:keys", "The list of saved online games") is None
    assert storage.get(f"{ONLINE_SAVE}:keys:damaged") == DEEP
    assert storage.damaged and storage.damaged[0].startswith("The list of saved online games")


def playing_esp(local: dict[str, str] | None = None) -> App:
    app, _ = started(local or {})
    call(app, {"op": "route", "hash": "#start-esp", "form": []})
    call(app, {"op": "route", "hash": "#play-esp"})
    return app


def test_a_write_the_browser_refused_is_told_with_a_way_to_make_room():
    app = playing_esp({TELE: esp_save(), DECKS_STORAGE: json.dumps(valid_deck_json())})
    out = call(app, {"op": "unsaved", "keys": [ESP], "why": "full"})
    html = note(out)
    assert SENTENCES["full"] in html and "Clear old saves" in html
    assert app.storage.unsaved == [ESP]
    out = call(app, {"op": "click", "region": "storage", "data": {"cmd": "storage-list"}})
    listed = note(out)
    assert "Your Telepathic game on this device" in listed and "Your ESPEERS decks" in listed
    assert "Your ESP game" not in listed, "the game being played is never offered"
    out = call(
        app, {"op": "click", "region": "storage", "data": {"cmd": "storage-remove", "key": ESP}}
    )
    assert ESP not in out.get("local", {}), "refused: the game being played"
    out = call(
        app, {"op": "click", "region": "storage", "data": {"cmd": "storage-remove", "key": TELE}}
    )
    assert out["local"][TELE] is None, "removed, as the player asked"
    assert out["local"][ESP] == app.storage.get(ESP), "the game is written again"
    assert DECKS_STORAGE not in out["local"], "the decks stay unless asked for"
    out = call(app, {"op": "unsaved", "keys": [], "why": ""})
    assert SAVED_AGAIN in note(out) and SENTENCES["full"] not in note(out)


def test_refused_storage_says_so_once_the_page_starts_and_the_game_goes_on():
    app, out = started({}, "#home", refused=True)
    assert SENTENCES["refused"] in note(out)
    out = call(app, {"op": "route", "hash": "#start-esp", "form": []})
    assert out.get("go") == "#play-esp"
    out = call(app, {"op": "route", "hash": "#play-esp"})
    assert any(sel == "#play-esp .play-root" for sel, _ in out["render"])
    assert note(out) == "", "said once, not drawn again with every answer"


def test_old_saves_lists_only_this_sites_saves_largest_first():
    storage = Storage(
        {
            ESP: "x" * 3000,
            TELE: "x" * 10,
            ESP + ":damaged": "y" * 5000,
            f"{ONLINE_SAVE}:m-2:host:0": "z" * 100,
            f"{ONLINE_SAVE}:m-2:host:0:owner": "tab",
            f"{ONLINE_SAVE}:keys": "[]",
            "psi-parlour:stun": "stun.example:3478",
        },
        {},
    )
    listed = old_saves(storage, {ESP})
    assert [key for key, _, _ in listed] == [ESP + ":damaged", f"{ONLINE_SAVE}:m-2:host:0", TELE]
    assert listed[0][1] == "A damaged copy of your ESP game on this device"
    assert listed[0][2] == 10  # KB, at two bytes a character


def test_removing_a_finished_game_takes_its_mark_and_never_the_game_being_played():
    storage = Storage({ESP: "game", TELE: "over", TELE + ":finished": "1"}, {})
    assert [key for key, _, _ in old_saves(storage, {ESP})] == [TELE], "a mark is no save"
    assert not remove_save(storage, ESP, {ESP})
    assert remove_save(storage, TELE, {ESP})
    assert storage.get(TELE) is None and storage.get(TELE + ":finished") is None
    assert storage.get(ESP) == "game"


def test_making_room_writes_each_refused_key_again_in_its_own_area():
    storage = Storage({ESP: "game"}, {"psi-parlour:online:tab": "k"})
    storage.unsaved = [ESP, "psi-parlour:online:tab"]
    retry(storage)
    assert storage.effects.local == {ESP: "game"}
    assert storage.effects.session == {"psi-parlour:online:tab": "k"}


def test_saved_again_is_said_once_and_goes_with_the_next_screen():
    app = playing_esp()
    call(app, {"op": "unsaved", "keys": [ESP], "why": "full"})
    assert SAVED_AGAIN in note(call(app, {"op": "unsaved", "keys": [], "why": ""}))
    out = call(app, {"op": "route", "hash": "#home"})
    assert any(sel == ROOT for sel, _ in out["render"]) and note(out) == ""
