"""One tap to a game (issue 28): from the home page to the first move against a bot.

A fresh browser context opens the home page; as soon as the page answers clicks (data-ready),
"Play vs computer" on ESP's card is pressed, and the time runs until the board accepts a move
(the play screen shows "Your turn"), in the page's own clock. Desktop, then with the CPU slowed
4x (CDP Emulation.setCPUThrottlingRate), a phone's profile. The baseline, in the same run and
under the same throttle, is the bare PyScript page to its first line (bench/bare.html), the
same as the start-up figures'. Loads alternate, bare then app.
"""

from __future__ import annotations

import statistics

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


def measure_tap(browser, url: str, rate: float) -> float:
    """Milliseconds from the tap on "Play vs computer" to the board accepting a move."""
    context = browser.new_context()
    page = context.new_page()
    context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})
    page.goto(url)
    page.wait_for_function("document.documentElement.dataset.ready === 'true'")
    page.evaluate(TAP)
    page.wait_for_function("window.__turnAt !== undefined", timeout=READY_TIMEOUT_MS * 3)
    took = float(page.evaluate("window.__turnAt - window.__tapAt"))
    context.close()
    return took


def measure_bare(browser, url: str, rate: float) -> float:
    """Milliseconds from navigation to the bare page's first line, at the same throttle."""
    context = browser.new_context()
    page = context.new_page()
    context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})
    page.goto(url)
    page.wait_for_function(
        "document.documentElement.dataset.engine === 'ready'", timeout=READY_TIMEOUT_MS * 3
    )
    took = float(page.evaluate("performance.now()"))
    context.close()
    return took


def run(browser, base_url: str, loads: int = 3) -> list[str]:
    lines = ["One tap to a game: home page, 'Play vs computer' (ESP) to the board accepting a move"]
    for label, rate in (("desktop", 1.0), ("CPU 4x slower", 4.0)):
        bare, app = [], []
        for _ in range(loads):
            bare.append(measure_bare(browser, base_url + "bench/bare.html", rate))
            app.append(measure_tap(browser, base_url, rate))
        b, a = statistics.median(bare), statistics.median(app)
        lines.append(
            f"  {label:14s} tap to first move, median of {loads}: {a:7.0f} ms"
            f"   (bare PyScript page to its first line: {b:7.0f} ms; ratio {a / b:4.2f})"
        )
    return lines
