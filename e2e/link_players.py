"""Devices playing a game by link through the real page, for the browser tests and the bench
(bench/linkopen.py): each `Device` a browser context of its own (its storage, keys and secrets),
a `Chat` carrying every link one device shows to the others, as a group chat would. Here, not in
a test module, so the bench imports no tests.
"""

from __future__ import annotations

import json
import time

from e2e.clicks import CLICKS
from e2e.harness import READY, READY_TIMEOUT_MS, PageWatch
from parlour.fair.signing import DeviceKey
from parlour.match.by_link import LinkPlay
from tests.signers import verify

ROOT = "#bylink"
STEP_MS = 15_000
SAVE = "psi-parlour:link:"


class Reader:
    """The public half of the key a save was signed with (the test signs nothing)."""

    def __init__(self, key: DeviceKey) -> None:
        self.algorithm, self.public_key = key.algorithm, key.public

    def sign(self, data: bytes) -> None:
        return None


class Device:
    def __init__(
        self, browser, site, watches, width: int, height: int, scheme: str, init: str = ""
    ) -> None:
        self.site = site.url
        self.context = browser.new_context(
            viewport={"width": width, "height": height}, color_scheme=scheme
        )
        if init:
            self.context.add_init_script(init)
        self.page = self.context.new_page()
        self.watch = PageWatch(site.url)
        self.watch.attach(self.page)
        watches.append(self.watch)
        self.guesses = 0
        self.opening: list[float] = []  # seconds from opening a link to its board drawn

    def saved(self) -> LinkPlay:
        """This device's game as it saved it (read back with the public key of its own join)."""
        raw = self.page.evaluate(
            f"JSON.stringify(Object.keys(localStorage).filter(k => k.startsWith('{SAVE}')"
            f" && !k.slice({len(SAVE)}).includes(':')).map(k => localStorage.getItem(k)))"
        )
        data = json.loads(json.loads(raw)[0])
        me = data["me"]
        first = next(r for r in data["records"] if r["d"] == me and r["q"] == 1)
        key = DeviceKey.from_json(first["b"]["k"])
        return LinkPlay.from_json(data, Reader(key), verify, time.time())

    def sent(self) -> list[str]:
        """The links shown to send now (then "Done: I sent it"), or none."""
        panel = self.page.locator(f"{ROOT} [data-role=bylink-send]")
        if panel.count() == 0:
            return []
        links = [x.get_attribute("value") for x in panel.locator("input").all()]
        self.page.click(f"{ROOT} [data-cmd=bylink-sent]")
        return links

    def open(self, link: str) -> str:
        """Open a link as a chat's tap would; what the game said of it."""
        before = self.page.evaluate("document.documentElement.dataset.linksOpened || '0'")
        started = time.monotonic()
        self.page.evaluate("link => { location.hash = new URL(link).hash; }", link)
        self.page.wait_for_function(
            f"(document.documentElement.dataset.linksOpened || '0') !== '{before}'"
            " && location.hash === '#bylink'",
            timeout=STEP_MS,
        )
        self.wait_signed()
        self.opening.append(time.monotonic() - started)
        return self.page.locator(f"{ROOT} [data-role=bylink-said]").inner_text()

    def wait_signed(self) -> None:
        self.page.wait_for_function(
            "!document.querySelector('#bylink [data-role=bylink-signing]')", timeout=STEP_MS
        )


class Chat:
    """A group chat between devices (browser contexts): every link one shows goes to all the
    others, opened in the order sent; the device the game waits on moves by clicks."""

    def __init__(self, devices: list[Device]) -> None:
        self.devices = devices
        self.queue: list[tuple[int, str]] = []
        self.sent_first: list[str] = []  # the first links a joiner sent (opened twice later)
        self.compared = False  # every device showed one table code during play, and was told

    def post(self, sender: int, links: list[str]) -> None:
        self.queue += [(to, x) for x in links for to in range(len(self.devices)) if to != sender]

    def create(self, game: str, form) -> list[str]:
        """The first device makes the game from its set-up form's Play by link."""
        page = self.devices[0].page
        page.goto(self.devices[0].site + f"#new-{game}")
        page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
        form(page)
        page.click(f"#new-{game} .link-setup summary")
        page.click(f"#new-{game} a[href='#link-{game}']")
        page.locator(f"{ROOT} [data-role=bylink-send] input").first.wait_for(timeout=STEP_MS)
        page.locator(f"{ROOT} [data-role=bylink-bar] [data-role=invite-code]").wait_for(
            timeout=STEP_MS
        )  # the code joiners compare before joining, on the creator's screen too
        return self.devices[0].sent()

    def join(self, index: int, invite: list[str], name: str) -> None:
        """Device `index` opens the invite (every part), joins, and posts its link."""
        device = self.devices[index]
        device.page.goto(invite[0])
        device.page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
        for part in invite[1:]:
            device.open(part)
        device.page.locator(f"{ROOT} [data-role=bylink-join]").wait_for(timeout=STEP_MS)
        terms = device.page.locator(f"{ROOT} [data-role=bylink-terms]").inner_text()
        assert "time per move" in terms.lower(), terms  # said before joining (issue 37)
        code = device.page.locator(f"{ROOT} [data-role=invite-code] [data-code]")
        invited = code.get_attribute("data-code", timeout=STEP_MS)
        assert invited == self.devices[0].saved().invite_code(), invited  # compared first
        device.page.fill(f"{ROOT} [data-field=bylink-name]", name)
        device.page.select_option(f"{ROOT} [data-field=bylink-seat]", str(index))
        device.page.click(f"{ROOT} [data-cmd=bylink-join]")
        device.page.locator(f"{ROOT} [data-role=bylink-send] input").first.wait_for(timeout=STEP_MS)
        links = device.sent()
        self.sent_first = self.sent_first or links
        self.post(index, links)

    def deliver(self) -> None:
        while self.queue:
            to, link = self.queue.pop(0)
            self.devices[to].open(link)
            self.post(to, self.devices[to].sent())

    def play(self, game: str, decide, most: int = 400, middle=None) -> int:
        """Deliver and move until every device's audit is in; `middle(plays)` runs between
        moves (a reload, a link opened twice). The moves made by clicks."""
        for moves in range(most):
            self.deliver()
            plays = [d.saved() for d in self.devices]
            if all(p.audit_result is not None for p in plays):
                assert self.compared, "the table code was never shown during play"
                return moves  # moves made by clicks
            if not self.compared and all(p.match is not None for p in plays):
                self.compare_codes(plays)
            if middle is not None and middle(plays):
                continue  # it changed the game: read every device again
            mover = next((i for i, p in enumerate(plays) if p.summary()["my_turn"]), None)
            assert mover is not None, [p.waiting() for p in plays]
            device, play = self.devices[mover], plays[mover]
            match = play.match
            seat = min(s for s in match.game.to_move(match.state) if s in play.local)
            CLICKS[game](device.page, ROOT, play.table.state, decide(play, seat, plays))
            device.page.locator(f"{ROOT} [data-role=bylink-send] input").first.wait_for(
                timeout=STEP_MS
            )
            device.wait_signed()
            self.post(mover, device.sent())
        raise AssertionError("the game by link did not end")

    def compare_codes(self, plays: list[LinkPlay]) -> None:
        """During play (issue 37), each device's bar shows the table code and asks once to
        compare it in the chat; the same code on every device; the question then goes."""
        codes = set()
        for device, play in zip(self.devices, plays, strict=True):
            page = device.page
            page.evaluate("location.hash = '#bylink'")
            shown = page.locator(f"{ROOT} [data-role=bylink-bar] [data-role=table-code]")
            code = shown.locator("[data-code]").first.get_attribute("data-code", timeout=STEP_MS)
            assert code == play.table_code(), (code, play.table_code())
            codes.add(code)
            page.click(f"{ROOT} [data-cmd=bylink-compared]")
            page.locator(f"{ROOT} [data-cmd=bylink-compared]").wait_for(
                state="detached", timeout=STEP_MS
            )
        assert len(codes) == 1, codes
        self.compared = True

    def check_the_end(self) -> None:
        """Every device shows the result with its audit verified, and all hold one log."""
        for device in self.devices:
            result = device.page.locator(f"{ROOT} [data-role=result]")
            result.wait_for(timeout=STEP_MS)
            result.locator("[data-audit=verified]").wait_for(timeout=STEP_MS)
        assert len({d.saved().match.head() for d in self.devices}) == 1

    def close(self, watches: list[PageWatch]) -> None:
        for device in self.devices:
            device.context.close()
        for watch in watches:
            assert watch.foreign_requests() == []
            assert watch.unexpected_problems() == []

    def report(self, what: str, started: float) -> None:
        opening = sorted(t for d in self.devices for t in d.opening)
        print(
            f"by link, {what}: {time.monotonic() - started:.1f} s; a link opened to its board: "
            f"median {opening[len(opening) // 2] * 1000:.0f} ms, max "
            f"{opening[-1] * 1000:.0f} ms ({len(opening)} links)"
        )
