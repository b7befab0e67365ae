"""ESPEERS's pacing at the play screen (issue 28, point 3): the stops pass for one person
against a bot as real, logged moves; "Your turn" only in that person's own turn; undo takes back
what the person chose, not a pass taken for them; nobody else ever gets a pass taken for them."""

from __future__ import annotations

from parlour.fair.rng import Rng
from parlour.games.espeers import stops
from parlour.games.espeers.actions import Cycle, Pass, Play
from parlour.match import bot_seats
from parlour.match.audit import Verified
from parlour.ui.play import PlaySession
from parlour.ui.tree import Node
from tests.ui.test_bot_seats import session as seated

PASS = {"type": "pass"}


def solo(standing: bool = False) -> PlaySession:
    s = seated("espeers", ("Ada", "Bo (bot)"), {1: "medium"})
    if standing:
        s.notes_of(0)[stops.STANDING] = True
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
    assert stops.auto_pass(state, 0, legal, bool(s.notes_of(0).get(stops.STANDING))) is None
    mine = state.active == 0 or state.phase == "mulligan"
    assert chip(s) == ("Your turn" if mine else "Your answer")


def test_a_whole_game_passes_for_the_person_in_the_log_and_ends_verified():
    for standing, seed in ((True, b"stops-a"), (False, b"stops-b")):
        s = solo(standing)
        chosen = play_out(s, seed, asked_only_where_no_pass_is_taken)
        entries = [e for e in s.table.match.entries if e.seat == 0 and e.action == PASS]
        taken = len(entries) - sum(isinstance(c, Pass) for c in chosen)
        if standing:  # every End of Bo's turn, at least
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


def test_two_people_at_one_device_have_a_pass_taken_only_where_pass_is_all_they_can_do():
    """Pass-and-play: no hand-off just to press Pass, and nothing told by the quick pass: it is
    taken only where the seat's hand is empty (public) and nothing else is legal; never the
    standing option, which reads the hand, and no button for it."""
    rng = Rng(b"two people")
    for _ in range(3):
        s = seated("espeers", ("Ada", "Cy"), {})
        s.notes_of(0)[stops.STANDING] = True  # not for pass-and-play: the page never reads it
        for _ in range(3000):
            if s.table.match.result() is not None:
                break
            if s.viewer is None:
                s.handle({"cmd": "take-device"})
            seat = s.viewer
            assert s.render().find_all(data_cmd=stops.STANDING) == []
            assert s.passed_for(s.table.state, seat) is None  # asked: never where one is taken
            choice = bot_seats.decide(s.table, seat, "easy", rng.read(32)).choice
            step = s.table.match.step
            assert s.act(choice), s.message
            for entry in s.table.match.entries[step + 1 :]:
                before = s.table.match.state_at(entry.seq - 1)
                if entry.action == PASS and not before.pending:
                    legal = s.game.legal_actions(before, entry.seat, s.table.stores[entry.seat])
                    assert legal == [Pass()] and before.players[entry.seat].hand == 0
    # (whether a hand ran empty depends on the deal; the pass is taken in the test below)


def test_pass_and_play_takes_the_pass_of_a_seat_with_nothing_else_legal(monkeypatch):
    """The same rule, at the moment it applies: a seat whose only legal action is Pass."""
    s = seated("espeers", ("Ada", "Cy"), {})
    monkeypatch.setattr(s.game, "legal_actions", lambda state, seat, store: [Pass()])
    monkeypatch.setattr(s.game, "to_move", lambda state: frozenset({1}))
    assert s.passed_for(s.table.state, 1) == Pass()
    assert s.passed_for(s.table.state, 0) is None  # not to move


def to_a_pass_taken_after_a_choice(rng: Rng) -> tuple[PlaySession, set[int]] | None:
    """A game played until its newest entry is a pass taken for Ada, with a move of her own
    to take back before it; and the steps of her own moves. None if the game ends first."""
    s = solo(standing=True)
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
    rng = Rng(b"option")
    s = solo()
    for _ in range(3000):  # to Bo's End, where Ada holds Opportunity on an empty stack
        state = s.table.state
        if s.to_act() == 0 and state.active == 1 and not state.stack and state.phase == "end":
            break
        if s.table.match.result() is not None:  # a game over first (the deal decides): another
            s = solo()
        elif s.bot_due():
            s.bot_move(rng.read(32))
        else:
            s.act(bot_seats.decide(s.table, 0, "medium", rng.read(32)).choice)
    (button,) = s.render().find_all(data_cmd=stops.STANDING)
    assert button.attrs["aria-pressed"] == "false" and button.text() == stops.STANDING_LABEL
    step = s.table.match.step
    s.handle({"cmd": stops.STANDING})
    assert s.table.match.entries[step].seat == 0 and s.table.match.entries[step].action == PASS
    (button,) = s.render().find_all(data_cmd=stops.STANDING)
    assert button.attrs["aria-pressed"] == "true"


def test_with_the_option_the_stack_resolves_by_itself_and_the_log_tells_each_resolution():
    """Issue 39: in her own turn Ada pressed Pass eight times to resolve the stack. With the
    option, she is asked only in her own Active phase on an empty stack or when a card of Bo's
    waits on top; every pass taken for her is one the rules leave her no other wanted choice
    for; and each card that resolves is a line of the log, once."""
    s = solo(standing=True)
    rng = Rng(b"own stack")
    chosen: set[int] = set()
    for _ in range(3000):
        if s.table.match.result() is not None:
            break
        if s.bot_due():
            s.bot_move()
            continue
        state = s.table.state
        assert s.to_act() == 0
        if state.phase in ("active", "end") and state.pending is None:
            assert stops.answering(state, 0), s.table.state  # nothing of Bo's to answer: passed
        chosen.add(s.table.match.step + 1)
        assert s.act(bot_seats.decide(s.table, 0, "medium", rng.read(32)).choice)
    assert isinstance(s.audit_result, Verified)
    taken = 0
    for entry in s.table.match.entries:
        if entry.seat != 0 or entry.action != PASS or entry.seq in chosen:
            continue
        before = s.table.match.state_at(entry.seq - 1)
        legal = s.game.legal_actions(before, 0, s.table.stores[0])
        assert Pass() in legal
        taken += 1
        if legal == [Pass()]:
            continue
        assert not stops.answering(before, 0) or not any(
            isinstance(a, Play)
            or (isinstance(a, Cycle) and stops.cycle_does_something(before, 0, a.card))
            for a in legal
        )
    assert taken > 0
    lines = s.log_lines()
    resolved = [line for line in lines if " resolves" in line]
    played = sum(1 for e in s.table.match.entries if e.action.get("type") == "play")
    assert len(resolved) == played  # one line per resolution, never twice


def test_the_option_is_remembered_for_the_next_game_against_the_bot():
    from parlour.ui.page import Storage
    from parlour.ui.saved_game import recall_options, save_session

    storage = Storage({}, {})
    s = solo()
    s.handle({"cmd": stops.STANDING})
    save_session(storage, "espeers", s)
    nxt = solo()
    recall_options(storage, "espeers", nxt)
    assert nxt.notes_of(0).get(stops.STANDING) is True
    (button,) = [b for b in nxt.render().find_all(data_cmd=stops.STANDING)]
    assert button.attrs["aria-pressed"] == "true"
    nxt.handle({"cmd": stops.STANDING})  # off again: remembered off
    save_session(storage, "espeers", nxt)
    again = solo()
    recall_options(storage, "espeers", again)
    assert not again.notes_of(0).get(stops.STANDING)


def test_pass_and_play_undo_takes_back_the_move_before_a_pass_taken(monkeypatch):
    """A pass the page took for a seat with nothing else to do is never all an undo takes
    back (it would be taken again at once): the move before it goes with it."""
    s = seated("espeers", ("Ada", "Cy"), {})
    rng = Rng(b"undo two")
    while s.table.state.phase == "mulligan":
        if s.viewer is None:
            s.handle({"cmd": "take-device"})
        s.act(bot_seats.decide(s.table, s.viewer, "easy", rng.read(32)).choice)
    if s.viewer is None:
        s.handle({"cmd": "take-device"})
    step = s.table.match.step
    assert s.act(Pass())  # the first player ends the Active phase; say the other's only legal
    other = s.table.state.opportunity  # action now is Pass
    real = s.game.legal_actions
    monkeypatch.setattr(
        s.game,
        "legal_actions",
        lambda st, seat, store: [Pass()] if seat == other else real(st, seat, store),
    )
    s._run_automatic()
    assert s.table.match.step > step + 1 and s.table.match.entries[step + 1].seat == other
    target = s.undo_target()
    assert target is not None and target.seq == step + 1
