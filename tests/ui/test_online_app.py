"""Online play in the app: a saved game comes back after a reload, a save that cannot be loaded
is set aside (never a fault of the page), and online play never imports the app."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from parlour.match.online import Phase
from parlour.ui.app import App
from parlour.ui.online import app as online_app
from parlour.ui.online import saves as online_saves
from parlour.ui.online.saves import ONLINE_LAST, ONLINE_SAVE
from tests.test_online import play, start


def call(app: App, request: dict) -> dict:
    out = json.loads(app.call(json.dumps(request)))
    assert "error" not in out, out["error"]
    return out


def saved_game(role: str = "guest") -> tuple[str, str]:
    """A real game a few moves in, saved as the page saves it: its key and its text."""
    net = start("esp", ("Ada", "Bo"), match_id="m-online-app-1")
    play(net, seed=b"app", steps=4, to_the_end=False)
    session = net.host if role == "host" else net.guests[1]
    seats = ",".join(str(s) for s in session.local)
    key = f"{ONLINE_SAVE}:{session.config.match_id}:{role}:{seats}"
    return key, json.dumps({"session": session.to_json(), "notes": {"1": {"cell": "x"}}})


def reload_with(key: str, text: str) -> tuple[App, dict]:
    app = App()
    call(app, {"op": "start", "local": {key: text, ONLINE_LAST: key}, "session": {}})
    return app, call(app, {"op": "route", "hash": "#online"})


@pytest.mark.parametrize("role", ["host", "guest"])
def test_a_saved_online_game_comes_back_after_a_reload(role):
    key, text = saved_game(role)
    app, out = reload_with(key, text)
    assert app.online is not None and app.online.session.phase is Phase.PLAY
    assert app.online.session.match.step >= 4
    assert out.get("go") != "#home" and out["local"].get(key) is not None  # kept, saved again


def test_the_notes_come_back_and_a_note_that_is_not_one_is_left_out():
    key, text = saved_game()
    data = json.loads(text)
    data["notes"] = {"1": {"cell": "x"}, "two": {"cell": "y"}, "3": "not a note"}
    app, _ = reload_with(key, json.dumps(data))
    assert app.online.notes == {1: {"cell": "x"}}


def damaged() -> list[str]:
    _, text = saved_game()
    real = json.loads(text)
    no_stores = json.loads(text)
    del no_stores["session"]["stores"]
    other_seat = json.loads(text)
    other_seat["session"]["local"] = [0]
    return [
        "{not json",
        "[]",
        "5",
        json.dumps({"notes": {}}),
        json.dumps({"session": None}),
        json.dumps({"session": real["session"]["match"]}),
        json.dumps(no_stores),
        json.dumps(other_seat),
        "[" * 100_000 + "]" * 100_000,
        text.replace('"role":"guest"', '"role":"visitor"').replace(
            '"role": "guest"', '"role": "visitor"'
        ),
    ]


@pytest.mark.parametrize("text", damaged(), ids=range(len(damaged())))
def test_a_save_that_cannot_be_loaded_is_set_aside_and_the_page_goes_home(text):
    key = f"{ONLINE_SAVE}:m-online-app-1:guest:1"
    app, out = reload_with(key, text)
    assert app.online is None and out.get("go") == "#home"
    assert out["local"][key] is None  # moved, so the next reload does not trip on it
    assert out["local"][key + ":damaged"] == text  # ... and kept whole, never deleted


def test_online_play_never_imports_the_app():
    """The app imports online play on first use and hands it itself; an import back would be
    a circle (each module half-loaded while the other loads)."""
    tree = ast.parse(Path(online_app.__file__).read_text())
    imported = {
        node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    } | {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    assert "parlour.ui.app" not in imported


class Keyring:
    """The app's keyring as the page's works (py/ui/webcrypto.py), with `cryptography`'s
    keys."""

    def __init__(self, kept=None, refuses: bool = False) -> None:
        self.kept_cryptos = dict(kept or {})
        self.refuses = refuses  # as a browser whose IndexedDB would not store a key
        self.forgotten: list[str] = []

    def fresh(self):
        from tests.signers import crypto

        return crypto()

    def kept(self, name):
        return self.kept_cryptos.get(name)

    def keep(self, name, crypto_) -> None:
        self.kept_cryptos.setdefault(name, crypto_)

    def forget(self, name) -> None:
        self.kept_cryptos.pop(name, None)
        self.forgotten.append(name)

    def cannot_keep(self, name) -> bool:
        return self.refuses


def signed_saved_game() -> tuple[str, str, object]:
    from tests.signers import crypto

    net = start("esp", ("Ada", "Bo"), match_id="m-online-app-signed", signed=crypto)
    play(net, seed=b"app", steps=4, to_the_end=False)
    bo = net.guests[1]
    key = f"{ONLINE_SAVE}:{bo.config.match_id}:guest:1"
    return key, json.dumps({"session": bo.to_json(), "notes": {}}), bo.crypto


def test_a_signed_game_comes_back_with_the_key_kept_for_it_and_plays_on_signed():
    key, text, crypto_ = signed_saved_game()
    app = App()
    app.keyring = Keyring({key: crypto_})
    call(app, {"op": "start", "local": {key: text, ONLINE_LAST: key}, "session": {}})
    call(app, {"op": "route", "hash": "#online"})
    session = app.online.session
    assert session.crypto is crypto_ and session.table_code() is not None
    assert session.match.step >= 4


def test_a_signed_save_whose_key_is_gone_is_dropped_not_a_fault():
    key, text, _ = signed_saved_game()
    app = App()
    app.keyring = Keyring()
    call(app, {"op": "start", "local": {key: text, ONLINE_LAST: key}, "session": {}})
    out = call(app, {"op": "route", "hash": "#online"})
    assert app.online is None and out.get("go") == "#home"


def test_a_game_hosted_with_a_keyring_is_signed_and_its_key_kept_under_its_save_key():
    app = App()
    app.keyring = Keyring()
    call(app, {"op": "start", "local": {}, "session": {}})
    from tests.ui.test_bot_seats import form

    here = {"tag": "input", "checked": True, "data": {"here-seat": "0"}}
    call(app, {"op": "route", "hash": "#host-esp", "form": [*form("esp", 2, {}), here]})
    session = app.online.session
    assert session.signing and session.version == 3
    assert app.keyring.kept(app.online.save_key()) is session.crypto
    assert session.key_maker == app.keyring.fresh  # "Play again" takes a new key pair


def test_a_signed_save_that_cannot_be_loaded_takes_its_key_with_it():
    key, _, crypto_ = signed_saved_game()
    app = App()
    app.keyring = Keyring({key: crypto_})
    call(app, {"op": "start", "local": {key: "{not a save", ONLINE_LAST: key}, "session": {}})
    call(app, {"op": "route", "hash": "#online"})
    assert app.keyring.kept(key) is None and app.keyring.forgotten == [key]


def test_a_save_pushed_out_by_newer_games_takes_its_key_with_it():
    from tests.signers import crypto

    app = App()
    old = [f"{ONLINE_SAVE}:m-{i}:guest:1" for i in range(online_saves.KEEP)]
    app.keyring = Keyring({name: crypto() for name in old})
    local = {name: "{}" for name in old} | {online_saves.KEYS: json.dumps(old)}
    call(app, {"op": "start", "local": local, "session": {}})
    online_saves.remember(app, f"{ONLINE_SAVE}:m-new:guest:1")
    assert app.storage.get(old[0]) is None and app.keyring.forgotten == [old[0]]
    assert all(app.keyring.kept(name) is not None for name in old[1:])


def test_a_key_this_browser_would_not_keep_is_said_once_and_the_game_goes_on_signed():
    app = App()
    app.keyring = Keyring(refuses=True)
    call(app, {"op": "start", "local": {}, "session": {}})
    from tests.ui.test_bot_seats import form

    here = {"tag": "input", "checked": True, "data": {"here-seat": "0"}}
    call(app, {"op": "route", "hash": "#host-esp", "form": [*form("esp", 2, {}), here]})
    call(app, {"op": "route", "hash": "#online"})
    session = app.online.session
    assert session.signing and session.notices.count(online_saves.UNKEPT_KEY) == 1


def test_a_call_that_changed_nothing_a_reload_needs_writes_no_save():
    """Every worker call used to write the whole session again, a heartbeat too: now only a
    call after which the save would differ writes it (and a write the browser refused is tried
    again)."""
    key, text, crypto_ = signed_saved_game()
    app = App()
    app.keyring = Keyring({key: crypto_})
    call(app, {"op": "start", "local": {key: text, ONLINE_LAST: key}, "session": {}})
    assert key in call(app, {"op": "route", "hash": "#online"})["local"]
    call(app, {"op": "tick"})  # the first heartbeat signs this device's word on its log: saved
    for _ in range(2):
        assert key not in call(app, {"op": "tick"}).get("local", {})
    app.online.session.tell("Something a reload shows.")
    out = call(app, {"op": "tick"})
    assert json.loads(out["local"][key])["session"] == app.online.session.to_json()
    assert key not in call(app, {"op": "tick"}).get("local", {})
    app.storage.unsaved = [key]
    assert key in call(app, {"op": "tick"})["local"]


def test_a_call_whose_records_wait_for_the_page_s_signatures_saves_once_after_signing():
    """The page signs with WebCrypto after the app's call: the save is written once, in the
    pass after signing (with the signatures), not before it as well."""
    from parlour.match.online.device import Crypto
    from tests.test_signed_play import Later

    key, text, crypto_ = signed_saved_game()
    page = Later()
    page.key, page.public_key = crypto_.signer, crypto_.signer.public_key
    app = App()
    app.keyring = Keyring({key: Crypto(page, page.verify)})
    call(app, {"op": "start", "local": {key: text, ONLINE_LAST: key}, "session": {}})
    call(app, {"op": "route", "hash": "#online"})
    out = call(app, {"op": "tick"})  # the heartbeat signs this device's word on its log
    signer, waiting = app.pending_signatures()
    assert waiting and key not in out.get("local", {})
    for record, data in waiting:
        record.signature = signer.key.sign(data)
    saved = json.loads(json.loads(app.after_signing())["local"][key])["session"]["signing"]
    assert all(r["s"] is not None for r in saved["records"])


def test_the_game_opens_at_the_page_s_top_once():
    """Issue 28: the online host's game opened mid-page (where the invites had been scrolled
    to). The call that first shows a game asks the page for its top ("top"); later ones
    (a tick, a redraw) leave the scroll where the player put it."""
    key, text = saved_game("host")
    app, out = reload_with(key, text)
    assert out.get("top") is True and app.online.play is not None
    later = call(app, {"op": "tick"})
    again = call(app, {"op": "route", "hash": "#online"})
    assert "top" not in later and "top" not in again


@pytest.mark.parametrize(
    ("invite", "do", "said"),
    [
        ("join=bc.r00m", "tab", "to other tabs."),
        ("join=", "rtc-answer", "(is WebRTC turned off?). Playing by link needs no direct"),
    ],
)
def test_a_guest_whose_browser_refuses_the_link_is_told_why(invite, do, said):
    """The page's link for the invite could not be made (WebRTC off, or no channel between
    tabs): the join screen says so, not "connecting" for ever."""
    from parlour.net.sdp import OFFER, compress
    from tests.test_sdp import SAMPLES

    app = App()
    call(app, {"op": "start", "local": {}, "session": {}})
    if do == "rtc-answer":  # a browser's real offer, as an invite's code
        invite += compress(SAMPLES[0]["offer"], OFFER)
    out = call(app, {"op": "route", "hash": "#" + invite, "href": "http://x.example/"})
    (link,) = [op for op in out["links"] if op["do"] == do]
    stage = "tab" if do == "tab" else "answer"
    call(app, {"op": "link", "event": "failed", "link": link["link"], "stage": stage})
    assert app.online is not None and app.online.join["status"] == "failed"
    assert said in app.online.join["error"]


def test_a_host_whose_browser_keeps_its_tabs_apart_sends_the_invite_link_alone():
    """A frame denied BroadcastChannel (or a page outside a secure context): the host's tab link
    could not be made, so its invite offers no "Open a tab invite" that could never connect, and
    the invite link, the other way in, goes on."""
    from tests.test_sdp import SAMPLES
    from tests.ui.test_bot_seats import form

    app = App()
    call(app, {"op": "start", "local": {}, "session": {}})
    host = {"tag": "input", "type": "checkbox", "checked": True, "data": {"here-seat": "0"}}
    out = call(app, {"op": "route", "hash": "#host-esp", "form": [*form("esp", 2, {}), host]})
    (tab,) = [op for op in out["links"] if op["do"] == "tab"]
    (rtc,) = [op for op in out["links"] if op["do"] == "rtc-offer"]
    offer = SAMPLES[0]["offer"]
    call(app, {"op": "link", "event": "offered", "link": rtc["link"], "sdp": offer})
    page = call(app, {"op": "route", "hash": "#online"})
    assert "Open a tab invite" in json.dumps(page)
    call(app, {"op": "link", "event": "failed", "link": tab["link"], "stage": "tab"})
    page = json.dumps(call(app, {"op": "route", "hash": "#online"}))
    assert "Open a tab invite" not in page and "Send this invite to" in page
    assert "another tab" not in page  # no question left without its answer
    assert "could not make an invite" not in page
