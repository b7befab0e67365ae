"""Psi Squad's screen in CPython: the notes panel's own target chooser (usable off turn, kept
across moves, private to its seat) and the guesses table's two forms (desktop and phone)."""

from __future__ import annotations

from parlour.games import GAMES
from parlour.match.config import MatchConfig
from parlour.match.online import OnlineSession
from parlour.match.table import Table
from parlour.net.memory import MemoryNet
from parlour.ui.play import PlaySession
from parlour.ui.psi_squad.screen import NOTES_TARGET, PsiScreen
from parlour.ui.tree import Node, to_html

PSI = GAMES["psi-squad"]
NAMES = ("Ada", "Bo", "Cy")
CYPHERS = ("111", "222", "333")


def type_digits(session: PlaySession, digits: str, cmd: str) -> None:
    for d in digits:
        session.handle({"cmd": "digit", "digit": d})
    session.handle({"cmd": cmd})


def notes_panel(session: PlaySession) -> Node:
    (panel,) = session.render().find_all(data_role="notes")
    return panel


def marks(panel: Node) -> dict[str, str]:
    return {
        n.attrs["data-note"]: n.attrs["class"].removeprefix("note").strip()
        for n in panel.find_all(data_cmd="note")
        if n.attrs["class"] != "note"
    }


# -- online: each device shows its own seat all game, so a seat waits while others guess ----


def online_game() -> tuple[MemoryNet, list[PlaySession]]:
    config = MatchConfig("psi-squad", "m-psi-polish-01", NAMES, {"length": 3})
    host = OnlineSession.host(PSI, config, (0,), 0.0)
    net = MemoryNet(host)
    net.connect(1, OnlineSession.guest(0.0))
    net.connect(2, OnlineSession.guest(0.0))
    sessions = [
        PlaySession(host.table, PsiScreen(), host),
        PlaySession(net.guests[1].table, PsiScreen(), net.guests[1]),
        PlaySession(net.guests[2].table, PsiScreen(), net.guests[2]),
    ]
    for seat, session in enumerate(sessions):
        type_digits(session, CYPHERS[seat], "seal-cypher")
        net.flush()
    settle(net, sessions)
    return net, sessions


def settle(net: MemoryNet, sessions: list[PlaySession]) -> None:
    """Deliver everything, the automatic answers too, and let every screen follow."""
    for _ in range(3):
        net.flush()
        for session in sessions:
            session.refresh()


def acting_and_waiting(sessions: list[PlaySession]) -> tuple[PlaySession, PlaySession]:
    """The device whose seat guesses now, and one whose seat waits."""
    (guesser,) = [s for s in sessions if s.viewer in PSI.to_move(s.table.state)]
    waiting = next(s for s in sessions if s is not guesser)
    return guesser, waiting


def test_a_waiting_seat_can_choose_whose_notes_and_take_notes():
    _net, sessions = online_game()
    guesser, waiting = acting_and_waiting(sessions)
    me = waiting.viewer
    tree = waiting.render()
    assert tree.find_all(data_role="waiting") and not tree.find_all(data_cmd="guess")
    assert "Choose a target" not in tree.text()
    panel = notes_panel(waiting)
    chooser = panel.find_all(data_cmd="notes-target")
    others = [s for s in range(3) if s != me]
    assert [int(b.attrs["data-seat"]) for b in chooser] == others  # every other seat, not me
    assert [b.attrs["aria-pressed"] for b in chooser].count("true") == 1
    assert len(panel.find_all(data_cmd="note")) == 3 * 10  # the grid is there off turn
    # choose the second other seat and mark a square
    waiting.handle({"cmd": "notes-target", "seat": str(others[1])})
    waiting.handle({"cmd": "note", "note": "1:7"})
    waiting.handle({"cmd": "note", "note": "1:7"})
    panel = notes_panel(waiting)
    assert panel.attrs["data-target"] == str(others[1])
    assert f"Notes on {NAMES[others[1]]}'s cypher" in panel.text()
    assert marks(panel) == {"1:7": "maybe"}
    assert waiting.notes_of(me) == {NOTES_TARGET: others[1], str(others[1]): {"1:7": "maybe"}}
    assert waiting.table.match.step == guesser.table.match.step  # notes are not moves


def test_the_notes_target_survives_the_other_seats_moves():
    net, sessions = online_game()
    guesser, waiting = acting_and_waiting(sessions)
    me = waiting.viewer
    other = next(s for s in range(3) if s not in (me, guesser.viewer))
    waiting.handle({"cmd": "notes-target", "seat": str(other)})
    waiting.handle({"cmd": "note", "note": "0:4"})
    step = waiting.table.match.step
    guesser.handle({"cmd": "target", "seat": str(other)})
    type_digits(guesser, "123", "guess")
    settle(net, sessions)
    assert len(waiting.table.state.history) == 1  # the guess and its answer arrived
    assert waiting.table.match.step > step
    panel = notes_panel(waiting)
    assert panel.attrs["data-target"] == str(other) and marks(panel) == {"0:4": "out"}


def test_the_notes_target_survives_the_seats_own_move_in_pass_and_play():
    config = MatchConfig("psi-squad", "m-psi-polish-02", NAMES, {"length": 3})
    s = PlaySession(Table.new(PSI, config, bytes(32), range(3)), PsiScreen())
    for _ in NAMES:
        s.handle({"cmd": "take-device"})
        type_digits(s, CYPHERS[s.viewer], "seal-cypher")
    s.handle({"cmd": "take-device"})
    me = s.viewer
    a, b = (seat for seat in range(3) if seat != me)
    # choosing whom to guess turns the notes to that cypher; the notes can be turned elsewhere
    s.handle({"cmd": "target", "seat": str(a)})
    assert notes_panel(s).attrs["data-target"] == str(a)
    s.handle({"cmd": "notes-target", "seat": str(b)})
    s.handle({"cmd": "note", "note": "2:3"})
    type_digits(s, "999", "guess")
    assert s.selection.target is None  # the guess's selection resets after the move...
    while s.viewer != me:  # ...and play goes round to this seat again
        s.handle({"cmd": "take-device"})
        if s.viewer != me:
            nxt = next(t for t in s.table.state.targets(s.viewer))
            s.handle({"cmd": "target", "seat": str(nxt)})
            type_digits(s, "999", "guess")
    panel = notes_panel(s)  # ...but the notes still show the cypher chosen for them
    assert panel.attrs["data-target"] == str(b) and marks(panel) == {"2:3": "out"}
    # and they are saved with the game
    assert s.to_json()["notes"][str(me)][NOTES_TARGET] == b


def test_no_view_holds_another_seats_notes_or_cypher():
    _net, sessions = online_game()
    for session in sessions:
        me = session.viewer
        target = (me + 1) % 3
        session.handle({"cmd": "notes-target", "seat": str(target)})
        for _ in range(me + 1):  # Ada rules out, Bo marks possible, Cy marks certain
            session.handle({"cmd": "note", "note": f"{me}:{me + 5}"})
    word = {0: "ruled out", 1: "possible", 2: "certain"}
    for session in sessions:
        me = session.viewer
        html = to_html(session.render())
        for seat in range(3):
            if seat == me:
                continue
            assert CYPHERS[seat] not in html
            assert f"position {seat + 1}, digit {seat + 5}: {word[seat]}" not in html
        assert f"position {me + 1}, digit {me + 5}: {word[me]}" in html
        assert set(session.notes) <= {me}  # a device keeps only its own seat's notes


def test_notes_events_that_make_no_sense_change_nothing():
    _net, sessions = online_game()
    _, waiting = acting_and_waiting(sessions)
    me = waiting.viewer
    before = notes_panel(waiting).attrs["data-target"]
    for seat in (str(me), "7", "-1", "x", "²", ""):
        waiting.handle({"cmd": "notes-target", "seat": seat})
    assert notes_panel(waiting).attrs["data-target"] == before
    for key in ("9:9", "3:1", "0:10", "²:1", "0", "0:1:2", ""):
        waiting.handle({"cmd": "note", "note": key})
    assert marks(notes_panel(waiting)) == {}
    # a saved target that no longer fits (tampered storage) falls back to a sensible seat
    waiting.notes_of(me)[NOTES_TARGET] = me
    assert notes_panel(waiting).attrs["data-target"] != str(me)
    waiting.notes_of(me)[NOTES_TARGET] = True
    assert notes_panel(waiting).attrs["data-target"] == before


# -- the guesses table: full headers on a desktop, a merged column and letters on a phone ---


def test_the_guesses_table_has_both_forms_for_the_css_to_choose():
    net, sessions = online_game()
    guesser, _ = acting_and_waiting(sessions)
    target = next(s for s in range(3) if s != guesser.viewer)
    guesser.handle({"cmd": "target", "seat": str(target)})
    type_digits(guesser, "123", "guess")
    settle(net, sessions)
    (table,) = sessions[0].render().find_all(**{"class": "psi-history"})
    head = table.find_all(scope="col")
    wide = [th.text() for th in head if th.attrs.get("class") == "wide"]
    assert wide == ["Guesser", "Target"]
    titled = {th.attrs["title"]: th.text() for th in head if "title" in th.attrs}
    assert titled == {
        "Correct": "CorrectC",
        "Spotted": "SpottedS",
        "Value": "ValueV",
        "Change": "Change±",
    }
    shorts = [n for th in head for n in th.find_all(**{"class": "short"})]
    assert len(shorts) == 4 and all(n.attrs["aria-hidden"] == "true" for n in shorts)
    # (the full word is what a screen reader reads; the letter is for the eye on a phone)
    (row,) = table.find_all(data_step=str(sessions[0].table.state.history[0].step))
    (who,) = row.find_all(**{"class": "narrow who"})
    assert who.text() == f"{NAMES[guesser.viewer]} → {NAMES[target]}"
