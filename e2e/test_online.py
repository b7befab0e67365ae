"""Online play for real: isolated browser contexts connect through the invite and answer codes over
WebRTC on loopback, and play each game to the end.

Each context is its own device (its own storage, its own secrets). The test reads a device's
saved online game (localStorage) to know what that device may do, decides, and clicks. An init
script records every message a data channel sends, so the traffic can be checked for secrets,
and lets the test rewrite one outgoing message (a tampered reveal).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import re
import time
import warnings
from collections import Counter

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from e2e.clicks import CLICKS
from e2e.harness import READY, READY_TIMEOUT_MS, PageWatch
from e2e.players import plan_game
from e2e.tele_planner import plan_win
from parlour.bots import espeers_scripted
from parlour.fair.rng import Rng
from parlour.fair.signing import DeviceKey, b64, unb64
from parlour.games.esp.actions import Flip
from parlour.games.espeers.cards import STARTER_DECKS
from parlour.games.psi_squad.actions import ChooseCypher, Guess
from parlour.games.telepathic.actions import Announce, HandCard, Perform, Respond
from parlour.games.telepathic.grid import holds
from parlour.match.online import OnlineSession
from parlour.match.online.device import Crypto
from parlour.match.replay import from_code, link_to
from parlour.match.signature_check import CAVEAT
from parlour.match.viewer import Replay
from tests.signers import verify

ROOT = "#online"
SAVED = "JSON.parse(localStorage.getItem(document.documentElement.dataset.onlineSave) || 'null')"
LOG = f"({SAVED}?.session?.match?.log || []).length"
STEP_TIMEOUT_MS = 15_000

# Recorded traffic, and a one-shot rewrite of an outgoing message, installed before the page runs.
INIT = """
window.__traffic = [];
window.__tamper = null;
const send = RTCDataChannel.prototype.send;
RTCDataChannel.prototype.send = function (data) {
  let text = String(data);
  if (window.__tamper) {
    const changed = window.__tamper(text);
    if (changed !== null) { text = changed; window.__tamper = null; }
  }
  window.__traffic.push(text);
  return send.call(this, text);
};
"""


# Rewrites the next move carrying an opening: its symbol becomes another one.
LIE_ABOUT_A_FLIP = """() => {
  window.__tamper = t => {
    if (!t.includes('"t":"propose"') || !t.includes('"opening"')) return null;
    return t.replace(/"value":"(\\w+)"/,
                     (m, v) => `"value":"${v === 'star' ? 'circle' : 'star'}"`);
  };
}"""


class Reader:
    """The public half of the key a save was signed with: all the tests need to read it back
    (they sign nothing; the private key never leaves the page's WebCrypto)."""

    def __init__(self, key: DeviceKey) -> None:
        self.algorithm, self.public_key = key.algorithm, key.public

    def sign(self, data: bytes) -> None:
        return None


def reader(data: dict) -> Crypto | None:
    """A signed save's device key, to read the save with (every signature was checked on
    arrival in the page; `verify` here is never asked about a new one)."""
    signing = data.get("signing")
    if signing is None:
        return None
    me = "host" if data["role"] == "host" or not data["local"] else f"seat-{data['local'][0]}"
    key = DeviceKey.from_json(signing["keys"][me])
    return Crypto(Reader(key), lambda *_: False)


class Device:
    """One browser context: one player's phone or computer."""

    def __init__(self, browser, site, watches: list[PageWatch], width: int = 1100) -> None:
        self.context = browser.new_context(viewport={"width": width, "height": 900})
        self.context.add_init_script(INIT)
        self.page = self.context.new_page()
        watch = PageWatch(site.url)
        watch.attach(self.page)
        watches.append(watch)

    def saved(self) -> OnlineSession:
        raw = self.page.evaluate(f"JSON.stringify({SAVED})")
        data = json.loads(raw)["session"]
        return OnlineSession.from_json(data, 0.0, reader(data))

    def steps(self) -> int:
        return self.page.evaluate(LOG)

    def traffic(self) -> list[str]:
        return self.page.evaluate("window.__traffic")

    def over(self) -> bool:
        return self.page.locator(f"{ROOT} [data-role=result]").count() > 0


class OnlineGame:
    def __init__(self, browser, site, game_id: str, names: tuple[str, ...], host_local=(0,)):
        self.browser, self.site, self.game_id, self.names = browser, site, game_id, names
        self.host_local = host_local
        self.watches: list[PageWatch] = []
        self.host = Device(browser, site, self.watches)
        self.guests: dict[int, Device] = {}
        self.connect_seconds: list[float] = []
        self.retries = 0  # new invites made after a connection failed (`invite`)
        self.before_connect = lambda seat, page: None

    @property
    def devices(self) -> list[Device]:
        return [self.host, *self.guests.values()]

    def device_of(self, seat: int) -> Device:
        return self.host if seat in self.host_local else self.guests[seat]

    def open(self, form=lambda page: None) -> None:
        """The host sets the game up and invites; every guest opens its invite and answers."""
        page, game = self.host.page, self.game_id
        page.goto(self.site.url + f"#new-{game}")
        page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
        form(page)
        for seat, name in enumerate(self.names):
            page.fill(f"#new-{game} [data-seat-name='{seat}']", name)
        page.click(f"#new-{game} .online-setup summary")
        for box in page.locator(f"#new-{game} [data-here-seat]").all():
            seat = int(box.get_attribute("data-here-seat"))
            if seat < len(self.names):
                box.set_checked(seat in self.host_local)
        page.click(f"#new-{game} >> text=Make the invites")
        for seat in range(len(self.names)):
            if seat not in self.host_local:
                self.guests[seat] = Device(self.browser, self.site, self.watches)
                self.invite(seat)
        for device in self.devices:
            try:
                device.page.locator(f"{ROOT} .play").wait_for(timeout=STEP_TIMEOUT_MS)
            except Exception:
                self.explain()
                raise

    def explain(self) -> None:
        """On a stall, say what every device shows, so a failure in CI explains itself."""
        for number, device in enumerate(self.devices):
            shown = device.page.evaluate(
                "(document.querySelector('#online') || document.body).innerText.slice(0, 800)"
            )
            print(f"--- device {number} at {device.page.url[:60]}:\n{shown}")

    def await_reconnecting(self, seat: int) -> None:
        """After the host's reload: the lost seat's fresh invite is out. It needs a new WebRTC
        offer first, which on a loaded machine once took over 15 s (a wait for a state, not a
        figure). An offer the browser could not make shows "could not connect" and a "Make a new
        invite" button, which a player would press: so does this, once, and says so. On a
        timeout the output says what the host showed (that is how a game already over at the
        reload was found)."""
        reconnecting = self.host.page.locator(
            f".online-bar [data-seat='{seat}'] .chip.reconnecting"
        )
        for attempt in (1, 2):
            try:
                reconnecting.wait_for(timeout=READY_TIMEOUT_MS)
                return
            except PlaywrightTimeout:
                self.retry_or_raise(seat, attempt)

    def invite(self, seat: int) -> None:
        """The guest opens its invite, the host pastes the answer, and the two connect. A
        connection the browsers could not make shows "could not connect" with a "Make a new
        invite" button: this presses it once, as a player would, opens the new invite in a
        fresh load of the guest's page (its old answer code stays on its screen until the new
        link's answer is drawn) and counts the retry in `retries`. (In two fresh-clone runs a
        fourth browser's chip did not turn connected within 60 s, with no word of its state.)"""
        ended = self.host.page.locator(
            f"[data-seat='{seat}'] .chip:is(.connected, .failed, .no-route)"
        ).first
        for attempt in (1, 2):
            started = self.exchange(seat, fresh=attempt > 1)
            # a fourth browser's connection on a loaded 2-core machine once took over 15 s
            # (the figure of record is `connect_seconds`, not this bound)
            with contextlib.suppress(PlaywrightTimeout):
                ended.wait_for(timeout=READY_TIMEOUT_MS)
            if self.chip_state(seat) == "connected":
                self.connect_seconds.append(time.monotonic() - started)
                return
            self.retry_or_raise(seat, attempt)

    def chip_state(self, seat: int) -> str | None:
        """What the host's chip for `seat` says (the lobby's card, or the game's bar)."""
        chips = self.host.page.locator(f"[data-seat='{seat}'] .chip")
        return chips.first.get_attribute("data-state") if chips.count() else None

    def retry_or_raise(self, seat: int, attempt: int) -> None:
        """A seat's connection did not come: say what the host shows, and make a new invite
        once if the chip says it failed (the button a player would press); else raise (no
        route, too, is an answer a test of it must see, not a retry)."""
        page = self.host.page
        state = self.chip_state(seat)
        print(f"--- attempt {attempt}: seat {seat}'s chip is {state!r}; host's console:")
        print("\n".join(self.watches[0].problems) or "(nothing)")
        self.explain()
        if attempt == 2 or state != "failed":
            raise AssertionError(f"seat {seat}'s connection did not come (its chip: {state!r})")
        self.retries += 1
        page.click(f"[data-cmd=new-invite][data-seat='{seat}']")

    def exchange(self, seat: int, fresh: bool = False) -> float:
        """The invite's two codes: the guest opens the host's link (`fresh`: in a new load of
        its page, not as a change of its address), the host pastes the answer. Returns when
        the answer was accepted, where the connect time is counted from."""
        host, guest = self.host.page, self.guests[seat].page
        link = host.locator(f"[data-role=invite-{seat}]")
        link.wait_for(timeout=STEP_TIMEOUT_MS)
        if fresh:
            guest.goto("about:blank")
        guest.goto(link.get_attribute("value"))
        guest.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
        answer = guest.locator("[data-role=answer]")
        answer.wait_for(timeout=STEP_TIMEOUT_MS)
        self.before_connect(seat, guest)
        host.fill(f"[data-field=answer-{seat}]", answer.get_attribute("value"))
        started = time.monotonic()
        host.click(f"[data-cmd=accept-answer][data-seat='{seat}']")
        return started

    def synced(self) -> int:
        """Wait until every device holds the host's log; return its length."""
        steps = self.host.steps()
        try:
            for device in self.guests.values():
                device.page.wait_for_function(f"{LOG} >= {steps}", timeout=STEP_TIMEOUT_MS)
        except Exception:
            self.explain()
            raise
        return steps

    def settled(self) -> int:
        """Wait until every device holds the host's log and no device owes an automatic answer.

        A decision can be followed by an answer a target's device gives by itself (Psi Squad);
        a count read between the two would be one short of the log the game comes to rest at.
        """
        while True:
            steps = self.synced()
            session = self.host.saved()
            game, state = session.game, session.table.state
            if session.table.match.result() is not None or not any(
                game.automatic(state, seat) for seat in game.to_move(state)
            ):
                return steps
            self.host.page.wait_for_function(f"{LOG} > {steps}", timeout=STEP_TIMEOUT_MS)

    def step(self, decide) -> bool:
        """One decision somewhere: False when no device has anything to decide."""
        steps = self.synced()
        for device in self.devices:
            session = device.saved()
            table = session.table
            if table.match.result() is not None:
                continue
            game, state = session.game, table.state
            for seat in sorted(game.to_move(state) & set(session.local)):
                if game.automatic(state, seat) or seat in session.pending:
                    continue
                choice = decide(session, seat)
                CLICKS[self.game_id](device.page, ROOT, state, choice)
                self.host.page.wait_for_function(f"{LOG} > {steps}", timeout=STEP_TIMEOUT_MS)
                return True
        return False

    def play_to_the_end(self, decide, max_steps: int = 400) -> None:
        for _ in range(max_steps):
            if all(device.over() for device in self.devices):
                return
            if not self.step(decide):
                self.host.page.wait_for_timeout(100)
        raise AssertionError("the online game did not end")

    def check_end(self) -> None:
        """Every device shows the result, its own audit verified, and every device's verdict."""
        titles = set()
        for device in self.devices:
            dialog = device.page.locator(f"{ROOT} [data-role=result]")
            dialog.wait_for(timeout=STEP_TIMEOUT_MS)
            dialog.locator("[data-audit=verified]").wait_for(timeout=STEP_TIMEOUT_MS)
            verdicts = dialog.locator("[data-role=verdicts] [data-verdict=verified]")
            deadline = time.monotonic() + 10
            while verdicts.count() < len(self.devices) and time.monotonic() < deadline:
                device.page.wait_for_timeout(100)
            assert verdicts.count() >= len(self.devices)
            titles.add(self.winners_said(device, dialog.locator("h2").inner_text()))
        assert len(titles) == 1, titles
        self.check_table_code()

    def seats_of(self, device: Device) -> list[int]:
        if device is self.host:
            return list(self.host_local)
        return [seat for seat, guest in self.guests.items() if guest is device]

    def winners_said(self, device: Device, title: str) -> str:
        """The result's title with "You" read as the one seat this device holds ("You win!" on
        Ada's device, "Ada wins!" on Bo's: the same result), so every device's can be compared;
        a device never says "You" for a seat it does not hold."""
        seats = self.seats_of(device)
        if title in ("A draw", "Nobody wins"):
            return title
        names = title.removesuffix("!").removesuffix(" wins").removesuffix(" win")
        said = re.split(r", | and ", names)  # "Ada, Bo and You" (words.and_list)
        if "You" in said:
            assert len(seats) == 1, (title, seats)
            said = [self.names[seats[0]] if name == "You" else name for name in said]
        return " and ".join(sorted(said))

    def check_table_code(self) -> None:
        """Every device shows the table code, in the play bar and in the result, and it is the
        same on every device (what the players compare aloud)."""
        codes = set()
        for device in self.devices:
            shown = device.page.locator(f"{ROOT} [data-role=table-code] [data-code]")
            shown.first.wait_for(timeout=STEP_TIMEOUT_MS)
            assert shown.count() >= 2  # the play bar's and the result's
            codes |= {shown.nth(i).get_attribute("data-code") for i in range(shown.count())}
        assert len(codes) == 1, codes
        (code,) = codes
        assert len(code) == 9 and code[4] == "-", code

    def check_traffic(self) -> None:
        """No secret travels before its reveal: every nonce of every seal is first sent in the
        message that reveals it, by its owner (or relayed by the host after the owner sent it)."""
        owners: dict[str, int] = {}
        for device in self.devices:
            session = device.saved()
            for seat, store in session.stores.items():
                for opening in store.openings.values():
                    owners[opening.nonce] = seat
        assert owners
        for device in self.devices:
            for text in device.traffic():
                message = json.loads(text)
                for nonce in owners:
                    if nonce in text:
                        assert message["t"] in ("propose", "entries", "openings"), message["t"]

    def close(self) -> None:
        for device in self.devices:
            device.context.close()
        for watch in self.watches:
            assert watch.foreign_requests() == [], "a page asked another origin"
            assert watch.unexpected_problems() == [], watch.unexpected_problems()


# -- the four games ----------------------------------------------------------------------------


def test_esp_online_with_a_tampered_reveal_caught(browser, site, screenshots):
    names = ("Ada", "Bo")
    plan = iter(plan_game(names))
    tampered: list[str] = []

    def decide(session, seat):
        planned_seat, choice = next(plan)
        assert planned_seat == seat
        if isinstance(choice, Flip):  # the planner's opening: flip with this device's own
            return next(
                a
                for a in session.table.legal(seat)
                if isinstance(a, Flip) and a.cell == choice.cell
            )
        return choice

    game = OnlineGame(browser, site, "esp", names)
    try:
        game.open(lambda page: page.check("input[name='esp-seats'][value='2']"))
        flips = [c for s, c in plan_game(names) if isinstance(c, Flip) and s == 1]
        assert flips, "the plan has Bo flip a hidden tile"
        for _ in range(200):
            game.synced()  # Bo's save read before it holds the host's last step is a turn behind
            session = game.guests[1].saved()
            state = session.table.state
            if (
                1 in session.game.to_move(state)
                and any(isinstance(a, Flip) for a in session.table.legal(1))
                and not tampered
            ):
                # Bo's flip leaves his device with its opening's symbol changed (after it was
                # signed, as anything on the way would change it): refused at once, by the
                # signature, naming Bo's device.
                game.guests[1].page.evaluate(LIE_ABOUT_A_FLIP)
                tampered.append("sent")
                steps = game.host.steps()
                choice = decide(session, 1)
                CLICKS["esp"](game.guests[1].page, ROOT, state, choice)
                notice = game.host.page.locator(f"{ROOT} [data-role=notice]")
                notice.filter(has_text="does not carry its signature").wait_for(
                    timeout=STEP_TIMEOUT_MS
                )
                assert "said to come from Bo's device does not carry" in notice.inner_text()
                game.guests[1].page.locator(f"{ROOT} [data-role=notice]").filter(
                    has_text="does not carry its signature"
                ).wait_for(timeout=STEP_TIMEOUT_MS)
                assert game.host.steps() == steps  # nothing changed
                game.host.page.screenshot(path=screenshots / "online-tamper-caught.png")
                CLICKS["esp"](game.guests[1].page, ROOT, state, choice)  # now honestly
                game.host.page.wait_for_function(f"{LOG} > {steps}")
                continue
            if all(d.over() for d in game.devices):
                break
            if not game.step(decide):
                game.host.page.wait_for_timeout(100)
        assert tampered
        game.check_end()
        game.check_traffic()
        # Play again: the host starts another game over the same connections, no new codes.
        first = game.host.saved().match
        assert game.guests[1].page.locator(f"{ROOT} [data-cmd=play-again]").count() == 0
        game.host.page.click(f"{ROOT} [data-cmd=play-again]")
        for device in game.devices:
            device.page.wait_for_function(
                f"({SAVED})?.session?.match?.config?.match_id !== '{first.config.match_id}'"
                f" && ({SAVED})?.session?.match",
                timeout=STEP_TIMEOUT_MS,
            )
            device.page.locator(f"{ROOT} .play").wait_for(timeout=STEP_TIMEOUT_MS)
            assert not device.over() and device.steps() == 0
            assert device.saved().match.seed != first.seed
        plan = iter(plan_game(names))
        for _ in range(4):
            assert game.step(decide)
        assert game.synced() == 4
        game.host.page.screenshot(path=screenshots / "online-play-again.png")
    finally:
        game.close()


def test_espeers_online_between_two_devices(browser, site, screenshots):
    rng = Rng(b"online-espeers")

    def decide(session, seat):
        table = session.table
        return espeers_scripted.choose(table.state, seat, table.legal(seat), rng)

    game = OnlineGame(browser, site, "espeers", ("Ada", "Bo"))
    game.before_connect = lambda seat, page: page.select_option(
        "[data-field=espeers-deck]", "starter:mindwall"
    )
    try:
        game.open()
        guest = game.guests[1].saved()
        assert guest.match.config.variant["decks"] == ["sealed", "sealed"]
        mindwall = STARTER_DECKS["mindwall"]["cards"]
        assert Counter(guest.stores[1].value("deck")["cards"]) == Counter(mindwall)
        for _ in range(12):
            game.step(decide)
        game.guests[1].page.screenshot(
            path=screenshots / "online-espeers-guest.png", full_page=True
        )
        game.play_to_the_end(decide)
        game.check_end()
        game.check_traffic()
        deck_seed = game.guests[1].saved().stores[1].value("deck")["seed"]
        for device in game.devices:
            for text in device.traffic():
                if deck_seed in text:
                    assert json.loads(text)["t"] == "openings"
    finally:
        game.close()


CYPHERS = ("123", "456", "789")


def psi_squad_player():
    """Seals CYPHERS[seat]; guesses its target's cypher reversed twice, then right."""
    guesses: dict[int, int] = {}

    def decide(session, seat):
        state = session.table.state
        if state.setting_up:
            return ChooseCypher(CYPHERS[seat])
        target = state.targets(seat)[0]
        guesses[seat] = guesses.get(seat, 0) + 1
        digits = CYPHERS[target] if guesses[seat] > 2 else CYPHERS[target][::-1]
        return Guess(target, digits)

    return decide


@pytest.mark.timing  # the connect time is bounded
def test_psi_squad_online_three_devices_with_a_reload(browser, site, screenshots):
    decide = psi_squad_player()

    def form(page):
        page.check("input[name='psi-squad-seats'][value='3']")
        page.check("input[name='psi-squad-length'][value='3']")

    game = OnlineGame(browser, site, "psi-squad", ("Ada", "Bo", "Cy"))
    try:
        game.open(form)
        for _ in range(5):
            game.step(decide)
        # Cy reloads in the middle of the game: the host notices, invites again, Cy carries on.
        cy = game.guests[2]
        steps = game.settled()
        cy.page.reload()
        cy.page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
        cy.page.locator(f"{ROOT} .play").wait_for()
        host = game.host.page
        host.locator(".online-bar [data-seat='2'] .chip.lost").wait_for(timeout=10_000)
        host.click("[data-cmd=new-invite][data-seat='2']")
        game.invite(2)
        # nothing lost, and one log. Now and then (about 1 run in 4 on this machine) Cy comes back
        # holding one entry more than was read at rest; what it is goes to the run's warnings,
        # and the rest of the game (check_end: every device's log, every seal) is the judge.
        host_log, cy_log = game.host.saved().match, cy.saved().match
        assert cy_log.step >= steps
        assert host_log.entries[steps - 1].hash == cy_log.entries[steps - 1].hash
        if cy_log.step > steps:
            extra = [(e.seat, e.action) for e in cy_log.entries[steps:]]
            warnings.warn(f"Cy came back with {extra} beyond the {steps} at rest", stacklevel=1)
        host.screenshot(path=screenshots / "online-psi-host.png", full_page=True)
        game.play_to_the_end(decide)
        game.check_end()
        game.check_traffic()
        for cypher in CYPHERS:  # a cypher travels only in the end's openings
            for device in game.devices:
                for text in device.traffic():
                    message = json.loads(text)
                    if f'"value":"{cypher}"' in text:
                        assert message["t"] in ("propose", "entries", "openings")
    finally:
        game.close()
    assert max(game.connect_seconds) < 5


def test_telepathic_online_partners(browser, site):
    plan: list[tuple[int, int]] = []

    def conditions(seat):
        return game.device_of(seat).saved().stores[seat].value("conditions")

    def decide(session, seat):
        table = session.table
        state = table.state
        partner = 1 - seat
        if state.phase == "respond":
            return Respond(conditions(partner)["win"])
        if state.phase == "perform":
            return Perform(plan.pop(0)[1] if plan else 0)
        wins = [conditions(s)["win"] for s in (0, 1)]
        loses = [conditions(s)["lose"] for s in (0, 1)]
        if state.turns > 0 and all(holds(state.grid, w) for w in wins):
            return Announce(((partner, conditions(partner)["win"]),))
        plan[:] = (
            plan_win(state.grid, list(state.row), wins, loses)
            or plan_win(state.grid, list(state.row), [], loses, depth=1)
            or [(next(i for i, c in enumerate(state.row) if c), 0)]
        )
        if state.row[plan[0][0]] is None or must_announce(table):
            return Announce(((partner, conditions(partner)["win"]),))
        return HandCard(plan[0][0])

    def must_announce(table):
        return table.game.must_announce(table.state)

    game = OnlineGame(browser, site, "telepathic", ("Mary", "Bob"), host_local=(1,))
    try:
        game.open(lambda page: page.check("input[name='telepathic-arrangement'][value='pair']"))
        # One whole turn (hand a card, respond, perform), never more: `decide` announces at the
        # first chance once a turn is done, and on some deals the grid already holds both wins,
        # so a fourth decision ended the game before the reload (CI, and a Chromium 150 run here:
        # a finished game makes no new invite, rightly, so the seat stayed "lost").
        for _ in range(3):
            game.step(decide)
        # The host reloads mid-game: its page comes back with the game and a fresh invite for
        # Mary; she opens it in the page she has, and both carry on from the same step.
        steps = game.synced()
        assert not game.host.over(), "the game must still be going when the host reloads"
        host = game.host.page
        host.reload()
        host.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
        host.locator(f"{ROOT} .play").wait_for(timeout=STEP_TIMEOUT_MS)
        game.await_reconnecting(0)
        game.invite(0)
        # nothing lost, and one log: a device's automatic step (a "play on") may come on top
        assert game.synced() >= steps
        host_log, guest_log = game.host.saved().match, game.guests[0].saved().match
        assert host_log.entries[steps - 1].hash == guest_log.entries[steps - 1].hash
        game.play_to_the_end(decide)
        game.check_end()
        game.check_traffic()
    finally:
        game.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_invite_and_join_screens_on_a_phone(browser, site, screenshots, scheme):
    context = browser.new_context(
        viewport={"width": 360, "height": 780},
        color_scheme=scheme,
        permissions=["clipboard-read", "clipboard-write"],
    )
    page = context.new_page()
    page.goto(site.url + "#new-esp")
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    page.click("#new-esp .online-setup summary")
    page.screenshot(path=screenshots / f"online-phone-{scheme}-setup.png", full_page=True)
    page.click("#new-esp >> text=Make the invites")
    link = page.locator("[data-role=invite-1]")
    link.wait_for(timeout=STEP_TIMEOUT_MS)
    page.screenshot(path=screenshots / f"online-phone-{scheme}-invite.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    copy = page.locator("[data-seat='1'] [data-cmd=copy]")
    copy.click()  # loopback is a secure context: the clipboard takes it, and the button says so
    page.locator("[data-seat='1'] [data-cmd=copy]", has_text="Copied").wait_for(timeout=5_000)
    assert page.evaluate("navigator.clipboard.readText()") == link.get_attribute("value")
    other = browser.new_context(viewport={"width": 360, "height": 780}, color_scheme=scheme)
    guest = other.new_page()
    guest.goto(link.get_attribute("value"))
    guest.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    guest.locator("[data-role=answer]").wait_for(timeout=STEP_TIMEOUT_MS)
    guest.screenshot(path=screenshots / f"online-phone-{scheme}-join.png", full_page=True)
    assert guest.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    other.close()
    context.close()


def test_a_bad_answer_code_is_refused_with_a_sentence(browser, site):
    watches: list[PageWatch] = []
    host = Device(browser, site, watches)
    page = host.page
    # as on plain http across a LAN (no secure context): no clipboard at all
    page.add_init_script("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    page.goto(site.url + "#new-esp")
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    page.click("#new-esp .online-setup summary")
    page.click("#new-esp >> text=Make the invites")
    link = page.locator("[data-role=invite-1]")
    link.wait_for(timeout=STEP_TIMEOUT_MS)
    page.click("[data-seat='1'] [data-cmd=copy]")  # the invite is selected for copying instead
    page.locator("[data-seat='1'] [data-cmd=copy]", has_text="Selected").wait_for(timeout=5_000)
    selected = "(e => e.value.slice(e.selectionStart, e.selectionEnd))"
    assert link.evaluate(selected) == link.get_attribute("value")
    page.fill("[data-field=answer-1]", link.get_attribute("value"))  # the invite, not an answer
    page.click("[data-cmd=accept-answer][data-seat='1']")
    error = page.locator("[data-seat='1'] .error")
    error.wait_for(timeout=STEP_TIMEOUT_MS)
    assert error.inner_text() == "That is an invite, not an answer: paste the code the guest sent."
    page.fill("[data-field=answer-1]", "hello there")
    page.click("[data-cmd=accept-answer][data-seat='1']")
    page.locator("[data-seat='1'] .error", has_text="copy it again").wait_for()
    host.context.close()
    assert watches[0].unexpected_problems() == []


# WebRTC refused while window.__rtcOff is true (as with it switched off in the browser's
# settings or by an extension), the browser's own constructor again once it is false.
RTC_OFF = """(() => {
  const Real = window.RTCPeerConnection;
  window.__rtcOff = true;
  window.RTCPeerConnection = function (...args) {
    if (window.__rtcOff) throw new DOMException("WebRTC is off", "NotSupportedError");
    return new Real(...args);
  };
})()"""


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_an_invite_the_browser_cannot_make_says_why_and_a_new_one_can_be_made(
    browser, site, screenshots, scheme
):
    """The host's browser refuses WebRTC: the seat's card says so, in place of "Making the
    invite…" for ever (and no page error: a JS throw used to go past MicroPython), with a
    "Make a new invite" button, which works once WebRTC does. A guest whose browser refuses
    WebRTC is told so when the invite opens."""
    context = browser.new_context(viewport={"width": 360, "height": 780}, color_scheme=scheme)
    try:
        context.add_init_script(RTC_OFF)
        page = context.new_page()
        watch = PageWatch(site.url)
        watch.attach(page)
        page.goto(site.url + "#new-esp")
        page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
        page.click("#new-esp .online-setup summary")
        page.click("#new-esp >> text=Make the invites")
        card = page.locator(f"{ROOT} article[data-seat='1']")
        again = card.locator("[data-cmd=new-invite]")
        try:
            again.wait_for(timeout=STEP_TIMEOUT_MS)
        except Exception:
            print(page.evaluate("document.querySelector('#online').innerText.slice(0, 1500)"))
            print("\n".join(watch.problems))
            raise
        assert "Making the invite" not in card.inner_text()
        assert "could not" in card.inner_text()  # the failure, in words, and what still works
        assert "Playing by link needs no direct connection" in card.inner_text()
        card.screenshot(path=screenshots / f"online-phone-{scheme}-invite-failed.png")
        assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
        page.evaluate("window.__rtcOff = false")
        again.click()
        page.locator("[data-role=invite-1]").wait_for(timeout=STEP_TIMEOUT_MS)
        assert card.locator("[data-cmd=new-invite]").count() == 0
        invite = page.locator("[data-role=invite-1]").input_value()
        assert watch.unexpected_problems() == [], watch.unexpected_problems()
    finally:
        context.close()
    context = browser.new_context(viewport={"width": 360, "height": 780}, color_scheme=scheme)
    try:  # the guest's browser refuses WebRTC
        context.add_init_script(RTC_OFF)
        guest = context.new_page()
        watch = PageWatch(site.url)
        watch.attach(guest)
        guest.goto(invite)
        guest.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
        said = "this browser refused to connect (is WebRTC turned off?)"
        join = guest.locator("[data-role=join]")
        join.locator(".error", has_text=said).wait_for(timeout=STEP_TIMEOUT_MS)
        join.screenshot(path=screenshots / f"online-phone-{scheme}-join-refused.png")
        assert watch.unexpected_problems() == [], watch.unexpected_problems()
    finally:
        context.close()


def test_a_stun_server_that_cannot_be_used_is_refused_in_the_set_up_and_in_a_link(browser, site):
    watches: list[PageWatch] = []
    host = Device(browser, site, watches)
    page = host.page
    page.goto(site.url + "#new-esp")
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    page.click("#new-esp .online-setup summary")
    page.fill("#new-esp input[data-stun]", "stun.example.org:3478, bad url")
    page.click("#new-esp >> text=Make the invites")
    error = page.locator("#new-esp [data-role=online-error]")
    error.filter(has_text="'bad url' is not a STUN server").wait_for(timeout=STEP_TIMEOUT_MS)
    assert page.evaluate("location.hash") == "#new-esp"
    other = Device(browser, site, watches)
    guest = other.page  # a link whose STUN part was mangled
    guest.goto(site.url + "#join=AAAA&g=esp&stun=a:99999")
    guest.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    guest.locator("[data-role=join] .error", has_text="STUN server that cannot be used").wait_for(
        timeout=STEP_TIMEOUT_MS
    )
    for device in (host, other):
        device.context.close()
    assert all(w.unexpected_problems() == [] for w in watches)


def test_two_tabs_of_one_browser_play_over_a_broadcast_channel(browser, site):
    context = browser.new_context()
    host = context.new_page()
    host.goto(site.url + "#new-psi-squad")
    host.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    host.check("input[name='psi-squad-seats'][value='2']")
    host.click("#new-psi-squad .online-setup summary")
    host.click("#new-psi-squad >> text=Make the invites")
    tab_link = host.locator("[data-seat='1'] a[target=_blank]")
    tab_link.wait_for(timeout=STEP_TIMEOUT_MS)
    guest = context.new_page()
    guest.goto(tab_link.get_attribute("href"))
    guest.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    for page in (host, guest):
        page.locator(f"{ROOT} .play").wait_for(timeout=STEP_TIMEOUT_MS)
    assert host.locator(".online-bar [data-seat='1'] .chip.connected").count() == 1
    context.close()


def test_telepathic_teams_on_four_devices_deal_blind_in_the_browser(browser, site):
    """The colour and shape decks are dealt across devices by commutative encryption, in
    Pyodide: every device ends up with its own card, all four different."""
    game = OnlineGame(browser, site, "telepathic", ("Ada", "Bo", "Cy", "Di"))
    try:
        game.open(lambda page: page.check("input[name='telepathic-arrangement'][value='teams']"))
        held = []
        for device in game.devices:
            session = device.saved()
            assert set(session.match.config.shared) == {"colour", "shape"}
            for seat in session.local:
                held += list(session.stores[seat].value("conditions").values())
        assert len(held) == len(set(held)) == 4
    finally:
        game.close()


def test_a_game_opened_in_a_second_tab_goes_on_there_and_the_first_lets_go(browser, site):
    """Bo opens his online game again in another tab (a link from the home screen, or a new
    invite his chat app opened in a new tab) while the first is still open. The newest tab plays
    it; the first stops and stops saving (two tabs saving one game overwrite each other's
    secrets), and can take it back."""
    plan = iter(CYPHERS)

    def decide(session, seat):
        state = session.table.state
        if state.setting_up:
            return ChooseCypher(next(plan))
        target = state.targets(seat)[0]
        return Guess(target, CYPHERS[target])

    def form(page):
        page.check("input[name='psi-squad-seats'][value='2']")
        page.check("input[name='psi-squad-length'][value='3']")

    game = OnlineGame(browser, site, "psi-squad", ("Ada", "Bo"))
    try:
        game.open(form)
        game.step(decide)
        first = game.guests[1].page
        second = game.guests[1].context.new_page()
        second.goto(site.url + "#online")
        second.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
        second.locator(f"{ROOT} .play").wait_for(timeout=STEP_TIMEOUT_MS)
        first.locator(f"{ROOT} [data-role=elsewhere]").wait_for(timeout=STEP_TIMEOUT_MS)
        second.locator(f"{ROOT} [data-role=host-lost]").wait_for(timeout=STEP_TIMEOUT_MS)
        host = game.host.page
        host.locator(".online-bar [data-seat='1'] .chip.lost").wait_for(timeout=10_000)
        host.click("[data-cmd=new-invite][data-seat='1']")
        game.guests[1].page = second
        game.invite(1)
        game.play_to_the_end(decide)
        game.check_end()
        # the saved game is the second tab's, whole: the first never wrote over it
        assert game.guests[1].saved().match.head() == game.host.saved().match.head()
        assert first.locator(f"{ROOT} [data-role=elsewhere]").count() == 1
        first.click(f"{ROOT} [data-cmd=take-over]")  # and back: the other tab lets go
        first.locator(f"{ROOT} [data-role=result]").wait_for(timeout=STEP_TIMEOUT_MS)
        second.locator(f"{ROOT} [data-role=elsewhere]").wait_for(timeout=STEP_TIMEOUT_MS)
    finally:
        game.close()


def test_a_guest_is_told_which_seats_the_hosts_device_plays_a_bot_among_them(
    browser, site, screenshots
):
    """Psi Squad, the host's device playing Ada and a bot: Bo's device says so, in the play bar
    and in the lobby's words, with what it means (whoever holds that device sees their secrets),
    and both devices show one table code."""

    def form(page):
        page.check("input[name='psi-squad-seats'][value='3']")
        page.check("input[name='psi-squad-length'][value='3']")
        page.select_option("#new-psi-squad [data-seat-kind='2']", "easy")

    game = OnlineGame(browser, site, "psi-squad", ("Ada", "Bo", "Cy"), host_local=(0, 2))
    try:
        game.open(form)
        bo = game.guests[1].page
        said = bo.locator(f"{ROOT} .online-bar [data-role=host-seats]")
        said.wait_for(timeout=STEP_TIMEOUT_MS)
        text = said.inner_text()
        assert "Ada's device plays Ada and the bot Cy:" in text, text
        assert "whoever holds it could see the bot's cypher" in text
        chips = bo.locator(f"{ROOT} .online-bar .chip.host")
        assert chips.count() == 2  # Ada's and the bot's: one device, not two connected ones
        host_said = game.host.page.locator(f"{ROOT} [data-role=host-seats]")
        assert host_said.count() == 0  # the host knows what its own device plays
        codes = {
            d.page.locator(f"{ROOT} .online-bar [data-code]").get_attribute("data-code")
            for d in game.devices
        }
        assert len(codes) == 1 and None not in codes, codes
        for width, height in ((360, 740), (1280, 800)):
            for scheme in ("light", "dark"):
                bo.set_viewport_size({"width": width, "height": height})
                bo.emulate_media(color_scheme=scheme)
                bo.screenshot(path=screenshots / f"online-host-seats-{width}-{scheme}.png")
    finally:
        game.close()


# The replay viewer, in its own page.
REPLAY_VIEWER = "#replay .replay-root .replay"


def open_viewer(context, link: str):
    """A fresh page of a fresh device, the replay link opened in it."""
    page = context.new_page()
    page.goto(link)
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    page.locator(f"{REPLAY_VIEWER} [data-role=signatures]").wait_for(timeout=STEP_TIMEOUT_MS)
    return page


def flip_a_signature(link: str, move: int) -> str:
    """The link with one character changed inside one move's signature (its base64url text)."""
    record = from_code(link)
    assert record.signed is not None
    proofs = list(record.signed.proofs)
    text = b64(proofs[move].signature)
    at = len(text) // 2  # a middle character: its six bits are all the signature's
    flipped = text[:at] + ("A" if text[at] != "A" else "B") + text[at + 1 :]
    proofs[move] = dataclasses.replace(proofs[move], signature=unb64(flipped, 64, "A signature"))
    signed = dataclasses.replace(record.signed, proofs=tuple(proofs))
    return link_to(link, dataclasses.replace(record, signed=signed).code())


def test_a_signed_game_shared_and_its_replay_checked_in_a_fresh_page(browser, site, screenshots):
    """Issue 26: an online Psi Squad game's "Share this game" link opens in a fresh page that
    says the replay is signed, which device signed which moves (as the `cryptography` package
    checks them here), the table code the players compared, and that a signature proves a
    device, not a person; one character changed in a move's signature and the viewer names
    that move."""
    decide = psi_squad_player()

    def form(page):
        page.check("input[name='psi-squad-seats'][value='2']")
        page.check("input[name='psi-squad-length'][value='3']")

    game = OnlineGame(browser, site, "psi-squad", ("Ada", "Bo"))
    try:
        game.open(form)
        game.play_to_the_end(decide)
        for device in game.devices:  # the winner's title says "You win!": not check_end's
            result = device.page.locator(f"{ROOT} [data-role=result]")
            result.locator("[data-audit=verified]").wait_for(timeout=STEP_TIMEOUT_MS)
        game.check_table_code()
        host = game.host.page
        code = host.locator(f"{ROOT} [data-role=result] [data-code]").first.get_attribute(
            "data-code"
        )
        host.click(f"{ROOT} [data-role=result] [data-cmd=share]")
        link = host.input_value(f"{ROOT} [data-role=result] [data-role=share-link]")
    finally:
        game.close()
    assert link.startswith(site.url + "#replay=3."), link[:80]
    record = from_code(link)
    expected = Replay.open(record, check=verify).signatures
    assert expected is not None and expected.state == "signed"
    devices = {p.device for p in record.signed.proofs}
    assert devices == {"host", "seat-1"}, devices

    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        viewer = open_viewer(context, link)
        block = viewer.locator(f"{REPLAY_VIEWER} [data-role=signatures]")
        assert block.get_attribute("data-state") == "signed"
        shown = [block.locator(".signed-summary").inner_text()]
        shown += block.locator("li").all_inner_texts()
        shown.append(block.locator("[data-role=signature-scope]").inner_text())
        assert shown == list(expected.sentences), shown
        text = " ".join(shown)
        assert f"Table code {code} " in text, (code, text)
        assert "signed by the host's device" in text and "signed by Bo's device" in text
        assert CAVEAT in text
        assert viewer.locator(f"{REPLAY_VIEWER} [data-audit=verified]").count() == 1

        bo = next(i for i, p in enumerate(record.signed.proofs) if p.device == "seat-1")
        viewer.close()
        viewer = open_viewer(context, flip_a_signature(link, bo))
        block = viewer.locator(f"{REPLAY_VIEWER} [data-role=signatures]")
        assert block.get_attribute("data-state") == "failed"
        said = block.inner_text()
        assert said.startswith(
            f"Move {bo + 1} (Bo's) does not carry a valid signature of Bo's device"
        ), said
        assert "signed by" not in said  # nobody is named as the maker of any move
        viewer.set_viewport_size({"width": 360, "height": 740})
        block.screenshot(path=screenshots / "replay-signed-failed-360.png")
    finally:
        context.close()
    for width, height in ((360, 740), (1280, 800)):
        for scheme in ("light", "dark"):
            context = browser.new_context(
                viewport={"width": width, "height": height}, color_scheme=scheme
            )
            viewer = open_viewer(context, link)
            overflow = viewer.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 0, f"the replay is {overflow}px wider than the screen"
            verdict = viewer.locator(f"{REPLAY_VIEWER} .replay-verdict")
            verdict.scroll_into_view_if_needed()
            verdict.screenshot(path=screenshots / f"replay-signed-{width}-{scheme}.png")
            viewer.screenshot(path=screenshots / f"replay-signed-page-{width}-{scheme}.png")
            context.close()
