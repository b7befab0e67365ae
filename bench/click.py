"""A click answered: from the click event to the page's first change, on an ESP board.

The app's figure is a pass-and-play ESP game played through the page (hand-off taps, tray,
face and cell clicks: every one is engine, tree and DOM), timed in the page's own clock: a
capturing click listener notes the click, a MutationObserver the first change after it. The
baseline, in the same run, is a bare PyScript page on the same runtime whose Python click
handler redraws a container of 300 rows: what any Python answer to a click costs here.
"""

from __future__ import annotations

import statistics

from e2e.harness import READY, READY_TIMEOUT_MS

BARE_CLICKS = 40
PROBE = """
window.__clicks = []; window.__changes = [];
document.addEventListener('click', () => window.__clicks.push(performance.now()), true);
new MutationObserver(() => window.__changes.push(performance.now()))
  .observe(document, {subtree: true, childList: true});
"""


def _latencies(page) -> list[float]:
    """For every click, the time until the first change after it (clicks that changed nothing
    before the next click are left out)."""
    clicks = page.evaluate("window.__clicks")
    changes = page.evaluate("window.__changes")
    out = []
    for i, at in enumerate(clicks):
        until = clicks[i + 1] if i + 1 < len(clicks) else float("inf")
        after = [c for c in changes if at <= c < until]
        if after:
            out.append(after[0] - at)
    return out


def _bare(browser, base_url: str) -> list[float]:
    context = browser.new_context()
    context.add_init_script(PROBE)
    page = context.new_page()
    page.goto(base_url + "bench/click.html")
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    for n in range(BARE_CLICKS):
        page.click("#go")
        page.wait_for_function(f"document.querySelector('#out p')?.textContent === '{n + 1}'")
    times = _latencies(page)
    context.close()
    return times


def _app(browser, base_url: str) -> list[float]:
    from e2e.players import EspPage, plan_game

    names = ("Ada", "Bo")
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    context.add_init_script(PROBE)
    game = EspPage(context.new_page(), names)
    game.start(base_url)
    game.page.wait_for_function("window.__clicks.length > 0")
    game.page.evaluate("window.__clicks = []; window.__changes = []")  # from the first hand-off
    for seat, choice in plan_game(names):
        game.take_device(seat)
        game.play(seat, choice)
    times = _latencies(game.page)
    context.close()
    return times


def _p95(xs: list[float]) -> float:
    return sorted(xs)[max(0, round(0.95 * len(xs)) - 1)]


def run(browser, base_url: str) -> list[str]:
    bare = _bare(browser, base_url)
    app = _app(browser, base_url)
    ratio = statistics.median(app) / statistics.median(bare)
    return [
        f"a click answered (ESP pass-and-play, {len(app)} clicks; bare: {len(bare)} clicks)",
        f"  bare PyScript redraw: median {statistics.median(bare):6.1f} ms,"
        f" p95 {_p95(bare):6.1f} ms",
        f"  app, click to board:  median {statistics.median(app):6.1f} ms, p95 {_p95(app):6.1f} ms"
        f"   ratio to bare: {ratio:5.1f}",
    ]
