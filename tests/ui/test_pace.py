"""Quick bots (ui/pace.py): a toggle under the players of a game against bots shortens every
bot's pause before its move, in games and lessons, and is kept for the next visit."""

from __future__ import annotations

from parlour.ui.app import App
from parlour.ui.pace import PACE_KEY, QUICK_BOT_PAUSE_MS
from parlour.ui.screens import BOT_PAUSE_MS
from tests.ui.test_bot_seats import call, form


def started(local: dict[str, str] | None = None) -> App:
    app = App()
    call(app, {"op": "start", "local": local or {}, "session": {}})
    return app


def pauses(out: dict) -> list[int]:
    return [pause for pause, request in out.get("later", []) if request.get("op") == "bot"]


def toggle_of(out: dict) -> str:
    html = out["render"][0][1]
    at = html.index('data-cmd="quick-bots"')
    tag = html[html.rindex("<button", 0, at) : html.index(">", at)]
    return tag.split('aria-pressed="', 1)[1].split('"', 1)[0]


def test_quick_bots_is_off_at_first_then_kept_on_and_every_bot_pause_is_short():
    app = started()
    call(app, {"op": "route", "hash": "#solo-psi-squad"})
    out = call(app, {"op": "route", "hash": "#play-psi-squad"})
    assert toggle_of(out) == "false"
    out = call(app, {"op": "click", "region": "play:psi-squad", "data": {"cmd": "quick-bots"}})
    assert out["local"][PACE_KEY] == "1" and toggle_of(out) == "true"
    again = started({PACE_KEY: "1"})  # the next visit keeps it
    call(again, {"op": "route", "hash": "#solo-psi-squad"})
    assert toggle_of(call(again, {"op": "route", "hash": "#play-psi-squad"})) == "true"
    out = call(app, {"op": "click", "region": "play:psi-squad", "data": {"cmd": "quick-bots"}})
    assert out["local"][PACE_KEY] is None and toggle_of(out) == "false"


def test_a_bot_s_pause_follows_the_choice():
    for local, pause in (({}, BOT_PAUSE_MS), ({PACE_KEY: "1"}, QUICK_BOT_PAUSE_MS)):
        app = started(local)
        call(app, {"op": "route", "hash": "#start-esp", "form": form("esp", 2, {0: "hard"})})
        out = call(app, {"op": "route", "hash": "#play-esp"})  # the bot moves first
        assert pauses(out) == [pause], out.get("later")


def test_no_toggle_without_a_bot():
    app = started()
    call(app, {"op": "route", "hash": "#start-esp", "form": form("esp", 2, {})})
    out = call(app, {"op": "route", "hash": "#play-esp"})
    assert 'data-cmd="quick-bots"' not in out["render"][0][1]
