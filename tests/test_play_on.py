"""Play on from a replay's position against the computer (issue 28, point 9): where it is
offered (no hidden value of the original game left, per game, from the public view), and that
the new game is a real match the audit verifies, the original's moves included."""

from __future__ import annotations

import pytest

from parlour.errors import IllegalAction, MalformedInput
from parlour.fair.rng import Rng
from parlour.games import GAMES
from parlour.games.declared import facts_for
from parlour.games.esp.actions import Place
from parlour.match import bot_seats
from parlour.match.audit import Verified, audit
from parlour.match.config import MatchConfig
from parlour.match.play_on import PERSON, can_play_on, offered, play_on
from parlour.match.replay import ReplayRecord
from parlour.match.table import AnyTable, Table
from parlour.match.viewer import Replay
from tests.replays import IDS, SETUPS, finished

ESP = GAMES["esp"]
UP_FIRST = 4  # the ESP game's first placements are symbol-up; the next one is symbol-down


def esp_game() -> AnyTable:
    """ESP to the end: four tiles symbol-up, then one symbol-down, then easy bots (which flip
    now and then), seeded."""
    config = MatchConfig("esp", "m-play-on-esp", ("Ada", "Bo"))
    rng = Rng(b"play-on-esp")
    table = Table.new(ESP, config, rng.read(32), (0, 1))
    for _ in range(400):
        if table.match.result() is not None:
            return table
        seat = min(ESP.to_move(table.state))
        legal = table.legal(seat)
        step = table.match.step
        if step <= UP_FIRST:
            face_up = step < UP_FIRST
            legal = [a for a in legal if isinstance(a, Place) and a.hidden != face_up]
            choice = legal[rng.below(len(legal))]
        else:
            choice = bot_seats.decide(table, seat, "easy", rng.read(32)).choice
        assert table.act(seat, choice).ok
    raise AssertionError("the ESP game did not end")


def test_esp_is_played_on_exactly_where_every_tile_is_symbol_up():
    table = esp_game()
    match = table.match
    where = [can_play_on(match.upto(step)) for step in range(match.step + 1)]
    assert where[: UP_FIRST + 1] == [True] * (UP_FIRST + 1)  # the start and four tiles up
    assert where[UP_FIRST + 1] is False  # a tile symbol-down: its symbol is sealed
    for step, answer in enumerate(where):
        board = match.state_at(step).board
        expected = all(tile.up for tile in board.values()) and step < match.step
        assert answer == expected, f"step {step}"
    assert where[-1] is False  # over: nothing to play on


@pytest.mark.parametrize("setup", range(len(SETUPS)), ids=IDS)
def test_every_game_is_played_on_where_its_facts_see_nothing_hidden_and_verifies(setup):
    """Where each example's finished game may be played on is what its facts' `hidden` says of
    the public view (ESP while every tile is up, Second Sight between rounds; a game hidden
    throughout, nowhere). The new game from the first and the last such position, its seats'
    stores empty of the original's secrets, plays to its end and the audit verifies it: nothing
    it needed was hidden."""
    table, _record = finished(setup)
    match = table.match
    hidden = facts_for(match.game.id).hidden
    where = [step for step in range(match.step + 1) if can_play_on(match.upto(step))]
    for step in range(match.step + 1):
        view = match.game.public_view(match.state_at(step))
        expected = hidden is not None and step < match.step and not hidden(view)
        assert (step in where) == expected, step
    for step in sorted({*where[:1], *where[-1:]}):
        new = play_on(match.upto(step), Rng(b"on %d" % step).read(32))
        rng = Rng(b"played on")
        for _ in range(3000):
            if new.match.result() is not None:
                break
            seat = min(new.game.to_move(new.state))
            auto = new.game.auto_action(new.state, seat, new.stores[seat])
            choice = (
                auto
                if auto is not None
                else bot_seats.decide(new, seat, "easy", rng.read(32)).choice
            )
            assert new.act(seat, choice).ok
        openings = {s: new.openings(s) for s in new.stores}
        config = new.match.config
        verdict = audit(new.game, config, new.match.seed, new.match.entries, openings)
        assert isinstance(verdict, Verified), (step, verdict)


def test_the_new_game_holds_the_original_moves_and_verifies_at_its_end():
    table = esp_game()
    at = UP_FIRST  # four tiles up; the person moves next
    before = table.match.upto(at)
    seed = Rng(b"new seed").read(32)
    new = play_on(before, seed)
    config = new.match.config
    person = min(ESP.to_move(before.state))
    assert config.match_id == before.config.match_id and new.match.seed == seed != before.seed
    assert [(e.seat, e.action) for e in new.match.entries] == [
        (e.seat, e.action) for e in before.entries
    ]
    assert config.seats[person] == PERSON
    assert config.bot_levels == {s: "medium" for s in range(2) if s != person}
    assert ESP.to_move(new.state) == frozenset({person})
    rng = Rng(b"on")
    while new.match.result() is None:
        seat = min(ESP.to_move(new.state))
        assert new.act(seat, bot_seats.decide(new, seat, "easy", rng.read(32)).choice).ok
    openings = {s: new.openings(s) for s in new.stores}
    verdict = audit(ESP, config, seed, new.match.entries, openings)
    assert isinstance(verdict, Verified)
    replay = Replay.open(ReplayRecord.of(new.match, openings))
    assert isinstance(replay.verdict, Verified)


def test_a_position_with_a_hidden_value_is_refused_in_words():
    table = esp_game()
    with pytest.raises(IllegalAction, match="hidden value"):
        play_on(table.match.upto(UP_FIRST + 1), bytes(32))


def test_the_viewer_offers_it_only_where_it_may():
    table = esp_game()
    record = ReplayRecord.of(table.match, {s: table.openings(s) for s in table.stores})
    replay = Replay.open(record)
    seen = []
    for position in range(replay.last + 1):
        replay.go(position)
        seen.append(offered(replay))
        assert seen[-1] == can_play_on(table.match.upto(replay.step))
    assert True in seen and False in seen


def test_the_app_starts_the_new_game_and_asks_before_it_replaces_one_in_progress():
    """The viewer's button, through the start screen: a new game at once; with a game in
    progress saved, the question first, and "Replace" starts the played-on game."""
    import json

    from parlour.ui.app import App
    from parlour.ui.pass_and_play import new_table
    from parlour.ui.saved_game import STORAGE

    table = esp_game()
    record = ReplayRecord.of(table.match, {s: table.openings(s) for s in table.stores})
    hash_ = f"#replay={record.code()}&move={UP_FIRST}"

    def call(app: App, **request: object) -> dict:
        out = json.loads(app.call(json.dumps(request)))
        assert "error" not in out, out.get("error")
        return out

    def play_on_clicked(app: App) -> None:
        call(app, op="route", hash=hash_, href="https://parlour.example/")
        out = call(app, op="click", region="replay", data={"cmd": "play-on"})
        assert out["go"] == "#start-esp"
        call(app, op="route", hash="#start-esp", href="https://parlour.example/")

    app = App()
    play_on_clicked(app)
    started = app.sessions["esp"].table.match
    assert started.step == UP_FIRST and started.config.bot_levels == {1: "medium"}
    assert json.loads(app.storage.get(STORAGE.format(game="esp")))  # saved, as any new game

    app = App()
    other = new_table("esp", ("Kim", "Lee"))
    app.sessions["esp"] = app._session(other, "esp")
    app.save("esp")
    app.sessions.clear()
    play_on_clicked(app)
    assert "esp" not in app.sessions  # asked first: nothing replaced yet
    call(app, op="click", region="start:esp", data={"cmd": "replace-game"})
    assert app.sessions["esp"].table.match.config.seats[0] == PERSON


def test_the_viewer_does_not_start_a_game_where_it_may_not():
    import json

    from parlour.ui.app import App

    table = esp_game()
    record = ReplayRecord.of(table.match, {s: table.openings(s) for s in table.stores})
    app = App()
    hash_ = f"#replay={record.code()}&move={UP_FIRST + 1}"
    app.call(json.dumps({"op": "route", "hash": hash_, "href": "https://parlour.example/"}))
    out = json.loads(
        app.call(json.dumps({"op": "click", "region": "replay", "data": {"cmd": "play-on"}}))
    )
    assert out.get("go") is None and "esp" not in app.sessions


def test_the_log_names_who_really_made_the_original_moves():
    """The original's moves are told under its players' names, marked as the original game's,
    in the log, in "Since your turn:" and on the board's last move; the new game's moves under
    the new names. The record keeps it: a saved or replayed played-on game says the same."""
    from parlour.ui.play import PlaySession
    from parlour.ui.screens import screen_for
    from parlour.ui.widgets import last_move_of, told_before

    table = esp_game()
    before = table.match.upto(UP_FIRST)
    names = before.config.seats  # ("Ada", "Bo")
    new = play_on(before, Rng(b"new seed").read(32))
    session = PlaySession(new, screen_for("esp"))
    lines = session.log_lines()
    assert len(lines) == UP_FIRST
    for entry, line in zip(before.entries, lines, strict=True):
        assert line.startswith(f"{names[entry.seat]} (original game) places"), line
    assert PERSON not in " ".join(lines) and "(bot)" not in " ".join(lines)
    since = session.since_your_turn()
    assert since and all("(original game)" in line for line in since)
    assert (
        last_move_of(session.match, session.screen).before.name(0) == f"{names[0]} (original game)"
    )
    person = min(ESP.to_move(new.state))
    rng = Rng(b"on")
    while new.match.step < UP_FIRST + 2:
        seat = min(ESP.to_move(new.state))
        assert new.act(seat, bot_seats.decide(new, seat, "easy", rng.read(32)).choice).ok
    later = session.log_lines()[UP_FIRST:]
    assert later and not any("original game" in line for line in later)
    assert told_before(new.match, UP_FIRST + 1).name(person) == PERSON
    again = MatchConfig.from_json(new.match.config.to_json())
    assert again == new.match.config and again.original_names(UP_FIRST) == names
    assert again.original_names(UP_FIRST + 1) is None
    for bad in ({"seats": ["Ada"], "moves": 4}, {"seats": names, "moves": "4"}, {"seats": 1}):
        with pytest.raises(MalformedInput):
            MatchConfig.from_json({**new.match.config.to_json(), "original": bad})
