"""Bot seats at a pass-and-play table and an online host, in CPython.

A person alone against bots never sees a hand-off and always sees their own seat; several people
with bots hand the device on between people only; undo takes back a person's move with the bots'
replies; a bot's move goes through the same checks as a click; the page asks for each bot move
after a pause and a stale request changes nothing; online, the host plays its bots and the game
ends verified on every device, with no secret on the wire before its reveal.
"""

from __future__ import annotations

import json

import pytest

from parlour.errors import MalformedInput
from parlour.fair.rng import Rng
from parlour.games import GAMES
from parlour.games.declared import default_tables
from parlour.games.esp.actions import Flip
from parlour.match import bot_seats
from parlour.match.audit import Verified
from parlour.match.config import MatchConfig
from parlour.match.online import OnlineSession, Phase
from parlour.match.table import Table
from parlour.net.memory import MemoryNet
from parlour.ui.app import App
from parlour.ui.play import PlaySession
from parlour.ui.screens import screen_for
from parlour.ui.tree import to_html
from tests.test_online import no_secret_before_its_reveal, same_everywhere

SEATS = dict(default_tables())  # every game at its form's first seat count


def session(game: str, names: tuple[str, ...], bots: dict[int, str]) -> PlaySession:
    levels = {str(s): level for s, level in bots.items()}
    config = MatchConfig(game, "m-bot-seats-01", names, {}, bots=levels)
    table = Table.new(GAMES[game], config, bytes(32), range(len(names)))
    return PlaySession(table, screen_for(game))


def person_moves(s: PlaySession, seat: int, rng: Rng) -> None:
    """The person at `seat` takes the device if asked and moves (as the easy bot would)."""
    if s.viewer is None:
        s.handle({"cmd": "take-device"})
    assert s.viewer == seat
    choice = bot_seats.decide(s.table, seat, "easy", rng.read(32)).choice
    assert s.act(choice), s.message


def run_bots(s: PlaySession, rng: Rng) -> int:
    moves = 0
    while s.bot_due():
        if s.bot_move(rng.read(32)):
            moves += 1
    return moves


@pytest.mark.parametrize("game", sorted(SEATS))
def test_a_person_alone_against_bots_never_sees_a_hand_off(game):
    seats = SEATS[game]
    names = ("Ada", *(bot_seats.bot_name(n) for n in ("Bo", "Cy")[: seats - 1]))
    s = session(game, names, {seat: "medium" for seat in range(1, seats)})
    rng = Rng(game.encode())
    bot_moves = 0
    for _ in range(400):
        html = to_html(s.render())
        assert 'data-role="handoff"' not in html
        assert s.viewer == 0
        if s.table.match.result() is not None:
            break
        if s.bot_due():
            assert s.bot_thinking() is not None or bot_seats.offered(s.table, s.bots)
            bot_moves += run_bots(s, rng)
            continue
        person_moves(s, 0, rng)
    assert s.table.match.result() is not None
    assert bot_moves > 0
    assert isinstance(s.audit_result, Verified)
    assert "(bot)" in " ".join(s.log_lines())


def test_people_hand_the_device_to_each_other_never_to_a_bot():
    s = session("psi-squad", ("Ada", "Bo", bot_seats.bot_name("Cy")), {2: "easy"})
    rng = Rng(b"people")
    handed_to = []
    for _ in range(300):
        if s.table.match.result() is not None:
            break
        if s.bot_due():
            run_bots(s, rng)
            continue
        if s.viewer is None:
            tree = to_html(s.render())
            assert 'data-role="handoff"' in tree
            handed_to.append(s.to_act())
        person_moves(s, s.to_act(), rng)
    assert s.table.match.result() is not None
    assert set(handed_to) == {0, 1}


def test_undo_takes_back_the_persons_move_and_the_bots_reply():
    s = session("esp", ("Ada", "Bo (bot)"), {1: "medium"})
    rng = Rng(b"undo")
    assert not s.can_undo()  # nothing of the person's to take back
    person_moves(s, 0, rng)
    assert s.bot_due() and s.bot_thinking() == 1
    run_bots(s, rng)
    assert s.table.match.step == 2
    s.handle({"cmd": "undo"})
    assert s.table.match.step == 0
    assert s.message == "Took back your move and the bots' replies."
    assert s.viewer == 0 and 0 in s.game.to_move(s.table.state)


def test_a_bot_whose_choice_is_refused_stops_with_a_sentence_not_a_loop(monkeypatch):
    s = session("esp", ("Bo (bot)", "Ada"), {0: "easy"})
    nothing_there = Flip((0, 0))  # no tile to flip on an empty board
    monkeypatch.setattr(bot_seats, "bot_for", lambda game, level: lambda k, seed: nothing_there)
    assert s.bot_due()
    assert not s.bot_move()
    assert s.message.startswith("Bo (bot) could not move: ")
    assert not s.bot_due() and s.table.match.step == 0


def test_the_bots_of_a_match_are_part_of_its_record():
    config = MatchConfig("esp", "m-bot-seats-02", ("Ada", "Bo (bot)"), {}, bots={"1": "hard"})
    again = MatchConfig.from_json(json.loads(json.dumps(config.to_json())))
    assert again == config and again.bot_levels == {1: "hard"}
    plain = MatchConfig("esp", "m-bot-seats-02", ("Ada", "Bo"))
    assert "bots" not in plain.to_json()  # saves from before bots read and hash the same


@pytest.mark.parametrize(
    "bots", [{"2": "easy"}, {"1": "godlike"}, {"01": "easy"}, {"¹": "easy"}, ["1"], {"1": 3}]
)
def test_a_bad_bot_seat_in_a_set_up_is_refused(bots):
    data = MatchConfig("esp", "m-bot-seats-03", ("Ada", "Bo")).to_json()
    data["bots"] = bots
    with pytest.raises(MalformedInput):
        MatchConfig.from_json(data)


def test_a_bot_name_says_it_is_a_bot_and_keeps_to_the_length():
    assert bot_seats.bot_name("Bo") == "Bo (bot)"
    assert bot_seats.bot_name("Bo (bot)") == "Bo (bot)"
    assert len(bot_seats.bot_name("x" * 24)) == 24


# -- the app: a form with bot seats, the pause, stale requests ---------------------------------


def form(game: str, seats: int, kinds: dict[int, str]) -> list[dict]:
    fields: list[dict] = [
        {"tag": "input", "type": "radio", "name": f"{game}-seats", "value": str(seats),
         "checked": True, "data": {}}
    ]  # fmt: skip
    for seat in range(seats):
        fields.append({"tag": "input", "value": "", "placeholder": f"P{seat + 1}",
                       "data": {"seat-name": str(seat)}})  # fmt: skip
        fields.append({"tag": "select", "value": kinds.get(seat, "person"),
                       "data": {"seat-kind": str(seat)}})  # fmt: skip
    return fields


def call(app: App, request: dict) -> dict:
    out = json.loads(app.call(json.dumps(request)))
    assert "error" not in out, out["error"]
    return out


def test_the_page_asks_for_each_bot_move_after_a_pause_and_a_stale_ask_changes_nothing():
    app = App()
    call(app, {"op": "start", "local": {}, "session": {}})
    call(app, {"op": "route", "hash": "#start-esp", "form": form("esp", 2, {0: "hard"})})
    out = call(app, {"op": "route", "hash": "#play-esp"})
    s = app.sessions["esp"]
    assert s.names == ("P1 (bot)", "P2") and s.bots == {0: "hard"}
    assert out["attrs"]["bot-due"] == "1"
    [[pause, ask]] = out["later"]
    assert pause > 0 and ask == {"op": "bot", "game": "esp", "step": 0}
    stale = call(app, {**ask, "step": 5})
    assert "render" not in stale and s.table.match.step == 0
    out = call(app, ask)
    assert s.table.match.step == 1 and "bot-thought" in out["attrs"]
    assert "later" not in out and out["attrs"].get("bot-due") is None
    again = call(app, ask)  # the same ask twice: the step has moved on
    assert "render" not in again and s.table.match.step == 1
    call(app, {"op": "click", "region": "play:esp", "data": {"cmd": "rematch"}})
    assert app.sessions["esp"].bots == {0: "hard"}


# -- online: the host seats a bot --------------------------------------------------------------


def test_an_online_host_plays_its_bot_and_the_game_ends_verified_everywhere():
    names = ("Ada", "Bo (bot)", "Cy")
    config = MatchConfig("psi-squad", "m-bot-online-1", names, {"length": 3}, bots={"1": "easy"})
    host = OnlineSession.host(GAMES["psi-squad"], config, (0, 1), 0.0, reveal_limit=60)
    net = MemoryNet(host)
    net.connect(2, OnlineSession.guest(0.0))
    assert all(dev.phase is Phase.PLAY for dev in net.everyone())
    on_host = PlaySession(host.table, screen_for("psi-squad"), host)
    assert on_host.bots == {1: "easy"} and on_host.humans == [0] and on_host.viewer == 0
    guest = net.guests[2]
    on_guest = PlaySession(guest.table, screen_for("psi-squad"), guest)
    assert on_guest.bots == {}  # the bot's seat and secrets are the host's
    rng = Rng(b"online bots")
    for _ in range(400):
        if host.match.result() is not None:
            break
        if on_host.bot_due():
            on_host.bot_move(rng.read(32))
        else:
            state = host.table.state
            seat = min(s for s in host.game.to_move(state) if not host.game.automatic(state, s))
            dev = host if seat == 0 else guest
            assert seat in (0, 2)
            choice = bot_seats.decide(dev.table, seat, "easy", rng.read(32)).choice
            result = dev.act(seat, choice)
            assert result.ok or result.sent, result.reason
        net.flush()
    assert host.match.result() is not None
    net.flush()
    same_everywhere(net)
    for dev in net.everyone():
        assert dev.audit_result == Verified(), dev.audit_result
        assert dev.config.bot_levels == {1: "easy"}
    no_secret_before_its_reveal(net)
