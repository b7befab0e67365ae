"""Devices playing a game by link through the real page, for the browser tests and the bench
(bench/linkopen.py): each `Device` a browser context of its own (its storage, keys and secrets),
a `Chat` carrying every link one device shows to the others, as a group chat would. Here, not in
a test module, so the bench imports no tests.
"""

from __future__ import annotations

import json
import re
import time

from e2e.clicks import CLICKS
from e2e.harness import READY, READY_TIMEOUT_MS, PageWatch
from parlour.fair.signing import DeviceKey
from parlour.match.by_link import LinkPlay
from parlour.match.by_link.live import saved_live_keys
from tests.signers import verify

ROOT = "#bylink"
STEP_MS = 15_000
SAVE = "psi-parlour:link:"
# Words of the protocol a waiting sentence never says: it names the player the game waits on.
PROTOCOL_WORDS = re.compile(r"\b(seal|reveal|share|seed|head|record)", re.IGNORECASE)
OVER = "The game is over and checked."


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
        self.read: tuple[str, LinkPlay] | None = None  # the last save read back, and its game

    @classmethod
    def of_page(cls, page, site: str, context=None, watch: PageWatch | None = None) -> Device:
        """A device whose page is given (a tab of a browser profile, a live game's tab): no
        context of its own is made."""
        device = cls.__new__(cls)
        device.page, device.site, device.context, device.watch = page, site, context, watch
        device.guesses, device.opening, device.read = 0, [], None
        return device

    def save(self) -> str:
        return json.loads(
            self.page.evaluate(
                f"JSON.stringify(Object.keys(localStorage).filter(k => k.startsWith('{SAVE}')"
                f" && !k.slice({len(SAVE)}).includes(':')).map(k => localStorage.getItem(k)))"
            )
        )[0]

    def raw(self) -> dict:
        """This device's save, as JSON (its records, its own device name `me`)."""
        return json.loads(self.save())

    def saved(self) -> LinkPlay:
        """This device's game as it saved it (read back with the public key of its own join;
        a save unchanged since it was last read is not read again)."""
        text = self.save()
        if self.read is not None and self.read[0] == text:
            return self.read[1]
        data = json.loads(text)
        me = data["me"]
        first = next(r for r in data["records"] if r["d"] == me and r["q"] == 1)
        carried = saved_live_keys(data)[0]  # a live game carried on: its keys are the live ones
        key = carried[me] if me in carried else DeviceKey.from_json(first["b"]["k"])
        play = LinkPlay.from_json(data, Reader(key), verify, time.time())
        self.read = (text, play)
        return play

    def waiting_line(self) -> str:
        """The sentence of the by-link bar: whom or what this device waits for."""
        return self.page.locator(f"{ROOT} [data-role=bylink-waiting]").inner_text()

    def shown(self) -> list[str]:
        """The links the screen's "Send this link" shows, or none."""
        return self.page.eval_on_selector_all(
            f"{ROOT} [data-role=bylink-send] input", "els => els.map(e => e.getAttribute('value'))"
        )

    def asks_to_send(self) -> bool:
        return bool(self.shown())

    def sent(self) -> list[str]:
        """The links shown to send now (then "Done: I sent it"), or none."""
        links = self.shown()
        if links:
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

    def __init__(self, devices: list[Device], waits: bool = False) -> None:
        self.devices = devices
        self.queue: list[tuple[int, str]] = []
        self.sent_first: list[str] = []  # the first links a joiner sent (opened twice later)
        self.compared = False  # every device showed one table code during play, and was told
        self.waits = waits  # check every screen's sentence at every wait (`check_wait`)
        self.waits_checked = 0

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
            device = self.devices[to]
            device.open(link)
            if self.waits and device.asks_to_send():  # its own steps: the others lack them
                who = f"device {to} ({device.raw()['me']})"
                assert self.unheard(to, [d.raw() for d in self.devices]), (
                    f"{who} is asked to send a link; every other device has all of its"
                )
            elif self.waits:  # at a wait: nothing to send
                self.check_wait(to)
            self.post(to, device.sent())

    def who(self, index: int, play: LinkPlay) -> str:
        return f"device {index} ({', '.join(play.names[s] for s in play.local)})"

    def check_wait(
        self, index: int, play: LinkPlay | None = None, raws: list[dict] | None = None
    ) -> None:
        """Device `index` at a wait (issue 38): its screen says what the pure model says for its
        save, naming a player, in the players' words; it asks to send a link only when it holds
        records of its own that another device lacks."""
        device = self.devices[index]
        play = play or device.saved()
        said, shown, who = play.waiting(), device.waiting_line(), self.who(index, play)
        assert shown == said, f"{who}'s screen says {shown!r}, its save {said!r}"
        assert said == OVER or any(n in said for n in play.names), f"{who}: {said!r}"
        assert not PROTOCOL_WORDS.search(said), f"{who}: {said!r}"
        if device.asks_to_send():
            unheard = self.unheard(index, raws or [d.raw() for d in self.devices])
            assert unheard, f"{who} is asked to send a link; every other device has all of its"
        self.waits_checked += 1

    def unheard(self, index: int, raws: list[dict]) -> dict[int, list[int]]:
        """The records of device `index` that each other device lacks (by their saves)."""
        me = raws[index]["me"]
        mine = {r["q"] for r in raws[index]["records"] if r["d"] == me}
        lacking = {
            other: sorted(mine - {r["q"] for r in raw["records"] if r["d"] == me})
            for other, raw in enumerate(raws)
            if other != index
        }
        return {other: qs for other, qs in lacking.items() if qs}

    def stuck(self, plays: list[LinkPlay]) -> str:
        """Why nobody moves: each device's sentence, the records it lacks (device, number and
        kind), what others lack of its own, and whether its screen asks to send."""
        raws = [d.raw() for d in self.devices]
        every = {(r["d"], r["q"]): r["t"] for raw in raws for r in raw["records"]}
        lines = []
        for i, (device, play, raw) in enumerate(zip(self.devices, plays, raws, strict=True)):
            held = {(r["d"], r["q"]) for r in raw["records"]}
            lacks = sorted((*key, kind) for key, kind in every.items() if key not in held)
            lines.append(
                f"{self.who(i, play)} ({raw['me']}) shows {device.waiting_line()!r}, its save "
                f"says {play.waiting()!r}; it lacks {lacks}; others lack its "
                f"{self.unheard(i, raws)}; asks to send: {device.asks_to_send()}"
            )
        return "nobody is to move and no screen asks to send a link:\n" + "\n".join(lines)

    def play(self, game: str, decide, most: int = 400, middle=None) -> int:
        """Deliver and move until every device's audit is in; `middle(plays)` runs between
        moves (a reload, a link opened twice). The moves made by clicks."""
        for moves in range(most):
            self.deliver()
            plays = [d.saved() for d in self.devices]
            if self.waits:  # every link delivered, opened, and what it asked for sent
                raws = [d.raw() for d in self.devices]
                for index, play in enumerate(plays):
                    self.check_wait(index, play, raws)
            if all(p.audit_result is not None for p in plays):
                assert self.compared, "the table code was never shown during play"
                return moves  # moves made by clicks
            if not self.compared and all(p.match is not None for p in plays):
                self.compare_codes(plays)
            if middle is not None and middle(plays):
                continue  # it changed the game: read every device again
            mover = next((i for i, p in enumerate(plays) if p.summary()["my_turn"]), None)
            assert mover is not None, self.stuck(plays)
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
        waits = f"; {self.waits_checked} waits checked" if self.waits else ""
        print(
            f"by link, {what}: {time.monotonic() - started:.1f} s; a link opened to its board: "
            f"median {opening[len(opening) // 2] * 1000:.0f} ms, max "
            f"{opening[-1] * 1000:.0f} ms ({len(opening)} links){waits}"
        )
