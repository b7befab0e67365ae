"""The bots' strength against the figures of issue 15, from the arena, under CPython.

    PYTHONPATH=py python -m bench --only strength [--games 1.0] [--jobs N]

Every row is one arena run (`parlour.bots.arena`), one solver run (`--solver`), one run of
`scripts/telepathic_measure.py` (seeded deals, mean turns to a win) or of the ESPEERS balance
script, with a modest number of seeded games so that the whole part takes a few minutes;
`--games` scales them. A row says the result, a 95% interval for a rate (Wilson), the target
and whether the result meets it: on so few games "met" says only where the figure lies, and
the full-size figures (with their commands) are in README.md, "Bots: strength". Runs go to a
pool of processes (`--jobs`, one per core by default): the think times they report are taken
under that load, and the think-time table gives them per game and level.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from parlour.bots.arena import wilson


@dataclass(frozen=True)
class Row:
    """One measurement: what it runs, and how its result reads against its target."""

    game: str
    pairing: str
    kind: str  # "arena", "solver", "telepathic" or "balance"
    params: tuple[tuple[str, Any], ...]
    target: str = "report"
    check: Callable[[dict[str, Any]], bool] | None = None
    games: int = 0  # before scaling; 0 for a solver run

    def scaled(self, factor: float) -> int:
        return max(2, round(self.games * factor))


def _rate(result: dict[str, Any]) -> float:
    return result["wins"]["a"] / max(1, result["games"])


def _at_least(share: float) -> Callable[[dict[str, Any]], bool]:
    return lambda r: _rate(r) >= share


def _tele_at_least(share: float) -> Callable[[dict[str, Any]], bool]:
    return lambda r: r["win_rate"] >= share


def _arena(game: str, a: str, b: str, games: int, seats: int = 2, **more: Any) -> tuple:
    return tuple({"game_id": game, "seats": seats, "a": a, "b": b, **more}.items())


ROWS: tuple[Row, ...] = (
    Row(
        "Psi Squad",
        "solver, 4 digits",
        "solver",
        (("digits", 4), ("cyphers", "1000")),
        "mean <= 5.7, max <= 8",
        lambda r: r["mean"] <= 5.7 and r["max"] <= 8,
    ),
    Row(
        "Psi Squad",
        "solver, 3 digits",
        "solver",
        (("digits", 3), ("cyphers", "all")),
        "mean <= 5.45",
        lambda r: r["mean"] <= 5.45,
    ),
    Row("Psi Squad", "solver, 5 digits", "solver", (("digits", 5), ("cyphers", "100"))),
    Row(
        "Psi Squad",
        "hard vs 2 consistent, 3 players",
        "arena",
        _arena("psi-squad", "hard", "consistent", 0, seats=3),
        ">= 50%",
        _at_least(0.5),
        40,
    ),
    Row(
        "Psi Squad",
        "medium vs 2 consistent, 3 players",
        "arena",
        _arena("psi-squad", "medium", "consistent", 0, seats=3),
        games=30,
    ),
    Row(
        "Psi Squad",
        "easy vs 2 consistent, 3 players",
        "arena",
        _arena("psi-squad", "easy", "consistent", 0, seats=3),
        games=30,
    ),
    Row(
        "ESP",
        "hard vs random, 2 players",
        "arena",
        _arena("esp", "hard", "random", 0),
        ">= 95%",
        _at_least(0.95),
        20,
    ),
    Row(
        "ESP",
        "hard vs medium, 2 players",
        "arena",
        _arena("esp", "hard", "medium", 0),
        ">= 65%",
        _at_least(0.65),
        20,
    ),
    Row(
        "ESP",
        "medium vs easy, 2 players",
        "arena",
        _arena("esp", "medium", "easy", 0),
        ">= 65%",
        _at_least(0.65),
        40,
    ),
    Row(
        "ESP",
        "hard vs 2 random, 3 players",
        "arena",
        _arena("esp", "hard", "random", 0, seats=3),
        ">= 95%",
        _at_least(0.95),
        9,
    ),
    Row(
        "ESP",
        "hard vs 3 random, 4 players",
        "arena",
        _arena("esp", "hard", "random", 0, seats=4),
        ">= 95%",
        _at_least(0.95),
        8,
    ),
    Row(
        "Telepathic",
        "medium pair, standard",
        "telepathic",
        (("a", "medium"),),
        ">= 70%",
        _tele_at_least(0.7),
        200,
    ),
    Row(
        "Telepathic",
        "hard pair, standard",
        "telepathic",
        (("a", "hard"),),
        ">= 70%",
        _tele_at_least(0.7),
        200,
    ),
    Row("Telepathic", "easy pair, standard", "telepathic", (("a", "easy"),), games=200),
    Row(
        "Telepathic",
        "medium with plain, standard",
        "telepathic",
        (("a", "medium"), ("b", "plain"), ("a_seats", 1)),
        "report (naive 0.3%)",
        None,
        200,
    ),
    Row(
        "ESPEERS",
        "hard vs random",
        "arena",
        _arena("espeers", "hard", "random", 0, variant={"decks": ["onslaught", "mindwall"]}),
        ">= 90% each deck",
        lambda r: _by_deck_min(r) >= 0.9,
        8,
    ),
    Row(
        "ESPEERS",
        "hard vs scripted",
        "arena",
        _arena("espeers", "hard", "scripted", 0, variant={"decks": ["onslaught", "mindwall"]}),
        ">= 60% each deck",
        lambda r: _by_deck_min(r) >= 0.6,
        16,
    ),
    Row(
        "ESPEERS",
        "medium vs scripted",
        "arena",
        _arena("espeers", "medium", "scripted", 0, variant={"decks": ["onslaught", "mindwall"]}),
        games=8,
    ),
    Row(
        "ESPEERS",
        "easy vs scripted",
        "arena",
        _arena("espeers", "easy", "scripted", 0, variant={"decks": ["onslaught", "mindwall"]}),
        games=20,
    ),
    # (multiples of 4: each deck plays each seat first and second equally often)
    Row("ESPEERS", "balance, hard on both sides", "balance", (("level", "hard"),), games=8),
    Row("ESPEERS", "balance, medium on both sides", "balance", (("level", "medium"),), games=12),
)

DECKS = ("onslaught", "mindwall")


def _by_deck_min(result: dict[str, Any]) -> float:
    """Side a's worst rate over the decks it played (its deck is its seat's deck)."""
    rates = [v["a"] / v["games"] for v in result["a_by_seat"].values() if v["games"]]
    return min(rates) if rates else 0.0


def measure(kind: str, params: dict[str, Any], games: int, seed: int) -> tuple[dict, float]:
    """One run in a worker process; its result and its wall time."""
    started = time.perf_counter()
    if kind == "solver":
        from parlour.bots.psi_squad import solver_report

        result = solver_report(params["digits"], params["cyphers"], "hard", seed)
    elif kind == "arena":
        from parlour.bots.arena import tournament

        result = tournament(games=games, seed=seed, **params)
    elif kind == "telepathic":
        from scripts import telepathic_measure

        argv = ["--a", params["a"], "--games", str(games), "--seed", str(seed)]
        if "b" in params:
            argv += ["--b", params["b"], "--a-seats", str(params["a_seats"])]
        result = telepathic_measure.run(argv)
    elif kind == "balance":
        from parlour.bots.espeers.balance import balance

        result = balance(params["level"], games, seed)
    else:
        raise ValueError(kind)
    return result, time.perf_counter() - started


def describe(row: Row, result: dict[str, Any]) -> str:
    """The result column of a row."""
    if row.kind == "solver":
        return (
            f"mean {result['mean']:.3f}, max {result['max']} over {result['count']} cyphers"
            f" (think p95 {result['think_ms']['p95']:.0f} ms)"
        )
    if row.kind == "balance":
        n = result["games"] - result["hung"]
        wins = ", ".join(f"{deck} {won}" for deck, won in result["wins"].items())
        return (
            f"{wins} of {n}; first player {result['first_player_wins']};"
            f" {result['mean_turns']} turns (balance table below)"
        )
    if row.kind == "telepathic":
        n = result["games"]
        low, high = wilson(result["wins"]["a"], n)
        return (
            f"{100 * result['win_rate']:.1f}% [{100 * low:.0f}-{100 * high:.0f}],"
            f" mean turns to win {result['mean_turns_to_win']}"
        )
    n = result["games"]
    low, high = wilson(result["wins"]["a"], n)
    text = f"{100 * _rate(result):.1f}% [{100 * low:.0f}-{100 * high:.0f}]"
    if result["draws"]:
        text += f", {result['draws']} drawn"
    if result["hung"]:
        text += f", {result['hung']} hung"
    if row.game == "ESPEERS":
        decks = result["variant"]["decks"]
        parts = [
            f"{decks[int(seat)]} {v['a']:g}/{v['games']}"
            for seat, v in result["a_by_seat"].items()
            if v["games"]
        ]
        text += " (" + ", ".join(parts) + ")"
    return text


def think_rows(rows: list[tuple[Row, dict[str, Any]]]) -> list[str]:
    """Think time per game and level, from the first run above that plays it: every decision
    the bot was asked for, one-choice answers included."""
    seen: dict[tuple[str, str], dict[str, float]] = {}
    for row, result in rows:
        if row.kind not in ("arena", "telepathic"):
            continue
        for side, ms in result["think_ms"].items():
            level = result[side]
            if level in ("easy", "medium", "hard") and (row.game, level) not in seen:
                seen[(row.game, level)] = ms
    order = {"easy": 0, "medium": 1, "hard": 2}
    lines = [f"  {'game':<12}{'level':<8}{'mean':>8}{'median':>8}{'p95':>8}{'max':>8}  (ms)"]
    for (game, level), ms in sorted(seen.items(), key=lambda k: (k[0][0], order[k[0][1]])):
        lines.append(
            f"  {game:<12}{level:<8}{ms['mean']:8.1f}{ms['median']:8.1f}{ms['p95']:8.1f}"
            f"{ms['max']:8.1f}"
        )
    return lines


def run(scale: float = 1.0, seed: int = 1, jobs: int | None = None) -> list[str]:
    jobs = jobs or os.cpu_count() or 1
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [
            pool.submit(measure, row.kind, dict(row.params), row.scaled(scale), seed)
            for row in ROWS
        ]
        done = [(row, f.result()) for row, f in zip(ROWS, futures, strict=True)]
    lines = [
        f"Bots: strength (arena under CPython, seed {seed}, {jobs} processes;"
        " full-size figures: README.md)",
        f"  {'game':<11}{'pairing':<34}{'games':>6}{'s':>5}  {'result':<62}{'target':<22}",
    ]
    results = []
    for row, (result, seconds) in done:
        games = result.get("count", result.get("games"))
        verdict = "" if row.check is None else ("met" if row.check(result) else "MISSED")
        lines.append(
            f"  {row.game:<11}{row.pairing:<34}{games:>6}{seconds:5.0f}  "
            f"{describe(row, result):<62}{row.target:<22}{verdict}"
        )
        results.append((row, result))
    for row, result in results:
        if row.kind == "balance":
            from parlour.bots.espeers.balance import table

            lines.extend(table(result))
    lines.append("Bots: think time per decision under CPython (the arena runs above, under load)")
    lines.extend(think_rows(results))
    lines.append(f"  (strength part: {time.perf_counter() - started:.0f} s wall)")
    return lines
