"""Psi Squad: every rule of Psi Squad (its rules page in index.html) and every Psi Squad ruling of
docs/rulings.md.

Whole games go through `Table`, as the product plays them: each seat seals its cypher in its own
store, a guess is answered by the target's own device (`auto_action`), and the audit re-checks
every answer at the end. Expected statuses are worked out by hand in the comments next to each
turn, never with the engine's own arithmetic.
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.errors import IllegalAction, MalformedInput
from parlour.fair.commit import Context
from parlour.fair.store import PrivateStore
from parlour.games import GAMES
from parlour.games.base import Termination
from parlour.games.psi_squad import words
from parlour.games.psi_squad.actions import Answer, ChooseCypher, Guess, GuessView, SetCypher
from parlour.games.psi_squad.options import LENGTHS
from parlour.games.psi_squad.rules import max_status
from parlour.games.psi_squad.state import PsiState, Record, score
from parlour.match.audit import Cheat, Unverified, Verified, audit
from parlour.match.config import MatchConfig
from parlour.match.match import Match
from parlour.match.table import Table
from tests.games.test_options import psi_options_refused

psi = GAMES["psi-squad"]
NAMES = ("Ann", "Ben", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy")
MATCH_ID = "m-psi-test-01"
SEED = bytes(range(32))
HEX = re.compile(r"[0-9a-f]{64}")


# -- helpers ---------------------------------------------------------------------------------


def config(seats: int = 3, length: int = 4) -> MatchConfig:
    return MatchConfig("psi-squad", MATCH_ID, NAMES[:seats], {"length": length})


def seed_with_first(seats: int, first: int) -> bytes:
    """The first of a fixed list of seeds that makes `first` the first player."""
    for k in range(256):
        seed = bytes([k]) * 32
        if psi.initial_state(config(seats).setup(), seed).first == first:
            return seed
    raise AssertionError(f"no seed makes seat {first} of {seats} go first")


def new_game(cyphers: list[str], first: int = 0) -> Table:
    """A table with every seat's cypher sealed; `first` (chosen through the seed) to guess."""
    seats, length = len(cyphers), len(cyphers[0])
    table = Table.new(psi, config(seats, length), seed_with_first(seats, first), range(seats))
    for seat, cypher in enumerate(cyphers):
        result = table.act(seat, ChooseCypher(cypher))
        assert result.ok, result.reason
    assert psi.to_move(table.state) == {first}
    return table


def turn(table: Table, guesser: int, target: int, digits: str) -> Answer:
    """`guesser` guesses; the target's own device answers truthfully."""
    assert psi.to_move(table.state) == {guesser}
    result = table.act(guesser, Guess(target, digits))
    assert result.ok, result.reason
    assert psi.to_move(table.state) == {target}
    answer = psi.auto_action(table.state, target, table.stores[target])
    assert isinstance(answer, Answer)
    result = table.act(target, answer)
    assert result.ok, result.reason
    return answer


def refused(state: PsiState, seat: int, action) -> str:
    with pytest.raises(IllegalAction) as caught:
        psi.apply(state, seat, action)
    return caught.value.sentence


def openings(table: Table) -> dict:
    return {s: table.openings(s) for s in table.stores}


def run_audit(table: Table, opened: dict | None = None):
    opened = openings(table) if opened is None else opened
    return audit(psi, table.match.config, table.match.seed, table.match.entries, opened)


# -- score -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cypher", "guess", "expected"),
    [
        ("1123", "1111", (2, 2)),
        ("1123", "3211", (4, 0)),
        ("1123", "0000", (0, 0)),
        ("1123", "1123", (4, 4)),
        ("1123", "1231", (4, 1)),
        ("1212", "2121", (4, 0)),
        ("1212", "1122", (4, 2)),
        ("1111", "1000", (1, 1)),
        ("1000", "1111", (1, 1)),
        ("4567", "4576", (4, 2)),
        ("8890", "0000", (1, 1)),
        ("8890", "8809", (4, 2)),
        ("2345", "2300", (2, 2)),
        ("2345", "5432", (4, 0)),
        ("11223", "11232", (5, 3)),
        ("90000", "00009", (5, 3)),
        ("12345", "54321", (5, 1)),
        ("00000", "00100", (4, 4)),
        ("112", "211", (3, 1)),
        ("007", "700", (3, 1)),
        ("678", "600", (1, 1)),
        ("999", "919", (2, 2)),
    ],
)
def test_score_counts_correct_as_multisets_including_the_spotted(cypher, guess, expected):
    assert score(cypher, guess) == expected


@pytest.mark.parametrize(("length", "full"), [(3, 9), (4, 12), (5, 15)])
def test_max_is_three_per_digit(length, full):
    assert max_status(length) == full


# -- set-up ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seats", "length", "full"), [(2, 4, 12), (3, 3, 9), (5, 5, 15), (8, 4, 12)]
)
def test_status_starts_at_max_and_values_at_zero(seats, length, full):
    state = psi.initial_state(config(seats, length).setup(), SEED)
    assert state.length == length and state.max == full
    assert state.status == (full,) * seats
    assert state.values == (0,) * seats
    assert state.guessed == (False,) * seats
    assert state.history == () and state.outcome is None and state.bonus is None
    view = psi.public_view(state)
    assert view["max"] == full and view["stage"] == "setup"
    assert [s["status"] for s in view["seats"]] == [full] * seats
    assert [s["value"] for s in view["seats"]] == [0] * seats


def test_the_standard_game_has_four_digits():
    state = psi.initial_state(MatchConfig("psi-squad", MATCH_ID, NAMES[:3]).setup(), SEED)
    assert state.length == 4 and state.status == (12, 12, 12)


@pytest.mark.parametrize(
    "length", [0, min(LENGTHS) - 1, max(LENGTHS) + 1, str(LENGTHS[0]), None, True]
)
def test_only_the_declared_lengths(length):
    with pytest.raises(IllegalAction) as caught:
        Table.new(psi, config(3, length), SEED, range(3))
    assert caught.value.sentence == psi_options_refused()


@pytest.mark.parametrize("seats", [1, 9])
def test_two_to_eight_players(seats):
    with pytest.raises(IllegalAction) as caught:
        psi.initial_state(config(seats).setup(), SEED)
    assert caught.value.sentence == f"Psi Squad is played by 2 to 8 players, not {seats}."


def test_the_first_player_comes_from_the_seed():
    setup = config(5).setup()
    firsts = [psi.initial_state(setup, bytes([k]) * 32).first for k in range(24)]
    assert firsts == [psi.initial_state(setup, bytes([k]) * 32).first for k in range(24)]
    assert all(0 <= f < 5 for f in firsts)
    assert len(set(firsts)) >= 3
    for first in range(5):
        table = new_game(["1234", "5678", "9012", "3456", "7890"], first=first)
        assert table.state.first == first and table.view(0)["first"] == first


def test_every_seat_seals_a_cypher_before_play_in_any_order():
    table = Table.new(psi, config(3), seed_with_first(3, 1), range(3))
    assert psi.to_move(table.state) == {0, 1, 2}
    assert table.act(1, Guess(0, "1234")).reason == "First every player chooses a cypher."
    for seat, cypher in [(2, "0000"), (0, "1123")]:
        result = table.act(seat, ChooseCypher(cypher))
        assert result.ok and set(result.entry.action) == {"type", "commitment"}
        assert table.state.cyphers[seat] == (result.entry.action["commitment"], table.match.step)
    assert psi.to_move(table.state) == {1} and table.state.setting_up
    assert table.stores[0].value("cypher") == "1123"
    assert table.act(1, ChooseCypher("4567")).ok
    assert not table.state.setting_up and psi.to_move(table.state) == {1}
    assert table.view(1)["stage"] == "play"


@pytest.mark.parametrize("digits", ["123", "12345", "12a4", "１２３４", "", " 123"])
def test_a_cypher_must_be_n_ascii_digits(digits):
    table = Table.new(psi, config(3), SEED, range(3))
    assert table.act(0, ChooseCypher(digits)).reason == "That choice cannot be made now."
    assert "cypher" not in table.stores[0] and table.match.step == 0


def test_a_sealed_cypher_cannot_be_changed():
    """A second choice is refused and leaves the seat's store (its sealed cypher) untouched."""
    table = Table.new(psi, config(2), seed_with_first(2, 0), range(2))
    assert table.act(0, ChooseCypher("1123")).ok
    assert not table.act(0, ChooseCypher("9999")).ok
    assert table.stores[0].value("cypher") == "1123"
    assert table.act(1, ChooseCypher("4567")).ok
    assert not table.act(1, ChooseCypher("0000")).ok
    assert table.stores[1].value("cypher") == "4567"
    assert turn(table, 0, 1, "4576") == Answer(4, 2)
    assert isinstance(run_audit(table), Verified)


def test_a_cypher_taken_back_by_undo_may_be_chosen_again():
    table = Table.new(psi, config(2), seed_with_first(2, 0), range(2))
    assert table.act(0, ChooseCypher("1123")).ok
    assert table.undo() and table.state.cyphers[0] is None
    assert table.act(0, ChooseCypher("7777")).ok
    assert table.act(1, ChooseCypher("4567")).ok
    assert turn(table, 0, 1, "4000") == Answer(1, 1)
    assert turn(table, 1, 0, "7000") == Answer(1, 1)
    assert isinstance(run_audit(table), Verified)


# -- turns -----------------------------------------------------------------------------------


def test_turns_pass_to_the_left_skipping_nobody():
    """Dee's cypher (seat 3) and then Ann's are guessed; both keep taking their turns."""
    table = new_game(["1111", "2222", "3333", "4444"], first=2)
    plan = [(2, 3, "4444"), (3, 0, "1111"), (0, 1, "0000"), (1, 2, "0000")]
    plan += [(2, 1, "0000"), (3, 2, "0000"), (0, 2, "0000"), (1, 2, "0000")]
    for guesser, target, digits in plan:
        turn(table, guesser, target, digits)
    assert [r.guesser for r in table.state.history] == [2, 3, 0, 1, 2, 3, 0, 1]
    assert table.state.guessed == (True, False, False, True)
    assert psi.to_move(table.state) == {2} and table.state.outcome is None


def test_an_answer_passes_play_to_the_left_of_the_guesser():
    table = new_game(["1123", "4567", "8890"], first=2)
    turn(table, 2, 0, "0000")
    assert psi.to_move(table.state) == {0}
    turn(table, 0, 2, "0000")
    assert psi.to_move(table.state) == {1}


# -- Value and status ------------------------------------------------------------------------


def test_value_is_the_latest_guess_and_changes_can_be_negative():
    table = new_game(["1123", "4567", "8890"])
    turn(table, 0, 1, "4576")  # 4 correct, 2 spotted: Value 8; Ann 12 + 8 = 20
    assert table.state.values == (0, 8, 0) and table.state.status == (20, 12, 12)
    turn(table, 1, 2, "0000")  # 1 correct, 1 spotted: Value 3; Ben 12 + 3 = 15
    turn(table, 2, 0, "9999")  # nothing: Value 0, Cal + 0
    assert table.state.status == (20, 15, 12)
    before = table.state
    turn(table, 0, 1, "4000")  # 1 correct, 1 spotted: Value 3, not 8 + 3; Ann 20 - 5 = 15
    assert table.state.values == (0, 3, 3) and table.state.status == (15, 15, 12)
    assert table.state.history[-1] == Record(11, 0, 1, "4000", 1, 1, 3, -5)
    assert words.describe(before, 0, Guess(1, "4000")) == "Ann guesses 4000 for Ben's cypher."
    pending = psi.apply(before, 0, Guess(1, "4000"))
    assert words.describe(pending, 1, Answer(1, 1)) == (
        "Ann guessed 4000 at Ben: 1 correct, 1 spotted: Value 3, Ann -5."
    )
    turn(table, 1, 0, "1111")  # 2 correct, 2 spotted: Value 6; Ben 15 + 6 = 21
    turn(table, 2, 1, "4560")  # 3 correct, 3 spotted: Value 9; Cal gains 9 - 3 = 6 only
    assert table.state.values == (6, 9, 3) and table.state.status == (15, 21, 18)
    assert [r.change for r in table.state.history] == [8, 3, 0, -5, 6, 6]
    assert [r.value for r in table.state.history] == [8, 3, 0, 3, 6, 9]
    view = psi.public_view(table.state)
    assert [s["status"] for s in view["seats"]] == [15, 21, 18]
    assert view["history"][3] == {
        "step": 11,
        "guesser": 0,
        "target": 1,
        "digits": "4000",
        "correct": 1,
        "spotted": 1,
        "value": 3,
        "change": -5,
    }


def test_a_repeated_guess_scores_nothing_more():
    table = new_game(["1123", "4567", "8890"])
    turn(table, 0, 1, "4576")  # Ann 20
    turn(table, 1, 2, "0000")  # Ben 15
    turn(table, 2, 1, "4576")  # Value still 8: Cal + 0
    assert table.state.status == (20, 15, 12) and table.state.values == (0, 8, 3)


# -- guessed cyphers and refused guesses -----------------------------------------------------


def test_a_cypher_is_guessed_at_n_spotted_and_cannot_be_targeted_again():
    table = new_game(["1123", "4567", "8890"])
    turn(table, 0, 1, "4567")  # Value 12, Ann 24
    state = table.state
    assert state.guessed == (False, True, False) and state.values == (0, 12, 0)
    assert state.status == (24, 12, 12) and state.outcome is None
    assert psi.public_view(state)["seats"][1]["guessed"] is True
    sentence = "Ben's cypher has already been guessed."
    assert psi.guess_problem(state, 1, 0, "1234") is None  # Ben still plays
    assert psi.guess_problem(state, 2, 1, "4567") == sentence
    assert refused(state, 1, Guess(1, "4567")) == "You cannot guess your own cypher."
    turn(table, 1, 2, "0000")
    assert refused(table.state, 2, Guess(1, "4567")) == sentence
    assert table.act(2, Guess(1, "0000")).reason == sentence
    assert Guess(1, "4567") not in psi.legal_actions(table.state, 2, table.stores[2])


def test_guessing_your_own_cypher_is_refused():
    table = new_game(["1123", "4567", "8890"])
    sentence = "You cannot guess your own cypher."
    assert psi.guess_problem(table.state, 0, 0, "1123") == sentence
    assert table.act(0, Guess(0, "1123")).reason == sentence
    assert Guess(0, "1123") not in psi.legal_actions(table.state, 0, table.stores[0])
    assert table.match.step == 3


@pytest.mark.parametrize(
    ("target", "digits", "sentence"),
    [
        (1, "123", "A cypher has exactly 4 digits; that guess has 3."),
        (1, "12345", "A cypher has exactly 4 digits; that guess has 5."),
        (1, "12a4", "A cypher is made of digits only: type 4 digits from 0 to 9."),
        (1, "１２３４", "A cypher is made of digits only: type 4 digits from 0 to 9."),
        (1, "12 4", "A cypher is made of digits only: type 4 digits from 0 to 9."),
        (1, "-123", "A cypher is made of digits only: type 4 digits from 0 to 9."),
        (1, "", "Type the 4 digits of your guess."),
        (1, None, "Type the 4 digits of your guess."),
        (1, 1234, "Type the 4 digits of your guess."),
        (None, "1234", "Choose whose cypher you are guessing."),
        (3, "1234", "Choose whose cypher you are guessing."),
        (-1, "1234", "Choose whose cypher you are guessing."),
        ("1", "1234", "Choose whose cypher you are guessing."),
    ],
)
def test_malformed_guesses_are_refused_with_a_sentence(target, digits, sentence):
    table = new_game(["1123", "4567", "8890"])
    state = table.state
    assert psi.guess_problem(state, 0, target, digits) == sentence
    assert refused(state, 0, Guess(target, digits)) == sentence
    assert Guess(target, digits) not in psi.legal_actions(state, 0, table.stores[0])


def test_a_guess_of_the_other_lengths_is_refused_in_each_variant():
    three = new_game(["112", "345", "678"])
    five = new_game(["11223", "45678", "90000"])
    assert refused(three.state, 0, Guess(1, "3456")) == (
        "A cypher has exactly 3 digits; that guess has 4."
    )
    assert refused(five.state, 0, Guess(1, "4567")) == (
        "A cypher has exactly 5 digits; that guess has 4."
    )
    assert psi.guess_problem(three.state, 0, 1, "345") is None
    assert psi.guess_problem(five.state, 0, 1, "45678") is None


# -- answers ---------------------------------------------------------------------------------


def pending_game(cyphers: list[str], digits: str) -> Table:
    table = new_game(cyphers)
    assert table.act(0, Guess(1, digits)).ok
    return table


@pytest.mark.parametrize(
    ("length", "answer"),
    [
        (4, (5, 0)),
        (4, (5, 5)),
        (4, (2, 3)),
        (4, (0, 1)),
        (4, (-1, 0)),
        (4, (0, -1)),
        (4, (4, 3)),
        (3, (3, 2)),
        (3, (4, 0)),
        (5, (5, 4)),
        (5, (6, 6)),
    ],
)
def test_impossible_answers_are_refused(length, answer):
    cyphers = {
        3: ["112", "345", "678"],
        4: ["1123", "4567", "8890"],
        5: ["11223", "45678", "90000"],
    }
    table = pending_game(cyphers[length], "0" * length)
    c, s = answer
    sentence = f"{c} correct and {s} spotted is not a possible answer."
    assert refused(table.state, 1, Answer(c, s)) == sentence
    assert table.act(1, Answer(c, s)).reason == sentence
    assert table.state.pending == Guess(1, "0" * length)


@pytest.mark.parametrize("answer", [(0, 0), (4, 4), (4, 2), (4, 0), (3, 3), (4, 1), (1, 0)])
def test_possible_answers_are_accepted(answer):
    """The engine cannot know the cypher: any answer some cypher could give is taken."""
    table = pending_game(["1123", "4567", "8890"], "0000")
    after = psi.apply(table.state, 1, Answer(*answer))
    assert after.pending is None and after.history[-1].correct == answer[0]
    assert after.guessed[1] == (answer[1] == 4)


def test_the_target_answers_and_only_from_its_own_store():
    table = pending_game(["1123", "4567", "8890"], "4576")
    state = table.state
    assert psi.to_move(state) == {1}
    assert psi.legal_actions(state, 1, table.stores[1]) == [Answer(4, 2)]
    assert psi.legal_actions(state, 1, None) == []
    assert psi.legal_actions(state, 0, table.stores[0]) == []
    assert psi.legal_actions(state, 2, table.stores[2]) == []
    assert psi.auto_action(state, 1, table.stores[1]) == Answer(4, 2)
    assert psi.auto_action(state, 1, None) is None
    assert psi.auto_action(state, 0, table.stores[0]) is None
    assert psi.auto_action(state, 2, table.stores[2]) is None
    view = psi.public_view(state)
    assert view["pending"] == {"guesser": 0, "target": 1, "digits": "4576"}
    assert view["to_move"] == [1]


def test_answers_and_guesses_out_of_turn_are_refused():
    table = new_game(["1123", "4567", "8890"])
    state = table.state
    assert refused(state, 1, Answer(0, 0)) == "It is not Ben's turn."
    assert refused(state, 0, Answer(0, 0)) == "Ann must guess a cypher."
    assert refused(state, 1, Guess(2, "0000")) == "It is not Ben's turn."
    pending = psi.apply(state, 0, Guess(1, "4576"))
    assert refused(pending, 2, Answer(4, 2)) == "It is not Cal's turn."
    assert refused(pending, 0, Answer(4, 2)) == "It is not Ann's turn."
    assert refused(pending, 0, Guess(2, "0000")) == "It is not Ann's turn."
    assert refused(pending, 1, Guess(2, "0000")) == "Ben must answer the guess first."
    assert refused(pending, 1, SetCypher("ab" * 32)) == "Ben must answer the guess first."
    assert refused(state, 0, SetCypher("ab" * 32)) == "Ann must guess a cypher."


def test_an_answered_guess_cannot_be_taken_back():
    """Undo never goes back past an answer: that would be a second guess in one turn."""
    table = new_game(["1123", "4567", "8890"])
    assert table.can_undo()  # only sealed choices so far
    assert table.act(0, Guess(1, "4576")).ok
    assert table.can_undo()  # nothing shown yet
    assert psi.reveals(Answer(4, 2)) and not psi.reveals(Guess(1, "4576"))
    turn_answer = psi.auto_action(table.state, 1, table.stores[1])
    assert table.act(1, turn_answer).ok
    assert not table.can_undo() and not table.undo()
    assert table.act(1, Guess(2, "0000")).ok
    assert table.undo() and table.state.pending is None and psi.to_move(table.state) == {1}
    assert not table.undo()


# -- the end ---------------------------------------------------------------------------------


def test_a_full_three_seat_game():
    table = new_game(["1123", "4567", "8890"])
    turn(table, 0, 1, "4576")  # 4/2, Value 8: Ann 20
    turn(table, 1, 2, "0000")  # 1/1, Value 3: Ben 15
    turn(table, 2, 1, "4567")  # guessed, Value 12: Cal 12 + (12 - 8) = 16
    assert table.state.status == (20, 15, 16) and table.state.outcome is None
    turn(table, 0, 2, "8809")  # 4/2, Value 8: Ann 20 + (8 - 3) = 25
    turn(table, 1, 2, "1111")  # Ben's cypher is guessed but he plays: 0/0, Ben 15 - 8 = 7
    assert table.state.values == (0, 12, 0)
    before = table.state
    turn(table, 2, 0, "1123")  # guessed: Cal 16 + 12 = 28; only Cal's cypher is left
    state = table.state
    # Cal's cypher is the last: Cal adds 12 - 0 = 12, so 40.
    assert state.status == (25, 7, 40)
    assert state.bonus == (2, 12)
    assert state.guessed == (True, True, False)
    assert sum(state.status) == 2 * 3 * 12
    assert state.outcome.termination is Termination.WIN
    assert state.outcome.winners == {2}
    assert state.outcome.reason == (
        "Only one cypher is left unguessed. Final status: Cal 40, Ann 25, Ben 7."
    )
    assert psi.result(state) == state.outcome
    assert psi.to_move(state) == frozenset()
    assert psi.public_view(state)["bonus"] == {"seat": 2, "points": 12}
    assert psi.public_view(state)["outcome"]["winners"] == [2]
    pending = psi.apply(before, 2, Guess(0, "1123"))
    assert words.describe(pending, 0, Answer(4, 4)) == (
        "Cal guessed 1123 at Ann: 4 correct, 4 spotted: Value 12, Cal +12. The cypher is guessed!"
    )
    assert table.act(0, Guess(2, "8890")).reason == "The game is over."
    assert refused(state, 0, Guess(2, "8890")) == "The game is over."
    assert psi.legal_actions(state, 0, table.stores[0]) == []
    assert isinstance(run_audit(table), Verified)


def test_a_full_five_seat_game():
    table = new_game(["0123", "4567", "8901", "2345", "6789"], first=2)
    turn(table, 2, 0, "0123")  # guessed: Cal 24
    turn(table, 3, 1, "4576")  # 4/2, Value 8: Dee 20
    turn(table, 4, 1, "4567")  # guessed: Eve 12 + 4 = 16
    turn(table, 0, 3, "2300")  # Ann (guessed) plays: 2/2, Value 6: Ann 18
    turn(table, 1, 3, "5432")  # Ben (guessed) plays: 4/0, Value 4: Ben 12 - 2 = 10
    turn(table, 2, 4, "6789")  # guessed: Cal 24 + 12 = 36
    assert table.state.outcome is None and table.state.guessed == (True, True, False, False, True)
    turn(table, 3, 2, "8901")  # guessed: Dee 20 + 12 = 32; Dee's cypher is the last
    state = table.state
    # Dee adds 12 - 4 = 8: 40.
    assert state.status == (18, 10, 36, 40, 16)
    assert state.bonus == (3, 8)
    assert sum(state.status) == 2 * 5 * 12
    assert state.outcome.termination is Termination.WIN and state.outcome.winners == {3}
    assert state.outcome.reason.endswith("Final status: Dee 40, Cal 36, Ann 18, Eve 16, Ben 10.")
    assert isinstance(run_audit(table), Verified)


def test_a_three_digit_game_with_max_nine():
    table = new_game(["112", "345", "678"])
    assert table.state.status == (9, 9, 9)
    turn(table, 0, 1, "354")  # 3/1, Value 5: Ann 14
    turn(table, 1, 2, "600")  # 1/1, Value 3: Ben 12
    turn(table, 2, 1, "345")  # guessed: Cal 9 + (9 - 5) = 13
    turn(table, 0, 2, "678")  # guessed: Ann 14 + (9 - 3) = 20; Ann's cypher is the last
    state = table.state
    # Ann adds 9 - 0 = 9: 29.
    assert state.status == (29, 12, 13) and state.bonus == (0, 9)
    assert state.outcome.winners == {0} and state.outcome.termination is Termination.WIN
    assert isinstance(run_audit(table), Verified)


def test_a_five_digit_game_with_max_fifteen():
    table = new_game(["11223", "45678", "90000"])
    assert table.state.status == (15, 15, 15)
    turn(table, 0, 2, "00009")  # 5/3, Value 11: Ann 26
    turn(table, 1, 2, "90000")  # guessed: Ben 15 + (15 - 11) = 19
    turn(table, 2, 0, "11232")  # 5/3, Value 11: Cal 26
    turn(table, 0, 1, "45678")  # guessed: Ann 26 + 15 = 41; Ann's cypher is the last
    state = table.state
    # Ann adds 15 - 11 = 4: 45.
    assert state.status == (45, 19, 26) and state.bonus == (0, 4)
    assert state.outcome.winners == {0}
    assert isinstance(run_audit(table), Verified)


def test_ties_share_the_win():
    table = new_game(["1123", "4567", "8890"])
    turn(table, 0, 1, "4567")  # Ann 24
    turn(table, 1, 0, "1123")  # Ben 24; Cal's cypher is the last: Cal 12 + 12 = 24
    state = table.state
    assert state.status == (24, 24, 24) and state.bonus == (2, 12)
    assert state.outcome.termination is Termination.SHARED_WIN
    assert state.outcome.winners == {0, 1, 2}
    assert state.outcome.reason.endswith("Final status: Ann 24, Ben 24, Cal 24.")


def test_two_of_three_share_the_win():
    table = new_game(["1123", "4567", "8890"])
    turn(table, 0, 1, "4567")  # guessed: Ann 24
    turn(table, 1, 0, "1111")  # 2/2, Value 6: Ben 18
    turn(table, 2, 0, "1111")  # Value 6 again: Cal + 0 = 12
    turn(table, 0, 2, "5555")  # nothing: Ann 24
    turn(table, 1, 2, "8890")  # guessed: Ben 18 + 12 = 30; Ann's cypher is the last
    state = table.state
    # Ann adds 12 - 6 = 6: 30, level with Ben.
    assert state.status == (30, 30, 12) and state.bonus == (0, 6)
    assert state.outcome.termination is Termination.SHARED_WIN
    assert state.outcome.winners == {0, 1}
    assert state.outcome.reason.endswith("Final status: Ann 30, Ben 30, Cal 12.")


def test_the_two_seat_variant():
    table = new_game(["1123", "4567"])
    turn(table, 0, 1, "4576")  # 4/2, Value 8: Ann 20
    assert psi.to_move(table.state) == {1}
    turn(table, 1, 0, "0000")  # nothing: Ben 12
    turn(table, 0, 1, "4567")  # guessed: Ann 20 + 4 = 24; Ann's cypher is the last
    state = table.state
    # Ann adds 12 - 0 = 12: 36.
    assert state.status == (36, 12) and state.bonus == (0, 12)
    assert state.outcome.termination is Termination.WIN and state.outcome.winners == {0}
    assert isinstance(run_audit(table), Verified)


def test_the_two_seat_variant_ends_at_the_first_guessed_cypher():
    """With two seats the one who guesses the other's cypher always wins: 3 Max - V against
    Max + V, where V (the finisher's own Value) is below Max."""
    table = new_game(["112", "345"], first=1)
    turn(table, 1, 0, "121")  # 3/1, Value 5: Ben 14
    turn(table, 0, 1, "345")  # guessed: Ann 9 + 9 = 18; Ann's own cypher is the last
    # Ann adds 9 - 5 = 4: 22.
    assert table.state.status == (22, 14) and table.state.bonus == (0, 4)
    assert table.state.outcome.termination is Termination.WIN
    assert table.state.outcome.winners == {0}


# -- the audit -------------------------------------------------------------------------------


def lying_game() -> Table:
    """Ben answers Ann's 4576 with 2 correct, 1 spotted (the truth is 4 and 2) at move 5."""
    table = new_game(["1123", "4567", "8890"])
    assert table.act(0, Guess(1, "4576")).ok
    assert psi.auto_action(table.state, 1, table.stores[1]) == Answer(4, 2)
    assert table.act(1, Answer(2, 1)).ok  # the engine cannot know it is false
    assert table.state.values[1] == 4 and table.state.status[0] == 16
    turn(table, 1, 0, "1123")  # guessed
    turn(table, 2, 1, "4567")  # guessed: the game is over
    assert table.state.outcome is not None
    return table


def test_audit_an_honest_game_is_verified():
    table = new_game(["1123", "4567", "8890"])
    for guesser, target, digits in [(0, 1, "4576"), (1, 2, "0000"), (2, 1, "4567")]:
        turn(table, guesser, target, digits)
    turn(table, 0, 2, "8890")
    assert table.state.outcome is not None
    assert run_audit(table) == Verified()


def test_audit_catches_a_lying_answer():
    table = lying_game()
    assert table.match.entries[4].seat == 1 and table.match.entries[4].action == {
        "type": "answer",
        "correct": 2,
        "spotted": 1,
    }
    result = run_audit(table)
    assert isinstance(result, Cheat)
    assert (result.seat, result.step) == (1, 5)
    assert "4576" in result.reason
    assert result.reason == (
        "Ben answered 2 correct, 1 spotted to Ann's guess 4576 at move 5, but the cypher 4567 "
        "gives 4 correct, 2 spotted."
    )


def test_audit_catches_a_false_claim_that_a_cypher_was_guessed():
    table = new_game(["1123", "4567"])
    assert table.act(0, Guess(1, "4576")).ok
    assert table.act(1, Answer(4, 4)).ok  # ends the game at once, falsely
    assert table.state.outcome is not None and table.state.guessed == (False, True)
    result = run_audit(table)
    assert isinstance(result, Cheat) and (result.seat, result.step) == (1, 4)
    assert "guess 4576" in result.reason


def test_audit_catches_a_hidden_guessed_cypher():
    """Denying the cypher was guessed (4 correct, 2 spotted for the exact cypher) is a lie too."""
    table = new_game(["1123", "4567", "8890"])
    assert table.act(0, Guess(2, "8890")).ok
    assert table.act(2, Answer(4, 2)).ok
    turn(table, 1, 0, "1123")
    turn(table, 2, 1, "4567")
    result = run_audit(table)
    assert isinstance(result, Cheat) and (result.seat, result.step) == (2, 5)
    assert "Cal answered 4 correct, 2 spotted to Ann's guess 8890 at move 5" in result.reason


def test_audit_a_seat_that_refuses_to_open_is_unverified():
    table = new_game(["1123", "4567", "8890"])
    turn(table, 0, 1, "4567")
    turn(table, 1, 0, "1123")
    withheld = openings(table)
    withheld[2] = None
    result = run_audit(table, withheld)
    assert isinstance(result, Unverified) and result.seats == (2,)
    assert "Cal did not open a hidden value in time" in result.reason
    empty = openings(table)
    empty[1] = []
    result = run_audit(table, empty)
    assert isinstance(result, Unverified) and result.seats == (1,)


def test_audit_a_liar_who_refuses_to_open_is_unverified():
    table = lying_game()
    withheld = openings(table)
    withheld[1] = None
    result = run_audit(table, withheld)
    assert isinstance(result, Unverified) and result.seats == (1,)


@pytest.mark.parametrize(
    "bad", ["12", "12345", "12a4", "１２３４", 1123, None, ["1", "1", "2", "3"]]
)
def test_audit_catches_a_cypher_that_is_not_n_digits(bad):
    table = Table.new(psi, config(3), seed_with_first(3, 0), range(3))
    assert table.act(0, ChooseCypher("1123")).ok
    commitment = table.stores[1].commit("cypher", bad, replace=True)
    assert table.act(1, SetCypher(commitment)).ok  # the engine only sees a commitment
    assert table.act(2, ChooseCypher("8890")).ok
    turn(table, 0, 2, "8890")
    turn(table, 1, 0, "1123")  # Ben never had to answer; his cypher is the last
    assert table.state.outcome is not None and table.state.bonus == (1, 12)
    result = run_audit(table)
    assert isinstance(result, Cheat) and (result.seat, result.step) == (1, 2)
    assert result.reason == f"Ben's cypher {bad!r} is not 4 digits."


def test_audit_of_an_abandoned_game_checks_the_answers_so_far():
    table = lying_game()
    entries = table.match.entries[:6]
    result = audit(psi, table.match.config, table.match.seed, entries, openings(table))
    assert isinstance(result, Cheat) and (result.seat, result.step) == (1, 5)


# -- secrecy and views -----------------------------------------------------------------------


def public_text(table: Table) -> str:
    """Everything public so far, with commitments and hashes (64 hex digits) blanked out."""
    entries = [e.to_json() for e in table.match.entries]
    text = json.dumps(psi.public_view(table.state)) + json.dumps(entries)
    return HEX.sub("<hex>", text)


def test_no_cypher_reaches_the_public_view_or_the_log():
    """The cyphers use only 8 and 9, the guesses only 0 to 3, and no count or move reaches 8."""
    cyphers = ["8989", "9898", "8899"]
    table = Table.new(psi, config(3), seed_with_first(3, 0), range(3))
    sentences = []
    for seat, cypher in enumerate(cyphers):
        before = table.state
        result = table.act(seat, ChooseCypher(cypher))
        sentences.append(words.describe(before, seat, psi.parse_action(result.entry.action)))
        assert not set("89") & set(public_text(table))
    for guesser, target, digits in [(0, 1, "0123"), (1, 2, "3210")]:
        before = table.state
        assert table.act(guesser, Guess(target, digits)).ok
        sentences.append(words.describe(before, guesser, Guess(target, digits)))
        assert not set("89") & set(public_text(table))
        before = table.state
        answer = psi.auto_action(table.state, target, table.stores[target])
        assert table.act(target, answer).ok
        sentences.append(words.describe(before, target, answer))
        assert not set("89") & set(public_text(table))
    assert table.match.step == 7
    assert not set("89") & set(" ".join(sentences))
    public = psi.public_view(table.state)
    for seat, cypher in enumerate(cyphers):
        view = table.view(seat)
        me = view.pop("me")
        assert me == {"seat": seat, "cypher": cypher}
        assert view == public
        others = [c for s, c in enumerate(cyphers) if s != seat]
        # as a value (a commitment's hex digest may hold "8989" by chance: it failed so once)
        assert not any(f'"{c}"' in json.dumps(table.view(seat)) for c in others)
    assert psi.seat_view(table.state, 0, None)["me"] == {"seat": 0, "cypher": None}
    assert psi.seat_view(table.state, 0, table.stores[1])["me"]["cypher"] == "9898"


def test_the_public_view_shows_commitments_and_readiness():
    table = Table.new(psi, config(2), SEED, range(2))
    assert table.act(1, ChooseCypher("4567")).ok
    seats = psi.public_view(table.state)["seats"]
    assert [s["ready"] for s in seats] == [False, True]
    assert seats[0]["commitment"] is None
    assert seats[1]["commitment"] == table.match.entries[0].action["commitment"]
    assert [s["name"] for s in seats] == ["Ann", "Ben"]


def test_guess_view_is_lazy():
    table = new_game(["1123", "4567", "8890"])
    legal = psi.legal_actions(table.state, 0, table.stores[0])
    assert isinstance(legal, GuessView)
    assert len(legal) == 2 * 10**4
    assert legal[0] == Guess(1, "0000")
    assert legal[9999] == Guess(1, "9999")
    assert legal[10000] == Guess(2, "0000")
    assert legal[12345] == Guess(2, "2345")
    assert legal[-1] == Guess(2, "9999")
    assert legal[-20000] == Guess(1, "0000")
    for index in (20000, -20001):
        with pytest.raises(IndexError):
            legal[index]
    assert Guess(2, "0420") in legal and Guess(1, "4567") in legal
    for outsider in [
        Guess(0, "1123"),
        Guess(3, "1234"),
        Guess(1, "123"),
        Guess(1, "12345"),
        Guess(1, "１２３４"),
        Answer(0, 0),
        "1234",
        None,
    ]:
        assert outsider not in legal
    turn(table, 0, 1, "4567")
    turn(table, 1, 0, "0000")
    later = psi.legal_actions(table.state, 2, table.stores[2])
    assert len(later) == 10**4 and later[0] == Guess(0, "0000")
    assert Guess(1, "4567") not in later and Guess(0, "1123") in later
    big = GuessView(list(range(1, 8)), 5)
    assert len(big) == 7 * 10**5 and big[10**5 + 7] == Guess(2, "00007")
    three = new_game(["112", "345", "678"])
    small = psi.legal_actions(three.state, 0, three.stores[0])
    assert len(small) == 2000 and list(small)[:2] == [Guess(1, "000"), Guess(1, "001")]
    assert psi.legal_actions(three.state, 1, three.stores[1]) == []  # not Ben's turn


# -- the log's JSON --------------------------------------------------------------------------


def test_json_round_trip_of_every_action_kind():
    store = PrivateStore(Context(MATCH_ID, 0))
    state = psi.initial_state(config(3).setup(), SEED)
    sealed = psi.seal(state, 0, ChooseCypher("1123"), store)
    assert isinstance(sealed, SetCypher) and store.value("cypher") == "1123"
    actions = [
        sealed,
        Guess(1, "4576"),
        Guess(7, "000"),
        Guess(0, "99999"),
        Answer(0, 0),
        Answer(4, 2),
        Answer(5, 5),
    ]
    for action in actions:
        data = psi.action_to_json(action)
        assert json.loads(json.dumps(data)) == data
        assert psi.parse_action(data) == action
        assert psi.action_to_json(psi.parse_action(data)) == data
    assert psi.action_to_json(sealed) == {"type": "cypher", "commitment": sealed.commitment}
    with pytest.raises(ValueError):
        psi.action_to_json(ChooseCypher("1123"))


COMMITMENT = "ab" * 32


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        "guess",
        {},
        {"type": 1},
        {"type": "choose", "digits": "1234"},
        {"type": "cypher"},
        {"type": "cypher", "commitment": "abc"},
        {"type": "cypher", "commitment": COMMITMENT.upper()},
        {"type": "cypher", "commitment": COMMITMENT, "digits": "1234"},
        {"type": "cypher", "digits": "1234"},
        {"type": "guess", "target": 1},
        {"type": "guess", "digits": "1234"},
        {"type": "guess", "target": 1, "digits": "12"},
        {"type": "guess", "target": 1, "digits": "123456"},
        {"type": "guess", "target": 1, "digits": 1234},
        {"type": "guess", "target": 1, "digits": "12a4"},
        {"type": "guess", "target": 1, "digits": "１２３４"},
        {"type": "guess", "target": "1", "digits": "1234"},
        {"type": "guess", "target": True, "digits": "1234"},
        {"type": "guess", "target": 1.0, "digits": "1234"},
        {"type": "guess", "target": None, "digits": "1234"},
        {"type": "guess", "target": 1, "digits": "1234", "extra": 1},
        {"type": "answer", "correct": 4},
        {"type": "answer", "spotted": 2},
        {"type": "answer", "correct": "4", "spotted": 2},
        {"type": "answer", "correct": 4, "spotted": True},
        {"type": "answer", "correct": 4.0, "spotted": 2},
        {"type": "answer", "correct": 4, "spotted": 2, "extra": 1},
    ],
)
def test_json_malformed_actions_are_refused(data):
    with pytest.raises(MalformedInput):
        psi.parse_action(data)


def test_a_saved_game_replays_to_the_same_state():
    table = lying_game()
    again = Match.loads(table.match.dumps(), GAMES)
    assert again.state == table.state
    restored = Table.from_json(json.loads(json.dumps(table.to_json())), GAMES)
    assert restored.state == table.state
    assert restored.stores[1].value("cypher") == "4567"


# -- properties ------------------------------------------------------------------------------


@st.composite
def cypher_and_guess(draw) -> tuple[int, str, str]:
    n = draw(st.sampled_from(LENGTHS))
    alphabet = draw(st.sampled_from(["0123456789", "012", "7"]))
    digits = st.text(alphabet=alphabet, min_size=n, max_size=n)
    return n, draw(digits), draw(digits)


@settings(max_examples=50, deadline=None)
@given(cypher_and_guess())
def test_score_properties(example):
    n, cypher, guess = example
    correct, spotted = score(cypher, guess)
    assert 0 <= spotted <= correct <= n
    assert score(cypher, cypher) == (n, n)
    assert score(guess, cypher) == (correct, spotted)
    # Correct, counted another way: take each guessed digit out of the cypher once.
    rest = list(cypher)
    taken = 0
    for digit in guess:
        if digit in rest:
            rest.remove(digit)
            taken += 1
    assert correct == taken
    assert spotted == sum(a == b for a, b in zip(cypher, guess, strict=True))
    # Every true answer is one the engine accepts.
    assert (correct, spotted) != (n, n - 1)
    assert (spotted == n) == (cypher == guess)


def test_audit_a_liar_is_caught_even_when_another_seat_refuses_to_open():
    table = lying_game()
    withheld = openings(table)
    withheld[2] = None  # Cal withholds; Ben's lie is still proven from Ben's own opening
    result = run_audit(table, withheld)
    assert isinstance(result, Cheat) and (result.seat, result.step) == (1, 5)
