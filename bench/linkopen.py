"""Opening a link (issue 38): from a messenger's tap to the other player's move on the board.

A Psi Squad game by link between two devices, each move made by clicks and every link carried
by e2e's `Chat` (e2e/link_players.py); guesses that never find the cypher, so the game goes on
as long as the bench needs. "The move on the board" is the moment the page sets <html
data-links-opened>: the worker's answer to the link (the save read, every signature checked,
the link taken, the automatic answer signed, the board drawn) is applied in one task, the board
first and that attribute after it, so the board holds the new move when it changes. Times are
in the page's own clock.

- A new tab on a return visit: a browser profile on disk that has visited the site (its service
  worker holds the site, its engine snapshot is kept: bench/snapshot.py) and plays the game; a
  new browser on that profile (as snapshot.py's return visit; `settle_ms` opens the tab that
  long after the browser started) opens in its tab the link that carries the other player's
  guess: from navigation to the board. The game then goes on in that tab until the other device
  has guessed again, the browser closes, and the next round opens that link. Baseline: the bare
  PyScript page's first visit (bench/bare.html), before each round. Goal: 0.6 x at most.
- Within an open page: every link of the game opened in the other device's tab, its address
  set as a chat's tap would (e2e's `Device.open`), from setting the address to the board.
  Goal: p95 under 300 ms.

Where the time goes: the page's data-ready and data-engine, and the worker's own marks of each
call (py/ui/webcrypto.py): `parlour-call-check` (every signature the call needs, checked by
WebCrypto before it: in a new tab, the whole save's), `-app` (the save read, the link taken,
the board drawn), `-sign` and `-after-signing` (the answer signed and drawn again), `-settle`;
the rest is the main thread's (the request out, the answer applied).
"""

from __future__ import annotations

import math
import shutil
import statistics
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

from bench.snapshot import MADE, RESTORED, bare_visit
from bench.startup import measure_load
from e2e.clicks import CLICKS
from e2e.harness import READY_TIMEOUT_MS, PageWatch, chromium_launch_args
from e2e.link_players import ROOT, STEP_MS, Chat, Device
from parlour.games.psi_squad.actions import ChooseCypher, Guess

GAME = "psi-squad"
CYPHERS = ("123", "456")
NEW_TAB_GOAL = 0.6  # of the bare page's first visit
OPEN_PAGE_GOAL_MS = 300  # p95
PARTS = ("check", "app", "sign", "after-signing", "settle")

# When the main thread is up, the engines are ready and the link's board is drawn.
MARKS = """
new MutationObserver(() => {
  const d = document.documentElement.dataset;
  const now = performance.now();
  if (d.ready === "true" && window.__readyAt === undefined) window.__readyAt = now;
  if (d.engine === "ready" && window.__engineAt === undefined) window.__engineAt = now;
  if (d.linksOpened && window.__openedAt === undefined) {
    window.__openedAt = now;
    const cells = document.querySelectorAll("#bylink tr[data-step] td.digits");
    window.__digitsAt = Array.from(cells, (td) => td.textContent);
  }
}).observe(document, {
  subtree: true, attributes: true,
  attributeFilter: ["data-ready", "data-engine", "data-links-opened"]
});
"""
FOUND = """() => ({ready: window.__readyAt, engine: window.__engineAt,
  opened: window.__openedAt, digits: window.__digitsAt})"""
# A link opened in an open page: milliseconds from setting the address to the board.
OPEN = """(link) => new Promise((resolve, reject) => {
  const root = document.documentElement;
  const before = root.dataset.linksOpened || "0";
  const seen = new MutationObserver(() => {
    if ((root.dataset.linksOpened || "0") !== before) {
      seen.disconnect();
      resolve(performance.now() - started);
    }
  });
  seen.observe(root, {attributes: true, attributeFilter: ["data-links-opened"]});
  setTimeout(() => reject(new Error("the link was not taken in 30 s")), 30000);
  const started = performance.now();
  location.hash = new URL(link).hash;
})"""
# In a worker: its clock's origin and its `parlour-` marks, [name, start, duration] (ms).
WORKER_MARKS = """(clear) => {
  const found = performance.getEntriesByType("measure")
    .filter(e => e.name.startsWith("parlour-"))
    .map(e => [e.name, e.startTime, e.duration]);
  if (clear) performance.clearMeasures();
  return {origin: performance.timeOrigin, marks: found};
}"""


# -- pure helpers ------------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile: the smallest value with at least `share` of them at or
    under it (p95 of 20 values is the 19th)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def wrong_guess(count: int, cypher: str) -> str:
    """The `count`th guess at `cypher` (three digits), spread over the range and never the
    cypher itself, so the game never ends."""
    digits = f"{(count * 379 + 5) % 1000:03d}"
    return digits if digits != cypher else f"{(int(digits) + 1) % 1000:03d}"


def call_parts(marks: list[tuple[str, float, float]]) -> dict[str, float]:
    """The worker's marks of one call or more (name, start, duration), summed by part
    (`parlour-call-check` is "check"), with "verify" the number of signatures checked."""
    parts = dict.fromkeys(PARTS, 0.0)
    parts["verify"] = 0.0
    for name, _, duration in marks:
        part = name.removeprefix("parlour-call-")
        if part in parts:
            parts[part] += duration
        elif name == "parlour-verify":
            parts["verify"] += 1
    return parts


def last_call(
    marks: list[tuple[str, float, float]], until: float
) -> list[tuple[str, float, float]]:
    """The marks of the last call that started at or before `until` (a call's marks begin
    with its `parlour-call-check`), in the order they were made."""
    ordered = sorted(marks, key=lambda m: m[1])
    starts = [m[1] for m in ordered if m[0] == "parlour-call-check" and m[1] <= until]
    if not starts:
        return []
    return [m for m in ordered if starts[-1] <= m[1] <= until]


# -- the game ------------------------------------------------------------------------------------


class Tab(Device):
    """A device whose page is given: the tab of a browser profile on disk, opened again each
    round (`Device` makes a context of its own browser)."""

    def __init__(self, page, url: str) -> None:  # (no context of its own)
        made = Device.of_page(page, url)
        self.__dict__.update(made.__dict__)


class TimedDevice(Device):
    """A device that times each link it opens, in the page, with the worker's marks of it."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.timing = False
        self.times: list[tuple[float, dict[str, float]]] = []

    def open(self, link: str) -> str:
        if not self.timing:
            return super().open(link)
        worker_marks(self.page, clear=True)
        took = float(self.page.evaluate(OPEN, link))
        self.page.wait_for_function("location.hash === '#bylink'", timeout=STEP_MS)
        self.wait_signed()
        self.times.append((took, call_parts(worker_marks(self.page))))
        return self.page.locator(f"{ROOT} [data-role=bylink-said]").inner_text()


def worker_marks(page, clear: bool = False) -> list[tuple[str, float, float]]:
    """Every `parlour-` mark of the page's workers, started in the page's clock."""
    origin = float(page.evaluate("performance.timeOrigin"))
    found: list[tuple[str, float, float]] = []
    for worker in page.workers:
        try:
            got = worker.evaluate(WORKER_MARKS, clear)
        except Exception:
            continue  # a worker gone, or not ours
        shift = float(got["origin"]) - origin
        found += [(str(n), float(s) + shift, float(d)) for n, s, d in got["marks"]]
    return found


class Guesser:
    """Each seat's choices: its cypher, then guesses that miss."""

    def __init__(self) -> None:
        self.made: dict[int, int] = {}

    def __call__(self, play, seat: int, plays=None) -> object:
        state = play.table.state
        if state.setting_up:
            return ChooseCypher(CYPHERS[seat])
        target = state.targets(seat)[0]
        self.made[seat] = self.made.get(seat, 0) + 1
        return Guess(target, wrong_guess(self.made[seat], CYPHERS[target]))


def move(chat: Chat, decide: Guesser) -> tuple[int, object]:
    """Every link delivered, then the device the game waits on moves by clicks and its links
    go to the chat: which device, and its move."""
    chat.deliver()
    plays = [d.saved() for d in chat.devices]
    mover = next(i for i, p in enumerate(plays) if p.summary()["my_turn"])
    device, play = chat.devices[mover], plays[mover]
    match = play.match
    seat = min(s for s in match.game.to_move(match.state) if s in play.local)
    choice = decide(play, seat)
    CLICKS[GAME](device.page, ROOT, play.table.state, choice)
    device.page.locator(f"{ROOT} [data-role=bylink-send] input").first.wait_for(timeout=STEP_MS)
    device.wait_signed()
    chat.post(mover, device.sent())
    return mover, choice


def next_guess(chat: Chat, decide: Guesser) -> tuple[list[str], Guess]:
    """Play on until the first device has guessed; the links of that guess for the second,
    taken out of the chat, and the guess."""
    while True:
        mover, choice = move(chat, decide)
        if mover == 0 and isinstance(choice, Guess):
            links = [link for to, link in chat.queue if to == 1]
            chat.queue.clear()
            return links, choice


def form(page) -> None:
    page.check("input[name='psi-squad-seats'][value='2']")
    page.check("input[name='psi-squad-length'][value='3']")


# -- a new tab on a return visit -----------------------------------------------------------------


@dataclass
class NewTab:
    opened_ms: float
    ready_ms: float
    engine_ms: float
    restored: bool
    call_at: float  # the link's call in the worker, from navigation
    parts: dict[str, float] = field(default_factory=dict)

    @property
    def apply_ms(self) -> float:
        """From the worker's last mark of the call to the board (the answer applied)."""
        worker = sum(self.parts[p] for p in PARTS)
        return self.opened_ms - self.call_at - worker


def console_of(page) -> list[str]:
    """The page's console lines (its workers' too), as they come."""
    lines: list[str] = []
    page.on("console", lambda message: lines.append(message.text))
    return lines


def wait_for_snapshot(page, lines: list[str]) -> None:
    """Until the page's first visit has made its engine snapshot (a first visit makes it in
    idle time, seconds of work that would fall on the figures)."""
    deadline = time.monotonic() + 300
    while not any(x.startswith(MADE) for x in lines):
        if time.monotonic() > deadline:
            raise RuntimeError(f"no snapshot made: {lines[-5:]}")
        page.wait_for_timeout(250)


def launch(browser_type, profile: Path):
    """A browser of its own on `profile`: its context, its tab, the tab's console lines."""
    context = browser_type.launch_persistent_context(profile, **chromium_launch_args())
    context.add_init_script(MARKS)
    page = context.pages[0] if context.pages else context.new_page()
    return context, page, console_of(page)


def open_in_new_tab(browser_type, profile: Path, link: str, guess: Guess, settle_ms: int):
    """The profile's browser started again, its tab opening `link`, which carries `guess`; the
    figures and the browser's context (its tab plays on)."""
    context, page, lines = launch(browser_type, profile)
    if settle_ms:
        page.wait_for_timeout(settle_ms)
    page.goto(link)
    page.wait_for_function("window.__openedAt !== undefined", timeout=READY_TIMEOUT_MS * 3)
    page.wait_for_function("location.hash === '#bylink'", timeout=STEP_MS)
    found = page.evaluate(FOUND)
    shown = found["digits"] or []
    assert any(x.startswith(guess.digits) for x in shown), ("not on the board", guess, shown)
    call = last_call(worker_marks(page), float(found["opened"]))
    return (
        context,
        page,
        NewTab(
            float(found["opened"]),
            float(found["ready"]),
            float(found["engine"]),
            any(x.startswith(RESTORED) for x in lines),
            call[0][1] if call else float("nan"),
            call_parts(call),
        ),
    )


def new_tab_rounds(
    browser, url: str, rounds: int, settle_ms: int
) -> Iterator[tuple[float, NewTab, int]]:
    """Each round: the bare page's first visit, then the new tab; with the save's records
    when the link came."""
    profile = Path(tempfile.mkdtemp(prefix="parlour-bench-linkopen-"))
    watches: list[PageWatch] = []
    other = Device(browser, SimpleNamespace(url=url), watches, 1280, 800, "light")
    other_lines = console_of(other.page)
    context, page, lines = launch(browser.browser_type, profile)
    try:
        me = Tab(page, url)
        chat, decide = Chat([other, me]), Guesser()
        chat.join(1, chat.create(GAME, form), "Bo")  # the profile's first visit
        wait_for_snapshot(page, lines)
        wait_for_snapshot(other.page, other_lines)
        for _ in range(rounds):
            links, guess = next_guess(chat, decide)
            assert len(links) == 1, links
            step = other.saved().match.step
            records = len(me.saved().to_json()["records"])
            context.close()
            bare = bare_visit(browser, url + "bench/bare.html", None)
            context, me.page, found = open_in_new_tab(
                browser.browser_type, profile, links[0], guess, settle_ms
            )
            me.wait_signed()
            assert me.saved().match.step > step, "the link's move was not taken"
            chat.post(1, me.sent())
            yield bare, found, records
    finally:
        context.close()
        other.context.close()
        shutil.rmtree(profile, ignore_errors=True)


def new_tab_report(rounds: Iterator[tuple[float, NewTab, int]], settle_ms: int) -> Iterator[str]:
    """Each round's line as it is measured, then the medians."""
    label = f", each tab {settle_ms} ms after its browser started" if settle_ms else ""
    yield f"opening a link in a new tab on a return visit (interleaved with the bare page{label})"
    found: list[tuple[float, NewTab]] = []
    for bare, tab, records in rounds:
        found.append((bare, tab))
        p = tab.parts
        yield (
            f"  round {len(found)}: bare {bare:5.0f} ms | link to board {tab.opened_ms:5.0f} ms"
            f" ({tab.opened_ms / bare:4.2f}x, {'restored' if tab.restored else 'COLD'});"
            f" ready {tab.ready_ms:4.0f}, engines {tab.engine_ms:5.0f}, call {tab.call_at:5.0f}:"
            f" checks {p['check']:4.0f} ({p['verify']:.0f} signatures, {records} records),"
            f" app {p['app']:4.0f}, sign {p['sign']:3.0f}, redraw {p['after-signing']:3.0f},"
            f" settle {p['settle']:3.0f}, applied {tab.apply_ms:3.0f}"
        )
    bare = statistics.median(b for b, _ in found)
    opened = statistics.median(t.opened_ms for _, t in found)
    ratio = opened / bare

    def median(get) -> float:
        return statistics.median(get(t) for _, t in found)

    def part(name: str) -> float:
        return median(lambda t: t.parts[name])

    yield (
        f"  medians of {len(found)}: bare {bare:5.0f} ms; link to board {opened:5.0f} ms,"
        f" ratio {ratio:4.2f} (goal {NEW_TAB_GOAL}: {'met' if ratio <= NEW_TAB_GOAL else 'missed'})"
    )
    yield (
        f"  where it goes, medians: main thread up {median(lambda t: t.ready_ms):4.0f} ms;"
        f" engines {median(lambda t: t.engine_ms):5.0f}; the call starts"
        f" {median(lambda t: t.call_at):5.0f}; in it, checks {part('check'):4.0f},"
        f" app {part('app'):4.0f}, sign {part('sign'):3.0f}, redraw {part('after-signing'):3.0f},"
        f" settle {part('settle'):3.0f}; applied {median(lambda t: t.apply_ms):3.0f}"
    )


# -- within an open page ---------------------------------------------------------------------


def open_page(browser, url: str, links: int) -> list[tuple[float, dict[str, float]]]:
    """A game between two open pages until `links` links were opened after the join: each
    link's time to the board, and its call's parts."""
    watches: list[PageWatch] = []
    site = SimpleNamespace(url=url)
    devices = [
        TimedDevice(browser, site, watches, 1280, 800, "light"),
        TimedDevice(browser, site, watches, 360, 740, "dark"),
    ]
    lines = [console_of(d.page) for d in devices]
    chat, decide = Chat(list(devices)), Guesser()
    try:
        chat.join(1, chat.create(GAME, form), "Bo")
        for device, said in zip(devices, lines, strict=True):
            wait_for_snapshot(device.page, said)
        for device in devices:
            device.timing = True
        while sum(len(d.times) for d in devices) < links:
            move(chat, decide)
        chat.deliver()
    finally:
        for device in devices:
            device.context.close()
    return [t for d in devices for t in d.times]


def open_page_report(found: list[tuple[float, dict[str, float]]]) -> Iterator[str]:
    times = [t for t, _ in found]
    p95 = percentile(times, 0.95)
    yield f"opening a link in an open page ({len(times)} links of a Psi Squad game between two)"
    yield (
        f"  link to board: p50 {percentile(times, 0.5):4.0f} ms, p95 {p95:4.0f} ms,"
        f" max {max(times):4.0f} ms (goal p95 under {OPEN_PAGE_GOAL_MS} ms:"
        f" {'met' if p95 < OPEN_PAGE_GOAL_MS else 'missed'})"
    )
    medians = {p: statistics.median(parts[p] for _, parts in found) for p in (*PARTS, "verify")}
    rest = statistics.median(t - sum(parts[p] for p in PARTS) for t, parts in found)
    yield (
        f"  where it goes, medians: checks {medians['check']:4.0f} ms"
        f" ({medians['verify']:.0f} signatures), app {medians['app']:4.0f},"
        f" sign {medians['sign']:3.0f}, redraw {medians['after-signing']:3.0f},"
        f" settle {medians['settle']:3.0f}; the main thread and the crossing {rest:4.0f}"
    )


def run(browser, url: str, rounds: int, links: int, settle_ms: int = 0) -> Iterator[str]:
    """The report's lines, each part as soon as it is measured."""
    measure_load(browser, url)  # warm the server and the OS file cache, not the browser's
    yield from new_tab_report(new_tab_rounds(browser, url, rounds, settle_ms), settle_ms)
    yield from open_page_report(open_page(browser, url, links))
