"""Play by link for real: two browser contexts (two devices: their own storage, keys and
secrets; e2e/link_players.py) play a whole game by links only: Psi Squad between three, ESP,
ESPEERS and Telepathic between two. No WebRTC, no BroadcastChannel: the test
copies each link a device shows and opens it in the other, as a group chat would carry it; one
device reloads in the middle, and a link opened twice says so. Screenshots of the send-link
panel, the join screen and Your games, at 360 and 1280, light and dark."""

from __future__ import annotations

import time

from e2e import axe
from e2e.clicks import CLICKS
from e2e.harness import READY, READY_TIMEOUT_MS, PageWatch
from e2e.link_players import ROOT, STEP_MS, Chat, Device
from parlour.games.psi_squad.actions import ChooseCypher, Guess
from parlour.match.by_link import LinkPlay

CYPHERS = ("123", "456", "789")


def shots(
    page, screenshots, name: str, element: str | None = None, log=None, prefix: str = "bylink"
) -> None:
    """The screen at 360x740 and 1280x800, light and dark, photographed and checked with axe
    (`log`); the page's own size and scheme after."""
    size = page.viewport_size
    axe.inject(page)
    for width, height in ((360, 740), (1280, 800)):
        page.set_viewport_size({"width": width, "height": height})
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            target = page.locator(element) if element else page
            target.screenshot(path=screenshots / f"{prefix}-{name}-{width}-{scheme}.png")
            if log is not None:
                log.check(f"{name} [{scheme} {width}]", element or ROOT)
    page.set_viewport_size(size)
    page.emulate_media(color_scheme=None)


# A browser with the Web Share API (a phone's): what it was asked to share is kept.
SHARE = """
navigator.share = (data) => { window.__shared = data.url; return Promise.resolve(); };
"""


def test_psi_squad_by_link_between_three_devices_with_a_reload_and_a_link_opened_twice(
    browser, site, screenshots
):
    started = time.monotonic()
    watches: list[PageWatch] = []
    ada = Device(browser, site, watches, 1280, 800, "light")
    bo = Device(browser, site, watches, 360, 740, "dark", SHARE)
    cy = Device(browser, site, watches, 1280, 800, "dark")
    chat = Chat([ada, bo, cy], waits=True)
    page = ada.page
    page.goto(site.url + "#new-psi-squad")
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    page.check("input[name='psi-squad-seats'][value='3']")
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
    assert len(invite) == 1 and "#pl=2." in invite[0]

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
    chat.sent_first = bo.sent()
    chat.post(1, chat.sent_first)
    chat.join(2, invite, "Cy")

    done = {"reloaded": False, "twice": False}

    def middle(plays: list[LinkPlay]) -> bool:
        step = plays[0].match.step if plays[0].match is not None else 0
        if not done["reloaded"] and step >= 4:
            done["reloaded"] = True
            bo.page.reload()
            bo.page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
            bo.page.locator(f"{ROOT} .play").wait_for(timeout=STEP_MS)
            bo.page.screenshot(path=screenshots / "bylink-board-after-reload-360-dark.png")
        if not done["twice"] and step >= 2:
            done["twice"] = True
            said = ada.open(chat.sent_first[0])
            assert "already" in said or "older" in said, said
            ada.sent()
        return False

    guesses: dict[int, int] = {}

    def decide(play: LinkPlay, seat: int, plays: list[LinkPlay]) -> object:
        state = play.table.state
        if state.setting_up:
            return ChooseCypher(CYPHERS[seat])
        target = state.targets(seat)[0]
        guesses[seat] = guesses.get(seat, 0) + 1
        digits = CYPHERS[target] if guesses[seat] > 2 else CYPHERS[target][::-1]
        return Guess(target, digits)

    chat.play("psi-squad", decide, middle=middle)
    assert done["reloaded"] and done["twice"]
    chat.check_the_end()
    ada.page.goto(site.url + "#home")
    ada.page.locator(".link-games li[data-match]").wait_for(timeout=STEP_MS)
    shots(ada.page, screenshots, "your-games", ".link-games", log)
    log.assert_clean()
    join_log.assert_clean()
    chat.report("Psi Squad, three devices", started)
    chat.close(watches)


def pair(browser, site, watches: list[PageWatch]) -> Chat:
    """Two devices: a desktop (1280x800, light) and a phone (360x740, dark)."""
    return Chat(
        [
            Device(browser, site, watches, 1280, 800, "light"),
            Device(browser, site, watches, 360, 740, "dark"),
        ]
    )


def test_telepathic_pair_by_link_ends_on_the_waiting_partner_s_announcement(browser, site):
    """A whole Telepathic game by links: after the first turn, the partner who is not active
    makes the Announcement from their own device (the rules let either partner)."""
    from parlour.games.telepathic.grid import holds
    from parlour.games.telepathic.rules import Announce, HandCard, Perform, Respond

    started = time.monotonic()
    watches: list[PageWatch] = []
    chat = pair(browser, site, watches)

    def form(page) -> None:
        page.check("input[name='telepathic-arrangement'][value='pair']")

    chat.join(1, chat.create("telepathic", form), "Bo")
    announced: list[int] = []

    def win(plays: list[LinkPlay], seat: int, which: str = "win") -> str:
        holder = next(p for p in plays if seat in p.local)
        return str(holder.stores[seat].value("conditions")[which])

    def middle(plays: list[LinkPlay]) -> bool:
        state = plays[0].table.state if plays[0].table is not None else None
        if state is None or announced or state.phase != "hand" or not state.turns:
            return False
        waiting = 1 - state.active
        announced.append(waiting)
        choice = Announce(((state.active, win(plays, state.active)),))
        CLICKS["telepathic"](chat.devices[waiting].page, ROOT, state, choice)
        chat.devices[waiting].wait_signed()
        chat.post(waiting, chat.devices[waiting].sent())
        return True

    def safe(play: LinkPlay, seat: int, plays: list[LinkPlay], choice: object) -> bool:
        """No lose condition met after it (the cards are dealt at random)."""
        if not isinstance(choice, Perform):
            return True
        after = play.table.game.apply(play.table.state, seat, choice)
        loses = [win(plays, s, "lose") for s in (0, 1)]
        return not any(holds(after.grid, lose) for lose in loses)

    def decide(play: LinkPlay, seat: int, plays: list[LinkPlay]) -> object:
        state = play.table.state
        if state.phase == "respond":
            return Respond(win(plays, state.announcer))
        legal = [a for a in play.table.legal(seat) if isinstance(a, (HandCard, Perform))]
        return next((a for a in legal if safe(play, seat, plays, a)), legal[0])

    chat.play("telepathic", decide, middle=middle)
    assert announced
    chat.check_the_end()
    final = chat.devices[0].saved()
    assert final.table.state.announcer == announced[0]
    chat.report("Telepathic pair", started)
    chat.close(watches)


def test_esp_by_link_between_two_devices(browser, site):
    from e2e.test_esp import plan_game
    from parlour.games.esp.rules import Flip

    started = time.monotonic()
    watches: list[PageWatch] = []
    chat = pair(browser, site, watches)
    chat.join(
        1, chat.create("esp", lambda page: page.check("input[name='esp-seats'][value='2']")), "Bo"
    )
    names = tuple(chat.devices[0].saved().names)
    plan = iter(plan_game(names))

    def decide(play: LinkPlay, seat: int, plays: list[LinkPlay]) -> object:
        planned_seat, choice = next(plan)
        assert planned_seat == seat
        if isinstance(choice, Flip):  # the plan's flip, with this device's own opening
            legal = play.table.legal(seat)
            return next(a for a in legal if isinstance(a, Flip) and a.cell == choice.cell)
        return choice

    moves = chat.play("esp", decide)
    chat.check_the_end()
    chat.report(f"ESP, {moves} moves", started)
    chat.close(watches)


def test_espeers_by_link_between_two_devices(browser, site):
    from parlour.bots import espeers_scripted
    from parlour.fair.rng import Rng

    started = time.monotonic()
    watches: list[PageWatch] = []
    chat = pair(browser, site, watches)
    chat.join(1, chat.create("espeers", lambda page: None), "Bo")
    rng = Rng(b"by link espeers")

    def decide(play: LinkPlay, seat: int, plays: list[LinkPlay]) -> object:
        table = play.table
        return espeers_scripted.choose(table.state, seat, table.legal(seat), rng)

    moves = chat.play("espeers", decide, most=600)
    chat.check_the_end()
    chat.report(f"ESPEERS, {moves} moves", started)
    chat.close(watches)
