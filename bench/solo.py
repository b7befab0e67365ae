"""One tap to a game (issue 28): from the home page to the first move against a bot.

A fresh browser context opens the home page; as soon as the page answers clicks (data-ready),
"Play vs computer" on ESP's card is pressed, and the time runs until the board accepts a move
(the play screen shows "Your turn"), in the page's own clock. Desktop, then with the CPU slowed
4x, a phone's profile: the whole browser under an OS CPU quota (bench/throttle.py), or where the
machine allows none, DevTools' throttle on the page's main thread (the line says which).
The baseline, in the same run and under the same throttle, is the bare PyScript page to its
first line (bench/bare.html), the same as the start-up figures'. Rounds interleave the rows and
the pages: bare then app, desktop then 4x.
"""

from __future__ import annotations

import statistics

from bench.throttle import Throttle
from e2e.harness import READY_TIMEOUT_MS

TAP = """() => {
  window.__turnAt = undefined;
  new MutationObserver(() => {
    if (window.__turnAt === undefined && document.querySelector('#play-esp .your-turn'))
      window.__turnAt = performance.now();
  }).observe(document.body, {subtree: true, childList: true});
  document.querySelector("#home a[href='#solo-esp']").click();
  window.__tapAt = performance.now();
}"""


def measure_tap(browser, url: str, throttle: Throttle | None) -> float:
    """Milliseconds from the tap on "Play vs computer" to the board accepting a move."""
    context = browser.new_context()
    page = context.new_page()
    if throttle is not None:
        throttle.slow_page(context, page)
    page.goto(url)
    page.wait_for_function("document.documentElement.dataset.ready === 'true'")
    page.evaluate(TAP)
    page.wait_for_function("window.__turnAt !== undefined", timeout=READY_TIMEOUT_MS * 3)
    took = float(page.evaluate("window.__turnAt - window.__tapAt"))
    context.close()
    return took


def measure_bare(browser, url: str, throttle: Throttle | None) -> float:
    """Milliseconds from navigation to the bare page's first line, at the same throttle."""
    context = browser.new_context()
    page = context.new_page()
    if throttle is not None:
        throttle.slow_page(context, page)
    page.goto(url)
    page.wait_for_function(
        "document.documentElement.dataset.engine === 'ready'", timeout=READY_TIMEOUT_MS * 3
    )
    took = float(page.evaluate("performance.now()"))
    context.close()
    return took


def run(
    browser, base_url: str, slowed: tuple[object, Throttle] | None, loads: int = 5
) -> list[str]:
    """`loads` rounds, each a bare page and a tap on the desktop and then in `slowed` (the
    throttled browser and its Throttle), so a change in the machine's load falls on every row
    alike."""
    rows: list[tuple[str, object, Throttle | None]] = [("desktop", browser, None)]
    if slowed is not None:
        rows.append((f"CPU {slowed[1].rate}x slower", *slowed))
    bare: dict[str, list[float]] = {label: [] for label, _, _ in rows}
    app: dict[str, list[float]] = {label: [] for label, _, _ in rows}
    for _ in range(loads):
        for label, where, how in rows:
            bare[label].append(measure_bare(where, base_url + "bench/bare.html", how))
            app[label].append(measure_tap(where, base_url, how))
    lines = ["One tap to a game: home page, 'Play vs computer' (ESP) to the board accepting a move"]
    for label, _, _ in rows:
        b, a = statistics.median(bare[label]), statistics.median(app[label])
        lines.append(
            f"  {label:14s} tap to first move, median of {loads}: {a:7.0f} ms"
            f"   (bare PyScript page to its first line: {b:7.0f} ms; ratio {a / b:4.2f})"
        )
    if slowed is not None:
        lines.append(f"  ({slowed[1].describe()})")
    return lines
