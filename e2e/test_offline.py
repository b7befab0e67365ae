"""Offline and installable: after one visit the site opens, plays every game to the end and audits
it with no network at all; a new deploy waits for "reload"; the browser can install the app.

Each test has a server of its own, which it stops to cut the network (and the context is set
offline as well): nothing can reach the page but its service worker's cache.
"""

from __future__ import annotations

import shutil

import pytest

from e2e import clicks
from e2e.harness import READY, READY_TIMEOUT_MS, PageWatch, SiteServer, chromium_launch_args
from e2e.test_bots import SoloPage
from parlour.match import bot_seats
from scripts import build

OFFLINE_READY = "html[data-offline='ready']"
CONTROLLED = "() => navigator.serviceWorker.controller !== null"
GAMES = [("esp", 2, None), ("espeers", 2, None), ("psi-squad", 3, None), ("telepathic", 2, None)]


def first_visit(context, server: SiteServer, problems_allowed=()) -> tuple:
    """One visit with the network: the engines start, the service worker keeps the site."""
    page = context.new_page()
    watch = PageWatch(server.url)
    watch.allowed_problems.extend(problems_allowed)
    watch.attach(page)
    page.goto(server.url)
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    page.wait_for_selector(OFFLINE_READY, state="attached", timeout=READY_TIMEOUT_MS)
    return page, watch


def cut_the_network(context, server: SiteServer) -> None:
    server.__exit__(None, None, None)
    context.set_offline(True)


# While offline the browser's own update check of /sw.js fails, and says so on the console.
OFFLINE_NOISE = ("sw.js", "ERR_INTERNET_DISCONNECTED", "Failed to fetch", "net::ERR")


def test_after_one_visit_every_game_plays_to_the_audit_offline(browser):
    server = SiteServer().__enter__()
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    try:
        page, watch = first_visit(context, server, OFFLINE_NOISE)
        cut_the_network(context, server)
        page.reload()
        page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
        assert page.evaluate(CONTROLLED)
        assert page.evaluate("navigator.onLine") is False
        # Online play says what it needs; bots and pass and play just work.
        page.goto(server.url + "#new-esp")
        page.click("#new-esp .online-setup summary")
        assert "same Wi-Fi or LAN" in page.inner_text("#new-esp .offline-note")
        for game, seats, radio in GAMES:
            solo = SoloPage(page, game)
            solo.start(server.url, seats, "easy", radio)
            solo.play_to_the_end()
            assert page.locator(f"#play-{game} [data-audit=verified]").count() == 1, game
        assert watch.foreign_requests() == []
        assert watch.unexpected_problems() == [], watch.unexpected_problems()
    finally:
        context.close()


def test_the_installed_app_opens_to_the_home_screen_offline(browser_type, tmp_path):
    """Chromium finds nothing in the way of installing (a profile on disk: a private window
    never offers it), and the manifest's start address opens the home screen offline."""
    server = SiteServer().__enter__()
    context = browser_type.launch_persistent_context(tmp_path / "profile", **chromium_launch_args())
    try:
        page, _ = first_visit(context, server, OFFLINE_NOISE)
        cdp = context.new_cdp_session(page)
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert errors == [], errors
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["errors"] == [], manifest["errors"]
        start = page.evaluate(
            "fetch(document.querySelector('link[rel=manifest]').href)"
            ".then((r) => r.json()).then((m) => m.start_url)"
        )
        cut_the_network(context, server)
        app = context.new_page()
        app.goto(server.url + "assets/" + start)
        app.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
        assert app.locator("#home-title").is_visible()
    finally:
        context.close()


@pytest.fixture
def deployed(tmp_path):
    """A deploy of its own (dist/, as Netlify publishes it), so the test can deploy again."""
    dist = build.assemble_dist(tmp_path / "dist")
    with SiteServer(root=dist) as server:
        yield server, dist
    shutil.rmtree(dist, ignore_errors=True)


def test_a_new_deploy_waits_for_reload_and_the_game_survives_it(browser, deployed):
    server, dist = deployed
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    try:
        page, watch = first_visit(context, server)
        page.wait_for_function(CONTROLLED)
        solo = SoloPage(page, "esp")
        solo.start(server.url, 2, "easy")
        table = solo.settle()
        clicks.esp(page, solo.root, table.state, bot_seats.decide(table, 0, "easy").choice)
        steps = solo.settle().match.step
        assert steps >= 2  # the person's move and the bot's reply
        old = page.evaluate("caches.keys()")
        # A new deploy: the page's text changes, so its service worker does.
        index = dist / "index.html"
        index.write_text(index.read_text().replace("</body>", "<!-- deploy 2 -->\n</body>"))
        page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
        notice = page.locator("#update-ready")
        notice.wait_for(state="visible", timeout=READY_TIMEOUT_MS)
        assert "A new version is ready" in notice.inner_text()
        # Until the player reloads, the page is served whole from the version it started with.
        assert "deploy 2" not in page.evaluate("fetch('./index.html').then((r) => r.text())")
        assert len(page.evaluate("caches.keys()")) == 2
        with page.expect_navigation():
            notice.locator("button").click()
        page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
        assert "deploy 2" in page.content()
        page.locator("#play-esp .play").wait_for()
        assert solo.table().match.step == steps  # the game goes on where it was
        current = page.evaluate("caches.keys()")
        assert len(current) == 1 and current != old
        assert watch.unexpected_problems() == []
    finally:
        context.close()
