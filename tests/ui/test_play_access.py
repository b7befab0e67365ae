"""The play screen's shared aids (issue 17), in CPython: the "?" beside each tool, undo of
another player's move asked of the seat shown, the last move, the live region's sentences,
focus after a screen change, the folding log, "Describe the board", and the result beside
the board."""

from __future__ import annotations

from parlour.games import GAMES
from parlour.match.config import MatchConfig
from parlour.match.table import Table
from parlour.ui.app import App
from parlour.ui.esp.screen import EspScreen
from parlour.ui.help import help_key
from parlour.ui.play import PlaySession
from parlour.ui.tree import Node
from tests.ui.test_play_session import SET_IN_NINE, place, session


def tools(tree: Node) -> dict[str, Node]:
    return {
        n.attrs["data-cmd"]: n
        for n in tree.find_all(**{"class": "button small"})
        if "data-cmd" in n.attrs
    }


def test_every_tool_has_a_question_mark_that_names_it_and_one_sentence():
    s = session()
    place(s, "star", "up", "0,0")
    s.handle({"cmd": "take-device"})
    tree = s.render()
    helps = tree.find_all(**{"class": "help"})
    keys = {h.find_all(**{"class": "help-button"})[0].attrs["data-help"] for h in helps}
    assert keys >= {"undo", "describe-board", "rules", "new-game"}
    for tip in helps:
        (button,) = tip.find_all(**{"class": "help-button"})
        (text,) = tip.find_all(role="tooltip")
        assert button.attrs["aria-describedby"] == text.attrs["id"]
        assert button.attrs["aria-label"].startswith("About ")
        sentence = text.text()
        assert sentence.endswith(".") and sentence.count(". ") == 0, sentence
    (bar,) = tree.find_all(**{"class": "play-bar"})
    sentences = {t.attrs["id"] for t in tree.find_all(role="tooltip")}
    for cmd, control in tools(bar).items():
        ident = control.attrs.get("aria-describedby", "")
        assert ident in sentences and help_key(ident) == f"help-{cmd}", (cmd, ident)
    assert len(sentences) == len(helps), "every sentence's id is its own"


def test_undo_of_another_players_move_asks_the_seat_shown_first():
    s = session()
    place(s, "star", "up", "0,0")  # Ada's move; Bo now holds the device
    s.handle({"cmd": "take-device"})
    assert s.viewer == 1
    s.handle({"cmd": "undo"})
    assert s.table.match.step == 1, "nothing is taken back before Bo answers"
    (question,) = s.render().find_all(data_role="undo-question")
    assert "Bo: take back Ada's move?" in question.text()
    assert s.take_focus() == "[data-role=undo-question] h2"
    s.handle({"cmd": "refuse-undo"})
    assert s.table.match.step == 1 and s.message == "The move stands."
    assert not s.render().find_all(data_role="undo-question")
    s.handle({"cmd": "undo"})
    s.handle({"cmd": "allow-undo"})
    assert s.table.match.step == 0
    assert s.message.startswith("Bo allowed it.")
    (handoff,) = s.render().find_all(data_role="handoff")  # the device goes back to Ada
    (note,) = handoff.find_all(data_role="last-move")
    assert note.text().startswith("Bo let Ada take back a move. Taken back: Ada ")
    assert not handoff.find_all(data_role="take-back"), "Bo's leave is not Ada's own take-back"
    s.handle({"cmd": "take-device"})
    assert s.viewer == 0 and not s.render().find_all(data_role="handoff")


def test_the_player_who_has_just_moved_takes_it_back_on_the_hand_off():
    s = session()
    place(s, "star", "up", "0,0")  # Ada's move: the hand-off to Bo covers the board
    (handoff,) = s.render().find_all(data_role="handoff")
    (offer,) = handoff.find_all(data_role="take-back")
    assert offer.text().startswith("Ada, not what you meant?")
    assert offer.find_all(data_cmd="take-back")[0].text() == "Take back my move"
    s.handle({"cmd": "take-back"})
    assert s.table.match.step == 0 and s.viewer == 0, "Ada's own view again, nobody asked"
    assert s.message.startswith("Ada took back their move: Ada ")
    assert not s.render().find_all(data_role="handoff")
    place(s, "cross", "up", "0,0")
    s.handle({"cmd": "take-device"})  # Bo holds the device: Ada's take-back is gone
    s.handle({"cmd": "take-back"})
    assert s.table.match.step == 1 and s.viewer == 1


def test_undo_of_ones_own_move_needs_nobody_s_leave():
    s = session()
    place(s, "star", "up", "0,0")
    place(s, "cross", "up", "1,0")
    s.handle({"cmd": "take-device"})  # Ada
    assert s.undo_asks() == 1
    s.viewer = 1  # were Bo still shown, the move would be Bo's own
    assert s.undo_asks() is None


def test_an_answer_with_no_question_changes_nothing():
    s = session()
    place(s, "star", "up", "0,0")
    s.handle({"cmd": "take-device"})
    s.handle({"cmd": "allow-undo"})
    assert s.table.match.step == 1


def test_the_last_move_is_the_one_the_log_and_the_hand_off_tell():
    s = session()
    assert s.last_move() is None
    place(s, "star", "up", "0,0")
    last = s.last_move()
    assert last is not None and last.seat == 0 and last.seq == 1
    tree = s.render()
    (told,) = tree.find_all(data_role="last-move")
    assert told.text() == s.log_lines()[-1] == s.message


def test_each_move_is_said_once_by_the_page_s_live_region():
    app = App()
    app.sessions["esp"] = s = session()
    place(s, "star", "up", "0,0")
    app.draw("esp")
    said = [t for t in app.effects.text if t[0] == "#announcer"]
    assert said == [["#announcer", s.log_lines()[-1]]]
    app.storage.effects = type(app.effects)()
    app.draw("esp")
    assert not app.effects.text, "a redraw says nothing new"


def test_after_a_hand_off_the_focus_goes_to_the_new_view_s_heading():
    app = App()
    app.sessions["esp"] = s = session()
    s.handle({"cmd": "take-device"})
    app.draw("esp")
    assert app.effects.focus == "#play-esp .play-root [data-role=status]"
    (heading,) = s.render().find_all(data_role="status")
    assert heading.tag == "h2" and heading.attrs["tabindex"] == "-1"


def test_the_log_folds_and_unfolds_and_a_redraw_keeps_it():
    s = session()
    place(s, "star", "up", "0,0")
    s.handle({"cmd": "take-device"})
    s.handle({"cmd": "toggle-log"})
    tree = s.render()
    (toggle,) = tree.find_all(**{"class": "log-toggle"})
    assert toggle.attrs["aria-expanded"] == "false" and "(1)" in toggle.text()
    (log,) = tree.find_all(id="esp-game-log")
    assert "hidden" in log.attrs
    s.handle({"cmd": "toggle-log"})
    assert "hidden" not in s.render().find_all(id="esp-game-log")[0].attrs


def test_describe_the_board_reads_the_position_and_says_it():
    s = session()
    place(s, "star", "up", "0,0")
    s.handle({"cmd": "take-device"})
    s.handle({"cmd": "describe-board"})
    (section,) = s.render().find_all(data_role="description")
    assert section.find_all(tag="li") or section.text()
    assert s.take_said() == " ".join(s.board_sentences())
    s.handle({"cmd": "describe-board"})
    assert not s.render().find_all(data_role="description")


def test_the_result_sits_beside_the_board_not_over_it():
    s = finished()
    tree = s.render()
    (panel,) = tree.find_all(data_role="result")
    assert "overlay" not in panel.attrs.get("class", "")
    (main,) = tree.find_all(**{"class": "play-main"})
    assert main.children[0] is panel, "the result takes the controls' place, first"
    assert main.find_all(**{"class": "board-wrap"})
    assert s.take_focus() == "[data-role=result] h2"
    s.handle({"cmd": "close-result"})
    assert not s.render().find_all(data_role="result")


def finished() -> PlaySession:
    """A game of ESP Ada wins by a set (test_play_session's SET_IN_NINE)."""
    s = session()
    for move in SET_IN_NINE:
        s.handle({"cmd": "take-device"})
        assert s.act(move), s.message
    return s


def test_a_route_to_a_screen_the_worker_draws_moves_the_focus_to_its_heading():
    app = App()
    app.call('{"op": "route", "hash": "#replay", "href": "http://x/#replay"}')
    assert app.effects.focus == "#replay .replay-root h2, #replay .replay-root h1"


def test_a_route_back_to_a_game_looks_for_its_focus_inside_that_game_only():
    app = App()
    app.sessions["esp"] = session()
    app.call('{"op": "route", "hash": "#play-esp", "href": "http://x/#play-esp"}')
    parts = app.effects.focus.split(", ")
    assert len(parts) == 2 and all(p.startswith("#play-esp .play-root ") for p in parts)
    app.call('{"op": "route", "hash": "#online-help", "href": "http://x/#online-help"}')
    assert app.effects.focus is None, "a plain screen's focus is the page's own"


def test_with_two_people_and_a_bot_undo_of_the_other_person_s_move_asks_first():
    config = MatchConfig("esp", "m-ui-test-0002", ("Ada", "Bo", "Cy"), bots={"2": "easy"})
    table = Table.new(GAMES["esp"], config, bytes(32), range(3))
    s = PlaySession(table, EspScreen())
    place(s, "star", "up", "0,0")  # Ada's move; Bo (a person) holds the device next
    s.handle({"cmd": "take-device"})
    assert s.viewer == 1 and s.undo_asks() == 0
    s.handle({"cmd": "undo"})
    assert s.table.match.step == 1 and s.asking_undo
    s.handle({"cmd": "allow-undo"})
    assert s.table.match.step == 0
    assert s.message == "Bo allowed it. Took back Ada's move."


def test_describe_the_board_reads_the_final_board_too():
    s = finished()
    s.handle({"cmd": "close-result"})
    s.handle({"cmd": "describe-board"})
    assert s.render().find_all(data_role="description")
    s.handle({"cmd": "show-result"})
    assert s.take_focus() == "[data-role=result] h2"
