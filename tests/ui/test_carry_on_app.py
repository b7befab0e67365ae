"""Issue 38, through the app as the page calls it: a live game whose connection is lost shows
the offer after 30 s; the host's "Carry on by link" makes the link and the game by link (the
live save and its key gone); the other device opens that link with its live save (a new tab:
nothing live in memory) and the two play by links only to a verified end. The page's keyring:
signatures made after the call, checked only when asked for before it."""

from __future__ import annotations

import json

from parlour.games.psi_squad.actions import ChooseCypher, Guess
from parlour.match.audit import Verified
from parlour.match.online.device import Crypto
from parlour.net.memory import MemoryNet
from parlour.ui.by_link import app as link_app
from parlour.ui.online.app import OnlineController, replace_controller
from parlour.ui.online.carry import LOST_FOR
from parlour.ui.online.saves import ONLINE_SAVE
from tests.test_online import acts, start
from tests.test_online_attacks import until_to_move
from tests.test_signed_play import mixed
from tests.ui.test_link_app import (
    LaterSigner,
    PageKeyring,
    call,
    drawn,
    links_in,
    play_out,
    psi_choice,
    route,
    started,
)

ONLINE_ROOT = "#online .online-root"


def live_pair() -> MemoryNet:
    """Psi Squad of two, live; Bo's connection breaks, then Ada guesses: a move Bo's device
    never got."""
    net = start(
        "psi-squad", ("Ada", "Bo"), {"length": 3}, match_id="m-00000000000000c1", signed=mixed
    )
    for seat, digits in {0: "123", 1: "456"}.items():
        acts(net.host if seat == 0 else net.guests[1], seat, ChooseCypher(digits))
    net.flush()
    until_to_move(net, 0)
    net.tick(1.0)
    net.drop(1)
    acts(net.host, 0, Guess(1, "000"))
    net.flush()
    assert net.host.match.step > net.guests[1].match.step
    return net


def as_the_page(session, keyring: PageKeyring) -> None:
    """A live session with the page's key pair: it signs later, and checks what was asked."""
    signer = session.crypto.signer
    keyring.kept_cryptos["live"] = Crypto(LaterSigner(signer), keyring.verify)
    session.crypto = Crypto(LaterSigner(signer), keyring.verify)


def online_page(out: dict) -> str:
    return next((r[1] for r in out.get("render", []) if r[0] == ONLINE_ROOT), "")


def test_the_host_carries_a_lost_live_game_on_and_the_guest_opens_it_from_its_save():
    net = live_pair()
    ada, bo = started(keyring=PageKeyring()), started(keyring=PageKeyring())
    as_the_page(net.host, ada.keyring)
    as_the_page(net.guests[1], bo.keyring)
    # Bo's device: its live save (its tab closed since)
    guest = OnlineController(bo, net.guests[1])
    guest.save()
    bo_key = guest.save_key()
    bo.keyring.kept_cryptos[bo_key] = net.guests[1].crypto
    assert bo_key in bo.storage.values["local"]
    # Ada's device: the live game on screen; Bo's device out of reach
    replace_controller(ada, OnlineController(ada, net.host))
    ada.online.save()
    ada_key = ada.online.save_key()
    ada.keyring.kept_cryptos[ada_key] = net.host.crypto
    net.host.tick(net.now + 10)
    page = online_page(call(ada, {"op": "route", "hash": "#online"}))
    assert "Carry on by link" not in page  # lost, but not for 30 s yet
    net.host.tick(net.now + 10 + LOST_FOR)
    page = online_page(call(ada, {"op": "route", "hash": "#online"}))
    assert 'data-cmd="carry-on"' in page and "Bo's device has been out of reach" in page
    out = call(ada, {"op": "click", "region": "online", "data": {"cmd": "carry-on"}})
    assert out.get("go") == "#bylink", out
    assert ada.online is None and ada_key not in ada.storage.values["local"]
    assert ada_key in ada.keyring.forgotten
    page = drawn(call(ada, {"op": "route", "hash": "#bylink"}))
    sent = links_in(page)
    assert sent and "Send this link" in page
    call(ada, {"op": "click", "region": "bylink", "data": {"cmd": "bylink-sent"}})
    # Bo opens Ada's link: the move he missed, then his own link back
    page = drawn(route(bo, sent[0]))
    assert bo_key not in bo.storage.values["local"], "the live save is gone once carried"
    (play,) = bo.links().plays.values()
    step = net.host.match.step  # (Bo's device answers Ada's guess at once: one step more)
    assert play.match.entries[step - 1].hash == net.host.match.head()
    back = links_in(page)
    assert back, page
    call(bo, {"op": "click", "region": "bylink", "data": {"cmd": "bylink-sent"}})
    plays, _, _ = play_out([bo, ada], back, psi_choice)
    assert [p.audit_result for p in plays] == [Verified(), Verified()]
    saved = json.loads(ada.storage.values["local"][link_app.SAVE + plays[1].match_id])
    assert "live" in saved


def test_a_guest_is_told_to_ask_the_host_and_may_paste_the_link_a_stranger_cannot():
    net = live_pair()
    bo = started(keyring=PageKeyring())
    as_the_page(net.guests[1], bo.keyring)
    replace_controller(bo, OnlineController(bo, net.guests[1]))
    net.guests[1].tick(net.now + 10 + LOST_FOR)
    page = online_page(call(bo, {"op": "route", "hash": "#online"}))
    assert "ask Ada to press “Carry on by link”" in page
    assert 'data-cmd="carry-on"' not in page
    # a browser that did not play the game opens the host's carry link
    ada = started(keyring=PageKeyring())
    as_the_page(net.host, ada.keyring)
    replace_controller(ada, OnlineController(ada, net.host))
    net.host.tick(net.now + 10 + LOST_FOR)
    call(ada, {"op": "click", "region": "online", "data": {"cmd": "carry-on"}})
    sent = links_in(drawn(call(ada, {"op": "route", "hash": "#bylink"})))
    stranger = started(keyring=PageKeyring())
    page = drawn(route(stranger, sent[0]))
    assert "did not play" in page and not stranger.links().plays
    assert not any(k.startswith(ONLINE_SAVE) for k in stranger.storage.values["local"])
    # Bo's link opened in a chat's own browser: he pastes it on his live page instead
    pasted = {"cmd": "carry-join", "fields": {"carry-link": "no link"}}
    junk = call(bo, {"op": "click", "region": "online", "data": pasted})
    assert bo.online is not None and "link" in online_page(junk).lower()
    fields = {"carry-link": "\n".join(sent)}
    out = call(
        bo, {"op": "click", "region": "online", "data": {"cmd": "carry-join", "fields": fields}}
    )
    assert out.get("go") == "#bylink" and bo.online is None
    page = drawn(call(bo, {"op": "route", "hash": "#bylink"}))
    assert links_in(page) and "carries on by link" in page
