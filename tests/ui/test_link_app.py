"""Play by link's screens in the worker (ui/link_app.py), driven as the page drives them: the
set-up form's "Play by link", links opened by address, the join screen, moves, saves."""

from __future__ import annotations

import html
import json
import re

from parlour.fair.rng import Rng
from parlour.games.psi_squad.rules import ChooseCypher, Guess
from parlour.match.audit import Verified
from parlour.ui import link_app
from parlour.ui.app import App
from tests.ui.test_bot_seats import form
from tests.ui.test_online_app import Keyring

SITE = "https://psi.example/"


def call(app: App, request: dict) -> dict:
    out = json.loads(app.call(json.dumps(request)))
    assert "error" not in out, out["error"]
    return out


def started(local: dict | None = None, keyring: Keyring | None = None) -> App:
    app = App()
    app.keyring = keyring or Keyring()
    call(app, {"op": "start", "local": local or {}, "session": {}, "href": SITE + "#home"})
    return app


def drawn(out: dict, root: str = link_app.ROOT) -> str:
    return next((r[1] for r in out.get("render", []) if r[0] == root), "")


def links_in(page: str) -> list[str]:
    return [html.unescape(x) for x in re.findall(r'data-copy="([^"]+)"', page)]


def route(app: App, link: str) -> dict:
    out = call(app, {"op": "route", "hash": "#" + link.partition("#")[2], "href": link})
    return out if drawn(out) else call(app, {"op": "route", "hash": out.get("go", "#bylink")})


def psi_form(kinds: dict[int, str] | None = None, seats: int = 2) -> list[dict]:
    length = {"tag": "input", "type": "radio", "value": "3", "checked": True,
              "data": {"variant": "length"}}  # fmt: skip
    return [*form("psi-squad", seats, kinds or {}), length]


def test_a_game_of_psi_squad_by_link_between_two_browsers_ends_checked_on_both():
    ada, bo = started(), started()
    out = call(ada, {"op": "route", "hash": "#link-psi-squad", "form": psi_form()})
    assert out["go"] == "#bylink"
    page = drawn(call(ada, {"op": "route", "hash": "#bylink"}))
    assert "Send this link" in page and "group chat" in page and 'class="qr"' in page
    invite = links_in(page)
    assert len(invite) == 1 and invite[0].startswith(SITE + "#pl=1.")

    join = drawn(route(bo, invite[0]))
    assert "Join a game of Psi Squad by link" in join and "Your seat" in join
    fields = {"bylink-seat": "1", "bylink-name": "Bo"}
    out = call(bo, {"op": "click", "region": "bylink",
                    "data": {"cmd": "bylink-join", "fields": fields}})  # fmt: skip
    sent = links_in(drawn(out))
    assert sent, drawn(out)
    devices = [ada, bo]
    queue = [(0, link) for link in sent]
    call(bo, {"op": "click", "region": "bylink", "data": {"cmd": "bylink-sent"}})
    rng = Rng(b"by link app")
    for _ in range(600):
        plays = [next(iter(a.links().plays.values())) for a in devices]
        if all(p.audit_result is not None for p in plays):
            break
        if queue:
            to, link = queue.pop(0)
            page = drawn(route(devices[to], link))
        else:
            to = next(i for i, p in enumerate(plays) if p.summary()["my_turn"])
            page = drawn(move(devices[to], plays[to], plays, rng))
        if plays[to].match_id in devices[to].links().sending:
            queue += [(1 - to, link) for link in links_in(page)]
            call(devices[to], {"op": "click", "region": "bylink", "data": {"cmd": "bylink-sent"}})
    plays = [next(iter(a.links().plays.values())) for a in devices]
    assert [p.audit_result for p in plays] == [Verified(), Verified()]
    assert plays[0].match.head() == plays[1].match.head()


def move(app: App, play, plays, rng: Rng) -> dict:
    """The player whose turn it is moves, as the board's click would (the view's `act`)."""
    seat = play.local[0]
    state = play.table.state
    if state.setting_up:
        choice: object = ChooseCypher("".join(str(rng.below(10)) for _ in range(state.length)))
    elif state.pending is None and rng.below(2) == 0:
        target = state.targets(seat)[0]  # the test peeks, to end the game sooner
        holder = next(p for p in plays if target in p.local)
        choice = Guess(target, holder.stores[target].value("cypher"))
    else:
        legal = play.table.legal(seat)
        choice = legal[rng.below(len(legal))]
    view = app.links().view(play)
    assert view.act(choice), view.message
    return call(app, {"op": "route", "hash": "#bylink"})
