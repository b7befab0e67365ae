"""The match core end to end with the example game: fold, replay, persistence, rejections."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.errors import IllegalAction, MalformedInput
from parlour.fair.commit import Context
from parlour.fair.store import PrivateStore
from parlour.match.config import MatchConfig
from parlour.match.log import entry_hash
from parlour.match.match import Match
from tests.example_game import HIDDEN_NUMBERS, Guess, Reveal, hide

GAMES = {HIDDEN_NUMBERS.id: HIDDEN_NUMBERS}
SEED = bytes(range(32))


def new_match(names=("Ada", "Bo", "Cy"), match_id="match-example") -> Match:
    return Match(HIDDEN_NUMBERS, MatchConfig(HIDDEN_NUMBERS.id, match_id, tuple(names)), SEED)


def stores(match: Match) -> list[PrivateStore]:
    return [PrivateStore(Context(match.config.match_id, s)) for s in range(len(match.config.seats))]


def play(match: Match, numbers, guesses, luckies=None) -> list[PrivateStore]:
    """Play the whole example game; returns each seat's private store."""
    private = stores(match)
    luckies = luckies or [5] * len(numbers)
    for seat, (n, lucky) in enumerate(zip(numbers, luckies, strict=True)):
        assert match.submit(seat, hide(private[seat], n, lucky)).ok
    for seat, g in enumerate(guesses):
        assert match.submit(seat, Guess(g)).ok
    for seat in range(len(numbers)):
        assert match.submit(seat, Reveal(private[seat].opening("number"))).ok
    return private


def test_a_whole_game_folds_to_its_result():
    match = new_match()
    play(match, numbers=[3, 7, 9], guesses=[7, 1, 4])
    outcome = match.result()
    assert outcome is not None and outcome.winners == {0}
    assert match.step == 9 and [e.seq for e in match.entries] == list(range(1, 10))
    assert match.entries[0].prev == match.genesis
    assert all(e.prev == p.hash for p, e in zip(match.entries, match.entries[1:], strict=False))


def test_a_rejected_action_changes_nothing_and_says_why():
    match = new_match()
    private = stores(match)
    match.submit(0, hide(private[0], 3, 5))
    before = (match.state, list(match.entries))
    result = match.submit(0, Guess(4))
    assert not result.ok and result.reason == "It is not Ada's turn."
    assert (match.state, match.entries) == before
    assert match.submit(9, Guess(4)).reason == "There is no seat 9 in this game."


def test_a_reveal_that_does_not_match_is_refused_with_the_move_number():
    match = new_match(("Ada", "Bo"))
    private = stores(match)
    match.submit(0, hide(private[0], 3, 5))
    match.submit(1, hide(private[1], 4, 5))
    match.submit(0, Guess(4))
    match.submit(1, Guess(3))
    lie = PrivateStore(private[1].context)
    lie.commit("number", 8)
    result = match.submit(1, Reveal(lie.opening("number")))
    assert (
        result.reason == "Bo's reveal of their number does not match the commitment made at move 2."
    )


def test_the_game_over_refuses_further_actions():
    match = new_match(("Ada", "Bo"))
    play(match, [1, 2], [2, 1])
    assert match.submit(0, Guess(3)).reason == "The game is over."


def test_json_round_trip_is_lossless_and_replays():
    match = new_match()
    play(match, [3, 7, 9], [7, 1, 4])
    text = match.dumps()
    again = Match.loads(text, GAMES)
    assert again.dumps() == text
    assert again.state == match.state and again.entries == match.entries
    assert json.loads(text)["version"] == 1


@pytest.mark.parametrize(
    ("mangle", "sentence"),
    [
        (lambda d: d.update(format="chess"), "That is not a saved Psi Parlour game."),
        (lambda d: d.update(version=99), "format version 99"),
        (lambda d: d["log"][2]["action"].update(value=10), "Move 3 has been altered"),
        (lambda d: d["log"].pop(1), "Move 3 arrived when move 2 was due."),
        (lambda d: d["log"][1].update(prev=d["log"][0]["prev"]), "does not follow on"),
        (lambda d: d["config"].update(seats=["Ada", "Bo", "Eve"]), "does not follow on"),
        (lambda d: d["log"][0].update(seat="0"), "not a small whole number"),
        (lambda d: d.update(seed="xy" * 32), "not hex"),
        (lambda d: d["config"].update(game="go"), "There is no game called 'go' here."),
    ],
)
def test_a_damaged_or_tampered_save_is_refused(mangle, sentence):
    match = new_match()
    play(match, [3, 7, 9], [7, 1, 4])
    data = match.to_json()
    mangle(data)
    with pytest.raises((MalformedInput, IllegalAction)) as caught:
        Match.from_json(data, GAMES)
    assert sentence in caught.value.sentence


def test_not_json_is_refused():
    with pytest.raises(MalformedInput, match="not valid JSON"):
        Match.loads("{nope", GAMES)


def test_an_action_written_differently_is_refused():
    """Two spellings of one action would give two hashes for one move."""
    match = new_match(("Ada", "Bo"))
    private = stores(match)
    action = {**HIDDEN_NUMBERS.action_to_json(hide(private[0], 3, 5)), "extra": 1}
    digest = entry_hash(match.config.match_id, 1, 0, action, match.head())
    entry = {"seq": 1, "seat": 0, "action": action, "prev": match.head(), "hash": digest}
    with pytest.raises(MalformedInput):
        match.receive(entry)
    assert match.step == 0


def test_truncate_undoes_to_a_step():
    match = new_match(("Ada", "Bo"))
    play(match, [1, 2], [2, 1])
    at_four = match.state_at(4)
    match.truncate(4)
    assert match.step == 4 and match.state == at_four and match.result() is None


games = st.tuples(
    st.lists(st.integers(1, 10), min_size=2, max_size=5),
    st.data(),
)


@settings(max_examples=40, deadline=None)
@given(games)
def test_the_fold_of_every_prefix_equals_the_step_by_step_state(drawn):
    numbers, data = drawn
    guesses = data.draw(st.lists(st.integers(1, 10), min_size=len(numbers), max_size=len(numbers)))
    names = tuple(f"P{i}" for i in range(len(numbers)))
    match = new_match(names)
    play(match, numbers, guesses)
    for step in range(match.step + 1):
        prefix = Match(HIDDEN_NUMBERS, match.config, SEED)
        for entry in match.entries[:step]:
            prefix.receive(entry.to_json())
        assert prefix.state == match.state_at(step)


def _public_traces(match: Match, upto: int) -> list:
    """Public views and log actions with every commitment replaced by its position."""
    seen: dict[str, str] = {}

    def blank(value):
        if isinstance(value, str) and len(value) == 64:
            return seen.setdefault(value, f"c{len(seen)}")
        if isinstance(value, (list, tuple)):
            return [blank(v) for v in value]
        if isinstance(value, dict):
            return {k: blank(v) for k, v in value.items()}
        return value

    views = [HIDDEN_NUMBERS.public_view(match.state_at(s)) for s in range(upto + 1)]
    actions = [e.action for e in match.entries[:upto]]
    return blank([views, actions])


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(1, 10), min_size=2, max_size=4),
    st.lists(st.integers(1, 10), min_size=4, max_size=4),
    st.lists(st.integers(1, 10), min_size=4, max_size=4),
)
def test_no_secret_reaches_a_public_view_or_the_log_before_its_reveal(numbers, other, guesses):
    """Swap every secret for another: until the reveals, everything public is the same."""
    n = len(numbers)
    names = tuple(f"P{i}" for i in range(n))
    first, second = new_match(names), new_match(names)
    private = play(first, numbers, guesses[:n], luckies=numbers)
    play(second, other[:n], guesses[:n], luckies=other[:n])
    before_reveals = 2 * n
    assert _public_traces(first, before_reveals) == _public_traces(second, before_reveals)
    nonces = {o.nonce for store in private for o in store.openings.values()}
    public_text = json.dumps(_public_traces(first, before_reveals))
    assert not any(nonce in public_text for nonce in nonces)


def test_a_time_out_ends_the_game_only_against_the_seat_it_waits_on_and_replays():
    from parlour.games import GAMES
    from parlour.games.base import Termination

    config = MatchConfig("esp", "m-timeout-0001", ("Ada", "Bo"))
    match = Match(GAMES["esp"], config, bytes(32))
    waited = min(match.game.to_move(match.state))
    refused = match.submit_json(waited, {"timeout": 1 - waited})
    assert not refused.ok and "not waiting on" in (refused.reason or "")
    taken = match.submit_json(1 - waited, {"timeout": waited})
    assert taken.ok
    result = match.result()
    assert result is not None and result.termination is Termination.FORFEIT
    assert "ran out of time" in result.reason and waited not in result.winners
    assert Match.loads(match.dumps()).result() == result
