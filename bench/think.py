"""Bots in the page: how long a bot takes to decide, and the longest main-thread task meanwhile.

Whole games of each game at each player level (at least 20 decisions, up to 4 games), a person
(seat 0, played by the easy bot's choices, made with clicks) against bots of that level, through
the real page (`e2e.test_bots.SoloPage`). Each decision is timed in the worker, around the
bot's move, and reported to the page (`data-bot-thought`). Budgets (issue 15): at the default
level (medium) a median of at most 1 s and a p95 of at most 2.5 s; hard at most 3 s p95; no
main-thread task over 200 ms during the game. The baseline in the same run is the same level's
decisions under CPython on this machine (the arena, a few seeded games), so the ratio is
Pyodide's cost.
"""

from __future__ import annotations

import statistics

from e2e.harness import PageWatch
from e2e.players import THOUGHTS, SoloPage
from parlour.bots.arena import tournament
from parlour.games.catalog import names
from parlour.games.declared import default_tables

# Every game of the catalog at its form's first seat count, by name.
GAMES = {names()[game]: (game, seats) for game, seats in default_tables()}
BUDGETS = {"medium": (1000.0, 2500.0), "hard": (None, 3000.0)}  # (median, p95) in ms
TASK_BUDGET_MS = 200


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


MIN_DECISIONS = 20  # short games (a Telepathic loss) are played again until there are as many
MAX_GAMES = 4


def in_page(browser, url: str, game: str, seats: int, level: str) -> tuple[list[float], float]:
    """Decision times (ms) of whole games against `level` bots, and the longest task."""
    thoughts: list[float] = []
    longest = 0.0
    for _ in range(MAX_GAMES):
        context = browser.new_context(viewport={"width": 1100, "height": 900})
        page = context.new_page()
        watch = PageWatch(url)
        watch.attach(page)
        page.add_init_script(THOUGHTS)
        solo = SoloPage(page, game)
        solo.start(url, seats, level)
        solo.play_to_the_end()
        thoughts += [1000 * t for t in page.evaluate("window.parlourThoughts")]
        page.wait_for_timeout(200)
        context.close()
        longest = max(longest, *watch.long_tasks, 0.0)
        if len(thoughts) >= MIN_DECISIONS:
            break
    return thoughts, longest


def in_cpython(game: str, seats: int, level: str) -> float:
    """The median decision (ms) of the same level under CPython, a few seeded games."""
    result = tournament(game, seats, level, "easy", games=4, seed=7, a_seats=seats - 1)
    return float(result["think_ms"]["a"]["median"])


def verdict(level: str, median: float, high: float) -> str:
    most_median, most_p95 = BUDGETS[level]
    ok = (most_median is None or median <= most_median) and high <= most_p95
    within = f"p95 <= {most_p95:.0f}" + (f", median <= {most_median:.0f}" if most_median else "")
    return f"budget {within}: {'ok' if ok else 'MISSED'}"


def run(browser, url: str) -> list[str]:
    lines = ["bots in the page: decision time in the worker, whole games against each level"]
    for level in BUDGETS:
        for name, (game, seats) in GAMES.items():
            thoughts, longest = in_page(browser, url, game, seats, level)
            base = in_cpython(game, seats, level)
            median, high = statistics.median(thoughts), p95(thoughts)
            lines.append(
                f"  {name:10} {level:6}: {len(thoughts):3} decisions, median {median:6.0f} ms,"
                f" p95 {high:6.0f} ms, max {max(thoughts):6.0f} ms; CPython median {base:5.0f}"
                f" ms (ratio {median / max(base, 0.01):5.1f}); longest task {longest:4.0f} ms"
                f" ({'ok' if longest <= TASK_BUDGET_MS else 'OVER'});"
                f" {verdict(level, median, high)}"
            )
    return lines
