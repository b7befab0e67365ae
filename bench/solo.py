"""One tap to a game (issue 28): from the home page to the first move against a bot.

A fresh browser context opens the home page; as soon as the page answers clicks (data-ready),
"Play vs computer" on ESP's card is pressed, and the time runs until the board accepts a move
(the play screen shows "Your turn"), in the page's own clock. Desktop, then with the CPU slowed
4x (CDP Emulation.setCPUThrottlingRate), a phone's profile: the page, and every worker it starts
(the engine runs in one) where the browser allows it (`throttle`; the line says whether it did).
The baseline, in the same run and under the same throttle, is the bare PyScript page to its
first line (bench/bare.html), the same as the start-up figures'. Rounds interleave the rows and
the pages: bare then app, desktop then 4x.
"""

from __future__ import annotations

import json
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


def throttle(context, page, rate: float) -> dict[str, bool]:
    """Slow the CPU `rate` times for `page`, and ask for the same on every worker it starts
    (the engine runs in one, a CDP target of its own that the page's throttle leaves at full
    speed): the page's session attaches to each worker as it starts (Target.setAutoAttach, the
    worker paused meanwhile), asks for the throttle and lets it run. Playwright's CDP session
    speaks to its own target only, so a worker's messages go through Target.sendMessageToTarget
    (the unflattened protocol). Returns, filled in as the answers come, each worker's URL and
    whether its throttle was accepted (Chromium 150 and 156 refuse it: "Operation is only
    supported for pages, not workers")."""
    session = context.new_cdp_session(page)
    session.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    workers: dict[str, bool] = {}
    asked: dict[str, str] = {}  # session id -> the worker's URL

    def attached(event: dict) -> None:
        target = event["sessionId"]
        steps = [("Runtime.runIfWaitingForDebugger", {})]
        if event["targetInfo"]["type"] == "worker":
            asked[target] = event["targetInfo"]["url"]
            steps.insert(0, ("Emulation.setCPUThrottlingRate", {"rate": rate}))
        for number, (method, params) in enumerate(steps, 1):
            message = json.dumps({"id": number, "method": method, "params": params})
            session.send("Target.sendMessageToTarget", {"sessionId": target, "message": message})

    def answered(event: dict) -> None:
        reply = json.loads(event["message"])
        if event["sessionId"] in asked and reply.get("id") == 1:
            workers[asked[event["sessionId"]]] = "error" not in reply

    session.on("Target.attachedToTarget", attached)
    session.on("Target.receivedMessageFromTarget", answered)
    session.send(
        "Target.setAutoAttach",
        {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": False},
    )
    return workers


def measure_tap(browser, url: str, rate: float) -> tuple[float, bool]:
    """Milliseconds from the tap on "Play vs computer" to the board accepting a move, and
    whether the engine's worker ran under the same throttle."""
    context = browser.new_context()
    page = context.new_page()
    workers = throttle(context, page, rate)
    page.goto(url)
    page.wait_for_function("document.documentElement.dataset.ready === 'true'")
    page.evaluate(TAP)
    page.wait_for_function("window.__turnAt !== undefined", timeout=READY_TIMEOUT_MS * 3)
    took = float(page.evaluate("window.__turnAt - window.__tapAt"))
    context.close()
    return took, bool(workers) and all(workers.values())


def measure_bare(browser, url: str, rate: float) -> float:
    """Milliseconds from navigation to the bare page's first line, at the same throttle."""
    context = browser.new_context()
    page = context.new_page()
    throttle(context, page, rate)
    page.goto(url)
    page.wait_for_function(
        "document.documentElement.dataset.engine === 'ready'", timeout=READY_TIMEOUT_MS * 3
    )
    took = float(page.evaluate("performance.now()"))
    context.close()
    return took


def run(browser, base_url: str, loads: int = 5) -> list[str]:
    """`loads` rounds, each a bare page and a tap at each throttle in turn (so a change in the
    machine's load falls on every row alike)."""
    rates = (("desktop", 1.0), ("CPU 4x slower", 4.0))
    bare: dict[str, list[float]] = {label: [] for label, _ in rates}
    app: dict[str, list[float]] = {label: [] for label, _ in rates}
    worker_throttled: dict[str, bool] = {}
    for _ in range(loads):
        for label, rate in rates:
            bare[label].append(measure_bare(browser, base_url + "bench/bare.html", rate))
            took, throttled = measure_tap(browser, base_url, rate)
            app[label].append(took)
            worker_throttled[label] = throttled
    lines = ["One tap to a game: home page, 'Play vs computer' (ESP) to the board accepting a move"]
    for label, rate in rates:
        b, a = statistics.median(bare[label]), statistics.median(app[label])
        worker = (
            ""
            if rate == 1
            else (
                "; the worker throttled too"
                if worker_throttled[label]
                else "; the browser refused to throttle the engine's worker: main thread only"
            )
        )
        lines.append(
            f"  {label:14s} tap to first move, median of {loads}: {a:7.0f} ms"
            f"   (bare PyScript page to its first line: {b:7.0f} ms; ratio {a / b:4.2f}){worker}"
        )
    return lines
