"""Issue 38: a live guest chooses its own name on the join screen (it was "Player 2"), carried in
its hello; the host takes it before the game begins and every device plays under it. And what a
guest is told of the seats the host's device holds reads as one plain sentence."""

from __future__ import annotations

import json

import pytest

from parlour.games import GAMES
from parlour.match.audit import Verified
from parlour.match.config import MatchConfig
from parlour.match.online import OnlineSession
from parlour.match.wire import decode, encode
from parlour.net.memory import MemoryNet
from parlour.ui.online.screen import held_by_the_host
from tests.signers import crypto
from tests.test_online import over, play


def table(names, host_local=(0,), chosen=None, signed=False, bots=None, game="psi-squad"):
    """A game set up with `names`; each guest seat joins with its name in `chosen` (if any)."""
    config = MatchConfig(game, "m-names-1", tuple(names), {}, bots=bots or {})
    host = OnlineSession.host(
        GAMES[game], config, host_local, 0.0, crypto=crypto() if signed else None
    )
    net = MemoryNet(host)
    for seat in range(len(names)):
        if seat not in host_local:
            guest = OnlineSession.guest(0.0, crypto() if signed else None)
            guest.guest_name = (chosen or {}).get(seat, "")
            net.connect(seat, guest)
    return net


@pytest.mark.parametrize("signed", [False, True])
def test_a_guest_plays_under_the_name_it_chose_on_every_device(signed):
    net = table(("Ada", "Player 2", "Player 3"), chosen={1: "Bo", 2: "  Cy \u202e"}, signed=signed)
    devices = [net.host, net.guests[1], net.guests[2]]
    for dev in devices:
        assert dev.config.seats == ("Ada", "Bo", "Cy"), dev.role
    play(net, seed=b"names")
    assert over(net)
    for dev in devices:
        assert dev.match.config.seats == ("Ada", "Bo", "Cy")
        assert dev.audit_result == Verified(), dev.notices
    assert not any("refused" in n or "ignored" in n for dev in devices for n in dev.notices)
    assert "Bo joined." in net.host.notices


def test_a_name_another_seat_has_or_a_bot_s_is_not_taken():
    net = table(("Ada", "Player 2", "Player 3"), chosen={1: "ada", 2: "Zed (bot)"})
    assert net.host.config.seats == ("Ada", "Player 2", "Zed")
    assert net.guests[1].config.seats == net.host.config.seats


def test_a_guest_with_no_name_chosen_keeps_the_host_s_and_its_hello_says_none():
    net = table(("Ada", "Bo"))
    assert net.guests[1].config.seats == ("Ada", "Bo")


def test_a_hello_from_a_page_without_names_is_read_and_a_name_is_checked():
    old = encode("hello", 1, resume=None)
    assert decode(old).body == {"resume": None}
    named = encode("hello", 1, resume=None, name="Bo")
    assert decode(named).body == {"resume": None, "name": "Bo"}
    with pytest.raises(Exception, match="bad 'name'"):
        decode(encode("hello", 1, resume=None, name="x" * 65))
    with pytest.raises(Exception, match="fields it must have"):
        decode(json.dumps({"v": 1, "t": "hello", "n": 1, "name": "Bo"}))


def test_once_the_game_has_begun_a_returning_guest_cannot_rename_its_seat():
    net = table(("Ada", "Player 2"), chosen={1: "Bo"})
    play(net, seed=b"names", steps=2, to_the_end=False)
    net.guests[1].guest_name = "Someone else"
    net.drop(1)
    net.connect(1, net.guests[1])
    assert net.host.match.config.seats == ("Ada", "Bo") == net.guests[1].match.config.seats


def test_the_seats_the_host_holds_are_told_as_a_plain_sentence():
    net = table(("Ada", "Bo", "Cy (bot)"), host_local=(0, 2), bots={"2": "easy"}, game="esp")
    said = held_by_the_host(net.guests[1])
    assert said.startswith("Ada's device plays Ada and the bot Cy: ")
    assert "whoever holds it could see the bot's " in said
    alone = table(("Ada", "Bo"), game="esp")
    assert held_by_the_host(alone.guests[1]) == ""  # the host's own seat: nothing to disclose
    two = table(("Ada", "Bo", "Cy", "Di"), host_local=(0, 2), game="esp")
    assert held_by_the_host(two.guests[1]).startswith("Ada's device plays Ada and Cy: ")
    assert "could see Cy's " in held_by_the_host(two.guests[1])


def test_the_join_screen_asks_the_guest_s_name_keeps_it_and_says_it_in_the_hello():
    from parlour.net.sdp import OFFER, compress
    from parlour.ui.app import App
    from parlour.ui.online.app import PLAYER_NAME
    from tests.test_sdp import SAMPLES

    def call(app: App, request: dict) -> dict:
        return json.loads(app.call(json.dumps(request)))

    app = App()
    call(app, {"op": "start", "local": {}, "session": {}})
    invite = "#join=" + compress(SAMPLES[0]["offer"], OFFER)
    out = call(app, {"op": "route", "hash": invite, "href": "http://x.example/"})
    (link,) = [op["link"] for op in out["links"] if op["do"] == "rtc-answer"]
    answer = SAMPLES[0]["answer"]
    page = json.dumps(call(app, {"op": "link", "event": "answered", "link": link, "sdp": answer}))
    assert 'data-field=\\"guest-name\\"' in page and "Your name" in page
    change = {"cmd": "change", "fields": {"guest-name": "  Bo  "}}
    out = call(app, {"op": "click", "region": "online", "data": change})
    assert out["local"][PLAYER_NAME] == "Bo"
    out = call(app, {"op": "link", "event": "opened", "link": link})
    (hello,) = [json.loads(text) for _, text in out["send"] if '"hello"' in text]
    assert hello["name"] == "Bo"
    again = App()  # the next game: the join screen remembers it
    call(again, {"op": "start", "local": {PLAYER_NAME: "Bo"}, "session": {}})
    out = call(again, {"op": "route", "hash": invite, "href": "http://x.example/"})
    (link,) = [op["link"] for op in out["links"] if op["do"] == "rtc-answer"]
    page = json.dumps(call(again, {"op": "link", "event": "answered", "link": link, "sdp": answer}))
    assert 'value=\\"Bo\\"' in page
