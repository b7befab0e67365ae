"""The main thread never freezes: the longest main-thread task, from navigation to the end of a
whole game of each of the four games, played through the page, pass-and-play and online.

The games are the browser tests' own journeys (e2e/), played again here with every page's long
tasks recorded from its first moment (PerformanceObserver 'longtask', buffered, registered
before the page's scripts; `e2e.harness.PageWatch`). Budget: no task over 200 ms. The baseline
in the same run is the longest task of a bare PyScript page starting Pyodide on the main thread
(what the page did before the two threads).
"""

from __future__ import annotations

import statistics
from pathlib import Path
from types import SimpleNamespace

from e2e.harness import PageWatch

BUDGET_MS = 200
SCREENSHOTS = Path("/tmp/psi-parlour-bench-shots")

PASS_AND_PLAY = {
    "ESP": (
        "e2e.test_esp",
        "test_a_two_seat_game_to_a_win_with_hand_offs_hidden_tiles_a_flip_and_a_jump",
    ),
    "ESPEERS": ("e2e.test_espeers", "test_a_full_game_between_the_starter_decks"),
    "Psi Squad": (
        "e2e.test_psi_squad",
        "test_a_three_seat_game_to_the_end_with_hand_offs_and_notes",
    ),
    "Telepathic": ("e2e.test_telepathic", "test_a_standard_game_of_two_to_a_win"),
}
ONLINE = {
    "ESP": ("e2e.test_online", "test_esp_online_with_a_tampered_reveal_caught"),
    "ESPEERS": ("e2e.test_online", "test_espeers_online_between_two_devices"),
    "Psi Squad": ("e2e.test_online", "test_psi_squad_online_three_devices_with_a_reload"),
    "Telepathic": ("e2e.test_online", "test_telepathic_online_partners"),
}


def _journey(module: str, name: str):
    from importlib import import_module

    return getattr(import_module(module), name)


def _pass_and_play(browser, url: str, module: str, name: str) -> list[float]:
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    watch = PageWatch(url)
    watch.attach(page)
    site = SimpleNamespace(url=url)
    test = _journey(module, name)
    arguments = {"page": page, "site": site, "watch": watch, "screenshots": SCREENSHOTS}
    test(**{k: v for k, v in arguments.items() if k in test.__code__.co_varnames})
    page.wait_for_timeout(200)  # the last tasks' reports arrive
    context.close()
    return watch.long_tasks


def _online(browser, url: str, module: str, name: str) -> list[float]:
    PageWatch.everyone.clear()
    test = _journey(module, name)
    site = SimpleNamespace(url=url)
    arguments = {"browser": browser, "site": site, "screenshots": SCREENSHOTS}
    test(**{k: v for k, v in arguments.items() if k in test.__code__.co_varnames})
    return [t for watch in PageWatch.everyone for t in watch.long_tasks]


def _bare(browser, url: str, loads: int = 3) -> float:
    longest = []
    for _ in range(loads):
        context = browser.new_context()
        page = context.new_page()
        watch = PageWatch(url)
        watch.attach(page)
        page.goto(url + "bench/bare.html")
        page.wait_for_selector("html[data-engine='ready']", state="attached", timeout=60_000)
        page.wait_for_timeout(200)
        longest.append(max(watch.long_tasks, default=0.0))
        context.close()
    return statistics.median(longest)


def run(browser, url: str) -> list[str]:
    SCREENSHOTS.mkdir(exist_ok=True)
    bare = _bare(browser, url)
    lines = [
        "the main thread during whole games (longest task, from navigation to the end)",
        f"  baseline: a bare PyScript page starting Pyodide on the main thread: {bare:6.0f} ms",
    ]
    worst = 0.0
    for kind, games, play in (
        ("pass-and-play", PASS_AND_PLAY, _pass_and_play),
        ("online", ONLINE, _online),
    ):
        for game, (module, name) in games.items():
            tasks = play(browser, url, module, name)
            longest = max(tasks, default=0.0)
            worst = max(worst, longest)
            lines.append(
                f"  {game:10} {kind:13}: longest {longest:6.0f} ms, {len(tasks):3} tasks over"
                f" 50 ms   budget {BUDGET_MS}: {'ok' if longest <= BUDGET_MS else 'OVER'}"
            )
    lines.append(f"  worst of all: {worst:6.0f} ms   ratio to the bare page: {worst / bare:5.2f}")
    return lines
