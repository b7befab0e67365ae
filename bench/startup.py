"""Start-up: first contentful paint and time to data-ready, app against a bare PyScript page.

Loads alternate (bare, app, bare, app, ...) in fresh browser contexts, so both see the same
machine noise; the figure that matters is the ratio of the medians.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from e2e.harness import READY, READY_TIMEOUT_MS

# Records the moment <html data-ready="true"> appears, in the page's own clock.
READY_PROBE = """
new MutationObserver((_, observer) => {
  if (document.documentElement.dataset.ready === "true") {
    window.__readyAt = performance.now();
    observer.disconnect();
  }
}).observe(document, {subtree: true, attributes: true, attributeFilter: ["data-ready"]});
"""

PAINT_BUDGET_MS = 300
READY_RATIO_BUDGET = 1.10


@dataclass
class Load:
    ready_ms: float
    paint_ms: float


def measure_load(browser, url: str) -> Load:
    context = browser.new_context()
    context.add_init_script(READY_PROBE)
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    ready = page.evaluate("window.__readyAt")
    paint = page.evaluate(
        "(performance.getEntriesByName('first-contentful-paint')[0] || {startTime: NaN}).startTime"
    )
    context.close()
    return Load(ready, paint)


def run(browser, base_url: str, loads: int) -> list[str]:
    bare: list[Load] = []
    app: list[Load] = []
    measure_load(browser, base_url)  # warm the server and the OS file cache, not the browser's
    for _ in range(loads):
        bare.append(measure_load(browser, base_url + "bench/bare.html"))
        app.append(measure_load(browser, base_url))
    bare_ready = statistics.median(x.ready_ms for x in bare)
    app_ready = statistics.median(x.ready_ms for x in app)
    app_paint = statistics.median(x.paint_ms for x in app)
    ratio = app_ready / bare_ready
    return [
        f"start-up ({loads} loads each, fresh contexts, alternating)",
        f"  app first contentful paint, median: {app_paint:7.0f} ms"
        f"   budget {PAINT_BUDGET_MS} ms: {'ok' if app_paint <= PAINT_BUDGET_MS else 'OVER'}",
        f"  bare PyScript page to ready, median: {bare_ready:6.0f} ms",
        f"  app to data-ready, median:          {app_ready:6.0f} ms",
        f"  ratio app / bare:                   {ratio:6.2f}"
        f"   budget {READY_RATIO_BUDGET:.2f}: {'ok' if ratio <= READY_RATIO_BUDGET else 'OVER'}",
    ]
