"""The starter decks' balance with the same bot level on both sides, through the arena.

    PYTHONPATH=py python -m parlour.bots.espeers.balance --level hard --games 200 --seed 1

Game k plays Onslaught against Mindwall with the decks in seat order alternating every game and
the arena's seeds; one JSON line: wins by deck, by first player, hung games, mean turns. (The
arena itself reports wins by level, which is all one side here.)
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TypedDict

from parlour.bots.arena import play
from parlour.bots.registry import bot_for
from parlour.fair.rng import Rng
from parlour.games import GAMES
from parlour.games.base import Setup
from parlour.games.espeers.cards import STARTER_DECKS

DECKS = tuple(STARTER_DECKS)  # Onslaught and Mindwall (cards.json's order)


class Balance(TypedDict):
    level: str
    games: int
    seed: int
    wins: dict[str, int]  # by deck
    first_player_wins: int
    hung: int
    mean_turns: float


def balance(level: str, games: int, seed: int) -> Balance:
    game = GAMES["espeers"]
    bot = bot_for("espeers", level)
    wins = dict.fromkeys(DECKS, 0)
    first = hung = turns = 0
    for index in range(games):
        decks = list(DECKS) if index % 2 == 0 else list(reversed(DECKS))
        match_seed = Rng(f"balance:{seed}:{index}".encode()).read(32)
        setup = Setup(f"m-balance-{seed}-{index}", ("Ada", "Bo"), {"decks": decks})
        played = play(game, setup, match_seed, {0: bot, 1: bot})
        if played.outcome is None:
            hung += 1
            continue
        winner = min(played.outcome.winners)
        wins[decks[winner]] += 1
        first += winner == played.states[-1].first
        turns += played.states[-1].turn
    done = max(1, games - hung)
    return {
        "level": level,
        "games": games,
        "seed": seed,
        "wins": wins,
        "first_player_wins": first,
        "hung": hung,
        "mean_turns": round(turns / done, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m parlour.bots.espeers.balance")
    parser.add_argument("--level", default="hard")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    json.dump(balance(args.level, args.games, args.seed), sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
