"""Redraws on a slow CPU (issue 39, "Smooth on a phone"): the longest main-thread task over a
whole game of each game, a person against easy bots, in the browser slowed 4x (bench/throttle.py:
a phone's CPU), from the game's first screen to its end (the page's own start is the start-up
figures'). Rows: 4-seat ESP, ESPEERS, Telepathic, 8-seat Psi Squad. Goal: under 100 ms.

The baseline, in the same run and the same browser, is the same game on earlier code (`--baseline`,
served from a git worktree: what the redraws were before), the two interleaved game by game.
"""

from __future__ import annotations

import statistics

from bench.throttle import Throttle
from e2e.harness import PageWatch
from e2e.players import SoloPage
from parlour.games.declared import default_tables

GOAL_MS = 100
DEFAULT = dict(default_tables())
SEATS = {**DEFAULT, "esp": 4, "psi-squad": 8}


def game_tasks(browser, url: str, game: str, throttle: Throttle | None) -> tuple[list[float], int]:
    """The main-thread tasks over 50 ms from the game's first screen to its end, and its moves."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    if throttle is not None:
        throttle.slow_page(context, page)
    watch = PageWatch(url)
    watch.attach(page)
    solo = SoloPage(page, game)
    radio = None  # the form's own number of players, else the larger table's radio
    if SEATS[game] != DEFAULT[game]:
        radio = f"input[name='{game}-seats'][value='{SEATS[game]}']"
    solo.start(url, SEATS[game], "easy", radio)
    page.wait_for_timeout(500)  # the start's own tasks are reported
    mark = len(watch.long_tasks)
    table = solo.play_to_the_end()
    page.wait_for_timeout(300)  # the last tasks' reports arrive
    context.close()
    return watch.long_tasks[mark:], table.match.step


def run(
    browser, url: str, old_url: str | None, throttle: Throttle | None, games: int = 1
) -> list[str]:
    """Each game `games` times a row, the baseline's and this code's interleaved: one game's
    longest task is one sample of a noisy quantity (the baseline moved 2.7x between two runs),
    so each row gives every game's figure, their median and their most."""
    where = "4x-slowed browser" if throttle is not None else "unthrottled browser"
    lines = [
        f"redraws: the longest main-thread task over a whole game, {where} (goal {GOAL_MS});"
        f" {games} game(s) each"
    ]
    for game in SEATS:
        rows = [("before", old_url), ("now", url)] if old_url else [("now", url)]
        longest: dict[str, list[float]] = {label: [] for label, _ in rows}
        over: dict[str, list[float]] = {label: [] for label, _ in rows}
        for _ in range(games):
            for label, site in rows:
                tasks, steps = game_tasks(browser, site, game, throttle)
                longest[label].append(max(tasks, default=0.0))
                over[label].append(len(tasks) / max(steps, 1))
        for label, _ in rows:
            each = ", ".join(f"{ms:.0f}" for ms in longest[label])
            lines.append(
                f"  {game:10} {SEATS[game]} seats {label:6}: longest median"
                f" {statistics.median(longest[label]):5.0f} ms, most {max(longest[label]):5.0f}"
                f" ms ({each}); tasks over 50 ms per step {statistics.mean(over[label]):.2f}"
            )
        if old_url and statistics.median(longest["before"]):
            ratio = statistics.median(longest["now"]) / statistics.median(longest["before"])
            lines.append(f"  {game:10} now / before (medians): {ratio:.2f}")
    return lines
