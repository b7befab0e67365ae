"""`make bench`: print every performance figure as a ratio against a same-run baseline."""

from __future__ import annotations

import argparse
import os
import platform
import sys
from datetime import date

from playwright.sync_api import sync_playwright

from bench import (
    bylink,
    click,
    engine,
    linkopen,
    longtasks,
    offline,
    online,
    pacing,
    parsing,
    redraws,
    snapshot,
    solo,
    startup,
    strength,
    think,
)
from bench.baseline import baseline_checkout
from bench.throttle import calibrate, whole_browser
from e2e.harness import SiteServer, chromium_launch_args

RATE = 4  # the throttled rows' CPU slowdown: a phone's profile
PURE = ("engine", "strength", "pacing", "parsing", "bylink")  # parts that need no browser

# The bare PyScript page and the click page, served beside the site, and the Pyodide they load
# (the npm package as it is: the site publishes only the part of its standard library it uses).
BENCH_PAGES = ("bench/", "node_modules/pyodide/")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--loads", type=int, default=9, help="page loads of each kind")
    parser.add_argument(
        "--only",
        choices=[
            "engine",
            "strength",
            "pacing",
            "startup",
            "snapshot",
            "offline",
            "online",
            "click",
            "longtasks",
            "think",
            "solo",
            "parsing",
            "bylink",
            "redraws",
            "linkopen",
        ],
        help="run one part",
    )
    parser.add_argument(
        "--baseline",
        default=None,
        help="a git revision of earlier code to compare with, interleaved (online moves;"
        " with --only snapshot, the return visit; parsing: its readers, in a child process;"
        " redraws: whole games on a slow CPU)",
    )
    parser.add_argument(
        "--games",
        type=float,
        default=1.0,
        help="strength and pacing: scale the number of games of each row; redraws: games of"
        " each row, a row",
    )
    parser.add_argument(
        "--throttled-loads",
        type=int,
        default=5,
        help="snapshot: rounds on a 4x-throttled CPU (0: none)",
    )
    parser.add_argument(
        "--throttle-cpus",
        type=float,
        default=float(os.cpu_count() or 1),
        help="snapshot and solo: the throttled browser gets this many CPUs' worth of time / 4"
        " (default: the machine's, a machine 4x slower; 1: each busy thread at most 4x slower)",
    )
    parser.add_argument(
        "--throttle-period-ms",
        type=float,
        default=100.0,
        help="the throttled browser's CPU quota period (bench/throttle.py, whole_browser): the"
        " longest a quota's wait can hold a task",
    )
    parser.add_argument(
        "--settle-ms",
        type=int,
        default=0,
        help="snapshot and linkopen: open each visit's page this long after its browser started"
        " (0: at once; bench/snapshot.py, visit)",
    )
    parser.add_argument(
        "--rounds", type=int, default=10, help="linkopen: new-tab rounds, each with a bare page"
    )
    parser.add_argument(
        "--links", type=int, default=24, help="linkopen: links opened in an open page"
    )
    args = parser.parse_args()
    print(f"Psi Parlour bench, {date.today()}, {platform.machine()}, {platform.python_version()}")
    if args.only in (None, "engine"):
        for line in engine.run():
            print(line)
    if args.only in (None, "strength"):
        for line in strength.run(args.games):
            print(line, flush=True)
    if args.only in (None, "pacing"):
        for line in pacing.run(args.games):
            print(line, flush=True)
    if args.only in (None, "bylink"):
        for line in bylink.run():
            print(line, flush=True)
    if args.only in (None, "parsing"):
        for line in parsing.run(args.baseline):
            print(line, flush=True)
    if args.only in PURE:
        return 0
    with SiteServer(also_serve=BENCH_PAGES) as site, sync_playwright() as p:
        chromium = chromium_launch_args().get("executable_path") or p.chromium.executable_path
        period = round(args.throttle_period_ms * 1000)
        with whole_browser(RATE, chromium, args.throttle_cpus, period_us=period) as (
            free,
            throttle,
        ):
            browser = p.chromium.launch(**free)
            print(f"Chromium {browser.version}")
            slowed = None
            if args.only in (None, "solo", "redraws") or (
                args.only == "snapshot" and args.throttled_loads > 0 and not args.baseline
            ):  # (the return visit against earlier code has no throttled rounds)
                slowed = (p.chromium.launch(**throttle.launch), throttle)
                print(
                    calibrate(browser, slowed[0], throttle, site.url + "bench/bare.html"),
                    flush=True,
                )
            run_browser_parts(args, browser, slowed, site.url)
            if slowed is not None:
                slowed[0].close()
            browser.close()
    return 0


def run_browser_parts(args, browser, slowed, url: str) -> None:
    """The parts that measure pages, each printed as it comes; `slowed` is the throttled
    browser and its Throttle (None when no part asked for one)."""
    if args.only in (None, "startup"):
        for line in startup.run(browser, url, args.loads):
            print(line)
    if args.only == "snapshot" and args.baseline:
        with SiteServer(baseline_checkout(args.baseline), BENCH_PAGES) as old:
            rounds = max(5, args.loads // 2)
            for line in snapshot.compared(browser, url, old.url, rounds, args.settle_ms):
                print(line, flush=True)
    elif args.only in (None, "snapshot"):
        for line in snapshot.run(
            browser, url, max(5, args.loads // 2), args.throttled_loads, slowed, args.settle_ms
        ):
            print(line, flush=True)
    if args.only in (None, "offline"):
        for line in offline.run(browser, url, max(3, args.loads // 2)):
            print(line)
    if args.only in (None, "online"):
        if args.baseline:
            with SiteServer(baseline_checkout(args.baseline), BENCH_PAGES) as old:
                lines = online.run(browser, url, old.url)
        else:
            lines = online.run(browser, url)
        for line in lines:
            print(line)
    if args.only in (None, "longtasks"):
        for line in longtasks.run(browser, url):
            print(line)
    if args.only in (None, "click"):
        for line in click.run(browser, url):
            print(line)
    if args.only in (None, "solo"):
        for line in solo.run(browser, url, slowed, max(5, args.loads // 2)):
            print(line, flush=True)
    if args.only in (None, "think"):
        for line in think.run(browser, url):
            print(line)
    if args.only in (None, "redraws"):
        assert slowed is not None
        games = max(1, round(args.games))
        if args.baseline:
            with SiteServer(baseline_checkout(args.baseline), BENCH_PAGES) as old:
                lines = redraws.run(slowed[0], url, old.url, slowed[1], games)
        else:
            lines = redraws.run(slowed[0], url, None, slowed[1], games)
        for line in lines:
            print(line, flush=True)
    if args.only in (None, "linkopen"):
        for line in linkopen.run(browser, url, args.rounds, args.links, args.settle_ms):
            print(line, flush=True)


if __name__ == "__main__":
    sys.exit(main())
