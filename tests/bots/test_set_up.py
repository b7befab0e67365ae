"""The set-up reaches the bots (issue 30): a choice added to a game's declaration is played by
every bot with no change to the bots.

README, "Changing a game's set-up": a six-digit Psi Squad game is one line; here that line is
added to a copy of the package and the copy's arena plays it at every level. An ESP option for
the repetitions that draw is declared (monkeypatched) and both the engine and the bot follow it.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from parlour.bots.arena import match, play
from parlour.bots.base import LEVELS
from parlour.bots.esp.model import Seen
from parlour.bots.esp.player import drawn_keys
from parlour.bots.esp.player import model_action as esp_model_action
from parlour.bots.espeers.bot import my_deck
from parlour.bots.espeers.sampling import believe, declared_deck
from parlour.bots.espeers.search import Fast
from parlour.games import GAMES
from parlour.games.base import Termination
from parlour.games.esp import options as esp_options
from parlour.games.esp import rules as esp_rules
from parlour.games.espeers.cards import CARDS, resolve_deck
from parlour.games.espeers.state import SEALED
from parlour.games.espeers.views import as_seat_view
from parlour.games.options import Choice, Option
from tests.bots.test_esp import REPEATING, SHUTTLED, _Replayed, _scripted
from tests.bots.test_espeers import new_game

PY = Path(__file__).resolve().parents[2] / "py"
LONG = '        _length(5, "Long"),\n'
SIX = '        _length(6, "Extra long"),\n'  # the README's one line
GAMES_EACH = 20

# Plays GAMES_EACH six-digit games at a table of one seat per level a player can choose (easy,
# medium and hard; the seats rotate from game to game), so every level plays every game, and
# prints one JSON line per game; run in the copy, under the copy's own package.
ARENA = """
import json, sys
from parlour.bots.arena import match, play
from parlour.bots.base import LEVELS
from parlour.bots.registry import bot_for
from parlour.games import GAMES
from parlour.games.psi_squad.options import LENGTHS
assert 6 in LENGTHS, LENGTHS
game, seats = GAMES["psi-squad"], len(LEVELS)
for index in range(int(sys.argv[1])):
    setup, seed = match(30, index, seats, {"length": 6})
    levels = [LEVELS[(seat + index) % seats] for seat in range(seats)]
    played = play(game, setup, seed, {s: bot_for("psi-squad", lv) for s, lv in enumerate(levels)})
    done = played.outcome is not None
    print(json.dumps({"levels": levels, "steps": len(played.log), "ended": done}))
"""


def test_a_six_digit_psi_squad_game_is_one_line_and_every_level_plays_it(tmp_path):
    """The line in a copy of the package: the copy's engine takes the length, and every level
    plays 20 arena games of it, none hung (past the arena's move cap), none failing (before,
    medium and hard raised KeyError at their first guess: their budget table was keyed by 3, 4
    and 5 digits)."""
    copy = tmp_path / "py"
    shutil.copytree(PY, copy, ignore=shutil.ignore_patterns("__pycache__"))
    declaration = copy / "parlour" / "games" / "psi_squad" / "options.py"
    text = declaration.read_text()
    assert text.count(LONG) == 1 and SIX not in text
    declaration.write_text(text.replace(LONG, LONG + SIX))
    env = {**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", ARENA, str(GAMES_EACH)],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    games = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(games) == GAMES_EACH
    assert all(game["ended"] for game in games), games
    for level in LEVELS:
        assert sum(level in game["levels"] for game in games) == GAMES_EACH


# -- ESP: the repetitions that draw, declared as an option ------------------------------------

REPETITIONS = Option(
    key="repetitions",
    legend="Repetitions",
    help="How many times the same position may arise before the game is drawn.",
    choices=(Choice(2, "Twice"), Choice(3, "Three times"), Choice(4, "Four times")),
    default=3,
)


@pytest.fixture
def esp_with_repetitions(monkeypatch):
    """ESP's declaration with an option "repetitions": the one change a newcomer makes."""
    declared = dataclasses.replace(
        esp_options.OPTIONS, options=(*esp_options.OPTIONS.options, REPETITIONS)
    )
    monkeypatch.setattr(esp_options, "OPTIONS", declared)
    monkeypatch.setattr(esp_rules, "OPTIONS", declared)
    monkeypatch.setattr(GAMES["esp"], "options", declared)
    return declared


def _shuttle(variant):
    """The recorded shuttle game of tests/bots/test_esp.py under `variant`: the knowledge of
    the seat to move when the script is done, or the outcome if the game ended before."""
    setup, seed = match(1, 4, 2)
    setup = dataclasses.replace(setup, variant=variant)
    bot = _scripted(SHUTTLED)
    try:
        played = play(GAMES["esp"], setup, seed, {0: bot, 1: bot})
    except _Replayed as replayed:
        return replayed.knowledge, None
    return None, played.outcome


def test_an_esp_option_reaches_the_engine_and_the_bots_unchanged(esp_with_repetitions):
    """Three repetitions by default: the shuttle's repeating move is one the bot knows draws.
    With four, that position is not yet a draw for the bot either; with two, the engine draws
    the game as soon as a position comes back, and says so."""
    knowledge, outcome = _shuttle({})
    assert outcome is None
    after = Seen(knowledge.view).position()
    after.play(esp_model_action(after.board, REPEATING))
    assert after.key in drawn_keys(knowledge)
    four, outcome = _shuttle({"repetitions": 4})
    assert outcome is None and four.option("repetitions") == 4
    assert after.key not in drawn_keys(four)
    knowledge, outcome = _shuttle({"repetitions": 2})
    assert knowledge is None and outcome is not None
    assert outcome.termination is Termination.DRAW
    assert outcome.reason == "The same position arose for the second time."


# -- ESPEERS: the opponent's deck is the one the set-up declares -------------------------------


def test_an_espeers_bot_knows_the_deck_the_set_up_declares_for_its_opponent():
    """In pass-and-play the decks are part of the set-up everybody sees: the bot samples the
    opponent's unseen cards from that deck (before, from a mix of the starters whenever the
    opponent brought a deck of their own); a deck sealed online is still inferred."""
    own = {card: 3 for card in sorted(CARDS)[:10]}  # a deck from the deck builder
    g = new_game(7, ["onslaught", own])
    knowledge = g.knowledge(0)
    assert declared_deck(g.setup, 1) == own
    assert declared_deck(g.setup, 0) == dict(Counter(resolve_deck("onslaught")))
    sealed = dataclasses.replace(g.setup, variant={"decks": ["onslaught", SEALED]})
    assert declared_deck(sealed, 1) is None
    view = as_seat_view(knowledge.view)
    belief = believe(0, view, my_deck(knowledge), knowledge.history, declared_deck(g.setup, 1))
    assert [Counter(cards) for _, cards in belief.their_pools] == [Counter(own)]
    world = belief.sample(Fast(1))
    theirs = Counter(world.hand[1] + world.deck[1] + [c for c in [world.bar[1]] if c])
    assert theirs == Counter(own)
    guessed = believe(0, view, my_deck(knowledge), knowledge.history)
    assert [Counter(cards) for _, cards in guessed.their_pools] != [Counter(own)]
