"""The pass-and-play session and ESP screen in CPython: what each seat's tree holds."""

from __future__ import annotations

import json

from parlour.games import GAMES
from parlour.games.esp.actions import Flip, Place
from parlour.games.zener import Symbol
from parlour.match.config import MatchConfig
from parlour.match.table import Table
from parlour.ui.esp.board import next_focus
from parlour.ui.esp.screen import EspScreen
from parlour.ui.play import PlaySession
from parlour.ui.tree import h, to_html

ESP = GAMES["esp"]


# A game of ESP Ada wins with her ninth move, a set of 4 of her tiles and 1 of Bo's (the seats
# alternate, Ada first): the end the result's tests read.
SET_IN_NINE = (
    Place((0, 0), Symbol.CIRCLE),
    Place((1, 0), Symbol.CROSS),
    Place((0, 1), Symbol.STAR, hidden=True),
    Place((1, 1), Symbol.WAVES, hidden=True),
    Place((2, 0), Symbol.WAVES),
    Place((2, 1), Symbol.CIRCLE, hidden=True),
    Place((3, 0), Symbol.SQUARE),
    Place((3, 1), Symbol.SQUARE, hidden=True),
    Place((4, 0), Symbol.STAR),
)


def session(names=("Ada", "Bo")) -> PlaySession:
    config = MatchConfig("esp", "m-ui-test-0001", names)
    return PlaySession(Table.new(ESP, config, bytes(32), range(len(names))), EspScreen())


def place(s: PlaySession, symbol: str, face: str, cell: str) -> None:
    s.handle({"cmd": "take-device"})
    s.handle({"cmd": "tray", "symbol": symbol})
    s.handle({"cmd": "face", "face": face})
    s.handle({"cell": cell})


def hidden_cells(s: PlaySession, owner: int) -> list[str]:
    return [
        f"{c[0]},{c[1]}" for c, t in s.table.state.board.items() if t.owner == owner and not t.up
    ]


def test_a_hand_off_screen_holds_no_board_and_names_the_next_player():
    s = session()
    tree = s.render()
    assert tree.find_all(data_role="handoff")
    assert not tree.find_all(data_cell="0,0")
    assert "Pass the device to" in tree.text() and "Ada" in tree.text()


def test_each_seat_sees_its_own_hidden_symbols_and_nobody_elses():
    s = session()
    place(s, "star", "down", "0,0")
    place(s, "waves", "down", "1,0")
    s.handle({"cmd": "take-device"})  # Ada's view
    tree = s.render()
    (mine,) = tree.find_all(data_cell="0,0")
    (theirs,) = tree.find_all(data_cell="1,0")
    assert "#zener-star" in to_html(mine)
    assert "use" not in to_html(theirs) and "waves" not in to_html(theirs)
    assert s.table.state.board[(1, 0)].owner == 1 and hidden_cells(s, 1) == ["1,0"]


def test_a_refused_click_explains_and_changes_nothing():
    s = session()
    place(s, "star", "up", "0,0")
    place(s, "cross", "up", "1,0")
    s.handle({"cmd": "take-device"})
    s.handle({"cmd": "tray", "symbol": "circle"})
    s.handle({"cell": "5,5"})
    assert s.message == "A tile must touch at least two tiles already on the board."
    assert s.table.match.step == 2 and s.viewer == 0


def test_clicking_a_cell_before_choosing_a_tile_says_what_to_do():
    s = session()
    s.handle({"cmd": "take-device"})
    s.handle({"cell": "0,0"})
    assert s.message == "Choose a tile from your tray first, then a cell."


def test_undo_goes_back_but_never_past_a_flip():
    s = session()
    table = s.table
    table.act(0, Place((0, 0), Symbol.STAR, hidden=True))
    table.act(1, Place((1, 0), Symbol.CROSS))
    assert table.undo_floor() == 0 and table.can_undo()
    table.undo()
    assert table.match.step == 1
    # Jump to the movement stage by playing legal placements, then flip.
    while table.state.placing:
        seat = min(ESP.to_move(table.state))
        safe = [
            a
            for a in table.legal(seat)
            if isinstance(a, Place)
            and a.hidden
            and ESP.apply(
                table.state, seat, ESP.seal(table.state, seat, a, table.stores[seat])
            ).outcome
            is None
        ]
        assert table.act(seat, safe[0]).ok
    seat = min(ESP.to_move(table.state))
    flip = next(a for a in table.legal(seat) if isinstance(a, Flip))
    assert table.act(seat, flip).ok
    assert table.undo_floor() == table.match.step
    assert not table.can_undo()


def test_names_are_text_never_markup():
    s = session(("<b>Eve</b>", "Bo"))
    html = to_html(s.render())
    assert "<b>Eve</b>" not in html and "&lt;b&gt;Eve&lt;/b&gt;" in html
    assert (
        to_html(h("p", {"title": '"><script>'}, "x")) == '<p title="&quot;&gt;&lt;script&gt;">x</p>'
    )


def test_arrow_keys_move_to_the_nearest_cell_that_way():
    cells = [(0, 0), (1, 0), (0, 1), (-1, 0), (0, -1)]
    assert next_focus(cells, (0, 0), "ArrowRight") == (1, 0)
    assert next_focus(cells, (0, 0), "ArrowLeft") == (-1, 0)
    assert next_focus(cells, (0, 0), "ArrowDown") == (0, 1)
    assert next_focus(cells, (0, 0), "ArrowUp") == (0, -1)
    assert next_focus(cells, (1, 0), "ArrowRight") is None


def test_the_end_shows_the_result_with_the_audit_and_opens_hidden_tiles():
    s = session()
    moves = [
        (0, Place((0, 0), Symbol.CIRCLE)),
        (1, Place((1, 0), Symbol.CROSS)),
        (0, Place((0, 1), Symbol.STAR, hidden=True)),
        (1, Place((1, 1), Symbol.WAVES, hidden=True)),
        (0, Place((2, 0), Symbol.WAVES)),
        (1, Place((2, 1), Symbol.CIRCLE, hidden=True)),
        (0, Place((3, 0), Symbol.SQUARE)),
        (1, Place((3, 1), Symbol.SQUARE, hidden=True)),
    ]
    for _seat, move in moves:
        s.handle({"cmd": "take-device"})
        assert s.act(move), s.message
    s.handle({"cmd": "take-device"})
    assert s.act(Place((4, 0), Symbol.STAR))
    tree = s.render()
    (dialog,) = tree.find_all(data_role="result")
    assert "Ada wins!" in dialog.text() and dialog.find_all(data_audit="verified")
    assert "Ada completes a set: Ada 4, Bo 1." in dialog.text()
    board_html = to_html(tree)
    assert board_html.count("revealed") == 4  # every hidden tile opened for everyone


def test_an_event_the_game_does_not_know_is_refused_in_words():
    from parlour.ui.psi_squad.screen import PsiScreen

    config = MatchConfig("psi-squad", "m-ui-test-0002", ("Ann", "Bo"))
    s = PlaySession(Table.new(GAMES["psi-squad"], config, bytes(32), range(2)), PsiScreen())
    s.handle({"cmd": "take-device"})
    s.handle({"cmd": "offer-draw"})
    assert s.message == "That is not a Psi Squad action." and s.table.match.step == 0
    s.handle({"cmd": "target", "seat": "x"})
    s.handle({"cmd": "note", "note": "9:9"})
    s.handle({"cell": "not-a-cell"})
    assert s.table.match.step == 0


def test_a_new_game_asks_before_it_replaces_a_game_in_progress():
    """Issue 13, point 10: "New game" used to replace the saved game without a word."""
    from parlour.ui.saved_game import replace_game_tree, saved_summary

    game = session()
    saved = json.loads(json.dumps(game.to_json()))
    assert saved_summary(saved) == {"names": ["Ada", "Bo"], "moves": 0}
    tree = replace_game_tree("esp", "ESP", saved_summary(saved))
    text = tree.text()
    assert "Your game with Ada and Bo (not started yet) is saved on this device" in text
    assert tree.find_all(data_cmd="replace-game") and tree.find_all(href="#play-esp")
    del saved["summary"]  # a save from before summaries: read from the log
    assert saved_summary(saved) == {"names": ["Ada", "Bo"], "moves": 0}
    assert saved_summary(None) is None and saved_summary({"table": 3}) is None
    over = {**game.to_json(), "summary": {"names": ["Ada"], "moves": 9, "over": True}}
    assert saved_summary(over) is None  # a finished game is not asked about
