"""The home screen as a person meets it: painted at once, usable before Python, then ready."""

from __future__ import annotations

import io
import zipfile

import pytest

from e2e.harness import READY, READY_TIMEOUT_MS, hold_back_python
from e2e.test_snapshot import COLD, FAIL_FIRST_READ, NO_SNAPSHOT, RESTORED, loader_after, one_move
from parlour.games.catalog import names

pytestmark = pytest.mark.timing  # first contentful paint is bounded: run alone (Makefile)

GAMES = names()  # each game's name by its id, in the home screen's order: the catalog's


@pytest.mark.first_visit
def test_home_is_ready_with_no_foreign_request_and_a_clean_console(app, watch):
    assert app.locator("h1").inner_text() == "Four games of the mind"
    assert app.get_by_text("Engines ready").is_visible()
    for name in GAMES.values():
        assert app.locator(".game-card h2", has_text=name).first.is_visible()
    assert any(u.endswith("pyodide.asm.wasm") for u in watch.requests)


def test_a_return_visit_starts_the_engines_from_the_snapshot_and_keeps_it(page, site, watch):
    """The other browser tests run as return visits (e2e/engine_seed.py): a page of one
    restores the snapshot its context was given, keeps it, and is as clean as a first visit.
    (If the seeding broke, every test would silently start cold, and the suite take minutes
    more.)"""
    said: list[str] = []
    page.on("console", lambda message: said.append(message.text))
    page.goto(site.url)
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    assert page.get_by_text("Engines ready").is_visible()
    engine = [s for s in said if s.startswith("parlour-engine: ")]
    assert any(s.startswith("parlour-engine: restored from the snapshot") for s in engine), engine
    for _ in range(300):  # the snapshot's maker runs once the page is idle
        if any(s.startswith("parlour-engine: snapshot ") for s in said):
            break
        page.wait_for_timeout(200)
    assert "parlour-engine: snapshot kept" in said, [s for s in said if "parlour-engine" in s]


@pytest.mark.first_visit
def test_home_is_usable_before_python_is_ready(page, site, watch):
    """Hold the wasm back: the home screen and rules must work meanwhile, then Python arrives."""
    held = hold_back_python(page)
    page.goto(site.url)
    assert page.locator("html").get_attribute("data-engine") is None
    assert page.get_by_text("Warming up the game engines").is_visible()
    page.get_by_role("link", name="Rules").first.click()
    assert page.locator("#rules-esp h2").inner_text() == "ESP"
    page.get_by_role("link", name="All games").first.click()
    assert page.locator("#home h1").is_visible()
    held.release()
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    paint = page.evaluate("performance.getEntriesByName('first-contentful-paint')[0].startTime")
    assert paint < 1500, f"first contentful paint took {paint:.0f} ms"


@pytest.mark.parametrize("game", GAMES)
def test_each_rules_page_opens_from_home(app, game):
    app.locator(f".game-card[data-game='{game}'] a", has_text="Rules").click()
    section = app.locator(f"#rules-{game}")
    assert section.is_visible()
    assert section.locator("h2").inner_text() == GAMES[game]
    assert section.get_by_text("Our rulings").is_visible()
    assert not app.locator("#home").is_visible()


def test_games_not_built_yet_say_so_and_offer_no_fake_screen(app):
    for card in app.locator(".game-card").all():
        if card.get_attribute("data-available") == "true":
            continue
        assert "Not available yet" in card.inner_text()
        assert card.locator("a[href^='#play']").count() == 0


def _broken_app_zip() -> bytes:
    """A parlour package whose start-up raises, to see the page's error panel."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        zf.writestr("parlour/__init__.py", "")
        zf.writestr("parlour/ui/__init__.py", "")
        zf.writestr("parlour/ui/app.py", "raise RuntimeError('the crystal ball is cracked')\n")
    return buffer.getvalue()


@pytest.mark.first_visit
def test_a_python_error_at_start_up_is_shown_on_the_page(page, site, watch):
    watch.allowed_problems.append("crystal ball is cracked")
    watch.allowed_problems.append("PythonError")
    page.route(
        "**/assets/build/parlour.zip",
        lambda route: route.fulfill(body=_broken_app_zip(), content_type="application/zip"),
    )
    page.goto(site.url)
    panel = page.locator("#boot-error")
    panel.wait_for(state="visible", timeout=READY_TIMEOUT_MS)
    assert "the crystal ball is cracked" in panel.locator("pre").inner_text()
    assert page.locator("html").get_attribute("data-boot") == "failed"
    assert page.locator("html").get_attribute("data-engine") is None


WIDTHS = {"phone": {"width": 360, "height": 780}, "desktop": {"width": 1280, "height": 900}}


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("device", WIDTHS)
def test_home_fits_and_is_photographed(browser, site, screenshots, device, scheme):
    """Screenshots before and after Python is ready; nothing overflows sideways."""
    context = browser.new_context(viewport=WIDTHS[device], color_scheme=scheme)
    page = context.new_page()
    page.goto(site.url)
    page.screenshot(path=screenshots / f"home-{device}-{scheme}-booting.png", full_page=True)
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    page.screenshot(path=screenshots / f"home-{device}-{scheme}-ready.png", full_page=True)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page is {overflow}px wider than a {device} screen"
    page.goto(site.url + "#rules-telepathic")
    page.screenshot(path=screenshots / f"rules-{device}-{scheme}.png", full_page=True)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the rules page is {overflow}px wider than a {device} screen"
    context.close()


def test_a_passing_failure_to_read_the_snapshot_is_tried_again_not_a_cold_start(browser, site):
    """Chromium's UnknownError on reading a large value is a passing one (low memory): the
    loader reads again a moment later and restores, rather than start cold and make the
    snapshot again."""
    with loader_after(browser, site, FAIL_FIRST_READ) as (page, watch, console):  # seeded
        assert "UnknownError" in console.wait_for("parlour-engine: reading the snapshot again")
        console.wait_for(RESTORED)
        assert not any(line.startswith((COLD, NO_SNAPSHOT)) for line in console.lines)
        one_move(page, site.url, "telepathic", 2)
        assert watch.unexpected_problems() == [], watch.unexpected_problems()
