"""ESPEERS's pacing at the play screen (issue 28, point 3): the stops pass for one person
against a bot as real, logged moves; "Your turn" only in that person's own turn; undo takes back
what the person chose, not a pass taken for them; nobody else ever gets a pass taken for them."""

from __future__ import annotations

from parlour.fair.rng import Rng
from parlour.games.espeers import stops
from parlour.games.espeers.actions import Pass
from parlour.match import bot_seats
from parlour.match.audit import Verified
from parlour.ui.play import PlaySession
from parlour.ui.tree import Node
from tests.ui.test_bot_seats import session as seated

PASS = {"type": "pass"}


def solo(their_turn: bool = False) -> PlaySession:
    s = seated("espeers", ("Ada", "Bo (bot)"), {1: "medium"})
    if their_turn:
        s.notes_of(0)[stops.THEIR_TURN] = True
    return s


def chip(s: PlaySession) -> str | None:
    tree = s.render()
    found = [n for n in tree.walk() if isinstance(n, Node) and n.attrs.get("class") == "your-turn"]
    return found[0].text() if found else None


def play_out(s: PlaySession, seed: bytes, check=None) -> list[object]:
    """The game to its end, the person choosing as the medium bot would; what they chose."""
    rng = Rng(seed)
    chosen: list[object] = []
    for _ in range(3000):
        if s.table.match.result() is not None:
            break
        if s.bot_due():
            s.bot_move()
            continue
        assert s.to_act() == 0, s.message
        if check is not None:
            check(s)
        choice = bot_seats.decide(s.table, 0, "medium", rng.read(32)).choice
        chosen.append(choice)
        assert s.act(choice), s.message
    assert s.table.match.result() is not None
    return chosen


def asked_only_where_no_pass_is_taken(s: PlaySession) -> None:
    state = s.table.state
    legal = s.game.legal_actions(state, 0, s.table.stores[0])
    assert stops.auto_pass(state, 0, legal, bool(s.notes_of(0).get(stops.THEIR_TURN))) is None
    mine = state.active == 0 or state.phase == "mulligan"
    assert chip(s) == ("Your turn" if mine else "Your answer")


def test_a_whole_game_passes_for_the_person_in_the_log_and_ends_verified():
    for their_turn, seed in ((True, b"stops-a"), (False, b"stops-b")):
        s = solo(their_turn)
        chosen = play_out(s, seed, asked_only_where_no_pass_is_taken)
        entries = [e for e in s.table.match.entries if e.seat == 0 and e.action == PASS]
        taken = len(entries) - sum(isinstance(c, Pass) for c in chosen)
        if their_turn:  # every End of Bo's turn, at least
            assert taken > 0  # passes the page took, each one in the log as Ada's
        assert taken >= 0
        assert "Ada passes" in " ".join(s.log_lines())
        assert isinstance(s.audit_result, Verified)


def test_your_turn_shows_in_your_own_turn_only():
    s = solo()
    seen: set[str | None] = set()

    def look(s: PlaySession) -> None:
        seen.add(chip(s))
        asked_only_where_no_pass_is_taken(s)

    play_out(s, b"chips", look)
    assert "Your turn" in seen and "Your answer" in seen


def test_two_people_at_one_device_never_have_a_pass_taken_for_them():
    s = seated("espeers", ("Ada", "Cy"), {})
    assert s.passed_for(s.table.state, 0) is None
    rng = Rng(b"two people")
    passes_chosen = 0
    for _ in range(3000):
        if s.table.match.result() is not None:
            break
        if s.viewer is None:
            s.handle({"cmd": "take-device"})
        seat = s.viewer
        assert s.render().find_all(data_cmd=stops.THEIR_TURN) == []
        choice = bot_seats.decide(s.table, seat, "easy", rng.read(32)).choice
        passes_chosen += isinstance(choice, Pass)
        assert s.act(choice), s.message
    passes = sum(1 for e in s.table.match.entries if e.action == PASS)
    assert passes == passes_chosen


def to_a_pass_taken_after_a_choice(rng: Rng) -> tuple[PlaySession, set[int]] | None:
    """A game played until its newest entry is a pass taken for Ada, with a move of her own
    to take back before it; and the steps of her own moves. None if the game ends first."""
    s = solo(their_turn=True)
    chosen: set[int] = set()
    for _ in range(3000):
        if s.table.match.result() is not None:
            return None
        if s.bot_due():
            s.bot_move()
            continue
        last = s.table.match.entries[-1]
        if last.seat == 0 and last.action == PASS and last.seq not in chosen and s.can_undo():
            return s, chosen
        step = s.table.match.step
        s.act(bot_seats.decide(s.table, 0, "medium", rng.read(32)).choice)
        chosen.add(step + 1)
    return None


def test_undo_takes_back_the_persons_own_move_not_a_pass_taken_for_them():
    rng = Rng(b"undo")
    found = None
    for _ in range(20):
        found = found or to_a_pass_taken_after_a_choice(rng)
    assert found is not None
    s, chosen = found
    target = s.undo_target()
    assert target is not None and target.seq in chosen and target.seq < s.table.match.step
    s.handle({"cmd": "undo"})
    assert s.table.match.step == target.seq - 1
    assert s.to_act() == 0


def test_the_option_is_a_button_for_one_person_against_a_bot_and_takes_its_pass_at_once():
    s = solo()
    rng = Rng(b"option")
    for _ in range(3000):  # to Bo's End, where Ada holds Opportunity on an empty stack
        state = s.table.state
        if s.to_act() == 0 and state.active == 1 and not state.stack and state.phase == "end":
            break
        if s.bot_due():
            s.bot_move()
            continue
        s.act(bot_seats.decide(s.table, 0, "medium", rng.read(32)).choice)
    (button,) = s.render().find_all(data_cmd=stops.THEIR_TURN)
    assert button.attrs["aria-pressed"] == "false" and button.text() == stops.THEIR_TURN_LABEL
    step = s.table.match.step
    s.handle({"cmd": stops.THEIR_TURN})
    assert s.table.match.entries[step].seat == 0 and s.table.match.entries[step].action == PASS
    (button,) = s.render().find_all(data_cmd=stops.THEIR_TURN)
    assert button.attrs["aria-pressed"] == "true"
