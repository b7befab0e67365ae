"""The Psi Squad bot: its fast model against the engine, legality, determinism, no cheating,
the opening table, and a small strength check (the big runs are the arena's, not tests)."""

from __future__ import annotations

import dataclasses

import pytest

from parlour.bots import arena
from parlour.bots.base import SeatKnowledge, knowledge_of
from parlour.bots.psi_squad import LEVELS, model, player, solver_report, symmetry
from parlour.bots.psi_squad.book import FIRST, SECOND
from parlour.bots.psi_squad.make_book import generate
from parlour.bots.psi_squad.race import Race
from parlour.bots.psi_squad.solver import EXACT, best_guess, guess_for
from parlour.bots.registry import bot_for, player_levels
from parlour.fair.commit import Context
from parlour.fair.rng import Rng
from parlour.fair.store import PrivateStore
from parlour.games import GAMES
from parlour.games.base import Setup
from parlour.games.psi_squad.actions import Answer, ChooseCypher, Guess, SetCypher
from parlour.games.psi_squad.options import LENGTHS
from parlour.games.psi_squad.state import score

psi = GAMES["psi-squad"]
ALL_LEVELS = tuple(LEVELS)


def _codes(rng: Rng, n: int, k: int) -> list[int]:
    return [rng.below(10**n) for _ in range(k)]


# -- the fast model against the engine -------------------------------------------------------


@pytest.mark.parametrize("n", LENGTHS)
def test_the_model_scores_as_the_engine_does(n):
    rng = Rng(f"model:{n}".encode())
    candidates = [*_codes(rng, n, 300), 0, 10**n - 1, int("1" * n)]
    split = model.Split(n, candidates)
    for guess in [*_codes(rng, n, 40), 0, int("1" * n), candidates[5]]:
        answers = split.answers(guess)
        for cypher, code in zip(candidates, answers, strict=True):
            c, s = score(model.text_of(n, cypher), model.text_of(n, guess))
            assert code == model.answer_code(n, c, s) == model.score(n, guess, cypher)
        sizes = split.sizes(guess)
        assert sum(sizes) == len(candidates)
        assert sizes == [answers.count(a) for a in model.answer_codes(n)]


@pytest.mark.parametrize("n", [3, 4])
def test_consistent_cyphers_are_exactly_those_that_give_every_answer(n):
    rng = Rng(f"consistent:{n}".encode())
    for _ in range(4):
        secret = model.text_of(n, rng.below(10**n))
        record = []
        for guess in _codes(rng, n, 3):
            c, s = score(secret, model.text_of(n, guess))
            record.append((guess, model.answer_code(n, c, s)))
        found = model.consistent(n, tuple(record))
        brute = [
            x
            for x in range(10**n)
            if all(model.score(n, g, x) == a for g, a in record)  # slow and obvious
        ]
        assert list(found) == brute
        assert int(secret) in found


def test_every_guess_has_an_equivalent_in_the_symmetry_pool():
    """For three digits (1,000 guesses) every guess splits the candidates as some guess of the
    pool does, after histories of every kind."""
    n = 3
    for history in [(), (12,), (11,), (12, 345), (112, 334), (12, 120), (123, 456, 789)]:
        kept = symmetry.pool(n, history)
        if kept is None:
            continue
        rng = Rng(repr(history).encode())
        secret = rng.below(1000)
        record = tuple((g, model.score(n, g, secret)) for g in history)
        split = model.Split(n, model.consistent(n, record))
        shapes = {tuple(split.sizes(g)) for g in kept}
        for guess in range(1000):
            assert tuple(split.sizes(guess)) in shapes, (history, guess)
    assert symmetry.pool(4, ()) == (0, 1, 11, 12, 123)


def test_the_opening_table_is_what_the_full_search_finds():
    """The book covers the lengths it was made for (a length added later plays without one:
    `book.lookup` finds nothing and the search decides)."""
    assert set(FIRST) == set(SECOND) <= set(LENGTHS)
    for n in FIRST:
        first, second = generate(n)
        assert first == FIRST[n]
        assert second == SECOND[n]


def test_the_search_takes_a_perfect_split_when_there_is_one():
    n = 3
    record = ((12, model.answer_code(n, 3, 0)),)  # 012 answered 3 correct, 0 spotted: 120, 201
    assert model.consistent(n, record) == (120, 201)
    assert best_guess(n, record, EXACT) == 120


# -- whole games: legality, determinism --------------------------------------------------------


def _checked(level: str, seen: list):
    bot = bot_for("psi-squad", level)

    def play(knowledge, seed):
        choice = bot(knowledge, seed)
        seen.append(choice)
        if knowledge.view["stage"] == "setup":
            n = knowledge.number("length")
            assert isinstance(choice, ChooseCypher) and model.text_of(n, int(choice.digits))
            assert len(choice.digits) == n and choice.digits.isdigit()
        else:
            assert choice in knowledge.legal, (level, choice)
            assert bot(knowledge, seed) == choice  # same knowledge, same seed: same choice
        return choice

    return play


@pytest.mark.parametrize(("seats", "length"), [(3, 4), (4, 3), (2, 5)])
def test_every_level_plays_legal_and_deterministic_games(seats, length):
    for index in range(2):
        seen: list = []
        levels = [ALL_LEVELS[(index + s) % len(ALL_LEVELS)] for s in range(seats)]
        bots = {s: _checked(levels[s], seen) for s in range(seats)}
        setup = Setup(f"m-legal-{seats}-{index}", arena.NAMES[:seats], {"length": length})
        played = arena.play(psi, setup, Rng(f"legal{index}".encode()).read(32), bots)
        assert played.outcome is not None
        assert any(isinstance(c, Guess) for c in seen)


def test_the_player_levels_and_reference_levels_are_registered():
    assert player_levels("psi-squad") == ("easy", "medium", "hard")
    for level in ("random", "consistent"):
        assert bot_for("psi-squad", level) is LEVELS[level]


# -- no cheating -----------------------------------------------------------------------------


def _replay(setup: Setup, seed: bytes, log, cyphers: dict[int, str], keep: int, store):
    """The same public actions in a world where each seat o != keep holds cyphers[o]: the
    engine seals those cyphers and answers every guess from them. Returns the states."""
    stores = {s: PrivateStore(Context(setup.match_id, s)) for s in range(setup.seats)}
    stores[keep] = store
    states = [psi.initial_state(setup, seed)]
    new_log = []
    for seat, data in log:
        state = states[-1]
        action = psi.parse_action(data)
        if isinstance(action, SetCypher) and seat != keep:
            action = psi.seal(state, seat, ChooseCypher(cyphers[seat]), stores[seat])
        elif isinstance(action, Answer):
            action = psi.auto_action(state, seat, stores[seat])
            assert psi.action_to_json(action) == data  # the alternative cypher answers alike
        states.append(psi.apply(state, seat, action))
        new_log.append((seat, psi.action_to_json(action)))
    return states, new_log


def _play(setup: Setup, seed: bytes, level: str):
    """A whole game through the engine, every seat played by `level`: states, log, stores."""
    stores = {s: PrivateStore(Context(setup.match_id, s)) for s in range(setup.seats)}
    states = [psi.initial_state(setup, seed)]
    log: list = []
    bot = bot_for("psi-squad", level)
    rng = Rng(seed)
    while psi.result(states[-1]) is None:
        state = states[-1]
        seat = min(psi.to_move(state))
        action = psi.auto_action(state, seat, stores[seat])
        if action is None:
            choice = bot(knowledge_of(psi, setup, states, log, seat, stores[seat]), rng.read(32))
            action = psi.seal(state, seat, choice, stores[seat])
        states.append(psi.apply(state, seat, action))
        log.append((seat, psi.action_to_json(action)))
    return states, log, stores


@pytest.mark.parametrize("level", ALL_LEVELS)
def test_other_cyphers_consistent_with_the_answers_never_change_a_choice(level):
    """Play a game through the engine, then at several of a seat's turns build a second world
    with every other cypher replaced by another one that gives the same answers, replay the same
    public guesses there, and ask the bot in both worlds with the same seed."""
    seats, n = 3, 4
    setup = Setup(f"m-nocheat-{level}", arena.NAMES[:seats], {})
    seed = Rng(f"nocheat:{level}".encode()).read(32)
    states, log, stores = _play(setup, seed, "consistent")
    bot = bot_for("psi-squad", level)
    rng = Rng(f"alternatives:{level}".encode())
    checked = 0
    for upto in range(0, len(log), 3):
        state = states[upto]
        if state.setting_up or state.pending is not None:
            continue
        me = state.to_move
        table = player.read_table(psi.seat_view(state, me, stores[me]), n)
        others = {}
        for o in range(seats):
            if o != me:
                truth = int(stores[o].value("cypher"))
                found = [c for c in model.consistent(n, table.records[o]) if c != truth]
                others[o] = model.text_of(n, found[rng.below(len(found))] if found else truth)
        other_states, other_log = _replay(setup, seed, log[:upto], others, me, stores[me])
        ask = rng.read(32)
        first = bot(knowledge_of(psi, setup, states, log[:upto], me, stores[me]), ask)
        second = bot(knowledge_of(psi, setup, other_states, other_log, me, stores[me]), ask)
        assert first == second, (level, upto)
        checked += 1
    assert checked >= 4


# -- strength, a little --------------------------------------------------------------------


def test_the_solver_report_shape_and_a_small_sample():
    report = solver_report(3, "60", "hard", 1)
    assert report["count"] == 60 and report["digits"] == 3 and report["level"] == "hard"
    assert sum(report["histogram"].values()) == 60
    assert report["max"] <= 7
    easy = solver_report(3, "60", "easy", 1)
    assert report["mean"] < easy["mean"]


def test_hard_beats_random_players():
    result = arena.tournament("psi-squad", 3, "hard", "random", 3, 7)
    assert result["wins"]["a"] == 3


def test_every_level_cracks_a_lone_candidate():
    n = 3
    secret = 407
    record = tuple((g, model.score(n, g, secret)) for g in (12, 345, 678, 470, 704))
    assert model.consistent(n, record) == (secret,)
    for level in ("easy", "medium", "hard"):
        assert guess_for(n, record, level, 1) == secret


def test_a_finished_game_has_an_outcome():
    result = arena.tournament("psi-squad", 3, "medium", "consistent", 1, 3)
    assert result["hung"] == 0
    assert sum(result["wins"].values()) == 1


# -- the race for the last crack ---------------------------------------------------------------


def test_in_a_race_a_guess_that_keeps_two_together_is_better():
    """Three candidates, one opponent guessing the same cypher after me: guessing 012 (021
    and 102 answer it alike) leaves the opponent a coin toss, so I am first 2 times in 3;
    guessing 021 or 102 splits the other two and leaves the opponent a sure crack (1 in 3)."""
    n, cands = 3, (12, 21, 102)
    race = Race(n, cands, [1.0], 0.0)
    assert race.guess_value(cands, 12) == pytest.approx(2 / 3)
    assert race.guess_value(cands, 21) == pytest.approx(1 / 3)
    assert race.guess_value(cands, 102) == pytest.approx(1 / 3)
    assert race.pass_value(cands) == pytest.approx(5 / 9)  # they guess first: 1/3 + 2/3 x 1/3


def test_race_values_are_chances():
    rng = Rng(b"race")
    n = 4
    secret = rng.below(10**n)
    record: tuple = ()
    while len(model.consistent(n, record)) > 12:
        found = model.consistent(n, record)
        g = found[rng.below(len(found))]
        record = (*record, (g, model.score(n, g, secret)))
    found = model.consistent(n, record)
    race = Race(n, found, [1.0, 0.5], 0.1)
    for g in found:
        assert 1 / len(found) <= race.guess_value(found, g) <= 1
    assert 0 <= race.pass_value(found) <= 1


# -- no guess whose answer is foregone (issue 25) ---------------------------------------------

# Three medium bots, the arena's game 19 of seed 1 (before the fix): (guesser, target, digits,
# correct, spotted). From the fourth guess on, the bots re-asked guesses whose answers they
# had heard ("+0"), and after Cy's cypher fell, Bo and Cy asked Ada 0123 and Ada asked Bo 3210
# for ever (the arena gave up at 4,000 steps).
LOOPED = (
    (1, 0, "0123", 2, 2), (2, 1, "0123", 2, 0), (0, 2, "0123", 2, 1), (1, 2, "0123", 2, 1),
    (2, 1, "1230", 2, 1), (0, 2, "0123", 2, 1), (1, 2, "0123", 2, 1), (2, 1, "1032", 2, 0),
    (0, 1, "3210", 2, 2), (1, 2, "0124", 2, 1), (2, 0, "0123", 2, 2), (0, 2, "0125", 3, 1),
    (1, 0, "0123", 2, 2), (2, 0, "0123", 2, 2), (0, 2, "0551", 2, 1), (1, 0, "0123", 2, 2),
    (2, 0, "0123", 2, 2), (0, 2, "1522", 4, 4), (1, 0, "0123", 2, 2), (2, 0, "0123", 2, 2),
    (0, 1, "3210", 2, 2),
)  # fmt: skip


def _position(records, seats: int = 3, length: int = 4, first: int = 1):
    """The state after these public guesses and answers, with `first` to guess first (the
    engine applies the answers as given: no cypher is needed)."""
    setup = Setup("m-looped", arena.NAMES[:seats], {"length": length})
    state = psi.initial_state(setup, b"looped")
    for seat in range(seats):
        state = psi.apply(state, seat, SetCypher("0" * 64))
    state = dataclasses.replace(state, first=first, to_move=first)
    for guesser, target, digits, correct, spotted in records:
        state = psi.apply(state, guesser, Guess(target, digits))
        state = psi.apply(state, target, Answer(correct, spotted))
    return state


def _asked(state, level: str, seed: bytes):
    """The guess of `level` for the seat to move, and whether its answer is foregone."""
    me = state.to_move
    knowledge = SeatKnowledge(
        game="psi-squad",
        seat=me,
        setup=state.setup,
        view=psi.seat_view(state, me, None),
        store=PrivateStore(Context(state.setup.match_id, me)),
        legal=psi.legal_actions(state, me, None),
        history=(),
    )
    choice = bot_for("psi-squad", level)(knowledge, seed)
    assert choice in knowledge.legal
    return choice, player.idle(player.table_of(knowledge), choice)


def test_a_foregone_answer_is_one_every_candidate_gives_alike():
    n = 4
    record = ((123, model.score(n, 123, 1522)), (6789, model.score(n, 6789, 1522)))
    found = model.Split(n, model.consistent(n, record))
    assert model.foregone(found, 123) == record[0][1]  # asked already
    assert model.foregone(found, 9966) == model.answer_code(n, 0, 0)  # no 6 and no 9
    assert model.foregone(found, found.candidates[0]) is None  # a candidate may be the cypher
    lone = model.Split(n, (1522,))
    assert model.foregone(lone, 1522) is None  # a sure crack is no idle guess
    assert model.foregone(lone, 1523) == model.score(n, 1523, 1522)


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_the_game_that_looped_goes_on(level):
    """Every turn of the looped game, asked again: no level re-asks a guess it has heard
    answered, nor any other whose answer it can work out (medium did, at turns 4, 6, 7, 11,
    13 and from 13 on at every turn)."""
    for k in range(len(LOOPED) + 1):
        state = _position(LOOPED[:k])
        choice, idle = _asked(state, level, Rng(f"looped:{k}".encode()).read(32))
        assert not idle, (k, choice)


def _positions(count: int):
    """Seeded positions of every size: 2 to 8 seats, every declared length, the guesses so far
    drawn from the candidates, some re-asked (the Values they leave are those that made the
    old bots stall)."""
    rng = Rng(b"idle-positions")
    for index in range(count):
        seats, n = 2 + index % 7, LENGTHS[index % len(LENGTHS)]
        secrets = [rng.below(10**n) for _ in range(seats)]
        records: list = []
        state = _position((), seats, n, first=0)
        for turn in range(seats + rng.below(4 * seats)):
            me = state.to_move
            targets = state.targets(me)
            if len(targets) == 0 or state.outcome is not None:
                break
            target = targets[turn % len(targets)]
            table = player.read_table(psi.seat_view(state, me, None), n)
            heard = [g for g, _ in table.records[target]]
            found = model.consistent(n, table.records[target])
            code = rng.choice(heard) if heard and rng.below(3) == 0 else rng.choice(found)
            c, s = score(model.text_of(n, secrets[target]), model.text_of(n, code))
            records.append((me, target, model.text_of(n, code), c, s))
            state = _position(records, seats, n, first=0)
        if state.outcome is None:
            yield state


@pytest.mark.parametrize("level", ALL_LEVELS)
def test_no_level_makes_a_guess_whose_answer_it_can_work_out(level):
    """The rule, over seeded positions of every size: a bot's guess always may get more than
    one answer (or is the crack of the one cypher left), since another legal guess always
    exists (a candidate, when two or more are left)."""
    checked = 0
    for index, state in enumerate(_positions(40)):
        choice, idle = _asked(state, level, Rng(f"idle:{index}".encode()).read(32))
        assert not idle, (index, choice, state.history)
        checked += 1
    assert checked >= 30
