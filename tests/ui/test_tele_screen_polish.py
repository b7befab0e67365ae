"""The Telepathic screen in CPython: the words it uses and what each seat's tree holds."""

from __future__ import annotations

import pytest

from parlour.games import GAMES
from parlour.games.telepathic.actions import Announce, HandCard, Perform
from parlour.games.telepathic.grid import CARDS_BY_ID, apply_card, holds
from parlour.match.config import MatchConfig
from parlour.match.table import Table
from parlour.ui.play import PlaySession
from parlour.ui.telepathic.controls import in_a_line
from parlour.ui.telepathic.screen import TeleScreen
from parlour.ui.tree import Node

TELE = GAMES["telepathic"]
NAMES = ("Mary", "Bob", "Cal", "Dee")
SEATS = {"pair": 2, "director": 3, "four": 4, "teams": 4}
# Stored lose-first on purpose: the screen must not depend on the order a dict arrives in.
CARDS = {
    "pair": {0: {"lose": "orange", "win": "blue"}, 1: {"lose": "circle", "win": "star"}},
    "teams": {0: {"win": "blue"}, 1: {"win": "green"}, 2: {"win": "star"}, 3: {"win": "cross"}},
}


def session(arrangement: str = "pair") -> PlaySession:
    """A pass-and-play session with known condition cards, at the first hand-over."""
    seats = SEATS[arrangement]
    config = MatchConfig("telepathic", "m-tele-ui-01", NAMES[:seats], {"arrangement": arrangement})
    table = Table.new(TELE, config, bytes(range(32)), range(seats))
    for seat, cards in CARDS[arrangement].items():
        table.stores[seat].commit("conditions", cards, replace=True)
    s = PlaySession(table, TeleScreen())  # seals the cards by itself
    assert table.state.phase == "hand"
    return s


def view_of(s: PlaySession, seat: int) -> dict:
    return TELE.seat_view(s.table.state, seat, s.table.stores[seat])


def looking_as(s: PlaySession, seat: int) -> Node:
    """The whole play screen as `seat`'s own device shows it (online: always that seat)."""
    s.viewer = seat
    return s.render()


def safe_turn(s: PlaySession) -> None:
    """The active seat hands a card and the performer applies it where no lose card is met."""
    table = s.table
    state = table.state
    loses = [c["lose"] for c in CARDS[state.arrangement].values() if "lose" in c]
    for slot, card_id in enumerate(state.row):
        for index in range(4):
            after = apply_card(state.grid, CARDS_BY_ID[card_id], index)
            if not any(holds(after, lose) for lose in loses):
                s.handle({"cmd": "take-device"})
                assert s.act(HandCard(slot))
                s.handle({"cmd": "take-device"})
                assert s.act(Perform(index))
                return
    raise AssertionError("every move loses here")


# -- 5: the result dialog --------------------------------------------------------------------


def test_the_result_lists_each_seats_cards_win_first_whatever_order_they_were_stored_in():
    s = session()
    safe_turn(s)
    s.handle({"cmd": "take-device"})
    announcer = s.viewer
    partner = 1 - announcer
    assert s.act(Announce(((partner, CARDS["pair"][partner]["win"]),)))
    s.handle({"cmd": "take-device"})
    s.handle({"cmd": "claim", "seat": str(announcer), "name": CARDS["pair"][announcer]["win"]})
    s.handle({"cmd": "answer"})
    assert s.table.match.result() is not None, s.message
    final = s.screen.final_details(s)
    rows = [row.text() for row in final.walk() if isinstance(row, Node) and row.tag == "tr"]
    assert rows == ["Marywin: blue, lose: orange", "Bobwin: star, lose: circle"]
    s.viewer = 0  # online, a device keeps its seat's view at the end: nothing left to do
    controls = s.screen.controls(s, view_of(s, 0))
    assert not controls.find_all(data_role="waiting") and "Your turn" not in controls.text()


def test_a_seat_whose_cards_were_never_opened_says_so():
    s = session()
    s.table.stores.pop(1)  # as on a device that never saw Bob's cards
    rows = [n.text() for n in s.screen.final_details(s).walk() if isinstance(n, Node)]
    assert "Bobnot opened" in rows


# -- 7 and 8: who hands to whom, teams and partners ------------------------------------------


def test_the_status_names_who_receives_the_card():
    pair = session()
    assert TeleScreen().status(view_of(pair, 0), 0) == "Mary hands an action card to Bob."
    teams = session("teams")
    # teams: seats 1 and 3 against 2 and 4, so Mary (seat 1) hands to Cal (seat 3)
    assert TeleScreen().status(view_of(teams, 0), 0) == "Mary hands an action card to Cal."


def test_teams_the_seat_list_shows_who_plays_with_whom():
    s = session("teams")
    screen = TeleScreen()
    mary = view_of(s, 0)
    assert [screen.seat_line(mary, seat) for seat in range(4)] == [
        "team with Cal · colour · win",
        "other team, with Dee · colour · win",
        "your partner · shape · win",
        "other team, with Bob · shape · win",
    ]
    bob = view_of(s, 1)
    assert screen.seat_line(bob, 3) == "your partner · shape · win"
    assert screen.seat_line(bob, 0) == "other team, with Cal · colour · win"
    public = TELE.public_view(s.table.state)  # no seat looking: teams by name only
    assert screen.seat_line(public, 1) == "team with Dee · colour · win"
    tree = looking_as(s, 0)
    assert "your partner · shape · win" in tree.text()


def test_a_pair_seat_line_is_unchanged():
    s = session()
    assert TeleScreen().seat_line(view_of(s, 1), 0) == "colour · win + lose"


@pytest.mark.parametrize(
    ("card", "words"),
    [
        ("star", "three stars in a line"),
        ("triangle", "three triangles in a line"),
        ("cross", "three crosses in a line"),
        ("circle", "three circles in a line"),
        ("blue", "three blue in a line"),
        ("orange", "three orange in a line"),
    ],
)
def test_condition_cards_in_words_count_shapes_in_the_plural(card, words):
    assert in_a_line(card) == words


def test_my_condition_cards_read_as_plural_shapes_win_first():
    s = session()
    tree = looking_as(s, 1)
    (mine,) = tree.find_all(**{"class": "controls my-cards"})
    assert "Win: three stars in a line" in mine.text()
    assert "Lose: three circles in a line" in mine.text()
    assert [n.attrs["data-role"] for n in mine.walk() if isinstance(n, Node) and n.tag == "li"] == [
        "my-win",
        "my-lose",
    ]


# -- 6: waiting, and what to do first --------------------------------------------------------


def test_the_seat_not_acting_sees_whom_it_waits_for_and_nobody_elses_cards():
    s = session()
    tree = looking_as(s, 1)
    (waiting,) = tree.find_all(data_role="waiting")
    assert waiting.text() == "Waiting for Mary to hand an action card to you…"
    assert not tree.find_all(data_cmd="announce-open")  # no Announcement before a full turn
    whole = tree.text()
    assert in_a_line("blue") not in whole and in_a_line("orange") not in whole
    assert [
        n.attrs["data-card"] for n in tree.walk() if isinstance(n, Node) and "data-card" in n.attrs
    ] == [
        "star",
        "circle",
    ]


def test_the_seat_acting_has_its_controls_first_and_no_waiting_panel():
    s = session()
    s.handle({"cmd": "take-device"})
    tree = s.render()
    assert not tree.find_all(data_role="waiting")
    (controls,) = tree.find_all(**{"class": "tele-controls"})
    first, second = [c for c in controls.children if isinstance(c, Node)]
    assert "Your turn" in first.text() and "to hand to Bob" in first.text()
    assert "my-cards" in second.attrs["class"]
    # the button that hands the card over comes right after the cards, under the grid
    (row,) = tree.find_all(**{"class": "card-row"})
    order = [n.attrs.get("data-cmd") for n in row.walk() if isinstance(n, Node)]
    assert order.index("hand") > max(i for i, c in enumerate(order) if c == "pick-card")
    assert "Hand it to Bob" in row.text()


def test_teams_the_others_wait_for_the_performer():
    s = session("teams")
    s.handle({"cmd": "take-device"})
    s.handle({"cmd": "pick-card", "slot": "0"})
    s.handle({"cmd": "hand"})
    assert s.table.state.phase == "perform"
    tree = looking_as(s, 1)
    (waiting,) = tree.find_all(data_role="waiting")
    assert waiting.text() == "Waiting for Cal to choose where the card acts…"


def test_a_waiting_pair_partner_may_still_make_the_announcement():
    s = session()
    safe_turn(s)
    active = s.table.state.active
    tree = looking_as(s, 1 - active)
    (waiting,) = tree.find_all(data_role="waiting")
    assert waiting.find_all(data_cmd="announce-open")
    s.handle({"cmd": "announce-open"})
    tree = s.render()
    assert not tree.find_all(data_role="waiting")
    assert tree.find_all(data_cmd="claim", data_seat=str(active))


def test_the_responder_is_asked_to_answer_not_told_to_wait():
    s = session()
    safe_turn(s)
    s.handle({"cmd": "take-device"})
    announcer = s.viewer
    partner = 1 - announcer
    s.handle({"cmd": "announce-open"})
    s.handle({"cmd": "claim", "seat": str(partner), "name": CARDS["pair"][partner]["win"]})
    s.handle({"cmd": "announce"})
    assert s.table.state.phase == "respond"
    responder = looking_as(s, partner)
    assert not responder.find_all(data_role="waiting")
    assert responder.find_all(data_cmd="answer")
    (waiting,) = looking_as(s, announcer).find_all(data_role="waiting")
    assert waiting.text() == f"Waiting for {NAMES[partner]} to answer the Announcement…"


# -- 13: the compass mark --------------------------------------------------------------------


def test_the_compass_mark_is_explained():
    s = session()
    tree = looking_as(s, 0)
    marks = tree.find_all(**{"class": "compass"})
    assert marks and all("north" in m.attrs["title"] for m in marks)
    assert "N↑: north is the top of the grid" in tree.find_all(**{"class": "card-row"})[0].text()


@pytest.mark.parametrize("odd", ["²", "٣", "x", "-1", "", None, 3, [1], "99999999999"])
def test_clicks_carrying_odd_numbers_change_nothing_and_never_raise(odd):
    """An event's number arrives as text from the page; only ASCII digits are a number."""
    s = session()
    before = (s.table.match.step, s.selection.slot, s.selection.set_index, s.selection.claims)
    for cmd, key in (("pick-card", "slot"), ("pick-set", "set"), ("claim", "seat")):
        s.handle({"cmd": cmd, key: odd, "name": "blue"})
    after = (s.table.match.step, s.selection.slot, s.selection.set_index, s.selection.claims)
    assert after == before
