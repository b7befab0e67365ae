"""Issue 38: the online set-up asks where the other players are. "Across the internet" uses
public STUN servers of two operators, named once (ui/online/network.py) and explained; the choice is
remembered; and a pair of devices that finds no route is told so within 15 s and offered the
same game by link in one tap."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parlour.games.catalog import CATALOG
from parlour.ui.app import App
from parlour.ui.online import app as online_app
from parlour.ui.online import network
from parlour.ui.online.screen import NO_ROUTE
from tests.test_sdp import SAMPLES
from tests.ui.test_bot_seats import form
from tests.ui.test_online_app import Keyring

INDEX = Path(__file__).resolve().parents[2] / "index.html"
HERE = {"tag": "input", "type": "checkbox", "checked": True, "data": {"here-seat": "0"}}


def call(app: App, request: dict) -> dict:
    out = json.loads(app.call(json.dumps(request)))
    assert "error" not in out, out["error"]
    return out


def started(local: dict | None = None) -> App:
    app = App()
    app.keyring = Keyring()
    call(app, {"op": "start", "local": local or {}, "session": {}})
    return app


def choice(value: str, own: str = "") -> list[dict]:
    """The set-up's network part as the page reads it: the radio ticked, the experts' field."""
    radios = [
        {"tag": "input", "type": "radio", "value": v, "checked": v == value,
         "data": {"network": v}}
        for v in (network.SAME, network.INTERNET)
    ]  # fmt: skip
    return [*radios, {"tag": "input", "value": own, "data": {"stun": ""}}]


def host(app: App, where: str, own: str = "", names: tuple[str, ...] = ()) -> dict:
    fields = form("esp", 2, {})
    for seat, name in enumerate(names):
        fields[1 + 2 * seat]["value"] = name
    return call(
        app,
        {"op": "route", "hash": "#host-esp", "form": [*fields, HERE, *choice(where, own)],
         "href": "http://x.example/"},
    )  # fmt: skip


def offer_op(out: dict) -> dict:
    (rtc,) = [op for op in out["links"] if op["do"] == "rtc-offer"]
    return rtc


def test_every_set_up_asks_where_the_others_are_and_says_what_the_stun_servers_see():
    page = INDEX.read_text(encoding="utf-8")
    operators = {name for name, _ in network.PUBLIC_STUN}
    assert len(operators) >= 2  # one operator down is not the end of it
    for entry in CATALOG:
        section = page.split(f'id="new-{entry.id}"')[1].split("</section>")[0]
        assert 'data-network="local" checked' in section
        assert 'data-network="internet"' in section
        assert "On the same network" in section and "Across the internet" in section
        assert "see each device's network address and nothing of the game" in section
        assert all(name in section for name in operators)
        assert "data-stun" in section  # the experts' own servers, still there


def test_across_the_internet_the_offer_and_the_invite_use_the_public_stun_servers():
    app = started()
    rtc = offer_op(host(app, network.INTERNET))
    public = [server for _, server in network.PUBLIC_STUN]
    assert rtc["stun"] == public
    call(app, {"op": "link", "event": "offered", "link": rtc["link"], "sdp": SAMPLES[0]["offer"]})
    link = app.online.invites[1].link
    assert "&stun=" + ",".join(public) in link
    page = json.dumps(call(app, {"op": "route", "hash": "#online"}))
    assert "These invites work across the internet" in page


def test_on_the_same_network_no_stun_server_is_asked():
    app = started()
    rtc = offer_op(host(app, network.SAME))
    assert rtc["stun"] == []
    call(app, {"op": "link", "event": "offered", "link": rtc["link"], "sdp": SAMPLES[0]["offer"]})
    assert "stun=" not in app.online.invites[1].link


def test_an_expert_s_own_stun_servers_go_across_the_internet_instead_of_the_public_ones():
    app = started()
    rtc = offer_op(host(app, network.INTERNET, own="stun.example.org:3478"))
    assert rtc["stun"] == ["stun.example.org:3478"]
    assert offer_op(host(started(), network.SAME, own="stun.example.org:3478"))["stun"] == []


def test_the_choice_is_remembered_and_the_set_up_opens_with_it():
    app = started()
    out = host(app, network.INTERNET, own="stun.example.org:3478")
    kept = {k: v for k, v in out["local"].items() if k in (network.NETWORK, network.STUN)}
    assert kept == {network.NETWORK: "internet", network.STUN: "stun.example.org:3478"}
    again = started(kept)  # another visit
    out = call(again, {"op": "route", "hash": "#new-psi-squad"})
    (drawn,) = [html for where, html in out["render"] if "[data-role=network]" in where]
    assert 'data-network="internet" checked' in drawn
    assert 'value="stun.example.org:3478"' in drawn


def test_a_browser_that_named_its_own_stun_server_before_the_choice_was_across_the_internet():
    assert network.remembered(_Stored({network.STUN: "stun.example.org"})) == (
        network.INTERNET,
        "stun.example.org",
    )
    assert network.remembered(_Stored({})) == (network.SAME, "")


class _Stored:
    def __init__(self, values: dict[str, str]) -> None:
        self.values = values

    def get(self, key: str) -> str | None:
        return self.values.get(key)


def test_stun_servers_standing_in_for_the_public_ones_go_the_same_way():
    app = started({network.PUBLIC_STAND_IN: "10.200.10.1:3478"})
    assert offer_op(host(app, network.INTERNET))["stun"] == ["10.200.10.1:3478"]


def connecting(monkeypatch: pytest.MonkeyPatch, clock: list[float]) -> tuple[App, dict]:
    """A host across the internet that took its guest's answer code at time 1000."""
    monkeypatch.setattr(online_app, "now", lambda: clock[0])
    app = started()
    rtc = offer_op(host(app, network.INTERNET, names=("Ada", "Bo")))
    call(app, {"op": "link", "event": "offered", "link": rtc["link"], "sdp": SAMPLES[0]["offer"]})
    call(app, {"op": "link", "event": "accepted", "link": rtc["link"]})
    return app, rtc


def test_a_pair_with_no_route_is_told_so_within_15_seconds_and_offered_play_by_link(monkeypatch):
    clock = [1000.0]
    app, _ = connecting(monkeypatch, clock)
    assert NO_ROUTE not in json.dumps(call(app, {"op": "tick"}))
    clock[0] += 14.5
    page = json.dumps(call(app, {"op": "tick"}))
    assert NO_ROUTE in page and "Play this game by link" in page
    assert app.online.invites[1].status == "no-route"
    out = call(app, {"op": "click", "region": "online", "data": {"cmd": "play-by-link"}})
    assert out.get("go") == "#bylink" and app.online is None
    (play,) = app.links().plays.values()
    assert tuple(play.names) == ("Ada", "Bo") and play.game.id == "esp"


def test_a_link_the_browser_gave_up_on_after_both_codes_is_no_route_too(monkeypatch):
    clock = [1000.0]
    app, rtc = connecting(monkeypatch, clock)
    clock[0] += 3
    page = json.dumps(call(app, {"op": "link", "event": "closed", "link": rtc["link"]}))
    assert NO_ROUTE in page and "Play this game by link" in page


def test_a_guest_whose_link_fails_is_told_there_is_no_route_and_about_play_by_link():
    from parlour.net.sdp import OFFER, compress

    app = started()
    invite = "#join=" + compress(SAMPLES[0]["offer"], OFFER)
    out = call(app, {"op": "route", "hash": invite, "href": "http://x.example/"})
    (link,) = [op for op in out["links"] if op["do"] == "rtc-answer"]
    call(
        app, {"op": "link", "event": "answered", "link": link["link"], "sdp": SAMPLES[0]["answer"]}
    )
    page = json.dumps(call(app, {"op": "link", "event": "closed", "link": link["link"]}))
    assert NO_ROUTE in page and "by link" in page
