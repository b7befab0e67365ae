"""The first minutes of a solo player (issue 28, points 1, 7 and 8) in Chromium: one tap from
the home page to a game against the computer, with no hand-off and "Your turn"; the last choice
remembered; the loading screens counting the runtime's real bytes; no layout jump while a bot
thinks; Resume not offered for a finished game."""

from __future__ import annotations

import functools
import json
import re
import time
from collections import Counter
from pathlib import Path
from typing import ClassVar
from urllib.parse import urlsplit

import pytest

from e2e.games import esp as esp_driver
from e2e.harness import READY, READY_TIMEOUT_MS, PageWatch, SiteServer
from e2e.players import PERSONS_PACE, SoloPage
from parlour.games.declared import GAME_IDS
from parlour.match import bot_seats
from scripts.serve import ROOT, ParlourHandler

RUNTIME = Path(__file__).parent.parent / "assets" / "build" / "runtime.json"
PROGRESS = re.compile(r"Downloading the game engine: (\d+\.\d) of (\d+\.\d) MB \((\d+)%\)")


def one_tap(page, game: str) -> SoloPage:
    page.click(f"#home a[href='#solo-{game}']")
    page.locator(f"#play-{game} .play").wait_for(timeout=READY_TIMEOUT_MS)
    return SoloPage(page, game)


def test_one_tap_from_home_to_a_whole_game_against_the_computer(page, site, watch, screenshots):
    page.goto(site.url)
    solo = one_tap(page, "telepathic")  # before the engines are ready: the tap waits for them
    assert page.url.endswith("#play-telepathic")
    table = solo.settle()
    assert table.match.config.bot_levels == {1: "medium"}
    solo.check_view()  # no hand-off, the person's own seat
    assert page.locator("#play-telepathic .your-turn").inner_text() == "Your turn"
    page.screenshot(path=screenshots / "solo-telepathic-first-turn.png")
    table = solo.play_to_the_end()
    title = page.inner_text("#play-telepathic [data-role=result] h2")
    won = bool(table.match.result().winners)
    assert title == ("You and Player 2 (bot) win!" if won else "Nobody wins"), title
    assert page.locator("#play-telepathic [data-audit=verified]").count() == 1
    page.screenshot(path=screenshots / "solo-telepathic-result.png")
    # the game is over: the home card offers no Resume of it
    page.goto(site.url + "#home")
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    assert not page.locator("#home [data-resume-key*=telepathic]").is_visible()


def test_the_last_choice_alone_against_bots_is_remembered(app):
    app.goto(app.url.split("#")[0] + "#new-esp")
    app.check("#new-esp input[name=esp-seats][value='3']")
    for seat in (1, 2):
        app.select_option(f"#new-esp [data-seat-kind='{seat}']", "hard")
    app.click("#new-esp a[href='#start-esp']")
    app.locator("#play-esp .play").wait_for()
    app.goto(app.url.split("#")[0] + "#home")
    app.click("#home a[href='#solo-esp']")
    # a game in progress is never replaced without a word
    app.click("#solo-esp [data-cmd=replace-game]")
    app.locator("#play-esp .play").wait_for()
    solo = SoloPage(app, "esp")
    config = solo.settle().match.config
    assert len(config.seats) == 3 and config.bot_levels == {1: "hard", 2: "hard"}
    remembered = json.loads(app.evaluate("localStorage.getItem('psi-parlour:esp:vs-computer')"))
    assert remembered["level"] == "hard" and remembered["seats"] == 3


class CountingHandler(ParlourHandler):
    """The site's handler, counting the requests that reach the server, by path."""

    hits: ClassVar[Counter[str]] = Counter()

    def send_head(self):
        self.hits[self.path.split("?")[0]] += 1
        return super().send_head()


@pytest.mark.first_visit
def test_the_loading_screen_counts_the_runtime_s_bytes_then_says_the_next_visit_is_quick(
    browser,
):
    """The runtime is downloaded once, by the engine worker, which counts its bytes for the
    loading screens (assets/engine-download.mjs) and hands it to the service worker's install, in a
    fresh context (a memory-only cache, as a private window): the page's own measuring fetch
    and the service worker's install each downloaded the 9.6 MB binary again."""
    runtime = json.loads(RUNTIME.read_text())
    total = runtime["bytes"]
    CountingHandler.hits.clear()
    with SiteServer() as site:
        site.httpd.RequestHandlerClass = functools.partial(CountingHandler, directory=str(ROOT))
        loading_screens(browser, site, total)
    downloads = {url: CountingHandler.hits[url[1:]] for url, _ in runtime["files"]}
    # the interpreter module (8 KB) is imported, not fetched, so the engine cannot hand it over:
    # the service worker's install asks for it once more; every other file crosses once, the
    # engine snapshot's maker included (it loads from the service worker)
    loader = "./assets/engine-loader.mjs"
    assert downloads.pop(loader) <= 2, loader
    assert downloads == dict.fromkeys(downloads, 1), downloads


def loading_screens(browser, site, total: int) -> None:
    context = browser.new_context()
    page = context.new_page()
    watch = PageWatch(site.url)
    watch.attach(page)
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    throttle = {"offline": False, "latency": 20, "uploadThroughput": 10e6}
    cdp.send("Network.emulateNetworkConditions", {**throttle, "downloadThroughput": 4e6})
    # the loop below waits for the loading screen itself: the page's "load" event (its
    # stylesheet and icons) shares the throttled line with the worker's 9.6 MB download and,
    # on a busy CI machine, once took over Playwright's 30 s
    page.goto(site.url + "#solo-esp", wait_until="commit")
    seen: list[str] = []
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and not page.url.endswith("#play-esp"):
        seen.append(page.inner_text("#solo-esp [data-load-progress]"))
        time.sleep(0.1)
    counted = [PROGRESS.search(s) for s in seen]
    partial = [m for m in counted if m and 0 < int(m.group(3)) < 100]
    assert partial, f"no progress between 0 and 100%: {sorted(set(seen))[:5]}"
    assert all(m.group(2) == f"{total / 1e6:.1f}" for m in partial), "against the build's total"
    assert any("s left" in s for s in seen), "an estimate of the time left"
    assert page.evaluate("document.documentElement.dataset.loadBytes") == f"{total}/{total}"
    assert any("next visit starts without downloading it" in s for s in seen)
    assert watch.foreign_requests() == []
    # the engine (loader, and Pyodide in the worker) asked for the trimmed standard library,
    # and nothing asked for Pyodide's whole one (its indexURL + python_stdlib.zip)
    asked = [urlsplit(url).path for url in watch.requests]
    assert asked.count("/assets/engine-loader.mjs") >= 1, "the worker's interpreter module"
    assert asked.count("/assets/build/python_stdlib.zip") >= 1, "the worker's standard library"
    assert [p for p in asked if p.endswith("python_stdlib.zip")] == [
        "/assets/build/python_stdlib.zip"
    ] * asked.count("/assets/build/python_stdlib.zip")
    # (its main-thread tasks are measured by `make bench`, on a quiet machine: see README)
    # the next visit: the engine is on this device (the service worker answers)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    again = context.new_page()
    again.goto(site.url + "#rules-esp")
    again.wait_for_function("document.documentElement.dataset.loadFrom", timeout=60_000)
    assert again.evaluate("document.documentElement.dataset.loadFrom") == "device"
    handed = again.evaluate("caches.has('psi-parlour runtime, handed over')")
    assert handed is False, "the hand-over cache goes once the service worker took it"
    context.close()


@pytest.mark.parametrize("width", [1280, 360])
def test_the_board_stays_put_while_a_bot_thinks(browser, site, width):
    page = browser.new_page(viewport={"width": width, "height": 800 if width > 360 else 740})
    page.add_init_script(PERSONS_PACE)  # the thinking chip lasts a person's pace
    page.goto(site.url)
    solo = one_tap(page, "esp")
    for _ in range(3):
        table = solo.settle()
        bar = page.locator("#play-esp .play-bar").bounding_box()
        choice = bot_seats.decide(table, 0, "easy").choice
        esp_driver.click(page, solo.root, table.state, choice)
        page.locator("#play-esp [data-role=thinking]").wait_for()
        thinking = page.locator("#play-esp .play-bar").bounding_box()
        assert thinking["height"] == bar["height"], "the play bar wrapped while the bot thinks"
    page.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(("width", "height"), [(1280, 800), (360, 740)])
def test_home_cards_line_up_with_learn_by_playing_in_view(
    browser, site, screenshots, scheme, width, height
):
    page = browser.new_page(viewport={"width": width, "height": height}, color_scheme=scheme)
    page.goto(site.url)
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    page.screenshot(path=screenshots / f"solo-home-{width}-{scheme}.png")
    if width == 1280:
        tops = {
            round(page.locator(f"#home a[href='#{kind}-{g}']").bounding_box()["y"])
            for g in GAME_IDS
            for kind in ("solo",)
        }
        assert len(tops) == 1, f"the cards' buttons do not line up: {tops}"
        learn = page.locator("#home a[href='#learn-esp']").bounding_box()
        assert learn["y"] + learn["height"] <= height, "Learn by playing is below the fold"
    page.click("#home a[href='#solo-esp']")
    page.locator("#play-esp .play").wait_for()
    SoloPage(page, "esp").settle()
    page.screenshot(path=screenshots / f"solo-esp-{width}-{scheme}.png")
    page.close()


def test_quick_bots_beside_the_players_is_the_player_s_choice_and_kept(page, site, watch):
    """A new player's bots pause before each move (600 ms: the person follows the game);
    "Quick bots" under the players shortens it, shows pressed, and is kept after a reload. (The
    other browser tests play with it on: e2e/conftest.py.)"""
    page.goto(site.url)
    page.evaluate("localStorage.removeItem('psi-parlour:quick-bots')")
    page.reload()
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    one_tap(page, "esp")
    toggle = page.locator("#play-esp [data-cmd=quick-bots]")
    assert toggle.get_attribute("aria-pressed") == "false"
    toggle.click()
    page.locator("#play-esp [data-cmd=quick-bots][aria-pressed=true]").wait_for(timeout=10_000)
    assert page.evaluate("localStorage.getItem('psi-parlour:quick-bots')") == "1"
    page.reload()
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    page.locator("#play-esp [data-cmd=quick-bots][aria-pressed=true]").wait_for(timeout=30_000)
