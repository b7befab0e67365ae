"""A review of "Carry on by link" through the app: a guest whose live tab still offers to
paste the host's link after the game already carried on by link in another tab of the same
browser (the link opened there, from the chat). Pasted before the live tab's next tick, the
game by link kept here was made again from the live session, over the one that had moved on."""

from __future__ import annotations

import json

from parlour.games.psi_squad.actions import Guess
from parlour.ui.by_link import app as link_app
from parlour.ui.online.app import OnlineController, replace_controller
from parlour.ui.online.carry import LOST_FOR
from tests.ui.test_carry_on_app import as_the_page, live_pair, online_page
from tests.ui.test_link_app import (
    PageKeyring,
    call,
    drawn,
    links_in,
    reloaded,
    route,
    started,
)


def test_a_paste_in_the_live_tab_does_not_overwrite_the_game_carried_on_in_another_tab():
    net = live_pair()
    ada, bo = started(keyring=PageKeyring()), started(keyring=PageKeyring())
    as_the_page(net.host, ada.keyring)
    as_the_page(net.guests[1], bo.keyring)
    replace_controller(ada, OnlineController(ada, net.host))
    net.host.tick(net.now + 10 + LOST_FOR)
    call(ada, {"op": "click", "region": "online", "data": {"cmd": "carry-on"}})
    sent = links_in(drawn(call(ada, {"op": "route", "hash": "#bylink"})))
    call(ada, {"op": "click", "region": "bylink", "data": {"cmd": "bylink-sent"}})
    # Bo's live tab: the game on screen, the offer to paste the host's link
    replace_controller(bo, OnlineController(bo, net.guests[1]))
    bo.online.save()
    bo.keyring.kept_cryptos[bo.online.save_key()] = net.guests[1].crypto
    net.guests[1].tick(net.now + 10 + LOST_FOR)
    assert 'data-cmd="carry-join"' in online_page(call(bo, {"op": "route", "hash": "#online"}))
    # the link opens in a second tab of Bo's browser (from the chat): the game carries on there
    second = reloaded(bo, tab="second")
    back = links_in(drawn(route(second, sent[0])))
    assert back and second.links().plays
    (play,) = second.links().plays.values()
    call(second, {"op": "click", "region": "bylink", "data": {"cmd": "bylink-sent"}})
    records = len(play.records)
    assert play.match.game.to_move(play.match.state) == {1}, "Bo's turn: he guesses"
    view = second.links().view(play)
    assert view.act(Guess(0, "999")), view.message
    call(second, {"op": "route", "hash": "#bylink"})
    assert len(play.records) > records
    key = link_app.SAVE + play.match_id
    for name, value in second.storage.values["local"].items():  # the `storage` events
        if bo.storage.values["local"].get(name) != value:
            call(bo, {"op": "storage", "key": name, "value": value})
    for name in set(bo.storage.values["local"]) - set(second.storage.values["local"]):
        call(bo, {"op": "storage", "key": name, "value": None})
    carried = json.loads(bo.storage.values["local"][key])
    # (until its next tick, when the live tab finds its save gone and lets go)
    # Bo pastes the host's link in his live tab too (it still offers it)
    fields = {"carry-link": "\n".join(sent)}
    call(bo, {"op": "click", "region": "online", "data": {"cmd": "carry-join", "fields": fields}})
    now = json.loads(bo.storage.values["local"][key])
    assert len(now["records"]) == len(carried["records"]), "the game by link here went back"
    assert now["records"] == carried["records"], "the game by link kept here was replaced"
