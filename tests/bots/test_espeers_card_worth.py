"""ESPEERS bots value a card by what the card data declares (issue 30): a card added to the
pool is kept, discarded, put down as a barrier and played as its effects say, with no change to
the bots. The cards are added to cards.json in a copy of the package, and the copy's bots are
asked in a subprocess (the bots' tables are built from the pool when they are imported)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from parlour.bots.espeers import policy
from parlour.games.espeers.cards import CARDS

PY = Path(__file__).resolve().parents[2] / "py"

# A PK stronger than any in the pool, and an Impulse weaker than any.
NEW_CARDS = [
    {
        "id": "psi-hammer",
        "name": "Psi Hammer",
        "kind": "PK",
        "cost": 4,
        "symbol": "cross",
        "effects": [["damage", 5]],
    },
    {
        "id": "static",
        "name": "Static",
        "kind": "Impulse",
        "cost": 1,
        "symbol": "circle",
        "effects": [["drain", 1]],
    },
]

# Asked of the copy's bots; prints one JSON object of what they chose.
ASK = """
import json
from parlour.bots.espeers import bot, policy
from parlour.bots.espeers.model import BARRIER, DISCARD, World
from parlour.bots.espeers.search import Fast

def discard(hand):
    w = World()
    w.hand[0] = list(hand)
    w.deck[0] = ["mind-spike"] * 10
    w.pending = ("discard", 0, 1)
    return list(policy.choose(w, Fast(1))[1])

def main_phase(hand, pool):
    w = World()
    w.hand[0] = list(hand)
    w.deck[0] = ["mind-spike"] * 10
    w.pool[0] = pool
    w.bar[0] = "mind-spike"  # a barrier down this turn: no attack yet
    w.bturn[0] = w.turn
    return list(policy.choose(w, Fast(1)))

barriers = [(BARRIER, c) for c in ("psi-hammer", "psychic-jab", "neural-storm")]
print(json.dumps({
    "value": {c: policy.value(c) for c in ("psi-hammer", "neural-storm", "static", "mind-drain")},
    "discard strong": discard(["psi-hammer", "psychic-jab", "null-field"]),
    "discard weak": discard(["static", "mind-drain", "quick-recall"]),
    "barrier kept": [list(a) for a in bot.least_useful_first(barriers)],
    "play": main_phase(["psi-hammer", "neural-storm", "psychic-jab"], 4),
}))
"""


def test_a_card_added_to_the_pool_is_valued_and_played_by_its_effects(tmp_path):
    copy = tmp_path / "py"
    shutil.copytree(PY, copy, ignore=shutil.ignore_patterns("__pycache__"))
    pool = copy / "parlour" / "games" / "espeers" / "cards.json"
    data = json.loads(pool.read_text())
    data["cards"] += NEW_CARDS
    pool.write_text(json.dumps(data, indent=1))
    env = {**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", ASK], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-3000:]
    said = json.loads(done.stdout)
    value = said["value"]
    assert value["psi-hammer"] > value["neural-storm"]  # 5 damage is worth more than 4
    assert value["static"] < value["mind-drain"]  # a drain of 1 less than a drain of 2
    assert said["discard strong"] == ["psychic-jab"]  # the strongest card is kept...
    assert said["discard weak"] == ["static"]  # ...the weakest goes first
    # a barrier hides one card per symbol in the search: a weak one, never the new PK
    assert said["barrier kept"] == [[policy.BARRIER, "psychic-jab"]]
    assert said["play"] == [policy.PLAY, "psi-hammer"]  # paid for: the biggest PK is played


def test_every_card_s_worth_follows_from_its_data():
    """The worths come from kind and effects only: two cards alike in those are worth the same,
    and one more point of any effect is worth more."""
    for card_id, card in CARDS.items():
        assert policy.VALUE[card_id] == policy.worth(card)
        for verb, n in card.effects:
            more = tuple((v, m + 1 if v == verb else m) for v, m in card.effects)
            richer = type(card)(card.id, card.name, card.kind, card.cost, card.symbol, more)
            assert policy.worth(richer) > policy.worth(card), (card_id, verb, n)
