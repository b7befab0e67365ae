"""A 4x-slower CPU for the bench's throttled rows: the whole browser under an OS CPU quota.

DevTools' Emulation.setCPUThrottlingRate slows a page's main thread only: Chromium refuses it on
a worker target ("Operation is only supported for pages, not workers"), and the engines run in a
worker, so a DevTools "4x" row is not a phone's profile. Where the machine lets us (cgroup v1's
cpu controller, writable: root), every process of the browser runs in a cgroup of its own with a
CPU quota of 1/rate of the machine (`cores / rate` CPUs' worth of time per period): Playwright
starts the browser through a small wrapper that moves itself into the group and then becomes
Chromium, so every process Chromium forks is in the group too. The bench's own web server stays
outside. Where the group cannot be made, the rows fall back to DevTools' page throttle and say so.

`calibrate` measures what the throttle does, in the same run: a fixed busy loop in the page and
in a worker, in the throttled browser and in an unthrottled one, interleaved.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from e2e.harness import chromium_launch_args

CGROUP_CPU = Path("/sys/fs/cgroup/cpu")
PERIOD_US = 100_000
WRAPPER = """#!/bin/sh
# Written by the bench (bench/throttle.py): join the CPU-quota group, then become Chromium, so
# every process the browser forks is in the group as well.
echo $$ > '{procs}' || exit 1
exec '{chromium}' "$@"
"""
# A fixed busy loop, in the page's main thread or in a plain worker: its time in milliseconds.
BUSY = (
    "(() => { const t = performance.now(); let x = 0;"
    " for (let i = 0; i < 3e8; i++) x += i % 7; return performance.now() - t; })()"
)
# The loop in the page, in a worker, then in both at once (the worker started first): each
# run's milliseconds, [page, worker, page beside the worker, worker beside the page].
BUSY_RUNS = """async () => {
  const worker = (started) => {
    const src = "postMessage('started'); postMessage(" + SOURCE + ")";
    const w = new Worker(URL.createObjectURL(new Blob([src])));
    return new Promise((resolve) => {
      w.onmessage = (e) => {
        if (e.data === "started") { started(); return; }
        w.terminate(); resolve(e.data);
      };
    });
  };
  const page = () => SOURCE_EVAL;
  const alone = [page(), await worker(() => {})];
  let beside;
  await new Promise((started) => { beside = worker(started); });
  const pageBeside = page();
  return [...alone, pageBeside, await beside];
}""".replace("SOURCE_EVAL", BUSY).replace("SOURCE", json.dumps(BUSY))


@dataclass
class Throttle:
    """How the throttled rows slow the CPU `rate` times, and how to launch their browser."""

    rate: int
    launch: dict  # keyword arguments for BrowserType.launch and launch_persistent_context
    quota: str  # what the OS quota is ("" when there is none: DevTools' page throttle)

    @property
    def devtools(self) -> bool:
        """True where the rows fall back to DevTools' throttle (the page's main thread only)."""
        return not self.quota

    def describe(self) -> str:
        if self.devtools:
            return (
                f"CPU {self.rate}x slower by DevTools on the page's main thread only (no writable"
                " cgroup here; Chromium refuses the rate on workers, so the engines ran at full"
                " speed)"
            )
        return f"CPU {self.rate}x slower: the whole browser under a cgroup quota of {self.quota}"

    def slow_page(self, context, page) -> None:
        """Where there is no OS quota, DevTools' throttle on `page` (and a try on its workers)."""
        if self.devtools:
            devtools_throttle(context, page, self.rate)


def quota_us(rate: int, cpus: float, period_us: int = PERIOD_US) -> int:
    """CPU time per period for the whole browser: 1/rate of `cpus` CPUs (the machine's by
    default: a machine `rate` times slower)."""
    return max(1000, round(period_us * cpus / rate))


@contextmanager
def whole_browser(
    rate: int, chromium: str, cpus: float, root: Path = CGROUP_CPU, period_us: int = PERIOD_US
) -> Iterator[tuple[dict, Throttle]]:
    """For the duration: launch arguments for the unthrottled browser and a Throttle for the
    slowed one, each starting `chromium` through a wrapper in a cgroup of its own under `root`,
    the slowed one's with a quota of `cpus` / `rate` CPUs' worth of time, all removed after.
    Both are in a group, with the same weight, so that against the machine's other processes
    (and the bench's own nice) they compete alike and only the quota differs. Where `root` is
    not writable: the plain launch, and DevTools' throttle. `period_us`: the quota's period.
    Within one, once the browser's threads have used the quota, every thread of it waits for
    the next: a main-thread task that meets that wait is longer by up to the rest of the
    period (100 ms: up to 75 ms at 4x; a phone 4x slower does not stop so), so a task's length
    depends on the period as well as on its work (docs/performance.md, "Redraws")."""
    tag = f"parlour-bench-{os.getpid()}"
    folder = Path(tempfile.mkdtemp(prefix="parlour-bench-throttle-"))
    groups = [root / f"{tag}-free", root / f"{tag}-slowed"]
    try:
        make_group(groups[0], -1)
        quota = make_group(groups[1], quota_us(rate, cpus, period_us), period_us)
    except OSError:
        for group in groups:
            remove_group(group, root)
        shutil.rmtree(folder, ignore_errors=True)
        yield chromium_launch_args(), Throttle(rate, chromium_launch_args(), "")
        return
    try:
        free, slowed = (in_group(group, chromium, folder) for group in groups)
        yield free, Throttle(rate, slowed, quota)
    finally:
        for group in groups:
            remove_group(group, root)
        shutil.rmtree(folder, ignore_errors=True)


def in_group(group: Path, chromium: str, folder: Path) -> dict:
    """Launch arguments that start `chromium` inside `group`: a wrapper script in `folder`."""
    wrapper = folder / f"chromium-in-{group.name}"
    wrapper.write_text(WRAPPER.format(procs=group / "cgroup.procs", chromium=chromium))
    wrapper.chmod(0o755)
    return {**chromium_launch_args(), "executable_path": str(wrapper)}


def make_group(group: Path, quota: int, period: int = PERIOD_US) -> str:
    """Create the cgroup with its quota (-1: none); raises OSError where cgroups are not
    writable, leaving nothing behind."""
    group.mkdir()
    try:
        (group / "cpu.cfs_period_us").write_text(str(period))
        (group / "cpu.cfs_quota_us").write_text(str(quota))
    except OSError:
        group.rmdir()
        raise
    return f"{quota} us per {period} us ({quota / period:.2f} of {os.cpu_count()} CPUs)"


def remove_group(group: Path, root: Path) -> None:
    """Remove the group; a process of ours still in it (a browser that did not close) is moved
    back to the parent group first, since a cgroup with members cannot be removed."""
    procs = group / "cgroup.procs"
    if not group.exists():
        return
    for pid in procs.read_text().split() if procs.exists() else []:
        with suppress(OSError):  # it ended meanwhile
            (root / "cgroup.procs").write_text(pid)
    try:
        group.rmdir()
    except OSError:  # a test's fake root: a plain folder with files in it
        shutil.rmtree(group, ignore_errors=True)


def devtools_throttle(context, page, rate: float) -> dict[str, bool]:
    """DevTools' CPU throttle on `page`, and a try on every worker it starts (the engine runs in
    one, a CDP target of its own that the page's throttle leaves at full speed): the page's
    session attaches to each worker as it starts (Target.setAutoAttach, the worker paused
    meanwhile), asks for the throttle and lets it run. Playwright's CDP session speaks to its own
    target only, so a worker's messages go through Target.sendMessageToTarget (the unflattened
    protocol). Returns, filled in as the answers come, each worker's URL and whether its
    throttle was accepted (Chromium 150 and 156 refuse it: "Operation is only supported for
    pages, not workers")."""
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
            try:
                session.send(
                    "Target.sendMessageToTarget", {"sessionId": target, "message": message}
                )
            except Exception:  # the worker ended before it was throttled (the snapshot maker)
                return

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


def busy_times(browser, url: str, throttle: Throttle | None) -> list[float]:
    """The busy loop's milliseconds (BUSY_RUNS) in a fresh context of `browser`."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(url)
        if throttle is not None:
            throttle.slow_page(context, page)
        return [float(x) for x in page.evaluate(BUSY_RUNS)]
    finally:
        context.close()


def calibrate(browser, slowed_browser, throttle: Throttle, url: str, rounds: int = 3) -> str:
    """One line: how many times slower the throttled browser ran the busy loop, in the page and
    in a worker, each alone and both at once (medians of `rounds`, interleaved with the
    unthrottled browser)."""
    free: list[list[float]] = []
    slow: list[list[float]] = []
    for _ in range(rounds):
        free.append(busy_times(browser, url, None))
        slow.append(busy_times(slowed_browser, url, throttle))
    x = [
        statistics.median(s[i] for s in slow) / statistics.median(f[i] for f in free)
        for i in range(4)
    ]
    return (
        f"  calibration ({rounds} rounds, interleaved with an unthrottled browser): a busy loop"
        f" ran {x[0]:3.1f}x slower in the page alone, {x[1]:3.1f}x in a worker alone, and"
        f" {x[2]:3.1f}x and {x[3]:3.1f}x in both at once ({throttle.describe()})"
    )
