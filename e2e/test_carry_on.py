"""A live game whose connection is lost carries on by link (issue 38), for real: for each of the
four games, two browser contexts (two devices) play a few moves live over WebRTC; then the guest's
tab is closed (its device out of reach; its live save stays in its storage). Once the host has
been without it for 30 s, the host's screen offers "Carry on by link"; the host presses it and
sends the link; the guest opens it in a new tab of its own browser (from its live save), and the
two finish the game by links only, each to a verified end, with the same keys.

The four live games are set up one after another and all cut before the first is carried on, so
the 30 s of the first overlap the set-up of the others."""

from __future__ import annotations

import time

from e2e.harness import PageWatch
from e2e.link_players import ROOT as LINK_ROOT
from e2e.link_players import STEP_MS, Chat
from e2e.link_players import Device as LinkDevice
from e2e.players import plan_game
from e2e.test_online import ROOT, OnlineGame, psi_squad_player
from parlour.bots import espeers_scripted
from parlour.fair.rng import Rng
from parlour.games.esp.actions import Flip
from parlour.games.psi_squad.actions import ChooseCypher, Guess
from parlour.games.telepathic.actions import Announce, HandCard, Perform, Respond
from parlour.games.telepathic.grid import holds
from parlour.match.by_link import LinkPlay

# The guest's data channel closes at its next send (a heartbeat within a second): both devices
# lose each other, and the guest's tab stays open (to paste the link there).
BREAK_THE_CHANNEL = """() => {
  RTCDataChannel.prototype.send = function () { this.close(); };
}"""
OFFER_MS = 60_000  # the offer shows 30 s after the last word from the lost device (and ~5 s)
LIVE_MOVES = 3


class Esp:
    game, names = "esp", ("Ada", "Bo")

    def __init__(self) -> None:
        self.plan = iter(plan_game(self.names))

    def form(self, page) -> None:
        page.check("input[name='esp-seats'][value='2']")

    def choose(self, table, seat: int) -> object:
        planned_seat, choice = next(self.plan)
        assert planned_seat == seat
        if isinstance(choice, Flip):  # the plan's flip, with this device's own opening
            legal = table.legal(seat)
            return next(a for a in legal if isinstance(a, Flip) and a.cell == choice.cell)
        return choice

    def live(self, session, seat: int) -> object:
        return self.choose(session.table, seat)

    def link(self, play: LinkPlay, seat: int, plays: list[LinkPlay]) -> object:
        return self.choose(play.table, seat)


class Espeers:
    game, names = "espeers", ("Ada", "Bo")

    def __init__(self) -> None:
        self.rng = Rng(b"carry on espeers")

    def form(self, page) -> None:
        return None

    def live(self, session, seat: int) -> object:
        table = session.table
        return espeers_scripted.choose(table.state, seat, table.legal(seat), self.rng)

    def link(self, play: LinkPlay, seat: int, plays: list[LinkPlay]) -> object:
        table = play.table
        return espeers_scripted.choose(table.state, seat, table.legal(seat), self.rng)


class PsiSquad:
    game, names = "psi-squad", ("Ada", "Bo")
    cyphers = ("123", "456")

    def __init__(self) -> None:
        self.live = psi_squad_player()
        self.guesses: dict[int, int] = {}

    def form(self, page) -> None:
        page.check("input[name='psi-squad-seats'][value='2']")
        page.check("input[name='psi-squad-length'][value='3']")

    def link(self, play: LinkPlay, seat: int, plays: list[LinkPlay]) -> object:
        state = play.table.state
        if state.setting_up:
            return ChooseCypher(self.cyphers[seat])
        target = state.targets(seat)[0]
        self.guesses[seat] = self.guesses.get(seat, 0) + 1
        cypher = ("123", "456", "789")[target]  # psi_squad_player's cyphers
        return Guess(target, cypher if self.guesses[seat] > 1 else cypher[::-1])


class Telepathic:
    """The pair: safe moves live; by link, the partner the game waits on announces once a turn
    is done (by link a seat acts on its own turn), and the partner answers it."""

    game, names = "telepathic", ("Mary", "Bob")

    def __init__(self) -> None:
        self.conditions = {}  # seat -> its condition cards, read from its device's save

    def form(self, page) -> None:
        page.check("input[name='telepathic-arrangement'][value='pair']")

    def prepare(self, game: OnlineGame) -> None:
        """Each seat's condition cards, from its own device's save (the test peeks)."""
        for seat in range(len(self.names)):
            self.conditions[seat] = game.device_of(seat).saved().stores[seat].value("conditions")

    def live(self, session, seat: int) -> object:
        return self.safe_move(session.table, seat)

    def safe_move(self, table, seat: int) -> object:
        """An action card handed or performed that meets no lose condition (the cards are
        dealt at random)."""
        state = table.state
        moves = [a for a in table.legal(seat) if isinstance(a, (HandCard, Perform))]
        loses = [self.conditions[s]["lose"] for s in (0, 1)]

        def safe(choice: object) -> bool:
            if not isinstance(choice, Perform):
                return True
            after = table.game.apply(state, seat, choice)
            return not any(holds(after.grid, lose) for lose in loses)

        return next((a for a in moves if safe(a)), moves[0] if moves else table.legal(seat)[0])

    def link(self, play: LinkPlay, seat: int, plays: list[LinkPlay]) -> object:
        state = play.table.state
        for p in plays:
            self.conditions.update({s: p.stores[s].value("conditions") for s in p.local})
        wins = [self.conditions[s]["win"] for s in (0, 1)]
        if state.phase == "respond":
            return Respond(wins[state.announcer])
        right = Announce(((1 - seat, wins[1 - seat]),))
        if state.turns and right in play.table.legal(seat):
            return right
        return self.safe_move(play.table, seat)


def adopt(device, watches: list[PageWatch]) -> LinkDevice:
    """A live device's browser context as a device by link: its tab, its storage and keys."""
    return LinkDevice.of_page(device.page, "", device.context, watches[-1])


def cut_live_game(browser, site, player) -> OnlineGame:
    """The game set up live, a few moves played, and the guest's tab closed."""
    game = OnlineGame(browser, site, player.game, player.names)
    game.open(player.form)
    getattr(player, "prepare", lambda game: None)(game)
    made = 0
    for _ in range(200):  # a step may wait on a device's automatic answer: wait for it
        if made == LIVE_MOVES:
            break
        if game.step(player.live):
            made += 1
            continue
        assert not game.host.over(), "the live game ended before the cut"
        game.host.page.wait_for_timeout(100)
    assert made == LIVE_MOVES
    game.settled()
    if player.game == "psi-squad":  # the tab stays: its connection breaks (at its next send)
        game.guests[1].page.evaluate(BREAK_THE_CHANNEL)
    else:
        game.guests[1].page.close()
    return game


def paste(guest, carried: list[str], screenshots) -> None:
    """The guest's live tab: its own offer, photographed at 360 and 1280 (light and dark);
    the host's link pasted there (as when a chat opens links in a browser of its own)."""
    page = guest.page
    offer = page.locator(f"{ROOT} [data-role=carry-offer]")
    offer.wait_for(timeout=OFFER_MS)
    assert "ask Ada to press “Carry on by link”" in offer.inner_text()
    size = page.viewport_size
    for width in (360, 1280):
        page.set_viewport_size({"width": width, "height": 800})
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            offer.screenshot(path=screenshots / f"carry-guest-offer-{width}-{scheme}.png")
    page.set_viewport_size(size)
    page.emulate_media(color_scheme=None)
    page.fill(f"{ROOT} [data-field=carry-link]", "\n".join(carried))
    page.click(f"{ROOT} [data-cmd=carry-join]")


def carry_on(game: OnlineGame, player, site, screenshots) -> int:
    """The host's offer, pressed; the guest's new tab opens the link; the game by links to
    its end. The moves made by link."""
    host = game.host.page
    offer = host.locator(f"{ROOT} [data-role=carry-offer]")
    offer.wait_for(timeout=OFFER_MS)
    assert f"{player.names[1]}'s device has been out of reach" in offer.inner_text()
    steps = game.host.steps()
    offer.screenshot(path=screenshots / f"carry-offer-{player.game}.png")
    host.click(f"{ROOT} [data-cmd=carry-on]")
    host.locator(f"{LINK_ROOT} [data-role=bylink-send] input").first.wait_for(timeout=STEP_MS)
    watches = game.watches
    ada = adopt(game.host, watches)
    carried = ada.sent()
    assert ada.saved().match.step == steps
    guest = game.guests[1]
    if player.game == "psi-squad":
        paste(guest, carried, screenshots)
    else:  # a new tab of the guest's browser, from the chat
        guest.page = guest.context.new_page()
        watch = PageWatch(site.url)
        watch.attach(guest.page)
        watches.append(watch)
        guest.page.goto(carried[0])
        for part in carried[1:]:
            guest.page.evaluate("link => { location.hash = new URL(link).hash; }", part)
    guest.page.locator(f"{LINK_ROOT} [data-role=bylink-send] input").first.wait_for(timeout=STEP_MS)
    if screenshots is not None:
        guest.page.screenshot(path=screenshots / f"carry-guest-{player.game}.png")
        host.screenshot(path=screenshots / f"carry-host-{player.game}.png")
    bo = adopt(guest, watches)
    assert bo.saved().keys == ada.saved().keys  # the live game's keys, on both
    assert not guest.page.evaluate(
        "Object.keys(localStorage).some(k => k.startsWith('psi-parlour:online:m-'))"
    ), "the live save is gone once the game carries on by link"
    chat = Chat([ada, bo], waits=True)
    chat.post(1, bo.sent())
    moves = chat.play(player.game, player.link, most=600)
    chat.check_the_end()
    return moves


def test_a_live_game_of_each_game_cut_after_a_few_moves_carries_on_by_link(
    browser, site, screenshots
):
    started = time.monotonic()
    players = [PsiSquad(), Esp(), Telepathic(), Espeers()]
    games = []
    try:
        for player in players:
            games.append(cut_live_game(browser, site, player))
        for game, player in zip(games, players, strict=True):
            began = time.monotonic()
            moves = carry_on(game, player, site, screenshots)
            print(
                f"{player.game}: carried on after {LIVE_MOVES} live moves, {moves} moves by "
                f"link, {time.monotonic() - began:.0f} s"
            )
            game.host.page.close()
    finally:
        for game in games:
            game.close()
    print(f"four games carried on by link: {time.monotonic() - started:.0f} s")
