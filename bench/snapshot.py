"""The engine snapshot (issue 29): a first visit and a return visit, each round in a fresh browser
profile on disk, interleaved with the bare PyScript page's first visit (bench/bare.html, the
start-up baseline), and the same again on a 4x-throttled CPU.

A round: the bare page in a fresh context; then the app's first visit in a new profile, which
waits there until the snapshot is made (assets/snapshot-worker.mjs says so on the console); the
browser closes, and a new browser on the same profile makes the return visit. Budgets: the return
visit's engines ready at most 0.2 x the bare page's first line, the first visit's at most 1.15 x;
throttled, the return visit at most 3 s. The return visit's longest main-thread task (200 ms).

Throttling: DevTools' Emulation.setCPUThrottlingRate on the page, and on every worker target
attached (Target.setAutoAttach). Chromium 150 and 156 refuse it on a worker target ("only
supported for pages"), so a calibration measures how much the page's throttling slows a plain
busy worker: the report gives that factor, so the throttled figures say what they are.
"""

from __future__ import annotations

import json
import shutil
import statistics
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bench.startup import PROBE, measure_load
from e2e.harness import READY, READY_TIMEOUT_MS, chromium_launch_args

RETURN_RATIO_BUDGET = 0.2
FIRST_RATIO_BUDGET = 1.15
THROTTLED_RETURN_BUDGET_S = 3.0
LONG_TASK_BUDGET_MS = 200
RATE = 4
MADE = "parlour-engine: snapshot made"
RESTORED = "parlour-engine: restored from the snapshot"
FOUND = """() => ({ready: window.__readyAt, engine: window.__engineAt, long: window.__long})"""
# A fixed busy loop in a plain worker: its time with and without throttling.
BUSY_WORKER = """() => new Promise((resolve) => {
  const src = "let t = performance.now(), x = 0; for (let i = 0; i < 2e8; i++) x += i % 7;" +
    "postMessage(performance.now() - t)";
  const w = new Worker(URL.createObjectURL(new Blob([src], {type: "text/javascript"})));
  w.onmessage = (e) => { w.terminate(); resolve(e.data); };
})"""


@dataclass
class Visit:
    ready_ms: float
    engine_ms: float
    longest_ms: float  # the longest main-thread task until the engines were ready
    restored: bool


def throttle(context, page, rate: int) -> list[str]:
    """Throttle the page's CPU and try every worker's; return the workers' answers."""
    cdp = context.new_cdp_session(page)
    answers: list[str] = []

    def attached(event) -> None:
        try:
            start_throttled(event["sessionId"])
        except Exception:  # the worker ended before it was throttled (the maker, when "kept")
            answers.append("gone")

    def start_throttled(session: str) -> None:
        for number, (method, params) in enumerate(
            (
                ("Emulation.setCPUThrottlingRate", {"rate": rate}),
                ("Runtime.runIfWaitingForDebugger", {}),
            )
        ):
            message = {"id": 900 + number, "method": method, "params": params}
            cdp.send(
                "Target.sendMessageToTarget", {"sessionId": session, "message": json.dumps(message)}
            )

    def answered(event) -> None:
        reply = json.loads(event["message"])
        if reply.get("id") == 900:
            answers.append(reply.get("error", {}).get("message", "throttled"))

    cdp.on("Target.attachedToTarget", attached)
    cdp.on("Target.receivedMessageFromTarget", answered)
    cdp.send(
        "Target.setAutoAttach",
        {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": False},
    )
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    return answers


def visit(browser_type, profile: Path, url: str, rate: int, wait_for_snapshot: bool) -> Visit:
    """One visit in a browser of its own on `profile`; the first waits for the snapshot."""
    context = browser_type.launch_persistent_context(profile, **chromium_launch_args())
    try:
        context.add_init_script(PROBE)
        page = context.pages[0] if context.pages else context.new_page()
        lines: list[str] = []
        page.on("console", lambda message: lines.append(message.text))
        if rate > 1:
            throttle(context, page, rate)
        page.goto(url)
        page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS * 3)
        page.wait_for_timeout(100)
        found = page.evaluate(FOUND)
        deadline = time.monotonic() + 300
        while wait_for_snapshot and not any(x.startswith(MADE) for x in lines):
            if time.monotonic() > deadline:
                raise RuntimeError(f"no snapshot made: {lines[-5:]}")
            page.wait_for_timeout(250)
    finally:
        context.close()
    tasks = [d for start, d in found["long"] if start <= found["engine"]]
    restored = any(x.startswith(RESTORED) for x in lines)
    return Visit(found["ready"], found["engine"], max(tasks, default=0.0), restored)


def bare_visit(browser, url: str, rate: int) -> float:
    if rate == 1:
        return measure_load(browser, url).ready_ms
    context = browser.new_context()
    try:
        context.add_init_script(PROBE)
        page = context.new_page()
        throttle(context, page, rate)
        page.goto(url)
        page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS * 3)
        return float(page.evaluate("() => window.__readyAt"))
    finally:
        context.close()


def worker_slowdown(browser, base_url: str, rate: int) -> float:
    """How much the page's CPU throttling slows a busy worker (median of three each way)."""
    times: dict[int, list[float]] = {1: [], rate: []}
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(base_url + "bench/bare.html")
        cdp = context.new_cdp_session(page)
        for _ in range(3):
            for r in (1, rate):
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": r})
                times[r].append(page.evaluate(BUSY_WORKER))
    finally:
        context.close()
    return statistics.median(times[rate]) / statistics.median(times[1])


def rounds(
    browser, base_url: str, loads: int, rate: int
) -> tuple[list[float], list[Visit], list[Visit]]:
    bare: list[float] = []
    first: list[Visit] = []
    back: list[Visit] = []
    for _ in range(loads):
        bare.append(bare_visit(browser, base_url + "bench/bare.html", rate))
        profile = Path(tempfile.mkdtemp(prefix="parlour-bench-profile-"))
        try:
            first.append(visit(browser.browser_type, profile, base_url, rate, True))
            back.append(visit(browser.browser_type, profile, base_url, rate, False))
        finally:
            shutil.rmtree(profile, ignore_errors=True)
    return bare, first, back


def verdict(ok: bool) -> str:
    return "ok" if ok else "OVER"


def report(rate: int, bare: list[float], first: list[Visit], back: list[Visit]) -> list[str]:
    b = statistics.median(bare)
    f = statistics.median(v.engine_ms for v in first)
    r = statistics.median(v.engine_ms for v in back)
    label = "" if rate == 1 else f", CPU throttled {rate}x"
    lines = [f"engine snapshot ({len(bare)} rounds, a fresh profile each, interleaved{label})"]
    for n, (x, y, z) in enumerate(zip(bare, first, back, strict=True), 1):
        lines.append(
            f"  round {n}: bare {x:6.0f} ms | first visit engines {y.engine_ms:6.0f} ms"
            f" ({y.engine_ms / x:4.2f}x) | return visit engines {z.engine_ms:6.0f} ms"
            f" ({z.engine_ms / x:4.2f}x), data-ready {z.ready_ms:5.0f} ms,"
            f" {'restored' if z.restored else 'COLD'}; longest task: first {y.longest_ms:4.0f} ms,"
            f" return {z.longest_ms:4.0f} ms"
        )
    lines.append(
        f"  medians: bare {b:6.0f} ms; first visit {f:6.0f} ms ratio {f / b:4.2f}"
        + (
            f" budget {FIRST_RATIO_BUDGET}: {verdict(f / b <= FIRST_RATIO_BUDGET)}"
            if rate == 1
            else ""
        )
        + f"; return visit {r:6.0f} ms ratio {r / b:4.2f}"
        + (
            f" budget {RETURN_RATIO_BUDGET}: {verdict(r / b <= RETURN_RATIO_BUDGET)}"
            if rate == 1
            else ""
        )
    )
    if rate > 1:
        lines.append(
            f"  throttled return visit, median: {r / 1000:4.1f} s"
            f"   budget {THROTTLED_RETURN_BUDGET_S:.0f} s:"
            f" {verdict(r / 1000 <= THROTTLED_RETURN_BUDGET_S)}"
        )
    longest = max(v.longest_ms for v in back)
    lines.append(
        f"  return visit longest main-thread task, over all rounds: {longest:4.0f} ms"
        f"   budget {LONG_TASK_BUDGET_MS}: {verdict(longest <= LONG_TASK_BUDGET_MS)}"
    )
    return lines


def run(browser, base_url: str, loads: int, throttled_loads: int) -> Iterator[str]:
    """The report's lines, each section as soon as its rounds are done."""
    measure_load(browser, base_url)  # warm the server and the OS file cache, not the browser's
    yield from report(1, *rounds(browser, base_url, loads, 1))
    if throttled_loads > 0:
        slowdown = worker_slowdown(browser, base_url, RATE)
        yield from report(RATE, *rounds(browser, base_url, throttled_loads, RATE))
        yield (
            f"  (the page's {RATE}x throttling slowed a busy worker {slowdown:3.1f}x: Chromium"
            " refuses the rate on a worker target)"
        )
