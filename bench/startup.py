"""Start-up: when the page answers clicks, when the engines are ready, and how long the main
thread is ever blocked, against a bare PyScript page in the same run.

Loads alternate (bare, app, bare, app, ...) in fresh browser contexts, so both see the same
machine noise. The bare page is PyScript on the same vendored Pyodide, on the main thread,
running one line of Python: its "ready" is the moment that line runs. The app's figures:
- data-ready: the main thread (MicroPython) answers clicks; budget 0.25 x bare;
- data-engine: the worker's Pyodide has the engines; budget 1.15 x bare;
- long tasks (PerformanceObserver 'longtask', buffered, registered before any script), from
  navigation to data-engine: the longest (budget 200 ms) and the total blocking time, the sum
  of each task's time over 50 ms (budget 300 ms), over every load.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from e2e.harness import READY, READY_TIMEOUT_MS

# Records data-ready and data-engine in the page's own clock, and every long task.
PROBE = """
window.__long = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__long.push([e.startTime, e.duration]);
}).observe({type: "longtask", buffered: true});
new MutationObserver(() => {
  const d = document.documentElement.dataset;
  const now = performance.now();
  if (d.ready === "true" && window.__readyAt === undefined) window.__readyAt = now;
  if (d.engine === "ready" && window.__engineAt === undefined) window.__engineAt = now;
}).observe(document, {
  subtree: true, attributes: true, attributeFilter: ["data-ready", "data-engine"]
});
"""

PAINT_BUDGET_MS = 300
READY_RATIO_BUDGET = 0.25
ENGINE_RATIO_BUDGET = 1.15
LONG_TASK_BUDGET_MS = 200
BLOCKING_BUDGET_MS = 300


@dataclass
class Load:
    ready_ms: float
    engine_ms: float
    paint_ms: float
    long_tasks: list[float]  # durations, until the engines were ready

    @property
    def blocking_ms(self) -> float:
        return sum(max(0.0, d - 50) for d in self.long_tasks)


def measure_load(browser, url: str) -> Load:
    context = browser.new_context()
    context.add_init_script(PROBE)
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    page.wait_for_timeout(100)  # a task running when the engines got ready is counted whole
    found = page.evaluate(
        """() => ({ready: window.__readyAt, engine: window.__engineAt, long: window.__long,
        paint: (performance.getEntriesByName('first-contentful-paint')[0]
                || {startTime: NaN}).startTime})"""
    )
    context.close()
    until = found["engine"]
    tasks = [d for start, d in found["long"] if start <= until]
    return Load(found["ready"], found["engine"], found["paint"], tasks)


def run(browser, base_url: str, loads: int) -> list[str]:
    bare: list[Load] = []
    app: list[Load] = []
    measure_load(browser, base_url)  # warm the server and the OS file cache, not the browser's
    for _ in range(loads):
        bare.append(measure_load(browser, base_url + "bench/bare.html"))
        app.append(measure_load(browser, base_url))
    bare_ready = statistics.median(x.ready_ms for x in bare)
    app_ready = statistics.median(x.ready_ms for x in app)
    app_engine = statistics.median(x.engine_ms for x in app)
    app_paint = statistics.median(x.paint_ms for x in app)
    longest = max((max(x.long_tasks, default=0.0) for x in app), default=0.0)
    blocking = max(x.blocking_ms for x in app)
    bare_longest = statistics.median(max(x.long_tasks, default=0.0) for x in bare)

    def verdict(ok: bool) -> str:
        return "ok" if ok else "OVER"

    return [
        f"start-up ({loads} loads each, fresh contexts, alternating)",
        f"  app first contentful paint, median: {app_paint:7.0f} ms"
        f"   budget {PAINT_BUDGET_MS} ms: {verdict(app_paint <= PAINT_BUDGET_MS)}",
        f"  bare PyScript page to its first line, median: {bare_ready:6.0f} ms"
        f"   (its longest main-thread task, median {bare_longest:5.0f} ms)",
        f"  app answers clicks (data-ready), median:  {app_ready:6.0f} ms"
        f"   ratio {app_ready / bare_ready:5.2f}, budget {READY_RATIO_BUDGET:.2f}:"
        f" {verdict(app_ready / bare_ready <= READY_RATIO_BUDGET)}",
        f"  app engines ready (data-engine), median:  {app_engine:6.0f} ms"
        f"   ratio {app_engine / bare_ready:5.2f}, budget {ENGINE_RATIO_BUDGET:.2f}:"
        f" {verdict(app_engine / bare_ready <= ENGINE_RATIO_BUDGET)}",
        f"  app longest main-thread task until the engines are ready, over all loads:"
        f" {longest:5.0f} ms   budget {LONG_TASK_BUDGET_MS}: "
        f"{verdict(longest <= LONG_TASK_BUDGET_MS)}",
        f"  app total blocking time until the engines are ready, worst load:"
        f" {blocking:5.0f} ms   budget {BLOCKING_BUDGET_MS}: "
        f"{verdict(blocking < BLOCKING_BUDGET_MS)}",
    ]
