"""Measure which standard-library modules the engine worker imports, in Chromium: at start and
after games against bots in every game of the catalog and other screens. It writes
scripts/stdlib_start.txt, which the trimmed standard library keeps (scripts/stdlib.py); run it
after updating Pyodide or PyScript, then the build:

    python -m scripts.stdlib_measure && python -m scripts.build

A tool of its own (it drives the page through the browser tests' players), so the build never
imports the browser tests.
"""

from __future__ import annotations

import json
from pathlib import Path

from scripts.stdlib import MEASURED, ROOT, ZIP_IN_ENGINE, full_stdlib

PROBE = """
def stdlib_modules():
    return json.dumps(sorted(
        name for name, module in list(sys.modules.items())
        if str(getattr(module, "__file__", None) or "").startswith("{zip}/")
    ))


__export__ = ["call", "stdlib_modules"]
""".replace("{zip}", ZIP_IN_ENGINE)
SCREENS = ("#learn-esp", "#decks-espeers", "#replay", "#online", "#embed", "#rules-psi-squad")
MOVES = 6  # the person's moves in each game, each answered by the bots


def measure(root: Path = ROOT) -> set[str]:
    """The standard-library modules the worker imports, measured in Chromium."""
    from playwright.sync_api import Route, sync_playwright

    from e2e import clicks
    from e2e.harness import READY, READY_TIMEOUT_MS, SiteServer, chromium_launch_args
    from e2e.players import SoloPage
    from parlour.games.declared import default_tables  # every game of the catalog
    from parlour.match import bot_seats

    full = full_stdlib(root).read_bytes()
    worker = (root / "py" / "worker.py").read_text().replace('__export__ = ["call"]\n', PROBE)

    def whole_stdlib(route: Route) -> None:
        route.fulfill(body=full, content_type="application/zip")

    def probed_worker(route: Route) -> None:
        route.fulfill(body=worker, content_type="text/x-python")

    with SiteServer() as site, sync_playwright() as p:
        browser = p.chromium.launch(**chromium_launch_args())
        context = browser.new_context(service_workers="block")
        context.route("**/assets/build/python_stdlib.zip", whole_stdlib)
        context.route("**/py/worker.py", probed_worker)
        page = context.new_page()
        page.goto(site.url)
        page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
        for game, seats in default_tables():
            solo = SoloPage(page, game)
            solo.start(site.url, seats, "medium")
            for _ in range(MOVES):
                table = solo.settle()
                if table.match.result() is not None:
                    break
                choice = bot_seats.decide(table, 0, "easy").choice
                clicks.CLICKS[game](page, solo.root, table.state, choice)
            solo.settle()
        for screen in SCREENS:
            page.goto(site.url + screen)
            page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
        found = page.evaluate("window.parlourEngine.then((engine) => engine.stdlib_modules())")
        browser.close()
    return set(json.loads(found))


def write_measured(found: set[str], path: Path = MEASURED) -> None:
    head = (
        "# The standard-library modules the engine worker imports, measured in Chromium by\n"
        "# `python -m scripts.stdlib_measure` (scripts/stdlib_measure.py): at start (Pyodide,\n"
        "# PyScript, the worker) and after games against bots in every game and other screens.\n"
    )
    path.write_text(head + "".join(f"{name}\n" for name in sorted(found)))


if __name__ == "__main__":
    write_measured(measure())
