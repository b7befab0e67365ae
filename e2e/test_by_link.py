"""Play by link for real: two browser contexts (two devices: their own storage, keys and
secrets) play a whole Psi Squad game by links only. No WebRTC, no BroadcastChannel: the test
copies each link a device shows and opens it in the other, as a group chat would carry it; one
device reloads in the middle, and a link opened twice says so. Screenshots of the send-link
panel, the join screen and Your games, at 360 and 1280, light and dark."""

from __future__ import annotations

import json
import time

from e2e import axe
from e2e.clicks import CLICKS
from e2e.harness import READY, READY_TIMEOUT_MS, PageWatch
from parlour.fair.signing import DeviceKey
from parlour.games.psi_squad.actions import ChooseCypher, Guess
from parlour.match.by_link import LinkPlay
from tests.signers import verify

ROOT = "#bylink"
STEP_MS = 15_000
CYPHERS = ("123", "456")
SAVE = "psi-parlour:link:"


class Reader:
    """The public half of the key a save was signed with (the test signs nothing)."""

    def __init__(self, key: DeviceKey) -> None:
        self.algorithm, self.public_key = key.algorithm, key.public

    def sign(self, data: bytes) -> None:
        return None


def shots(page, screenshots, name: str, element: str | None = None, log=None) -> None:
    """The screen at 360x740 and 1280x800, light and dark, photographed and checked with axe
    (`log`); the page's own size and scheme after."""
    size = page.viewport_size
    axe.inject(page)
    for width, height in ((360, 740), (1280, 800)):
        page.set_viewport_size({"width": width, "height": height})
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            target = page.locator(element) if element else page
            target.screenshot(path=screenshots / f"bylink-{name}-{width}-{scheme}.png")
            if log is not None:
                log.check(f"{name} [{scheme} {width}]", element or ROOT)
    page.set_viewport_size(size)
    page.emulate_media(color_scheme=None)


# A browser with the Web Share API (a phone's): what it was asked to share is kept.
SHARE = """
navigator.share = (data) => { window.__shared = data.url; return Promise.resolve(); };
"""


class Device:
    def __init__(
        self, browser, site, watches, width: int, height: int, scheme: str, init: str = ""
    ) -> None:
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
            f"JSON.stringify(Object.keys(localStorage).filter(k => k.startsWith('{SAVE}'))"
            ".map(k => localStorage.getItem(k)))"
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

    def decide(self, play: LinkPlay, seat: int):
        state = play.table.state
        if state.setting_up:
            return ChooseCypher(CYPHERS[seat])
        target = state.targets(seat)[0]
        self.guesses += 1
        digits = CYPHERS[target] if self.guesses > 2 else CYPHERS[target][::-1]
        return Guess(target, digits)


def test_psi_squad_by_link_between_two_devices_with_a_reload_and_a_link_opened_twice(
    browser, site, screenshots
):
    started = time.monotonic()
    watches: list[PageWatch] = []
    ada = Device(browser, site, watches, 1280, 800, "light")
    bo = Device(browser, site, watches, 360, 740, "dark", SHARE)
    page = ada.page
    page.goto(site.url + "#new-psi-squad")
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    page.check("input[name='psi-squad-seats'][value='2']")
    page.check("input[name='psi-squad-length'][value='3']")
    page.fill("#new-psi-squad [data-seat-name='0']", "Ada")
    page.click("#new-psi-squad .link-setup summary")
    log = axe.AxeLog(page, "by link")
    shots(page, screenshots, "setup", "#new-psi-squad .link-setup", log)
    page.click("#new-psi-squad a[href='#link-psi-squad']")
    page.locator(f"{ROOT} [data-role=bylink-send] input").first.wait_for(timeout=STEP_MS)
    shots(page, screenshots, "send", ROOT, log)
    assert page.locator(f"{ROOT} [data-share]").first.is_hidden()  # no Web Share API here
    invite = ada.sent()
    assert len(invite) == 1 and "#pl=1." in invite[0]

    bo.page.goto(invite[0])
    bo.page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    bo.page.locator(f"{ROOT} [data-role=bylink-join]").wait_for(timeout=STEP_MS)
    join_log = axe.AxeLog(bo.page, "by link")
    shots(bo.page, screenshots, "join", None, join_log)
    bo.page.fill(f"{ROOT} [data-field=bylink-name]", "Bo")
    bo.page.click(f"{ROOT} [data-cmd=bylink-join]")
    bo.page.locator(f"{ROOT} [data-role=bylink-send] input").first.wait_for(timeout=STEP_MS)
    share = bo.page.locator(f"{ROOT} [data-share]").first
    share.click()  # shown where the browser has the Web Share API
    shared = bo.page.evaluate("window.__shared")
    assert shared == bo.page.locator(f"{ROOT} [data-role=bylink-link-0]").get_attribute("value")

    devices = [ada, bo]
    queue = [(0, link) for link in bo.sent()]
    first_links = list(queue)
    reloaded = opened_twice = False
    for _ in range(200):
        if queue:
            to, link = queue.pop(0)
            devices[to].open(link)
            queue += [(1 - to, x) for x in devices[to].sent()]
            continue
        plays = [d.saved() for d in devices]
        if all(p.audit_result is not None for p in plays):
            break
        if not reloaded and plays[0].match is not None and plays[0].match.step >= 4:
            reloaded = True
            bo.page.reload()
            bo.page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
            bo.page.locator(f"{ROOT} .play").wait_for(timeout=STEP_MS)
            bo.page.screenshot(path=screenshots / "bylink-board-after-reload-360-dark.png")
        if not opened_twice and plays[0].match is not None and plays[0].match.step >= 2:
            opened_twice = True
            said = ada.open(first_links[0][1])
            assert "already" in said or "older" in said, said
            ada.sent()
        mover = next((i for i, p in enumerate(plays) if p.summary()["my_turn"]), None)
        assert mover is not None, [p.waiting() for p in plays]
        device, play = devices[mover], plays[mover]
        seat = play.local[0]
        CLICKS["psi-squad"](device.page, ROOT, play.table.state, device.decide(play, seat))
        device.page.locator(f"{ROOT} [data-role=bylink-send] input").first.wait_for(timeout=STEP_MS)
        device.wait_signed()
        queue += [(1 - mover, x) for x in device.sent()]
    assert reloaded and opened_twice
    for device in devices:
        result = device.page.locator(f"{ROOT} [data-role=result]")
        result.wait_for(timeout=STEP_MS)
        result.locator("[data-audit=verified]").wait_for(timeout=STEP_MS)
    heads = {d.saved().match.head() for d in devices}
    assert len(heads) == 1
    ada.page.goto(site.url + "#home")
    ada.page.locator(".link-games [data-match]").wait_for(timeout=STEP_MS)
    shots(ada.page, screenshots, "your-games", ".link-games", log)
    log.assert_clean()
    join_log.assert_clean()
    opening = sorted(t for d in devices for t in d.opening)
    print(
        f"by link, whole game: {time.monotonic() - started:.1f} s; a link opened to its board: "
        f"median {opening[len(opening) // 2] * 1000:.0f} ms, max {opening[-1] * 1000:.0f} ms "
        f"({len(opening)} links)"
    )
    for device in devices:
        device.context.close()
    for watch in watches:
        assert watch.foreign_requests() == []
        assert watch.unexpected_problems() == []
