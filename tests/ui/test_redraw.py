"""Redraws by their changed parts (parlour.ui.redraw): the patches turn the drawing the page
holds into the new one exactly, and a move against bots sends a small part of the screen."""

from __future__ import annotations

import json
from html.parser import HTMLParser

import pytest

from parlour.fair.rng import Rng
from parlour.games.declared import default_tables
from parlour.ui import help as helps
from parlour.ui.app import App
from parlour.ui.page import Effects
from parlour.ui.redraw import MOST_SHARE, Changes, Drawn, _rising, changes
from parlour.ui.tree import Node, h, s, to_html
from tests.ui.test_bot_seats import call, person_moves, run_bots, session

SEATS = dict(default_tables())


def element_children(node: Node) -> list[Node]:
    return [c for c in node.children if isinstance(c, Node)]


def patched(old: Node, found: Changes) -> str:
    """What a browser holding `old` (as HTML) holds after the changes, as HTML, found by element
    indices as the page finds them: the marks, the puts, then the splices in their order."""
    region = Node("", {}, [_copy(c) for c in (old.children if not old.tag else [old])])

    def find(path: object, tag: object) -> Node:
        assert isinstance(path, list)
        node = region
        for index in path:
            node = element_children(node)[index]
        assert node.tag == tag
        return node

    for path, tag, attrs in found.marks:
        node = find(path, tag)
        for name, text in attrs.items():
            if text is None:
                del node.attrs[name]
            else:
                node.attrs[name] = text
    for path, tag, html in found.puts:
        assert isinstance(path, list) and path
        parent = region
        for index in path[:-1]:
            parent = element_children(parent)[index]
        target = element_children(parent)[path[-1]]
        assert target.tag == tag
        at = next(i for i, child in enumerate(parent.children) if child is target)
        parent.children[at] = Node("raw", {"html": str(html)})  # by identity: equal siblings
    for path, tag, start, taken, added, html in found.splices:
        parent = find(path, tag)
        assert isinstance(start, int) and isinstance(taken, int)
        kids = element_children(parent)
        assert len(kids) == len(parent.children)  # a splice is made among elements only
        parent.children[start : start + taken] = [Node("raw", {"html": str(html)})]
        assert added == 0 or html
    return _html(region)


class _Canonical(HTMLParser):
    """HTML as a browser's DOM holds it: attributes in no order (the page sets a mark's
    attributes after the others)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.out: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.out.append(f"<{tag} {sorted(attrs, key=lambda a: a[0])}>")

    def handle_endtag(self, tag: str) -> None:
        self.out.append(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        self.out.append(data)

    def handle_entityref(self, name: str) -> None:
        self.out.append(f"&{name};")

    def handle_charref(self, name: str) -> None:
        self.out.append(f"&#{name};")


def canonical(html: str) -> list[str]:
    parser = _Canonical()
    parser.feed(html)
    parser.close()
    return parser.out


def _copy(node: Node | str) -> Node | str:
    if isinstance(node, str):
        return node
    return Node(node.tag, dict(node.attrs), [_copy(c) for c in node.children], node.svg)


def _html(node: Node | str) -> str:
    if isinstance(node, Node) and node.tag == "raw":
        return node.attrs["html"]
    if isinstance(node, Node) and not node.tag:
        return "".join(_html(c) for c in node.children)
    if isinstance(node, str):
        return to_html(node)
    inner = "".join(_html(c) for c in node.children)
    shell = to_html(Node(node.tag, node.attrs, [], node.svg))
    return shell.replace("></", f">{inner}</", 1) if inner else shell


def test_a_changed_line_is_sent_alone():
    log = h("ol", None, h("li", None, "1"))
    old = h("div", {"class": "play"}, h("h2", None, "Ada's turn"), log)
    new = h("div", {"class": "play"}, h("h2", None, "Bo's turn"), log)
    assert changes(old, new) == Changes(puts=[[[0, 0], "h2", "<h2>Bo's turn</h2>"]])
    assert changes(old, old) == Changes()


def test_what_cannot_be_matched_is_sent_whole():
    x = "words " * 20  # the part not changed is the larger
    a = h("div", None, h("p", None, x), h("ul", None, h("li", None, "1")))
    more = h("div", None, h("p", None, x), h("ul", None, h("li", None, "1"), h("li", None, "2")))
    # a list that grew: the new line is put in after the first
    assert changes(a, more) == Changes(splices=[[[0, 1], "ul", 1, 0, 1, "<li>2</li>"]])
    # another attribute: set on the element kept; the focus's new control: put in whole
    moved = h("div", {"title": "other"}, h("p", None, x), h("ul", None, h("li", None, "1")))
    assert changes(a, moved) == Changes(marks=[[[0], "div", {"title": "other"}]])
    # another class or role: another element (a hand-off where the table was), put in whole
    other = h("div", {"class": "handoff"}, h("p", None, x), h("ul", None, h("li", None, "1")))
    assert changes(a, other) is None  # the region's one element: the whole HTML
    focused = h("div", {"data-autofocus": ""}, h("p", None, x), h("ul", None, h("li", None, "1")))
    assert changes(a, focused) is None  # the region's one element: the whole HTML
    # inside an SVG drawing, the changed shape (a board's changed cell)
    board = h("div", None, h("p", None, x), s("svg", None, s("g", None, s("circle", {"r": "1"}))))
    board2 = h("div", None, h("p", None, x), s("svg", None, s("g", None, s("circle", {"r": "2"}))))
    assert changes(board, board2) == Changes(marks=[[[0, 1, 0, 0], "circle", {"r": "2"}]])
    # a field is drawn afresh even when unchanged (a redraw clears what was typed into it)
    long = h("p", None, "long " * 40)
    form = h("div", None, h("p", None, "Name"), h("input", {"value": ""}), long)
    assert [p[:2] for p in first(changes(form, form))] == [[[0, 1], "input"]]


def test_a_board_s_cells_are_matched_by_name_wherever_they_moved():
    """Issue 39: a tile placed among a board's cells spliced every cell between the board's two
    ends anew (up to 20 KB of SVG a move); cells that name what they draw are kept where they
    are, and only the new, gone and changed ones travel, a line over them included."""

    def cell(key: str, kind: str = "empty") -> Node:
        return s("g", {"class": f"cell {kind}", "data-cell": key}, s("title", None, key * 30))

    keys = [f"{q},{r}" for q in range(-3, 4) for r in range(-3, 4)]
    old = h("div", None, s("svg", None, *(cell(k) for k in keys), s("line", {"x1": "0"})))
    # a tile at 0,0 (its empty cell goes; the tile comes at the end, tiles drawn last), a new
    # empty cell at the ring's edge, the line moved, and one empty cell now a target
    new_keys = [k for k in keys if k != "0,0"]
    new_cells = [cell(k, "empty target" if k == "1,1" else "empty") for k in new_keys]
    new_cells.insert(3, cell("-3,-4"))
    new = h(
        "div",
        None,
        s("svg", None, *new_cells, cell("0,0", "tile"), s("line", {"x1": "5"})),
    )
    found = changes(old, new)
    assert found is not None
    assert canonical(patched(old, found)) == canonical(to_html(new))
    sent = found.size()
    assert sent < 0.15 * len(to_html(new)), sent  # the changed cells, not the board
    # a cell whose class changed is the same cell: its attribute is set, nothing sent again
    assert found.puts == []
    assert [m[2] for m in found.marks if m[1] == "g"] == [{"class": "cell empty target"}]
    assert len(found.splices) == 3  # the new edge cell; the empty 0,0 out; the tile and line


def test_a_tile_moved_on_a_board_of_as_many_cells_sends_the_cells_that_changed():
    """Issue 39: a tile jumped across ESP's board leaves as many cells as before (an empty cell
    where it lands goes, one where it left comes): compared by place, every cell between stood
    for its neighbour and went whole, up to 52 cells (30 KB of SVG) a move in a 4-seat game."""

    def cell(key: str, kind: str = "empty") -> Node:
        return s("g", {"class": f"cell {kind}", "data-cell": key}, s("title", None, key * 30))

    keys = [f"{q},0" for q in range(40)]
    old = h("div", None, s("svg", None, *(cell(k) for k in keys)))
    # the tile at 0,0 jumps to 39,0: 0,0 is empty now, drawn first; 39,0 holds the tile, last
    news = [cell("0,0"), *(cell(k) for k in keys[1:39]), cell("39,0", "tile last")]
    moved = [news[0], *news[1:39], news[39]]
    new = h("div", None, s("svg", None, *moved))
    old_cells = [cell("0,0", "tile"), *(cell(k) for k in keys[1:])]
    old = h("div", None, s("svg", None, *old_cells))
    found = changes(old, new)
    assert found is not None
    assert canonical(patched(old, found)) == canonical(to_html(new))
    assert found.puts == [] and found.splices == []
    assert sorted(m[2]["class"] for m in found.marks) == ["cell empty", "cell tile last"]
    # a cell that changed places among as many: taken out and put in, the rest kept
    shifted = h("div", None, s("svg", None, *(cell(k) for k in keys[1:]), cell("0,0")))
    found = changes(old, shifted)
    assert found is not None
    assert canonical(patched(old, found)) == canonical(to_html(shifted))
    assert found.size() < 0.1 * len(to_html(shifted)), found.size()


def test_the_longest_rising_run_keeps_the_most_in_place():
    assert _rising([(5, 0), (0, 1), (1, 2), (2, 3)]) == [(0, 1), (1, 2), (2, 3)]
    assert _rising([(0, 0), (3, 1), (1, 2), (2, 3), (4, 4)]) == [(0, 0), (1, 2), (2, 3), (4, 4)]
    assert _rising([]) == []


def first(found: Changes | None) -> list[list[object]]:
    assert found is not None
    return found.puts


@pytest.mark.parametrize("game", sorted(SEATS))
def test_every_redraw_of_a_game_against_bots_patches_to_the_new_screen(game):
    """Every screen of a whole game (a person against bots): the patches from the screen before
    give exactly the new HTML, and the moves send far less than whole screens."""
    seats = SEATS[game]
    names = ("Ada", *(f"Bot {i} (bot)" for i in range(1, seats)))
    play = session(game, names, {i: "easy" for i in range(1, seats)})
    rng = Rng(b"redraw" + game.encode())
    drawn = Drawn()
    before, sent, whole, screens = None, 0, 0, 0
    for _ in range(400):
        if play.table.match.result() is not None:
            break
        if play.bot_due():
            run_bots(play, rng)
        else:
            person_moves(play, 0, rng)
        tree = play.render()
        effects = Effects(drawn)
        effects.draw("#play", tree)
        _stamp, base, text = effects.patch["#play"]
        html = effects.render[0][1]
        if before is not None and base is not None:
            found = Changes(*json.loads(str(text)))
            assert canonical(patched(before, found)) == canonical(html)
            sent += len(str(text))
            screens += 1
        whole += len(html) if before is not None else 0
        before = tree
    assert play.table.match.result() is not None
    assert screens > 0 and sent < MOST_SHARE * whole, (game, sent, whole)


def test_the_app_sends_each_region_its_patch_against_the_drawing_before():
    app = App()
    call(app, {"op": "start", "local": {}, "session": {}})
    call(app, {"op": "route", "hash": "#solo-esp"})
    first = call(app, {"op": "route", "hash": "#play-esp"})
    again = call(app, {"op": "route", "hash": "#play-esp"})  # drawn again, unchanged
    (selector, _html), *_ = first["render"]
    stamp = first["patch"][selector][0]
    assert again["patch"][selector] == [stamp + 1, stamp, "[[],[],[]]"]  # nothing to change


def test_the_worker_s_page_sends_changes_without_the_whole_and_sends_it_when_asked():
    """In the worker (`lean`), a region drawn by its changes goes without its whole HTML: the
    main thread parses a fraction of it. When the changes do not fit, the page asks (op
    "whole") and gets the region's last drawing whole, with its stamp."""
    app = App()
    app.lean = True
    call(app, {"op": "start", "local": {}, "session": {}})
    call(app, {"op": "route", "hash": "#solo-psi-squad"})
    first = call(app, {"op": "route", "hash": "#play-psi-squad"})
    for selector, html in first["render"]:
        assert (html is None) == (first["patch"][selector][1] is not None)
    assert any(html is not None for _, html in first["render"])  # the first drawing: whole
    again = call(app, {"op": "route", "hash": "#play-psi-squad"})
    selector = next(s for s, html in again["render"] if html is None)
    stamp = again["patch"][selector][0]
    whole = call(app, {"op": "whole", "selector": selector})
    assert whole["patch"][selector] == [stamp, None, ""]
    [[_, html]] = [r for r in whole["render"] if r[0] == selector]
    assert html == to_html(app.drawn.trees[selector][1])
    assert call(app, {"op": "whole", "selector": "#nowhere"}).get("render") is None


def test_a_card_played_from_the_hand_takes_out_its_button_alone():
    """Issue 39: each button of ESPEERS' hand names its card (`data-key`), so a card played
    takes its button out and the later ones keep theirs (their slot renumbered), where before
    each later button was rewritten into its neighbour's card (up to 11 KB a move). (The
    matching by `data-key` is older: this pins what the hand relies on; that the hand's
    buttons carry it is the next test's.)"""

    def button(slot: int, card: str) -> Node:
        attrs = {"class": "hand-card", "data-slot": str(slot), "data-key": card}
        return h("button", attrs, h("span", None, card * 40))

    hand = ["echo-blast", "mental-block", "null-field", "psychic-jab", "second-wind"]
    old = h("div", {"data-role": "hand"}, *(button(i, c) for i, c in enumerate(hand)))
    rest = [c for c in hand if c != "mental-block"]
    new = h("div", {"data-role": "hand"}, *(button(i, c) for i, c in enumerate(rest)))
    found = changes(old, new)
    assert found is not None
    assert canonical(patched(old, found)) == canonical(to_html(new))
    assert found.puts == [] and found.size() == 0
    assert [p[2:5] for p in found.splices] == [[1, 1, 0]]
    assert sorted(m[2]["data-slot"] for m in found.marks) == ["1", "2", "3"]


def test_espeers_hand_buttons_name_their_cards():
    s = session("espeers", ("Ada", "Bo (bot)"), {1: "easy"})
    rng = Rng(b"hand keys")
    while s.bot_due() or s.viewer is None:
        if s.bot_due():
            run_bots(s, rng)
        else:
            s.handle({"cmd": "take-device"})
    html = to_html(s.render())
    hand = s.table.view(0)["me"]["hand"]
    assert hand and all(f'data-key="{card}"' in html for card in hand)


def test_a_help_s_id_stays_when_another_help_comes_or_goes_before_it():
    """Help ids count by key within a screen: a "?" shown above another (a card's help in
    ESPEERS' hand) leaves the other's id, so a redraw does not rename every later one."""
    helps.begin("play")
    first = [helps.help_id(k) for k in ("hand", "pass", "hand", "undo")]
    helps.begin("play")
    second = [helps.help_id(k) for k in ("pass", "undo")]
    assert second == [first[1], first[3]]
    assert len(set(first)) == 4 and first[0] != first[2]
    assert helps.help_key(first[2]) == "help-hand"
