"""Telepathic's and Psi Squad's screens for a keyboard and a screen reader (CPython): the last move
marked on the board in shape and words, "Describe the board" without another seat's secrets, a
"?" beside each control, and each group of choices one Tab stop."""

from __future__ import annotations

import re

from parlour.games import GAMES
from parlour.games.telepathic.actions import Continue
from parlour.games.telepathic.grid import CARDS_BY_ID, apply_card, holds, set_cells, set_names
from parlour.match.config import MatchConfig
from parlour.match.table import Table
from parlour.ui.help import help_key
from parlour.ui.play import PlaySession
from parlour.ui.psi_squad.screen import PsiScreen
from parlour.ui.telepathic.controls import in_a_line
from parlour.ui.telepathic.screen import TeleScreen, turn_perform
from parlour.ui.tree import Node

TELE = GAMES["telepathic"]
PSI = GAMES["psi-squad"]
NAMES = ("Mary", "Bob")
CARDS = {0: {"lose": "orange", "win": "blue"}, 1: {"lose": "circle", "win": "star"}}


def tele_session() -> PlaySession:
    config = MatchConfig("telepathic", "m-tele-access-01", NAMES, {"arrangement": "pair"})
    table = Table.new(TELE, config, bytes(range(32)), range(2))
    for seat, cards in CARDS.items():
        table.stores[seat].commit("conditions", cards, replace=True)
    return PlaySession(table, TeleScreen())


def safe_move(s: PlaySession) -> tuple[int, int]:
    """A (slot, set) that meets no lose condition."""
    state = s.table.state
    for slot, card_id in enumerate(state.row):
        for index in range(4):
            after = apply_card(state.grid, CARDS_BY_ID[card_id], index)
            if not any(holds(after, c["lose"]) for c in CARDS.values()):
                return slot, index
    raise AssertionError("no safe move")


def hand(s: PlaySession, slot: int) -> None:
    s.handle({"cmd": "take-device"})
    s.handle({"cmd": "pick-card", "slot": str(slot)})
    s.handle({"cmd": "hand"})


def perform(s: PlaySession, index: int) -> None:
    s.handle({"cmd": "take-device"})
    s.handle({"cmd": "pick-set", "set": str(index)})
    s.handle({"cmd": "perform"})


def tiles_marked(tree: Node) -> list[int]:
    tiles = tree.find_all(role="img")
    return sorted(
        i
        for i, t in enumerate(tiles)
        if "last" in t.attrs["class"].split() and t.attrs["data-tile"]
    )


def described_ids(tree: Node) -> set[str]:
    return {n.attrs["id"] for n in tree.find_all(role="tooltip")}


def help_keys(tree: Node) -> set[str]:
    """The help sentences' ids without the number that makes each unique in the page."""
    return {help_key(i) for i in described_ids(tree)}


def check_every_command_has_help(tree: Node, grouped: set[str]) -> None:
    """Every button a seat may press points at a help sentence in the tree, except the choices
    of a group (cards, sets, names, digits), whose one "?" is checked by key."""
    ids = described_ids(tree)
    game_parts = [
        n for n in tree.find_all() if n.attrs.get("class") in ("side play-controls", "board-wrap")
    ]
    assert game_parts
    for node in (n for part in game_parts for n in part.walk()):
        if not isinstance(node, Node) or node.tag != "button" or "data-cmd" not in node.attrs:
            continue
        cmd = node.attrs["data-cmd"]
        if cmd in grouped or node.attrs.get("disabled"):
            continue
        assert node.attrs.get("aria-describedby") in ids, f"{cmd} has no help"


def one_tab_stop(group: Node) -> None:
    stops = [b for b in group.find_all() if b.tag == "button" and b.attrs.get("tabindex") == "0"]
    assert group.attrs.get("data-roving") and len(stops) == 1


# -- Telepathic: the last move ---------------------------------------------------------------


def test_telepathic_frames_the_set_the_last_card_acted_on_and_names_it():
    s = tele_session()
    tree = s.render()
    assert not tree.find_all(data_role="last-set"), "no card has acted yet"
    slot, index = safe_move(s)
    card = CARDS_BY_ID[s.table.state.row[slot]]
    hand(s, slot)
    perform(s, index)
    s.handle({"cmd": "take-device"})
    tree = s.render()
    (frame,) = tree.find_all(data_role="last-set")
    assert frame.attrs["class"] == "last-set"  # a dashed outline (parlour.css), not a colour
    assert tiles_marked(tree) == sorted(set_cells(card.sets, index))
    (note,) = tree.find_all(data_role="last-set-note")
    target = set_names(card.sets)[index]
    assert note.text() == f"Dashed frame: {target}, where Bob applied {card.name}."
    labels = [t.attrs["aria-label"] for t in tree.find_all(role="img")]
    assert sum(label.endswith("moved by the last card") for label in labels) == 4


def test_telepathic_keeps_the_frame_while_the_partner_hands_you_a_card_and_names_both():
    """Issue 28, point 4: the set the partner acted on stays framed while it hands you a card
    (the card is read against that set: the game's only signal), and the note names both;
    the frame goes once you preview where your card acts."""
    s = tele_session()
    slot, index = safe_move(s)
    card = CARDS_BY_ID[s.table.state.row[slot]]
    hand(s, slot)
    perform(s, index)
    if s.table.state.phase == "window":
        s.handle({"cmd": "take-device"})
        assert s.act(Continue())
    last = s.last_move()
    assert last is not None and turn_perform(s, last) is not None
    s.handle({"cmd": "take-device"})
    assert s.render().find_all(data_role="last-set")
    performer = s.names[s.viewer]
    slot, preview = safe_move(s)
    handed_card = CARDS_BY_ID[s.table.state.row[slot]]
    hand(s, slot)
    s.handle({"cmd": "take-device"})
    tree = s.render()
    assert len(tree.find_all(data_role="last-set")) == 1
    assert tiles_marked(tree) == sorted(set_cells(card.sets, index))
    (note,) = tree.find_all(data_role="last-set-note")
    target = set_names(card.sets)[index]
    assert note.text() == (
        f"Dashed frame: {target}, where {performer} applied {card.name}. "
        f"{performer} hands {s.names[s.viewer]} the card {handed_card.name}."
    )
    (handed,) = [b for b in tree.find_all(data_slot=str(slot)) if "handed" in b.attrs["class"]]
    assert "handed to" in handed.text()
    s.handle({"cmd": "pick-set", "set": str(preview)})
    assert not s.render().find_all(data_role="last-set"), "a preview shows the grid to come"


def test_a_replay_spectator_marks_the_last_set_from_the_match_it_reads():
    class Spectator:  # what the replay viewer hands a screen: the match, no seat
        viewer = None

        def __init__(self, s: PlaySession) -> None:
            self.match, self.selection = s.table.match, TeleScreen().new_selection()

        def you(self) -> None:
            return None

    s = tele_session()
    view = TELE.public_view(s.table.state)
    tree = TeleScreen().board(Spectator(s), view)  # type: ignore[arg-type]
    assert not tree.find_all(data_role="last-set")  # no move yet
    assert len(tree.find_all(role="img")) == 16
    slot, index = safe_move(s)
    hand(s, slot)
    perform(s, index)
    view = TELE.public_view(s.table.state)
    tree = TeleScreen().board(Spectator(s), view)  # type: ignore[arg-type]
    assert tree.find_all(data_role="last-set")
    assert len(tree.find_all(role="img")) == 16


# -- Telepathic: names, the description, the "?", Tab stops -----------------------------------


def test_telepathic_tiles_are_named_by_column_and_row_and_take_no_tab_stop():
    s = tele_session()
    s.handle({"cmd": "take-device"})
    tree = s.render()
    tiles = tree.find_all(role="img")
    assert [t.attrs["data-tile"] for t in tiles[:5]] == ["A1", "B1", "C1", "D1", "A2"]
    for tile in tiles:
        assert re.fullmatch(r"\w+ \w+, [A-D][1-4]", tile.attrs["aria-label"])
        assert "tabindex" not in tile.attrs
    (grid,) = [n for n in tree.find_all(role="group") if n.tag == "svg"]
    assert "columns A to D" in grid.attrs["aria-label"]


def test_telepathic_description_holds_the_grid_and_only_the_viewers_own_cards():
    s = tele_session()
    screen = TeleScreen()
    grid = s.table.state.grid
    for seat in (0, 1):
        view = TELE.seat_view(s.table.state, seat, s.table.stores[seat])
        lines = screen.describe_board(view, seat)
        text = " ".join(lines)
        assert f"Row 1 (north), west to east: A {grid[0][0]} {grid[0][1]}," in text
        assert f"Your win condition: {in_a_line(CARDS[seat]['win'])}" in text
        assert f"Your lose condition: {in_a_line(CARDS[seat]['lose'])}" in text
        for card in CARDS[1 - seat].values():
            assert in_a_line(card) not in text, "another seat's condition card"
    public = " ".join(screen.describe_board(TELE.public_view(s.table.state), None))
    assert "Your" not in public and all(
        in_a_line(c) not in public for cards in CARDS.values() for c in cards.values()
    )


def test_telepathic_controls_each_have_a_help_and_groups_one_tab_stop():
    s = tele_session()
    s.handle({"cmd": "take-device"})
    tree = s.render()
    check_every_command_has_help(tree, {"pick-card"})
    assert "help-tele-pick-card" in help_keys(tree)
    (cards,) = tree.find_all(data_roving="cards")
    one_tab_stop(cards)
    s.handle({"cmd": "announce-open"})
    tree = s.render()
    check_every_command_has_help(tree, {"claim"})
    for group in tree.find_all(data_roving="claim"):
        one_tab_stop(group)
    s.handle({"cmd": "announce-close"})
    slot, _ = safe_move(s)
    s.handle({"cmd": "pick-card", "slot": str(slot)})
    s.handle({"cmd": "hand"})
    s.handle({"cmd": "take-device"})
    s.handle({"cmd": "pick-set", "set": "2"})
    tree = s.render()
    check_every_command_has_help(tree, {"pick-set"})
    assert "help-tele-pick-set" in help_keys(tree)
    (sets,) = tree.find_all(data_roving="sets")
    one_tab_stop(sets)
    (stop,) = [b for b in sets.find_all(data_cmd="pick-set") if b.attrs["tabindex"] == "0"]
    assert stop.attrs["data-set"] == "2", "the Tab stop is the set chosen"
    assert "help-tele-perform" in help_keys(tree)


# -- Psi Squad ---------------------------------------------------------------------------------

PSI_NAMES = ("Ada", "Bo", "Cy")
CYPHERS = ("111", "222", "333")


def psi_session() -> PlaySession:
    config = MatchConfig("psi-squad", "m-psi-access-01", PSI_NAMES, {"length": 3})
    s = PlaySession(Table.new(PSI, config, bytes(32), range(3)), PsiScreen())
    for _ in PSI_NAMES:
        s.handle({"cmd": "take-device"})
        for d in CYPHERS[s.viewer or 0]:
            s.handle({"cmd": "digit", "digit": d})
        s.handle({"cmd": "seal-cypher"})
    s.handle({"cmd": "take-device"})
    return s


def test_psi_marks_the_last_guess_and_its_target_in_shape_and_words():
    s = psi_session()
    assert not s.render().find_all(data_role="last-guess-note")
    guesser = s.viewer
    target = next(t for t in range(3) if t != guesser)
    s.handle({"cmd": "target", "seat": str(target)})
    for d in "120":
        s.handle({"cmd": "digit", "digit": d})
    s.handle({"cmd": "guess"})
    s.handle({"cmd": "take-device"})
    tree = s.render()
    (note,) = tree.find_all(data_role="last-guess-note")
    assert note.text().startswith(f"Last guess (outlined): {PSI_NAMES[guesser]} guessed 120")
    rows = [r for r in tree.find_all() if r.tag == "tr" and "last" in r.attrs.get("class", "")]
    assert len(rows) == 2  # its row in the guesses, its target's on the status board
    (status_row,) = [r for r in rows if "data-seat" in r.attrs]
    assert status_row.attrs["data-seat"] == str(target) and "last guess" in status_row.text()
    (history_row,) = [r for r in rows if "data-step" in r.attrs]
    assert "120" in history_row.text() and "last" in history_row.text()


def test_psi_description_tells_the_sheet_and_only_the_viewers_cypher():
    s = psi_session()
    screen = PsiScreen()
    for seat in range(3):
        view = PSI.seat_view(s.table.state, seat, s.table.stores[seat])
        text = " ".join(screen.describe_board(view, seat))
        assert f"Your cypher: {' '.join(CYPHERS[seat])}." in text
        assert f"{PSI_NAMES[seat]} (you): status" in text
        for other in range(3):
            if other != seat:
                assert " ".join(CYPHERS[other]) not in text and CYPHERS[other] not in text
    public = " ".join(screen.describe_board(PSI.public_view(s.table.state), None))
    assert "Your cypher" not in public


def test_psi_controls_each_have_a_help_and_groups_one_tab_stop():
    s = psi_session()
    tree = s.render()
    check_every_command_has_help(tree, {"target", "digit", "erase", "note", "notes-target"})
    keys = help_keys(tree)
    for key in ("psi-target", "psi-pad-guess", "psi-guess", "psi-notes", "psi-notes-for"):
        assert f"help-{key}" in keys, key
    for name in ("targets", "pad", "notes-for"):
        (group,) = tree.find_all(data_roving=name)
        one_tab_stop(group)
    # the focus comes back to the very key pressed after a redraw (shell/dom.py reads data-name)
    (five,) = tree.find_all(data_cmd="digit", data_digit="5")
    assert five.attrs["data-name"] == "5"


def test_the_set_that_ended_the_game_stays_framed_at_the_end():
    """Row 2 in the lesson's position meets Ada's lose condition: the game is lost on that
    card, and the board still frames the set that lost it."""
    from parlour.ui.play import PlaySession
    from parlour.ui.tutorial import TutorialSession, lesson_for

    s = TutorialSession(lesson_for("telepathic"))
    while s.step is not None and not s.step.say.startswith("Choosing a set"):
        s.handle(s.step.event)
        while s.bot_due():
            s.bot_move()
    PlaySession.handle(s, {"cmd": "pick-set", "set": "1"})
    PlaySession.handle(s, {"cmd": "perform"})
    assert s.table.match.result() is not None
    (frame,) = s.render().find_all(data_role="last-set")
    assert frame.attrs["class"] == "last-set"
