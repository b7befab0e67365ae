"""What every game owes the match and online play, checked the same way for all four games.

Random playouts (seeded, so repeatable) through a Table holding every seat: at every step the
seats the game waits on for an automatic step (a seal, an answer, a reveal) are exactly those
whose device has an `auto_action`; every action's JSON round-trips; the log replays to the same
state; and a forfeit can be declared only against a seat stalling on such a step.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from parlour.errors import IllegalAction, MalformedInput
from parlour.fair.rng import Rng
from parlour.games import GAMES
from parlour.games.base import Termination
from parlour.match.config import MatchConfig
from parlour.match.match import Match
from parlour.match.table import Table, deal_stores, dealt_commitments
from tests.tables import setups

SETUPS = setups()  # every game's example tables (games/<game>/facts.py)
MAX_STEPS = 400


def playout(game_id: str, names, variant, index: int):
    """Yield (table, seat) before every action of a seeded random game."""
    game = GAMES[game_id]
    config = MatchConfig(game_id, f"m-conform-{index:04d}", names, variant)
    seed = Rng(f"{game_id}-{index}".encode()).read(32)
    table = Table.new(game, config, seed, range(len(names)))
    rng = Rng(seed)
    for _ in range(MAX_STEPS):
        if table.match.result() is not None:
            return
        seats = sorted(game.to_move(table.state))
        yield table, seats
        seat = seats[rng.below(len(seats))]
        auto = game.auto_action(table.state, seat, table.stores[seat])
        legal = table.legal(seat) or free_choices(game_id, table, rng)
        choice = auto if auto is not None else legal[rng.below(len(legal))]
        result = table.act(seat, choice)
        assert result.ok, result.reason


def free_choices(game_id: str, table: Table, rng: Rng) -> list:
    """Choices a game does not list because any value will do (a Psi Squad cypher)."""
    assert game_id == "psi-squad", "only Psi Squad leaves a choice unlisted"
    from parlour.games.psi_squad.actions import ChooseCypher

    n = table.state.length
    return [ChooseCypher("".join(str(rng.below(10)) for _ in range(n)))]


@pytest.mark.parametrize("game_id, names, variant", SETUPS)
@pytest.mark.parametrize("index", range(3))
def test_automatic_steps_are_exactly_the_seats_with_an_auto_action(game_id, names, variant, index):
    game = GAMES[game_id]
    for table, seats in playout(game_id, names, variant, index):
        for seat in seats:
            auto = game.auto_action(table.state, seat, table.stores[seat])
            assert game.automatic(table.state, seat) == (auto is not None), (seat, auto)
        for seat in set(range(len(names))) - set(seats):
            assert not game.automatic(table.state, seat)


@pytest.mark.parametrize("game_id, names, variant", SETUPS)
def test_every_logged_action_round_trips_and_the_log_replays(game_id, names, variant):
    game = GAMES[game_id]
    tables = [table for table, _ in playout(game_id, names, variant, 7)]
    table = tables[-1]
    for entry in table.match.entries:
        action = game.parse_action(entry.action)
        assert game.action_to_json(action) == entry.action
    again = Match.loads(table.match.dumps())
    assert again.head() == table.match.head()
    assert game.public_view(again.state) == game.public_view(table.state)


@pytest.mark.parametrize("game_id, names, variant", SETUPS)
def test_a_forfeit_only_against_a_seat_holding_up_an_automatic_step(game_id, names, variant):
    game = GAMES[game_id]
    tried = stalled = 0
    for table, seats in playout(game_id, names, variant, 11):
        for seat in seats:
            step = table.match.step
            declarer = (seat + 1) % len(names)
            result = table.match.submit_json(declarer, {"forfeit": seat})
            tried += 1
            if game.automatic(table.state, seat):
                assert result.ok, result.reason
                outcome = table.match.result()
                assert outcome.termination is Termination.FORFEIT
                assert seat not in outcome.winners
                assert "did not take a required step in time" in outcome.reason
                again = Match.loads(table.match.dumps())  # a forfeit replays like any entry
                assert again.result() == outcome
                table.match.truncate(step)
                assert table.match.result() is None
                stalled += 1
            else:
                assert not result.ok and "cannot forfeit" in result.reason
                assert table.match.step == step
        if tried > 60:
            break
    assert tried and (stalled or game_id == "esp")


def test_a_forfeit_names_a_real_seat():
    game = GAMES["psi-squad"]
    config = MatchConfig("psi-squad", "m-conform-forfeit", ("A", "B"), {})
    match = Match(game, config, bytes(32))
    for bad in (5, -1, "0", None):
        result = match.submit_json(0, {"forfeit": bad})
        assert not result.ok
    with pytest.raises(IllegalAction):
        match.receive(
            {"seq": 1, "seat": 0, "action": {"forfeit": 9}, "prev": match.head(), "hash": "00" * 32}
        )


@pytest.mark.parametrize(
    "game_id, names, variant, label",
    [
        ("espeers", ("Ada", "Bo"), {}, "deck"),
        ("telepathic", ("Ada", "Bo"), {"arrangement": "pair"}, "conditions"),
    ],
)
def test_online_a_dealt_seal_must_match_what_was_published_before_the_seed(
    game_id, names, variant, label
):
    """Online, the dealt values are committed (and the commitments published, in the config)
    before the seed exists: a device that deals again after seeing the seed is refused."""
    game = GAMES[game_id]
    plain = MatchConfig(game_id, "m-conform-dealt", names, variant)
    stores = deal_stores(game, plain, range(len(names)))
    dealt = dealt_commitments(stores)
    assert set(dealt) == {"0", "1"} and all(set(v) == {label} for v in dealt.values())
    config = replace(plain, dealt=dealt)
    assert MatchConfig.from_json(config.to_json()) == config
    assert Match(game, config, bytes(32)).genesis != Match(game, plain, bytes(32)).genesis
    table = Table(Match(game, config, bytes(32)), stores)
    seal = game.auto_action(table.state, 0, stores[0])
    assert table.act(0, seal).ok
    redealt = deal_stores(game, plain, [1])[1]
    table.stores[1] = redealt
    other = game.auto_action(table.state, 1, redealt)
    result = table.act(1, other)
    assert not result.ok and "before the" in result.reason and "seed was drawn" in result.reason


@pytest.mark.parametrize(
    "dealt",
    [
        {"0": {"deck": "xyz"}},
        {"5": {"deck": "ab" * 32}},
        {"zero": {"deck": "ab" * 32}},
        {"0": {}},
        {"0": ["deck"]},
        [],
    ],
)
def test_a_config_with_damaged_dealt_commitments_is_refused(dealt):
    data = MatchConfig("espeers", "m-conform-dealt", ("A", "B"), {}).to_json()
    data["dealt"] = dealt
    with pytest.raises(MalformedInput):
        MatchConfig.from_json(data)


@pytest.mark.parametrize(
    "game_id, names, variant",
    [
        *SETUPS,
        ("espeers", ("Ada", "Bo"), {"decks": ["sealed", "sealed"]}),
        ("telepathic", ("Ada", "Bo", "Cy"), {"arrangement": "director"}),
        ("telepathic", ("Ada", "Bo", "Cy", "Di"), {"arrangement": "four"}),
    ],
)
def test_dealt_labels_say_exactly_what_deal_gives_each_seat(game_id, names, variant):
    """Online, a seat's commitment before the seed must carry exactly these labels: a game whose
    `dealt_labels` left one out would let a seat deal again after the seed."""
    game = GAMES[game_id]
    setup = MatchConfig(game_id, "m-conform-labels", names, variant).setup()
    for seat in range(len(names)):
        dealt = game.deal(setup, [seat]).get(seat, {})
        assert game.dealt_labels(setup, seat) == frozenset(dealt), (game_id, seat)
