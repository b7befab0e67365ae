"""The engine snapshot (issue 29): a first visit and a return visit, each round in a fresh browser
profile on disk, interleaved with the bare PyScript page's first visit (bench/bare.html, the
start-up baseline), and the same again on a 4x-throttled CPU.

A round: the bare page in a fresh context; then the app's first visit in a new profile, which
waits there until the snapshot is made (assets/snapshot-worker.mjs says so on the console); the
browser closes, and a new browser on the same profile makes the return visit. Budgets: the return
visit's engines ready at most 0.2 x the bare page's first line, the first visit's at most 1.15 x;
throttled, the return visit at most 3 s. The return visit's longest main-thread task (200 ms).

Throttling (bench/throttle.py): the whole browser under an OS CPU quota of a quarter of the
machine, the bare page's browser too; where the machine has no writable cgroup, DevTools' throttle
on the page (its main thread only: Chromium refuses it on workers), and the report says which.
"""

from __future__ import annotations

import shutil
import statistics
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bench.startup import PROBE, measure_load
from bench.throttle import Throttle
from e2e.harness import READY, READY_TIMEOUT_MS, chromium_launch_args

RETURN_RATIO_BUDGET = 0.2
FIRST_RATIO_BUDGET = 1.15
THROTTLED_RETURN_BUDGET_S = 3.0
LONG_TASK_BUDGET_MS = 200
MADE = "parlour-engine: snapshot made"
RESTORED = "parlour-engine: restored from the snapshot"
FOUND = """() => ({ready: window.__readyAt, engine: window.__engineAt, long: window.__long})"""


@dataclass
class Visit:
    ready_ms: float
    engine_ms: float
    longest_ms: float  # the longest main-thread task until the engines were ready
    restored: bool


def visit(
    browser_type,
    profile: Path,
    url: str,
    throttle: Throttle | None,
    wait_for_snapshot: bool,
    settle_ms: int = 0,
) -> Visit:
    """One visit in a browser of its own on `profile` (under the throttle's quota, if any); the
    first waits for the snapshot. With `settle_ms`, the page is opened that long after the
    browser started, as in a browser already running: a browser just started does its own work
    in its first second (a trace of a return visit on this 2-core machine: its omnibox's WebUI
    renderer took 480 ms of CPU while the page loaded), which the bare page, opened in a
    browser already running, never meets."""
    launch = chromium_launch_args() if throttle is None else throttle.launch
    context = browser_type.launch_persistent_context(profile, **launch)
    try:
        context.add_init_script(PROBE)
        page = context.pages[0] if context.pages else context.new_page()
        lines: list[str] = []
        page.on("console", lambda message: lines.append(message.text))
        if throttle is not None:
            throttle.slow_page(context, page)
        if settle_ms:
            page.wait_for_timeout(settle_ms)
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


def bare_visit(browser, url: str, throttle: Throttle | None) -> float:
    """The bare page's first line, in `browser` (the throttled one for throttled rounds)."""
    if throttle is None:
        return measure_load(browser, url).ready_ms
    context = browser.new_context()
    try:
        context.add_init_script(PROBE)
        page = context.new_page()
        throttle.slow_page(context, page)
        page.goto(url)
        page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS * 3)
        return float(page.evaluate("() => window.__readyAt"))
    finally:
        context.close()


def rounds(
    browser, base_url: str, loads: int, throttle: Throttle | None, settle_ms: int = 0
) -> tuple[list[float], list[Visit], list[Visit]]:
    """`loads` rounds of the bare page, a first visit and a return visit in a fresh profile;
    `browser` is the one the bare page runs in (throttled along with the visits, if any)."""
    bare: list[float] = []
    first: list[Visit] = []
    back: list[Visit] = []
    for _ in range(loads):
        bare.append(bare_visit(browser, base_url + "bench/bare.html", throttle))
        profile = Path(tempfile.mkdtemp(prefix="parlour-bench-profile-"))
        try:
            first.append(visit(browser.browser_type, profile, base_url, throttle, True, settle_ms))
            back.append(visit(browser.browser_type, profile, base_url, throttle, False, settle_ms))
        finally:
            shutil.rmtree(profile, ignore_errors=True)
    return bare, first, back


def verdict(ok: bool) -> str:
    return "ok" if ok else "OVER"


def report(
    rate: int, bare: list[float], first: list[Visit], back: list[Visit], settle_ms: int = 0
) -> list[str]:
    b = statistics.median(bare)
    f = statistics.median(v.engine_ms for v in first)
    r = statistics.median(v.engine_ms for v in back)
    label = "" if rate == 1 else f", CPU throttled {rate}x"
    if settle_ms:
        label += f", each visit {settle_ms} ms after its browser started"
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


def run(
    browser,
    base_url: str,
    loads: int,
    throttled_loads: int,
    slowed: tuple[object, Throttle] | None,
    settle_ms: int = 0,
) -> Iterator[str]:
    """The report's lines, each section as soon as its rounds are done; `slowed` is the
    throttled browser and its Throttle, for the throttled rounds."""
    measure_load(browser, base_url)  # warm the server and the OS file cache, not the browser's
    yield from report(1, *rounds(browser, base_url, loads, None, settle_ms), settle_ms)
    if throttled_loads > 0 and slowed is not None:
        slowed_browser, throttle = slowed
        found = rounds(slowed_browser, base_url, throttled_loads, throttle, settle_ms)
        yield from report(throttle.rate, *found, settle_ms)
        yield f"  ({throttle.describe()})"


def compared(browser, base_url: str, old_url: str, loads: int, settle_ms: int = 0) -> Iterator[str]:
    """The return visit against earlier code (`--only snapshot --baseline REV`), interleaved:
    each round the bare page, then each version's first visit (the snapshot made) and return
    visit in a fresh profile of its own, the versions' order turned each round. Ratios against
    the round's bare page."""
    measure_load(browser, base_url)  # warm the server and the OS file cache
    bare: list[float] = []
    back: dict[str, list[Visit]] = {"before": [], "now": []}
    settled = f", each visit {settle_ms} ms after its browser started" if settle_ms else ""
    yield f"return visit against earlier code ({loads} rounds, interleaved{settled})"
    for n in range(loads):
        bare.append(bare_visit(browser, base_url + "bench/bare.html", None))
        order = [("now", base_url), ("before", old_url)]
        for name, url in order if n % 2 == 0 else order[::-1]:
            profile = Path(tempfile.mkdtemp(prefix="parlour-bench-profile-"))
            try:
                visit(browser.browser_type, profile, url, None, True, settle_ms)
                back[name].append(visit(browser.browser_type, profile, url, None, False, settle_ms))
            finally:
                shutil.rmtree(profile, ignore_errors=True)
        parts = [
            f"{name} {v.engine_ms:5.0f} ms ({v.engine_ms / bare[-1]:4.2f}x,"
            f" data-ready {v.ready_ms:4.0f} ms{'' if v.restored else ', COLD'})"
            for name, v in ((k, back[k][-1]) for k in ("before", "now"))
        ]
        yield f"  round {n + 1}: bare {bare[-1]:5.0f} ms | " + " | ".join(parts)
    b = statistics.median(bare)
    for name in ("before", "now"):
        r = statistics.median(v.engine_ms for v in back[name])
        ratios = sorted(v.engine_ms / x for v, x in zip(back[name], bare, strict=True))
        yield (
            f"  {name}: return visit engines, median {r:5.0f} ms, ratio {r / b:4.2f}"
            f" (per round {ratios[0]:4.2f}-{ratios[-1]:4.2f}; budget {RETURN_RATIO_BUDGET})"
        )
