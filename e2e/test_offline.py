"""Offline and installable: after one visit the site opens, plays every game to the end and audits
it with no network at all; a new deploy waits for "reload"; the browser can install the app.

Each test has a server of its own, which it stops to cut the network (and the context is set
offline as well): nothing can reach the page but its service worker's cache. The tests check what
the site does then, not what the browser's `navigator.onLine` says after a reload: Chromium 150
(Debian 12's) keeps saying "online" in a page loaded under DevTools' offline emulation.
"""

from __future__ import annotations

import shutil

import pytest

from e2e.games import esp as esp_driver
from e2e.harness import READY, READY_TIMEOUT_MS, PageWatch, SiteServer, chromium_launch_args
from e2e.players import SoloPage
from parlour.games.declared import default_tables
from parlour.match import bot_seats
from scripts import build, offline

pytestmark = pytest.mark.first_visit  # servers of its own, and a first visit before going offline

OFFLINE_READY = "html[data-offline='ready']"
CONTROLLED = "() => navigator.serviceWorker.controller !== null"
GAMES = [(game, seats, None) for game, seats in default_tables()]  # every game of the catalog


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


UNANSWERED = "(url) => fetch(url).then(() => 'answered', () => 'failed')"
# While offline the browser's own update check of /sw.js fails, and says so on the console.
OFFLINE_NOISE = ("sw.js", "ERR_INTERNET_DISCONNECTED", "Failed to fetch", "net::ERR")


def test_after_one_visit_every_game_plays_to_the_audit_offline(browser):
    server = SiteServer().__enter__()
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    try:
        page, watch = first_visit(context, server, OFFLINE_NOISE)
        page.goto(server.url + "#new-esp")
        page.click("#new-esp .online-setup summary")
        cut_the_network(context, server)
        # The open page hears the network go, and online play says what it needs.
        note = page.locator("#new-esp .offline-note")
        note.wait_for(state="visible")
        assert "same Wi-Fi or LAN" in note.inner_text()
        # The site opens with the server stopped: from the cache, since nothing else answers.
        page.reload()
        page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
        assert page.evaluate(CONTROLLED)
        assert page.evaluate(UNANSWERED, "./not-a-published-file") == "failed"
        # Bots and pass and play just work.
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


HEADER = "x-parlour-version"  # the version a file came from, as the service worker says
VERSION = f"(url) => fetch(url).then((r) => r.headers.get('{HEADER}'))"
# What this scope's one cache holds for a file: [how many caches, the version stamped on it].
KEPT = """async ([site, path]) => {
  const names = (await caches.keys()).filter((n) => n.startsWith(`psi-parlour ${site} `));
  const kept = await (await caches.open(names[0])).match(new URL(path, site).href);
  return [names.length, kept ? kept.headers.get('x-parlour-version') : 'not kept'];
}"""
# A copy kept unstamped, as a service worker before the stamping kept them all.
KEPT_EARLIER = """async ([site, path, text]) => {
  const [name] = (await caches.keys()).filter((n) => n.startsWith(`psi-parlour ${site} `));
  await (await caches.open(name)).put(new URL(path, site).href, new Response(text));
}"""
TEXT_AND_VERSION = f"""(url) => fetch(url)
  .then(async (r) => [await r.text(), r.headers.get('{HEADER}')])"""


def test_each_file_is_kept_stamped_with_its_version_and_goes_out_as_kept(browser):
    """The service worker stamps the site's files with their version once, as it keeps them,
    and answers with the copy it keeps (a stream of its own in between cost CPU on every start);
    the runtime's folder is kept as downloaded; a copy kept unstamped is stamped on the way."""
    server = SiteServer().__enter__()
    context = browser.new_context()
    try:
        page, watch = first_visit(context, server)
        page.wait_for_function(CONTROLLED)
        version = offline.version()
        for path in ("index.html", "assets/build/python_stdlib.zip", "py/worker.py"):
            assert page.evaluate(KEPT, [server.url, path]) == [1, version], path
            assert page.evaluate(VERSION, f"./{path}") == version, path
        pyodide = build.vendor_dirs()["pyodide"].relative_to(build.ROOT) / "pyodide.mjs"
        assert page.evaluate(KEPT, [server.url, pyodide.as_posix()]) == [1, None]
        page.evaluate(KEPT_EARLIER, [server.url, "py/worker.py", "# kept unstamped"])
        assert page.evaluate(TEXT_AND_VERSION, "./py/worker.py") == ["# kept unstamped", version]
        assert watch.unexpected_problems() == [], watch.unexpected_problems()
    finally:
        context.close()
        server.__exit__(None, None, None)


@pytest.fixture
def deployed(tmp_path):
    """A deploy of its own (dist/, as Netlify publishes it), so the test can deploy again; and a
    second deployment of the same site under /other/ on the same origin."""
    dist = build.assemble_dist(tmp_path / "dist")
    build.assemble_dist(dist / "other")
    with SiteServer(root=dist, also_serve=("other/",)) as server:
        yield server, dist
    shutil.rmtree(dist, ignore_errors=True)


# Version 2 of the site: the page's text and the engine worker's Python both change, and the
# engine says which version it runs through a function version 1 does not have.
DEPLOY_2 = """

def deploy() -> int:
    return 2


__export__ = [*__export__, "deploy"]
"""
TEXT = "(url) => fetch(url).then((r) => r.text())"
# The engine's answer to deploy(): 2 on version 2; version 1's engine has no such function.
ENGINE_DEPLOY = """(name) => Promise.race([
  Promise.resolve(window[name]).then(
    (e) => e.deploy().then(String, () => "no deploy()"),
    () => "no engine",
  ),
  new Promise((resolve) => setTimeout(() => resolve("no answer"), 60000)),
])"""
NEW_ENGINE = "import('./assets/main-thread.js').then((m) => { window.second = m.startEngine(); })"
OTHER_READY = """navigator.serviceWorker.getRegistration('./other/')
  .then((r) => r?.active?.state === 'activated')"""


def deploy_again(dist) -> None:
    index = dist / "index.html"
    index.write_text(index.read_text().replace("</body>", "<!-- deploy 2 -->\n</body>"))
    worker = dist / "py" / "worker.py"
    worker.write_text(worker.read_text() + DEPLOY_2)


def test_open_tabs_keep_their_version_until_each_reloads_and_the_game_survives(browser, deployed):
    """Two tabs on version 1 and a second deployment under /other/: version 2 is offered in
    both tabs; accepting it in one leaves the other on version 1's files (even for an engine it
    starts after the switch) and its game playing, until it reloads too; /other/ keeps its copy."""
    server, dist = deployed
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    try:
        a, watch_a = first_visit(context, server)
        a.wait_for_function(CONTROLLED)
        a.evaluate("navigator.serviceWorker.register('./other/sw.js', {scope: './other/'})")
        a.wait_for_function(OTHER_READY)
        b, watch_b = first_visit(context, server)
        b.wait_for_function(CONTROLLED)
        b.evaluate("window.stillTheFirstLoad = true")
        version_1 = offline.version(dist)
        worker_1 = (dist / "py" / "worker.py").read_text()
        deploy_again(dist)
        a.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
        for tab in (a, b):
            notice = tab.locator("#update-ready")
            notice.wait_for(state="visible", timeout=READY_TIMEOUT_MS)
            assert "A new version is ready" in notice.inner_text()
        # Until a tab reloads, it is served whole from the version it started with.
        assert "deploy 2" not in a.evaluate(TEXT, "./index.html")
        served_b: list[tuple[str, str | None]] = []  # what tab B gets from now on, and whence
        b.on("response", lambda r: served_b.append((r.url, r.headers.get(HEADER))))
        with a.expect_navigation():
            a.locator("#update-ready button").click()
        a.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
        assert "deploy 2" in a.content()
        assert a.evaluate(ENGINE_DEPLOY, "parlourEngine") == "2"
        # Tab B did not reload, still says so, and is answered with version 1's bytes...
        assert b.evaluate("window.stillTheFirstLoad") is True
        assert b.locator("#update-ready").is_visible()
        assert b.evaluate(TEXT, "./py/worker.py") == worker_1
        assert "deploy 2" not in b.evaluate(TEXT, "./index.html")
        assert b.evaluate(VERSION, "./assets/site.js") == version_1
        # ... even for an engine it starts now (a tab starting up as the new version takes over).
        b.evaluate(NEW_ENGINE)
        assert b.evaluate(ENGINE_DEPLOY, "second") == "no deploy()"
        # And it plays on version 1.
        solo = SoloPage(b, "esp")
        solo.start(server.url, 2, "easy")
        table = solo.settle()
        esp_driver.click(b, solo.root, table.state, bot_seats.decide(table, 0, "easy").choice)
        steps = solo.settle().match.step
        assert steps >= 2  # the person's move and the bot's reply
        # Everything tab B and its engines got since the switch came from version 1.
        assert any(url.endswith("/parlour.zip") for url, _ in served_b)
        # (The runtime's folder, the same bytes in every version, goes out without the header.)
        site = [(u, v) for u, v in served_b if u.startswith(server.url) and "/vendor/" not in u]
        assert {version for _, version in site} == {version_1}, site
        with b.expect_navigation():
            b.locator("#update-ready button").click()
        b.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
        assert "deploy 2" in b.content()
        assert b.evaluate(VERSION, "./assets/site.js") == offline.version(dist)
        b.locator("#play-esp .play").wait_for()
        assert solo.table().match.step == steps  # the game goes on where it was
        # Version 1's cache goes with its last page; the other deployment's copy stays.
        ours = f"caches.keys().then((n) => n.filter((n) => n.includes({server.url!r} + ' ')))"
        b.wait_for_function(f"{ours}.then((n) => n.length === 1)", timeout=READY_TIMEOUT_MS)
        other = server.url + "other/index.html"
        assert b.evaluate(f"caches.match({other!r}).then((r) => r !== undefined)")
        assert watch_a.unexpected_problems() == []
        assert watch_b.unexpected_problems() == []
    finally:
        context.close()
