"""The starter decks' balance with the same bot level on both sides, through the arena.

    PYTHONPATH=py python -m parlour.bots.espeers.balance --level hard --games 400 --seed 1 \
        [--decks onslaught,mindwall] [--json]
    PYTHONPATH=py python -m parlour.bots.espeers.balance --merge run1.json run2.json ...

Game k plays the pairing's two decks with the decks' seats swapped every game and the first
player swapped every second game (the public seed is picked so that the rules' own draw of the
first player lands on that seat), so every deck plays as often first as second. It prints the
balance table (`table`): wins by deck and by first player with 95% intervals, game length, and
for every card of each deck the games in which it was drawn, the share of those in which it was
played and in which it was cycled, and its deck's win rate in the games it was played. A card
played in under 5% of the games that drew it is dead weight; one whose deck wins far more often
when it is played than on average is a card the deck must draw.
`--json` prints the figures as one JSON line instead, and `--merge` prints the table of several
such runs taken together (a long run split into pieces that each finish). A mirror
(`--decks mindwall,mindwall`) measures the first player's edge alone.

The decks' private seeds come from `secrets` (`Espeers.deal`), as in a real game, so two runs
with one seed differ a little.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TypedDict

from parlour.bots.arena import Played, play, wilson
from parlour.bots.registry import bot_for
from parlour.fair.rng import Rng
from parlour.games import GAMES
from parlour.games.base import Setup
from parlour.games.espeers.cards import CARDS, STARTER_DECKS
from parlour.games.espeers.hands import deck_order
from parlour.games.espeers.state import DECK_LABEL, EspeersState

DECKS = tuple(STARTER_DECKS)  # Onslaught and Mindwall (cards.json's order)
DEAD = 0.05  # a card played in fewer of the games that drew it than this is dead weight


class CardFigures(TypedDict):
    drawn: int  # games in which its deck drew at least one copy (the opening hand included)
    played: int  # of those, the games in which its deck played one for its effect
    cycled: int  # ... and the games in which its deck cycled one
    won: int  # of the games it was played, the ones its deck won


class Balance(TypedDict):
    level: str
    games: int
    seed: int
    seeds: list[int]  # the runs merged into this one (`merged`), by their seeds
    decks: list[str]  # the pairing; the same deck twice for a mirror
    lists: dict[str, dict[str, int]]  # each deck's cards and copies as played (a change of
    # count, not only of cards, makes a run stale: tests/bots/test_espeers_balance_figures.py)
    wins: dict[str, int]  # by deck (a mirror has one entry)
    first_player_wins: int
    hung: int
    mean_turns: float
    turns: dict[str, int]  # games by the turn they ended on
    cards: dict[str, dict[str, CardFigures]]  # by deck, then card id


def seed_with_first(seed: int, index: int, first: int) -> bytes:
    """A public seed for game `index` whose draw of the first player (the rules' own,
    `Espeers.initial_state`) gives `first`."""
    for attempt in range(64):
        match_seed = Rng(f"balance:{seed}:{index}:{attempt}".encode()).read(32)
        if Rng(match_seed).derive("espeers:first").below(2) == first:
            return match_seed
    raise AssertionError("no seed gives that first player")  # (odds 2**-64)


def balance(level: str, games: int, seed: int, decks: Sequence[str] = DECKS) -> Balance:
    game = GAMES["espeers"]
    bot = bot_for("espeers", level)
    pairing = list(decks)
    result: Balance = {
        "level": level,
        "games": games,
        "seed": seed,
        "seeds": [seed],
        "decks": pairing,
        "lists": {deck: dict(STARTER_DECKS[deck]["cards"]) for deck in pairing},
        "wins": dict.fromkeys(pairing, 0),
        "first_player_wins": 0,
        "hung": 0,
        "mean_turns": 0.0,
        "turns": {},
        "cards": {deck: {} for deck in pairing},
    }
    turns = 0
    for index in range(games):
        seats = pairing if index % 2 == 0 else pairing[::-1]
        match_seed = seed_with_first(seed, index, (index // 2) % 2)
        setup = Setup(f"m-balance-{seed}-{index}", ("Ada", "Bo"), {"decks": seats})
        played = play(game, setup, match_seed, {0: bot, 1: bot})
        final: EspeersState = played.states[-1]
        if played.outcome is None:
            result["hung"] += 1
            continue
        winner = min(played.outcome.winners)
        result["wins"][seats[winner]] += 1
        result["first_player_wins"] += winner == final.first
        turns += final.turn
        result["turns"][str(final.turn)] = result["turns"].get(str(final.turn), 0) + 1
        for seat in (0, 1):
            count_cards(result["cards"][seats[seat]], played, seat, won=winner == seat)
    result["mean_turns"] = round(turns / max(1, games - result["hung"]), 1)
    result["turns"] = dict(sorted(result["turns"].items(), key=lambda kv: int(kv[0])))
    return result


def merged(results: Sequence[Balance]) -> Balance:
    """Several runs of one pairing and level as one (a long run is best split into pieces that
    each finish: `--merge` reads their `--json` lines)."""
    first = results[0]
    total: Balance = {
        **first,
        "games": sum(r["games"] for r in results),
        "seed": first["seed"],
        "seeds": [s for r in results for s in r.get("seeds", [r["seed"]])],
        "wins": dict.fromkeys(first["wins"], 0),
        "first_player_wins": sum(r["first_player_wins"] for r in results),
        "hung": sum(r["hung"] for r in results),
        "turns": {},
        "cards": {deck: {} for deck in first["cards"]},
    }
    turns = 0
    for r in results:
        if (r["level"], r["decks"]) != (first["level"], first["decks"]):
            raise ValueError("only runs of one level and one pairing merge")
        if r.get("lists") != first.get("lists"):
            raise ValueError("only runs of the same deck lists merge")
        for deck, won in r["wins"].items():
            total["wins"][deck] += won
        for turn, n in r["turns"].items():
            total["turns"][turn] = total["turns"].get(turn, 0) + n
            turns += int(turn) * n
        for deck, figures in r["cards"].items():
            for card, row in figures.items():
                into = total["cards"][deck].setdefault(
                    card, {"drawn": 0, "played": 0, "cycled": 0, "won": 0}
                )
                for key in ("drawn", "played", "cycled", "won"):
                    into[key] += row[key]
    total["turns"] = dict(sorted(total["turns"].items(), key=lambda kv: int(kv[0])))
    total["mean_turns"] = round(turns / max(1, total["games"] - total["hung"]), 1)
    return total


def count_cards(
    figures: dict[str, CardFigures], played: Played[EspeersState], seat: int, won: bool
) -> None:
    """Add one game of `seat`'s deck to its card figures: which cards it drew, played, cycled."""
    final = played.states[-1]
    player = final.players[seat]
    deck = played.stores[seat].value(DECK_LABEL)
    drawn = set(deck_order(deck, final.seed, player.mulligans)[: player.drawn])
    used: dict[str, set[str]] = {"play": set(), "cycle": set()}
    for _, who, kind, detail in final.events:
        if who == seat and kind in used and isinstance(detail, str):
            used[kind].add(detail)
    for card in sorted(set(deck["cards"])):
        row = figures.setdefault(card, {"drawn": 0, "played": 0, "cycled": 0, "won": 0})
        if card not in drawn:
            continue
        row["drawn"] += 1
        row["played"] += card in used["play"]
        row["cycled"] += card in used["cycle"]
        row["won"] += card in used["play"] and won


def share(part: int, whole: int) -> str:
    """A rate with its 95% interval, e.g. '51.0% [46-56] of 400'."""
    low, high = wilson(part, whole)
    rate = 100 * part / max(1, whole)
    return f"{rate:.1f}% [{100 * low:.0f}-{100 * high:.0f}] of {whole}"


def seeds(result: Balance) -> str:
    """'seed 1', or the seeds of the runs merged: 'seeds 301-313' (or listed, when not a run)."""
    merged_seeds = sorted(result.get("seeds", [result["seed"]]))
    if len(merged_seeds) == 1:
        return f"seed {merged_seeds[0]}"
    if merged_seeds == list(range(merged_seeds[0], merged_seeds[-1] + 1)):
        return f"seeds {merged_seeds[0]}-{merged_seeds[-1]}"
    return "seeds " + ", ".join(str(s) for s in merged_seeds)


def table(result: Balance) -> list[str]:
    """The balance table in lines: deck wins, first player, game length, and per card."""
    done = result["games"] - result["hung"]
    pairing = result["decks"]
    lines = [
        f"ESPEERS balance, {result['level']} on both sides: {' vs '.join(pairing)},"
        f" {result['games']} games ({seeds(result)}), {result['hung']} hung",
    ]
    if pairing[0] != pairing[1]:
        for deck in pairing:
            lines.append(f"  {deck:<12} wins {share(result['wins'][deck], done)}")
    lines.append(f"  first player wins {share(result['first_player_wins'], done)}")
    spread = ", ".join(f"{turn}: {n}" for turn, n in result["turns"].items())
    lines.append(f"  turns: mean {result['mean_turns']} (games ending on each turn: {spread})")
    for deck in dict.fromkeys(pairing):
        wins = sum(result["wins"].values()) if pairing[0] == pairing[1] else result["wins"][deck]
        games = done * (2 if pairing[0] == pairing[1] else 1)
        lines.append(
            f"  {deck} cards (deck wins {100 * wins / max(1, games):.0f}%):"
            f" {'drawn':>6}{'played':>8}{'cycled':>8}{'win when played':>17}"
        )
        for card, row in sorted(
            result["cards"][deck].items(), key=lambda kv: -kv[1]["played"] / max(1, kv[1]["drawn"])
        ):
            played = row["played"] / max(1, row["drawn"])
            flag = "  dead" if row["drawn"] and played < DEAD else ""
            won = f"{100 * row['won'] / row['played']:.0f}%" if row["played"] else "-"
            lines.append(
                f"    {CARDS[card].name:<30}{row['drawn']:>6}{100 * played:>7.0f}%"
                f"{100 * row['cycled'] / max(1, row['drawn']):>7.0f}%{won:>17}{flag}"
            )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m parlour.bots.espeers.balance")
    parser.add_argument("--level", default="hard")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--decks", default=",".join(DECKS), help="two starter ids, a,b")
    parser.add_argument("--json", action="store_true", help="the figures as one JSON line")
    parser.add_argument("--merge", nargs="+", help="files of --json lines: their table as one")
    args = parser.parse_args(argv)
    if args.merge:
        runs = []
        for name in args.merge:
            with open(name) as lines:
                runs += [json.loads(line) for line in lines if line.strip()]
        sys.stdout.write("\n".join(table(merged(runs))) + "\n")
        return 0
    decks = args.decks.split(",")
    if len(decks) != 2 or any(deck not in STARTER_DECKS for deck in decks):
        parser.error(f"--decks takes two of {', '.join(STARTER_DECKS)}, comma-separated")
    result = balance(args.level, args.games, args.seed, decks)
    if args.json:
        json.dump(result, sys.stdout)
        sys.stdout.write("\n")
    else:
        sys.stdout.write("\n".join(table(result)) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
