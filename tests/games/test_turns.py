"""Who acts next (games/turns.py), the one answer the arena, a device's bot seats, the
simulations and the play screen share, pinned on the four games' awkward cases: simultaneous
steps, automatic steps held by another device, optional steps, passes, and games that ended."""

from __future__ import annotations

import pytest

from parlour.bots.arena import Played, match, play, sweep_levels
from parlour.bots.registry import bot_for
from parlour.games import GAMES, turns
from parlour.games.declared import facts_for

# Each game's first sweep level (Psi Squad's random would never end), at its first example's
# variant (games/<game>/facts.py).
LEVEL = {game: sweep_levels(game)[0] for game in GAMES}
VARIANT = {game: dict(facts_for(game).examples[0].variant) for game in GAMES}
_PLAYED: dict[str, Played] = {}


def played(game_id: str) -> Played:
    """A seeded two-seat game of `game_id` between bots, played once per test run."""
    if game_id not in _PLAYED:
        setup, seed = match(5, 0, 2, VARIANT.get(game_id))
        bot = bot_for(game_id, LEVEL[game_id])
        _PLAYED[game_id] = play(GAMES[game_id], setup, seed, {0: bot, 1: bot})
    return _PLAYED[game_id]


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_game_that_ended_waits_on_nobody(game_id):
    game, done = GAMES[game_id], played(game_id)
    assert done.outcome is not None
    last = done.states[-1]
    assert turns.moving(game, last) == ()
    assert list(turns.automatic(game, last, done.stores, lambda s, seat: "pass")) == []
    assert turns.first_automatic(game, last, done.stores) is None
    assert turns.offered(game, last, done.stores, {0, 1}) == []
    assert turns.waiting_on(game, last, done.stores, {0, 1}) is None


@pytest.mark.parametrize("game_id", ["espeers", "telepathic"])
def test_simultaneous_seals_are_taken_lowest_seat_first_by_the_device_holding_each(game_id):
    """ESPEERS's decks and Telepathic's conditions are sealed by both seats at once, each by
    its own device: the lowest first; a device holding one seat takes only that one's."""
    game, done = GAMES[game_id], played(game_id)
    start = done.states[0]
    assert turns.moving(game, start) == (0, 1)
    steps = list(turns.automatic(game, start, done.stores))
    assert [seat for seat, _ in steps] == [0, 1]
    assert turns.first_automatic(game, start, done.stores) == steps[0]
    assert [s for s, _ in turns.automatic(game, start, {1: done.stores[1]})] == [1]
    assert turns.first_automatic(game, start, {}) is None
    assert turns.waiting_on(game, start, done.stores, {0, 1}) is None  # the seals come first
    assert done.log[0][0] == 0 and done.log[1][0] == 1  # and the arena took them so


def test_simultaneous_decisions_wait_on_the_lowest_seat_held():
    """Psi Squad's cyphers are chosen by every seat at once, and nobody's is automatic."""
    game, done = GAMES["psi-squad"], played("psi-squad")
    start = done.states[0]
    assert turns.moving(game, start) == (0, 1)
    assert turns.first_automatic(game, start, done.stores) is None
    assert turns.waiting_on(game, start, done.stores, {0, 1}) == 0
    assert turns.waiting_on(game, start, done.stores, {1}) == 1
    assert turns.waiting_on(game, start, {0: done.stores[0]}, {0, 1}) == 0
    assert turns.waiting_on(game, start, {1: done.stores[1]}, {0}) is None


def test_an_answer_is_the_answering_device_s_to_take():
    """A Psi Squad guess is answered automatically, from the target's secret: only by the
    device holding the target's store; no bot is asked meanwhile."""
    game, done = GAMES["psi-squad"], played("psi-squad")
    index = next(
        i
        for i, s in enumerate(done.states[:-1])
        if turns.first_automatic(game, s, done.stores) is not None
    )
    state = done.states[index]
    seat, action = turns.first_automatic(game, state, done.stores) or (None, None)
    assert (seat, game.action_to_json(action)) == done.log[index]
    others = {s: store for s, store in done.stores.items() if s != seat}
    assert turns.first_automatic(game, state, others) is None
    assert turns.waiting_on(game, state, done.stores, {0, 1}) is None
    assert turns.waiting_on(game, state, others, {0, 1}) is None  # its answer, not a bot's


def test_an_optional_step_is_offered_to_a_seat_that_is_not_to_move():
    """A Telepathic partner may announce out of turn: offered to that seat when held here."""
    game, done = GAMES["telepathic"], played("telepathic")
    found = [
        (i, s)
        for i, state in enumerate(done.states[:-1])
        for s in turns.offered(game, state, done.stores, {0, 1})
    ]
    assert found
    index, seat = found[0]
    state = done.states[index]
    assert seat not in turns.moving(game, state)
    assert turns.offered(game, state, done.stores, {1 - seat}) == []
    assert turns.offered(game, state, {1 - seat: done.stores[1 - seat]}, {0, 1}) == []


def test_a_pass_taken_for_a_seat_comes_after_its_own_automatic_step_only():
    """ESPEERS: the stops' pass (`also`) is asked for a moving seat with no automatic step,
    and never for a seat that is not to move."""
    game, done = GAMES["espeers"], played("espeers")
    index = next(
        i
        for i, (_, action) in enumerate(done.log)
        if isinstance(action, dict)
        if action.get("type") == "pass"
    )
    state, (seat, logged) = done.states[index], done.log[index]
    asked: list[int] = []

    def stops(_state, who):
        asked.append(who)
        return game.parse_action(logged)

    assert turns.first_automatic(game, state, done.stores) is None
    steps = list(turns.automatic(game, state, done.stores, stops))
    assert [(s, game.action_to_json(a)) for s, a in steps] == [(seat, logged)]
    assert asked == [seat] == list(turns.moving(game, state))
    start = done.states[0]
    asked.clear()
    assert [s for s, _ in turns.automatic(game, start, done.stores, stops)] == [0, 1]
    assert asked == []  # the seals are automatic: the stops are not asked
