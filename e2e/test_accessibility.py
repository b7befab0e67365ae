"""axe-core on every screen of the site, in whole games of all four games (issue 17).

Each screen is checked four times: light and dark, desktop (1280x800) and phone (360x740). The
page is laid out again for each (the viewport and `prefers-color-scheme` change under it), so one
game covers all four, which keeps the time reasonable. A serious or critical violation fails the
test; every one met in a journey is reported at the end, screen by screen (e2e/axe.py).

Screens: the home, each rules page, the online help, the Embed page, the deck builder, each
set-up form, a pass-and-play hand-off and the seat's board after it, "Replace your game?", a game
against bots at its start (the board described), in its middle (the log folded) and at its
result (and its share panel), the online lobby (host) and join screen (guest) and an online
game to its end on both devices, the replay viewer from its first move to "Show everything", a
damaged replay link, and the site embedded in a frame.
"""

from __future__ import annotations

import pytest

from e2e import axe, clicks
from e2e.games import esp as esp_driver
from e2e.harness import READY, READY_TIMEOUT_MS
from e2e.players import PERSONS_PACE, SoloPage
from e2e.test_bots import GAMES
from e2e.test_espeers import open_saved_game
from e2e.test_online import ROOT as ONLINE
from e2e.test_online import OnlineGame, psi_squad_player
from e2e.test_replay import bot_game_code
from parlour.fair.rng import Rng
from parlour.games import GAMES as GAMES_BY_ID
from parlour.games.espeers.cards import CARDS
from parlour.match import bot_seats
from parlour.match.config import MatchConfig
from parlour.match.table import Table

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}
VIEWS = (("light", DESKTOP), ("dark", DESKTOP), ("light", PHONE), ("dark", PHONE))
# Let the page lay itself out again after the viewport or the colour scheme changed.
# (Or a second, whichever comes first: a headless page that has stopped drawing frames must not
# hold the run; the check that follows then reads the page as it is.)
TWO_FRAMES = """() => new Promise(r => {
  requestAnimationFrame(() => requestAnimationFrame(r));
  setTimeout(r, 1000);
})"""
STATIC_SCREENS = (
    "home",
    "rules-esp",
    "rules-espeers",
    "rules-telepathic",
    "rules-psi-squad",
    "online-help",
    "link-help",
    "embed",
    "decks-espeers",
    "replay",
)


class Sweep(axe.AxeLog):
    """axe on one screen in the four ways a person may see it, the page left as it was found."""

    def check(self, where: str, context: str | None = None) -> None:
        page = self.page
        for scheme, size in VIEWS:
            page.emulate_media(color_scheme=scheme)
            page.set_viewport_size(size)
            page.evaluate(TWO_FRAMES)
            super().check(f"{where} [{scheme} {size['width']}]", context)
        page.emulate_media(color_scheme="light")
        page.set_viewport_size(DESKTOP)


def wait_for_play(page, root: str) -> None:
    page.locator(f"{root} .play").wait_for(timeout=READY_TIMEOUT_MS)


def test_axe_finds_what_it_should_with_the_pinned_version(app):
    """The check can fail: a button with no name and grey-on-grey text are reported."""
    assert app.evaluate("typeof window.axe") == "undefined", "axe must never ship with the page"
    axe.inject(app)
    assert app.evaluate("axe.version") == axe.pinned_version()
    app.evaluate(
        """() => {
          const b = document.createElement('button'); b.id = 'nameless';
          document.querySelector('#home').append(b);
          const p = document.createElement('p'); p.id = 'faint'; p.textContent = 'Faint words';
          p.style.cssText = 'color: #bbb; background: #ccc';
          document.querySelector('#home').append(p);
        }"""
    )
    found = {v["id"]: v for v in axe.violations(app)}
    assert "button-name" in found and "#nameless" in found["button-name"]["nodes"][0]["target"]
    assert "color-contrast" in found
    log = axe.AxeLog(app, "planted")
    log.check("home")
    with pytest.raises(AssertionError, match="button-name"):
        log.assert_clean()


def test_the_home_rules_help_and_embed_pages(app, site):
    sweep = Sweep(app, "site")
    for screen in STATIC_SCREENS:
        app.goto(site.url + "#" + screen)
        app.locator(f"#{screen}").wait_for()
        sweep.check(screen)
    app.goto(site.url + "#new-telepathic")
    app.click("#new-telepathic .online-setup summary")  # "Play online instead", opened
    sweep.check("new-telepathic, online part open")
    sweep.assert_clean()


def start_pass_and_play(page, game: str, root: str, sweep: Sweep) -> None:
    """The set-up form as it opens, then a game between people: its first hand-off, the board
    behind it."""
    sweep.check("set-up form", f"#new-{game}")
    page.click(f"#new-{game} a[href='#start-{game}']")
    wait_for_play(page, root)
    handoff = page.locator(f"{root} [data-role=handoff]")
    assert handoff.count() == 1, "a game between people opens on a hand-off"
    sweep.check("hand-off")
    page.click(f"{root} [data-cmd=take-device]")
    sweep.check("pass and play, the first seat's turn")


def start_against_bots(page, game: str, seats: int, sweep: Sweep) -> None:
    """A new game with every other seat a bot, over the saved one: the page asks first."""
    page.goto(page.url.split("#")[0] + f"#new-{game}")
    for seat in range(1, seats):
        page.select_option(f"#new-{game} [data-seat-kind='{seat}']", "medium")
    page.click(f"#new-{game} a[href='#start-{game}']")
    ask = page.locator(f"#start-{game} [data-role=replace-game]")
    ask.wait_for()
    sweep.check("replace your game?")
    page.click(f"#start-{game} [data-cmd=replace-game]")


@pytest.mark.parametrize(("game", "seats", "radio"), GAMES, ids=[g[0] for g in GAMES])
def test_every_screen_of_a_whole_game(page, site, watch, game, seats, radio):
    solo = SoloPage(page, game)
    root = solo.root
    page.goto(site.url + f"#new-{game}")
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    if radio:
        page.check(radio)
    sweep = Sweep(page, game)
    start_pass_and_play(page, game, root, sweep)
    start_against_bots(page, game, seats, sweep)
    wait_for_play(page, root)
    page.click(f"{root} [data-cmd=describe-board]")
    sweep.check("against bots, the first turn, the board described")
    page.click(f"{root} [data-cmd=describe-board]")
    page.click(f"{root} [data-cmd=toggle-log]")  # the log folded from here on
    countered_unchecked = game == "espeers"
    checks_at = {4}  # each sweep is four runs of axe: a few points keep the suite's time
    for move in range(1, 200):
        table = solo.settle()
        if table.match.result() is not None:
            break
        if move in checks_at:
            sweep.check(f"against bots, turn {move}")
        if countered_unchecked and any(item.countered for item in table.state.stack):
            countered_unchecked = False  # deal-dependent: CI once met a faded PK chip here
            sweep.check(f"against bots, turn {move}, a countered card on the stack")
        choice = bot_seats.decide(table, 0, "easy").choice
        before = table.match.step
        clicks.CLICKS[game](page, root, table.state, choice)
        page.wait_for_function(
            f"JSON.parse(localStorage.getItem('{solo.storage}')).table.match.log.length > {before}"
        )
    result = page.locator(f"{root} [data-role=result]")
    result.wait_for()
    result.locator("[data-audit]").first.wait_for()
    sweep.check("the result")
    page.click(f"{root} [data-role=result] [data-cmd=share]")
    sweep.check("the result, shared")
    sweep.assert_clean()


def phone_shot(page, path) -> None:
    """A full-page picture at phone width, dark, to look at; the page left as it was."""
    page.emulate_media(color_scheme="dark")
    page.set_viewport_size(PHONE)
    page.evaluate(TWO_FRAMES)
    page.screenshot(path=path, full_page=True)
    page.emulate_media(color_scheme="light")
    page.set_viewport_size(DESKTOP)


def test_online_lobby_join_play_and_result(browser, site, screenshots):
    decide = psi_squad_player()
    game = OnlineGame(browser, site, "psi-squad", ("Ada", "Bo"))
    host = Sweep(game.host.page, "online host")
    guests: dict[int, Sweep] = {}

    def before_connect(seat: int, guest_page) -> None:
        host.check("the lobby, an invite out")
        guests[seat] = Sweep(guest_page, f"online guest {seat}")
        guests[seat].check("joining, the answer code")
        phone_shot(game.host.page, screenshots / "a11y-online-lobby-phone-dark.png")
        phone_shot(guest_page, screenshots / "a11y-online-join-phone-dark.png")

    def form(page) -> None:
        page.check("input[name='psi-squad-seats'][value='2']")
        page.check("input[name='psi-squad-length'][value='3']")

    game.before_connect = before_connect
    try:
        game.open(form)
        host.check("playing", ONLINE)
        guests[1].check("playing", ONLINE)
        game.play_to_the_end(decide)
        game.check_end()
        host.check("the result", ONLINE)
        guests[1].check("the result", ONLINE)
    finally:
        for device in game.devices:
            device.context.close()
    for sweep in (host, *guests.values()):
        sweep.assert_clean()
    for watch in game.watches:
        assert watch.foreign_requests() == []


def test_the_replay_viewer_and_a_damaged_link(page, site, watch):
    viewer = "#replay .replay-root .replay"
    page.goto(site.url + "#replay=" + bot_game_code())
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    page.locator(viewer).wait_for()
    sweep = Sweep(page, "replay")
    sweep.check("the first move")
    page.click(f"{viewer} [data-cmd=next]")
    sweep.check("the second move")
    page.click(f"{viewer} [data-cmd=last]")
    page.click(f"{viewer} [data-cmd=everything]")
    sweep.check("the end, everything shown")
    page.goto(site.url + "#replay=1.eJzLSM3JyQcABiwCFQ")  # a link cut short
    page.locator("#replay .replay-root > *").first.wait_for()
    sweep.check("a damaged link")
    sweep.assert_clean()


def test_the_site_embedded(page, site, watch):
    """What a blog's reader sees in the frame: the set-up, then a game against a bot."""
    page.goto(site.url + "?embed=1&game=esp&mode=bots")
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    sweep = Sweep(page, "embed")
    sweep.check("as it opens")
    page.click("#new-esp a[href='#start-esp']")
    wait_for_play(page, "#play-esp")
    sweep.check("playing")
    sweep.assert_clean()


# -- prefers-reduced-motion ----------------------------------------------------------------

# Every element (and its ::before and ::after) that would move: a running animation, a CSS
# animation named, or a transition longer than nothing. Hidden screens count too.
MOVING = """() => {
  const moving = [];
  const long = (v) => v.split(',').some((d) => parseFloat(d) > 0);
  for (const el of document.querySelectorAll('*')) {
    for (const pseudo of [null, '::before', '::after']) {
      const s = getComputedStyle(el, pseudo);
      const animated = s.animationName !== 'none' && long(s.animationDuration);
      if (animated || long(s.transitionDuration)) {
        const name = el.tagName.toLowerCase() + (el.className && el.className.baseVal === undefined
          ? '.' + String(el.className).trim().split(/\\s+/).join('.') : '');
        moving.push(name + (pseudo || '') + (animated ? ' animation ' + s.animationName
          : ' transition ' + s.transitionProperty + ' ' + s.transitionDuration));
      }
    }
  }
  // an animation driven by scrolling, not by time (ESP's "more board beyond the edge" line
  // shown while its board can pan), moves nothing by itself
  return {moving, running: document.getAnimations()
    .filter((a) => !(a.timeline instanceof ScrollTimeline))
    .map((a) => a.animationName || a.transitionProperty || a.constructor.name)};
}"""


# A part drawn tomorrow, with an animation and a transition and no reduced-motion rule of its
# own: only the site-wide rule stops it.
PROBE = """() => {
  const probe = document.createElement('div');
  probe.className = 'motion-probe';
  probe.style.animation = 'pulse 1s ease-in-out infinite';
  probe.style.transition = 'opacity 2s';
  document.querySelector('#home').append(probe);
}"""


def motion_journey(page, site_url: str) -> list[dict]:
    """The page from its first moment, a new part, a bot thinking, an ESPEERS hand and the
    replay viewer's switch: what moves at each point."""
    seen = []
    page.goto(site_url)
    page.evaluate(PROBE)
    seen.append(page.evaluate(MOVING))  # the engines still loading: their dot would pulse
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    solo = SoloPage(page, "esp")
    solo.start(site_url, 2, "medium")
    table = solo.settle()
    esp_driver.click(page, solo.root, table.state, bot_seats.decide(table, 0, "easy").choice)
    page.locator(f"{solo.root} [data-role=thinking]").wait_for()
    seen.append(page.evaluate(MOVING))  # the bot thinks: its chip would pulse
    solo.settle()
    espeers = SoloPage(page, "espeers")
    espeers.start(site_url, 2, "easy")
    espeers.settle()
    page.hover(f"{espeers.root} .hand-card >> nth=0")
    seen.append(page.evaluate(MOVING))  # a card under the pointer would rise
    page.goto(site_url + "#replay=" + bot_game_code())
    page.locator("#replay .replay").wait_for()
    page.click("#replay [data-cmd=last]")
    page.click("#replay [data-cmd=everything]")
    seen.append(page.evaluate(MOVING))  # the switch would slide
    return seen


def test_reduced_motion_stops_every_animation_and_transition(browser, site):
    context = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    context.add_init_script(PERSONS_PACE)
    page = context.new_page()
    try:
        seen = motion_journey(page, site.url)
    finally:
        context.close()
    for point, found in enumerate(seen):
        assert found["running"] == [], f"point {point}: animations run: {found['running']}"
        assert found["moving"] == [], f"point {point}: would move: {found['moving'][:10]}"


def test_without_reduced_motion_things_may_move(browser, site):
    """The same journey with no preference: the check above is not passing by accident."""
    context = browser.new_context(viewport=DESKTOP, reduced_motion="no-preference")
    context.add_init_script(PERSONS_PACE)
    page = context.new_page()
    try:
        seen = motion_journey(page, site.url)
    finally:
        context.close()
    moving = " ".join(m for found in seen for m in found["moving"])
    assert "animation pulse" in moving, "the engines' dot pulses while they load"
    assert "animation thinking-pulse" in moving, "a bot's thinking chip pulses"
    assert "hand-card transition" in moving, "a hand's card rises"
    assert "switch-track" in moving, "a switch slides"
    assert "motion-probe animation" in moving, "a new part's own animation runs"
    assert any(found["running"] for found in seen), "something animates"


def espeers_with_a_countered_card() -> Table:
    """A two-seat ESPEERS game, made here in CPython, stopped where a countered PK card lies on the
    stack and a seat has its say, more than Pass (else the page takes the pass for it and the
    stack resolves): the state CI once met only on some deals (a faded PK chip)."""
    game = GAMES_BY_ID["espeers"]
    for attempt in range(200):
        config = MatchConfig("espeers", f"m-e2e-countered-{attempt}", ("Ada", "Bo"))
        table = Table.new(game, config, bytes(32), range(2))
        rng = Rng(attempt.to_bytes(4, "big"))
        for _ in range(400):
            if table.match.result() is not None:
                break
            due = min(game.to_move(table.state))
            if any(i.countered and CARDS[i.card].kind == "PK" for i in table.state.stack) and (
                len(table.legal(due)) > 1  # a seat with nothing but Pass has it taken at once
            ):
                return table
            seat = min(game.to_move(table.state))
            assert table.act(seat, rng.choice(table.legal(seat))).ok
    raise AssertionError("no game of 200 put a countered card on the stack")


def test_a_countered_card_on_the_stack_keeps_its_contrast(page, site, watch, screenshots):
    """Struck through, not faded: a countered card's chip (a phone's stack) and drawing read at
    4.5:1 in both schemes. Made deterministic here because the whole-game sweep meets a counter
    only on some deals."""
    open_saved_game(page, site.url, espeers_with_a_countered_card())
    page.click("#play-espeers [data-cmd=take-device]")
    countered = page.locator("#play-espeers [data-role=stack] .stack-card.countered")
    countered.first.wait_for()
    sweep = Sweep(page, "espeers, a countered card")
    sweep.check("the stack", "#play-espeers .stack-area")
    page.emulate_media(color_scheme="dark")
    page.set_viewport_size(PHONE)
    page.evaluate(TWO_FRAMES)
    page.locator("#play-espeers .stack-area").screenshot(path=screenshots / "espeers-countered.png")
    sweep.assert_clean()
