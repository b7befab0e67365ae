"""The page builds its DOM from `to_html` through innerHTML (ui/dom.py), so what the HTML parser
makes of that text must be exactly the tree: no text may turn into markup, and no nesting may be
one the parser rebuilds (a <div> inside a <p> ends the <p>; a <tr> straight in a <table> gets a
<tbody>). Checked on every screen of whole games of all four games, and on the online screens.
"""

from __future__ import annotations

from html.parser import HTMLParser

from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.bots import espeers_scripted
from parlour.fair.rng import Rng
from parlour.games import GAMES
from parlour.games.psi_squad.actions import Guess
from parlour.match.config import MatchConfig
from parlour.match.online import OnlineSession
from parlour.match.table import Table
from parlour.ui.online.invites import host_lobby
from parlour.ui.online.join import guest_join
from parlour.ui.online.screen import Invite
from parlour.ui.play import PlaySession
from parlour.ui.screens import screen_for
from parlour.ui.tree import Node, h, to_html
from tests.test_conformance import SETUPS, free_choices

# Elements that may hold only phrasing content: a block inside one is moved out by the parser.
HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
PHRASING_ONLY = HEADINGS | {
    "p",
    "span",
    "strong",
    "em",
    "b",
    "i",
    "small",
    "label",
    "button",
    "a",
    "caption",
    "summary",
    "abbr",
    "code",
    "kbd",
}
BLOCK = HEADINGS | {
    "div",
    "p",
    "ul",
    "ol",
    "li",
    "section",
    "article",
    "aside",
    "header",
    "footer",
    "nav",
    "table",
    "form",
    "fieldset",
    "dl",
    "details",
    "figure",
    "blockquote",
    "pre",
    "hr",
    "main",
    "menu",
}
ALLOWED_CHILDREN = {
    "table": {"caption", "colgroup", "thead", "tbody", "tfoot"},
    "thead": {"tr"},
    "tbody": {"tr"},
    "tfoot": {"tr"},
    "tr": {"td", "th"},
    "ul": {"li"},
    "ol": {"li"},
    "select": {"option", "optgroup"},
}
NO_SELF_NESTING = {"a", "button", "form", "label", "p"}


def problems(node: Node, inside: tuple[str, ...] = ()) -> list[str]:
    """Nestings the HTML parser would not keep as they are."""
    found = []
    if node.svg:
        return found  # foreign content: the parser keeps SVG as written
    allowed = ALLOWED_CHILDREN.get(node.tag)
    for child in node.children:
        if isinstance(child, str):
            if allowed and child.strip():
                found.append(f"text {child[:20]!r} straight inside <{node.tag}>")
            continue
        if allowed is not None and child.tag not in allowed:
            found.append(f"<{child.tag}> inside <{node.tag}>")
        if node.tag in PHRASING_ONLY and child.tag in BLOCK:
            found.append(f"<{child.tag}> inside <{node.tag}>")
        if child.tag in NO_SELF_NESTING and child.tag in (*inside, node.tag):
            found.append(f"<{child.tag}> inside another <{child.tag}>")
        found += problems(child, (*inside, node.tag))
    return found


class Texts(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.text = ""

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)

    def handle_data(self, data):
        self.text += data


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_any_text_is_parsed_back_as_that_text_and_never_as_markup(text):
    parser = Texts()
    parser.feed(to_html(h("p", {"title": text}, text)))
    parser.close()
    assert parser.tags == ["p"] and parser.text == text


def screens_of_a_game(game_id, names, variant, seed: bytes):
    """Every screen a pass-and-play game shows, from the first hand-off to the result."""
    game = GAMES[game_id]
    config = MatchConfig(game_id, "m-tree-html-0001", names, variant)
    table = Table.new(game, config, Rng(seed).read(32), range(len(names)))
    session = PlaySession(table, screen_for(game_id))
    rng = Rng(seed)
    yield session.render()
    for _ in range(600):
        if table.match.result() is not None:
            break
        session.handle({"cmd": "take-device"})
        yield session.render()
        seat = session.viewer
        if seat is None:
            break
        session.act(_choice(game_id, table, seat, rng))
        yield session.render()
    yield session.render()


def _choice(game_id: str, table: Table, seat: int, rng: Rng):
    """A move that gets the game to its end: ESPEERS' scripted player; in Psi Squad, now and
    then the right guess (the test peeks); elsewhere any legal move."""
    legal = table.legal(seat) or free_choices(game_id, table, rng)
    state = table.state
    if game_id == "espeers":
        return espeers_scripted.choose(state, seat, legal, rng)
    if game_id == "psi-squad" and not state.setting_up and rng.below(2) == 0:
        target = state.targets(seat)[0]
        return Guess(target, table.stores[target].value("cypher"))
    return legal[rng.below(len(legal))]


def test_every_screen_of_whole_games_is_html_the_parser_keeps_as_it_is():
    for game_id, names, variant in SETUPS:
        screens = list(screens_of_a_game(game_id, names, variant, f"{game_id}-tree".encode()))
        assert screens[-1].find_all(data_role="result"), f"{game_id} did not reach its result"
        for screen in screens:
            assert problems(screen) == [], (game_id, problems(screen)[:3])


def test_the_online_screens_are_html_the_parser_keeps_as_it_is():
    config = MatchConfig("espeers", "m-tree-html-0002", ("Ada", "Bo <i>"), {})
    host = OnlineSession.host(GAMES["espeers"], config, (0,), 0.0)
    invites = {1: Invite(1, "waiting", "https://x.example/#join=AAAA", "https://x.example/#b")}
    decks = [("starter:onslaught", "Onslaught")]
    trees = [
        host_lobby(host, invites),
        guest_join(OnlineSession.guest(0.0), "ANSWER", "waiting", "", decks=decks, game="espeers"),
        guest_join(None, "", "paste", ""),
        guest_join(None, "", "failed", "That code has a typo."),
    ]
    for tree in trees:
        assert problems(tree) == []


def test_the_checker_sees_what_the_parser_would_rebuild():
    assert problems(h("p", None, h("div", None, "x"))) == ["<div> inside <p>"]
    assert problems(h("table", None, h("tr", None, h("td", None, "x")))) == ["<tr> inside <table>"]
    assert problems(h("button", None, h("span", None, h("button", None, "x")))) == [
        "<button> inside another <button>"
    ]
