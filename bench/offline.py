"""Offline and weight: a second visit served by the service worker against a first visit (same
run, alternating fresh browser profiles), and the site's own bytes against the runtime's.

- warm start: in one fresh context, a first visit (nothing cached) to data-engine, then, once
  the service worker holds the site, a second visit in a new tab: its data-ready and
  data-engine, as a ratio of the first visit's (no budget in the issue: recorded);
- weight: every published file gzipped (-9), the vendored runtime apart from the app's own
  bytes (page, styles, scripts, the zipped package, icons, manifest); budget for the app's own:
  300 KB. Also what a first visit actually fetches of each.
"""

from __future__ import annotations

import gzip
import statistics
from urllib.parse import urlsplit

from bench.startup import PROBE
from e2e.harness import READY, READY_TIMEOUT_MS
from scripts import build, site

APP_BUDGET_KB = 300
OFFLINE_READY = "html[data-offline='ready']"


def gzipped(name: str) -> int:
    return len(gzip.compress((build.ROOT / name).read_bytes(), 9))


def timings(page) -> tuple[float, float]:
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    found = page.evaluate("() => [window.__readyAt, window.__engineAt]")
    return found[0], found[1]


def visit_twice(browser, url: str) -> tuple[tuple[float, float], tuple[float, float], float, set]:
    """A first and a second visit in one profile; the share of the second's requests the
    service worker answered, and the files the first fetched."""
    context = browser.new_context()
    context.add_init_script(PROBE)
    first = context.new_page()
    fetched: set[str] = set()
    first.on("request", lambda r: fetched.add(urlsplit(r.url).path.lstrip("/") or "index.html"))
    first.goto(url)
    cold = timings(first)
    first.wait_for_selector(OFFLINE_READY, state="attached", timeout=READY_TIMEOUT_MS)
    first.close()
    second = context.new_page()
    answered: list[bool] = []
    second.on("response", lambda r: answered.append(r.from_service_worker))
    second.goto(url)
    warm = timings(second)
    context.close()
    share = sum(answered) / len(answered) if answered else 0.0
    return cold, warm, share, fetched


def weight_lines(fetched: set[str]) -> list[str]:
    published = site.published_files()
    app = sum(gzipped(n) for n in published if not build.is_runtime(n))
    runtime = sum(gzipped(n) for n in published if build.is_runtime(n))
    first_app = sum(gzipped(n) for n in published if n in fetched and not build.is_runtime(n))
    first_runtime = sum(gzipped(n) for n in published if n in fetched and build.is_runtime(n))
    verdict = "ok" if app / 1024 <= APP_BUDGET_KB else "OVER"
    return [
        "weight (gzip -9 of every published file)",
        f"  the app's own bytes: {app / 1024:6.0f} KB   the runtime: {runtime / 1024:6.0f} KB"
        f"   ratio {app / runtime:5.3f}   budget {APP_BUDGET_KB} KB: {verdict}",
        f"  fetched by a first visit: app {first_app / 1024:6.0f} KB,"
        f" runtime {first_runtime / 1024:6.0f} KB",
    ]


def run(browser, base_url: str, loads: int) -> list[str]:
    colds, warms, shares = [], [], []
    fetched: set[str] = set()
    for _ in range(loads):
        cold, warm, share, fetched = visit_twice(browser, base_url)
        colds.append(cold)
        warms.append(warm)
        shares.append(share)
    cold_ready = statistics.median(c[0] for c in colds)
    cold_engine = statistics.median(c[1] for c in colds)
    warm_ready = statistics.median(w[0] for w in warms)
    warm_engine = statistics.median(w[1] for w in warms)
    return [
        f"warm start ({loads} profiles: a first visit, then a second from the service worker)",
        f"  first visit: clicks answered {cold_ready:6.0f} ms, engines ready {cold_engine:6.0f} ms",
        f"  second visit: clicks answered {warm_ready:6.0f} ms, engines ready {warm_engine:6.0f} ms"
        f"   ratio {warm_engine / cold_engine:5.2f} (engines), {warm_ready / cold_ready:5.2f}"
        f" (clicks)",
        f"  answered by the service worker on the second visit: {min(shares):.0%} of requests"
        " at least",
        *weight_lines(fetched),
    ]
