"""ESP's play screen for everyone (issue 17): the last move marked, the result's numbers, cells
named in words (never a hidden symbol the viewer may not see), the board described, a "?" beside
each control, zoom, and one Tab stop on the board."""

from __future__ import annotations

import re
from dataclasses import replace
from types import SimpleNamespace

from parlour.games import GAMES
from parlour.games.base import Setup
from parlour.games.esp.actions import Flip, Move, Place, ProposeDraw
from parlour.games.esp.hexgrid import DIRECTION_NAMES, DIRECTIONS, step
from parlour.games.esp.state import EspState, Tile
from parlour.games.zener import SYMBOLS, Symbol
from parlour.match.config import MatchConfig
from parlour.match.table import Table
from parlour.ui.esp.board import ZOOMS, cell_name
from parlour.ui.esp.screen import EspScreen
from parlour.ui.esp.told import set_count_tree
from parlour.ui.play import PlaySession
from parlour.ui.tree import Node, to_html
from tests.ui.test_play_session import SET_IN_NINE

ESP = GAMES["esp"]
SYMBOL_WORDS = re.compile(r"\b(" + "|".join(s.value for s in SYMBOLS) + r")\b")


def session(names=("Ada", "Bo"), match_id="m-esp-access-01") -> PlaySession:
    config = MatchConfig("esp", match_id, names)
    return PlaySession(Table.new(ESP, config, bytes(32), range(len(names))), EspScreen())


def play(s: PlaySession, seat: int, action) -> None:
    s.viewer = seat
    assert s.act(action), s.message


def cells(tree: Node) -> dict[str, Node]:
    return {
        n.attrs["data-cell"]: n
        for n in tree.walk()
        if isinstance(n, Node) and "data-cell" in n.attrs
    }


def seen_by(s: PlaySession, seat: int) -> Node:
    s.viewer = seat
    return s.render()


def to_movement(s: PlaySession) -> None:
    """Place every tile (alternately symbol-down and symbol-up, never completing a set)."""
    table = s.table
    n = 0
    while table.state.placing:
        seat = min(ESP.to_move(table.state))
        legal = [a for a in table.legal(seat) if isinstance(a, Place) and a.hidden == (n % 2 == 0)]
        safe = next(
            a
            for a in legal
            if ESP.apply(
                table.state, seat, ESP.seal(table.state, seat, a, table.stores[seat])
            ).outcome
            is None
        )
        assert table.act(seat, safe).ok
        n += 1


# -- cell names ------------------------------------------------------------------------------


def walk(name: str) -> tuple[int, int]:
    """The cell a name points at, by walking it from the centre (the rules page's words)."""
    cell = (0, 0)
    if name == "the centre":
        return cell
    for part in name.split(", "):
        count, direction = part.split(" ", 1)
        cell = step(cell, DIRECTION_NAMES.index(direction), int(count))
    return cell


def test_cells_are_named_by_a_walk_from_the_centre_one_name_each():
    assert cell_name((0, 0)) == "the centre"
    assert [cell_name(d) for d in DIRECTIONS] == [f"1 {name}" for name in DIRECTION_NAMES]
    assert cell_name((2, 0)) == "2 east"
    assert cell_name((2, 1)) == "2 east, 1 south-east"
    assert cell_name((-3, 1)) == "1 south-west, 2 west"
    around = [(q, r) for q in range(-7, 8) for r in range(-7, 8)]
    names = [cell_name(c) for c in around]
    assert len(set(names)) == len(around)
    assert all(walk(name) == c for name, c in zip(names, around, strict=True))
    assert all(not re.search(r"\b0 ", name) for name in names)


def test_every_cell_is_named_with_what_is_on_it():
    s = session()
    play(s, 0, Place((0, 0), Symbol.STAR))
    play(s, 1, Place((1, 0), Symbol.CROSS, hidden=True))
    board = cells(seen_by(s, 0))
    assert board["0,0"].attrs["aria-label"].startswith("the centre: Ada's star, symbol-up")
    assert board["1,0"].attrs["aria-label"].startswith("1 east: Bo's tile, symbol-down")
    assert board["-1,0"].attrs["aria-label"].startswith("1 west: empty")
    mine = cells(seen_by(s, 1))["1,0"].attrs["aria-label"]
    assert "Bo's tile, symbol-down (yours: a cross)" in mine
    # the tooltip says the same as the name
    assert board["1,0"].children[0].children == [board["1,0"].attrs["aria-label"]]


def test_no_name_nor_sentence_ever_tells_a_symbol_the_viewer_may_not_see():
    """Two games alike but for the symbols Bo hid: everything Ada's screen holds is the same."""
    renders = []
    for hidden in (Symbol.CIRCLE, Symbol.WAVES):
        s = session()
        play(s, 0, Place((0, 0), Symbol.STAR))
        play(s, 1, Place((1, 0), hidden, hidden=True))
        play(s, 0, Place((0, 1), Symbol.SQUARE, hidden=True))
        play(s, 1, Place((1, 1), hidden, hidden=True))
        s.viewer = 0
        s.describing = True
        tree = s.render()
        for key in ("1,0", "1,1"):
            label = cells(tree)[key].attrs["aria-label"]
            assert not SYMBOL_WORDS.search(label), label
        view = ESP.seat_view(s.table.state, 0, s.table.stores[0])
        sentences = EspScreen().describe_board(view, 0)
        renders.append((re.sub(r'data-[a-z-]+="[^"]*"', "", to_html(tree)), sentences))
    assert renders[0] == renders[1]
    # and the viewer's own hidden symbol is told to the viewer only
    assert "a symbol-down tile (yours: a square) at 1 south-east" in " ".join(renders[0][1])


def test_describe_board_tells_the_stage_each_players_tiles_and_the_scheme():
    s = session()
    screen = EspScreen()
    empty = screen.describe_board(ESP.public_view(s.table.state), None)
    assert empty[0] == "Placement stage: 0 of 20 tiles placed."
    assert "The board is empty: the first tile goes on the centre." in empty
    play(s, 0, Place((0, 0), Symbol.STAR))
    play(s, 1, Place((1, 0), Symbol.CROSS, hidden=True))
    play(s, 0, Place((1, -1), Symbol.CIRCLE))
    said = screen.describe_board(ESP.seat_view(s.table.state, 0, s.table.stores[0]), 0)
    assert said[0] == "Placement stage: 3 of 20 tiles placed."
    assert said[1] == (
        "Ada (Light), 2 tiles; 8 still to place: a star on the centre; a circle at 1 north-east."
    )
    assert said[2] == "Bo (Dark), 1 tile; 9 still to place: a symbol-down tile at 1 east."
    assert "named from the centre" in said[-1]


# -- the last move ---------------------------------------------------------------------------


def test_the_last_placement_is_marked_by_shape_and_words():
    s = session()
    play(s, 0, Place((0, 0), Symbol.STAR))
    play(s, 1, Place((1, 0), Symbol.CROSS))
    board = cells(seen_by(s, 0))
    last = board["1,0"]
    assert "last" in last.attrs["class"].split()
    assert "Bo's last move placed this tile" in last.attrs["aria-label"]
    kinds = {n.attrs.get("class") for n in last.walk() if isinstance(n, Node)}
    assert {"ring last-ring", "ring-halo last-halo", "last-badge"} <= kinds
    assert "last" not in board["0,0"].attrs["class"].split()
    assert sum("last move" in n.attrs["aria-label"] for n in board.values()) == 1


def test_a_flip_and_a_jump_are_marked_with_the_cell_the_jump_left():
    s = session()
    to_movement(s)
    table = s.table
    seat = min(ESP.to_move(table.state))
    flip = next(a for a in table.legal(seat) if isinstance(a, Flip))
    play(s, seat, flip)
    board = cells(seen_by(s, 1 - seat))
    assert (
        f"{s.names[seat]}'s last move flipped this tile"
        in board[f"{flip.cell[0]},{flip.cell[1]}"].attrs["aria-label"]
    )
    seat = 1 - seat
    move = next(a for a in table.legal(seat) if isinstance(a, Move))
    landing = ESP.landing(table.state, move.cell, move.direction)
    play(s, seat, move)
    tree = seen_by(s, 1 - seat)
    board = cells(tree)
    came = board[f"{move.cell[0]},{move.cell[1]}"]
    went = board[f"{landing[0]},{landing[1]}"]
    assert "last-from" in came.attrs["class"] and "empty" in came.attrs["class"]
    assert "the last move jumped from here" in came.attrs["aria-label"]
    assert f"jumped this tile here from {cell_name(move.cell)}" in went.attrs["aria-label"]
    assert [n for n in tree.walk() if isinstance(n, Node) and n.attrs.get("class") == "last-path"]
    # the flip's mark is gone: one last move at a time
    assert sum("last move" in n.attrs["aria-label"] for n in board.values()) == 2


def test_a_move_without_a_cell_marks_nothing_and_a_replay_marks_from_its_match():
    s = session()
    play(s, 0, Place((0, 0), Symbol.STAR))
    play(s, 1, ProposeDraw())
    board = cells(seen_by(s, 0))
    assert not any("last" in n.attrs["class"].split() for n in board.values())
    # A replay's spectator has no last_move: the newest entry of its match is marked, the
    # board is fitted (no zoom to click), and nothing of a seat's view is drawn.
    t = session().table
    t.act(0, Place((0, 0), Symbol.STAR))
    t.act(1, Place((1, 0), Symbol.WAVES, hidden=True))
    spectator = SimpleNamespace(
        match=t.match,
        selection=EspScreen().new_selection(),
        viewer=None,
        legal=lambda: [],
        opened=lambda seat: None,
    )
    screen = EspScreen()
    tree = screen.board(spectator, ESP.public_view(t.state))  # type: ignore[arg-type]
    board = cells(tree)
    assert "Bo's last move placed this tile" in board["1,0"].attrs["aria-label"]
    assert not tree.find_all(data_cmd="zoom-in")
    assert "fit" in tree.attrs["class"]
    assert "waves" not in to_html(tree)


# -- the end ---------------------------------------------------------------------------------


def won_game() -> PlaySession:
    s = session()
    for i, move in enumerate(SET_IN_NINE):
        play(s, i % 2, move)
    return s


def test_the_result_says_what_the_numbers_are_and_the_final_board_rings_the_set():
    s = won_game()
    tree = s.render()
    (dialog,) = tree.find_all(data_role="result")
    (count,) = dialog.find_all(data_role="set-count")
    text = count.text()
    assert "The set holds 4 of Ada's tiles and 1 of Bo's." in text
    assert "The most tiles in the set win: Ada has 4." in text
    assert "Ada's circle, Bo's cross, Ada's waves, Ada's square, Ada's star" in text
    board = cells(tree)
    ringed = [k for k, n in board.items() if "in-set" in n.attrs["class"].split()]
    assert sorted(ringed) == ["0,0", "1,0", "2,0", "3,0", "4,0"]
    for key in ringed:
        assert "in the winning set" in board[key].attrs["aria-label"]
        assert any(
            isinstance(n, Node) and n.attrs.get("class") == "ring set-ring"
            for n in board[key].walk()
        )
    assert [n for n in tree.walk() if isinstance(n, Node) and n.attrs.get("class") == "set-path"]
    # the winning move is still the last move, marked inside the set's ring
    assert "Ada's last move placed this tile" in board["4,0"].attrs["aria-label"]


def test_a_draw_has_no_numbers_to_explain():
    s = session()
    play(s, 0, ProposeDraw())
    s.viewer = 1
    s.handle({"cmd": "answer-draw", "accept": "yes"})
    assert s.table.match.result() is not None
    assert not s.render().find_all(data_role="set-count")


def three_way(owners: list[int]) -> EspState:
    state = ESP.initial_state(Setup("m", ("Ada", "Bo", "Cy")), bytes(32))
    window = tuple((q, 0) for q in range(5))
    board = {
        c: Tile(owner, i, i + 1, symbol)
        for i, (c, owner, symbol) in enumerate(zip(window, owners, SYMBOLS, strict=True))
    }
    return replace(state, board=board, sets=(window,))


def test_ties_are_explained_in_the_rules_words():
    mover_wins = set_count_tree(three_way([0, 1, 0, 1, 2]), mover=1).text()
    assert "The set holds 2 of Ada's tiles, 2 of Bo's and 1 of Cy's." in mover_wins
    assert (
        "Ada and Bo tie with 2 each, and a tie goes to the player who completed the set: Bo."
        in (mover_wins)
    )
    shared = set_count_tree(three_way([0, 1, 0, 1, 2]), mover=2).text()
    assert (
        "Ada and Bo tie with 2 each; Cy completed the set with fewer, so they share the win."
        in (shared)
    )
    alone = set_count_tree(three_way([2, 2, 2, 2, 2]), mover=2).text()
    assert "The set's 5 tiles are all Cy's." in alone and "most" not in alone


# -- controls: the "?", zoom, Tab ----------------------------------------------------------


def described_controls(tree: Node) -> None:
    """Every button of ESP's own controls points at a help sentence that is in the tree."""
    ids = {n.attrs["id"] for n in tree.walk() if isinstance(n, Node) and "id" in n.attrs}
    buttons = [
        n
        for n in tree.walk()
        if isinstance(n, Node)
        and n.tag == "button"
        and n.attrs.get("data-cmd")
        in ("face", "flip", "pass", "answer-draw", "zoom-in", "zoom-out")
    ]
    assert buttons
    for button in buttons:
        assert button.attrs.get("aria-describedby") in ids, to_html(button)


def test_each_control_of_esp_has_its_question_mark():
    s = session()
    s.viewer = 0
    tree = s.render()
    described_controls(tree)
    assert tree.find_all(data_help="esp-tray")
    assert len(tree.find_all(data_help="esp-face-up")) == 1
    to_movement(s)
    seat = min(ESP.to_move(s.table.state))
    flip = next(a for a in s.table.legal(seat) if isinstance(a, Flip))
    s.viewer = seat
    s.handle({"cell": f"{flip.cell[0]},{flip.cell[1]}"})
    tree = s.render()
    assert tree.find_all(data_cmd="flip")
    described_controls(tree)
    assert s.take_focus() == "[data-cmd=flip]"  # the next step, for the keyboard
    s.handle({"cmd": "offer-draw"})
    s.viewer = 1 - seat
    described_controls(s.render())
    assert s.render().find_all(data_help="esp-play-on")


def svg_of(tree: Node) -> Node:
    (svg,) = [
        n
        for n in tree.walk()
        if isinstance(n, Node) and n.tag == "svg" and "esp-board" in n.attrs.get("class", "")
    ]
    return svg


def test_zoom_in_and_out_changes_the_size_of_a_cell_and_stops_at_the_ends():
    s = won_game()
    s.viewer = 0
    screen: EspScreen = s.screen  # type: ignore[assignment]
    box = float(svg_of(s.render()).attrs["viewBox"].split()[2])
    assert float(svg_of(s.render()).attrs["width"]) == round(box * ZOOMS[1])
    for _ in range(5):
        s.handle({"cmd": "zoom-in"})
    tree = s.render()
    assert screen.zoom == len(ZOOMS) - 1
    assert float(svg_of(tree).attrs["width"]) == round(box * ZOOMS[-1])
    (plus,) = tree.find_all(data_cmd="zoom-in")
    assert plus.attrs["aria-disabled"] == "true"
    assert "Zoom: largest" in tree.text()
    for _ in range(5):
        s.handle({"cmd": "zoom-out"})
    tree = s.render()
    assert screen.zoom == 0 and "fit" in svg_of(tree).attrs["class"]
    # a zoom is no move, and works at the end, when no seat is on screen
    s.viewer = None
    s.handle({"cmd": "zoom-in"})
    assert screen.zoom == 1 and s.table.match.step == 9


def test_the_board_has_one_tab_stop_at_the_cell_that_matters():
    s = session()
    s.viewer = 0
    s.handle({"cmd": "tray", "symbol": "star"})
    board = cells(s.render())
    stops = [k for k, n in board.items() if n.attrs["tabindex"] == "0"]
    assert stops == ["0,0"]  # the only target
    assert all(n.attrs["tabindex"] in ("0", "-1") for n in board.values())
    s.handle({"cell": "0,0"})
    s.viewer = 0  # the waiting seat's view: the last move is the stop
    board = cells(s.render())
    assert [k for k, n in board.items() if n.attrs["tabindex"] == "0"] == ["0,0"]
    (anchor,) = s.render().find_all(data_role="scroll-anchor")
    assert 0 <= float(anchor.attrs["data-left"]) <= 100
