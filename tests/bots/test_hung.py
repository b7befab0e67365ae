"""No bot hangs a game (issue 25): the arena gives a game up at its move cap and reports it as
hung, and a modest sweep of seeded games per game, every level playing itself, hangs none.

The big sweeps (1,000+ Psi Squad games, every level, 2-8 seats, 3-5 digits) are the arena's
`--sweep` (docs/bots.md, "Hung games"); this keeps a small one in the suite."""

from __future__ import annotations

import pytest

from parlour.bots import arena
from parlour.bots.registry import BOTS
from parlour.games import GAMES
from parlour.games.catalog import ids
from parlour.games.psi_squad.actions import ChooseCypher, Guess
from tests.tables import setups


def _stalling(knowledge, seed):
    """A Psi Squad player that asks the same guess for ever (what the old medium bots did)."""
    if knowledge.view["stage"] == "setup":
        return ChooseCypher("0" * knowledge.number("length"))
    return Guess(knowledge.legal[0].target, "9" * knowledge.number("length"))


def test_a_game_past_its_cap_is_reported_hung(monkeypatch):
    monkeypatch.setitem(BOTS, ("psi-squad", "stalling"), _stalling)
    result = arena.tournament("psi-squad", 2, "stalling", "stalling", 2, 1)
    assert result["hung"] == 2 and result["hung_games"] == [0, 1]
    assert result["cap"] == arena.move_cap("psi-squad", 2)
    assert result["longest"] == {"steps": 0, "game": -1}  # no game finished


def test_the_longest_game_is_reported():
    result = arena.tournament("psi-squad", 3, "easy", "consistent", 4, 2)
    assert result["hung"] == 0
    steps = result["longest"]["steps"]
    assert result["mean_steps"] <= steps < result["cap"] and 0 <= result["longest"]["game"] < 4


def test_the_looped_game_now_ends():
    """Three medium bots, the arena's game 19 of seed 1: it never ended before the fix."""
    setup, seed = arena.match(1, 19, 3)
    medium = BOTS[("psi-squad", "medium")]
    played = arena.play(GAMES["psi-squad"], setup, seed, {s: medium for s in range(3)})
    assert played.outcome is not None


# Every game: its first sweep level at each of its example tables (games/<game>/facts.py).
SMALL = {
    game: (
        arena.sweep_levels(game)[:1],
        [(len(names), variant) for g, names, variant in setups() if g == game],
    )
    for game in ids()
}


@pytest.mark.parametrize("game_id", sorted(SMALL))
def test_a_small_sweep_hangs_no_game(game_id):
    levels, sizes = SMALL[game_id]
    result = arena.sweep(game_id, 2, 3, levels, sizes)
    assert result["games"] == 2 * len(levels) * len(sizes)
    assert result["hung"] == 0
    assert 0 < result["longest"]["steps"] < arena.move_cap(game_id, result["longest"]["seats"])
