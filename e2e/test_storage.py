"""Storage that fails, in the real page (issue 25, point 2), and a save that cannot be read
(point 3): the game goes on, the bot's reply is drawn, and the player gets one sentence.

Full: localStorage filled until QuotaExceededError after a game against a bot has started; a
move is made, the bot answers, "This browser's storage is full" shows with "Clear old saves",
the save of the move before stays whole, and removing an old save the player picks makes room:
the game is saved again and comes back after a reload, the decks untouched. Refused: every read
of `window.localStorage` and `sessionStorage` throws a SecurityError (cookies blocked), in the
page and in a blog's frame on another origin: the engines start, a game against a bot is
played, and the page says nothing is saved.
"""

from __future__ import annotations

import contextlib
import json

import pytest

from e2e import axe
from e2e.games import esp as esp_driver
from e2e.harness import READY, READY_TIMEOUT_MS, PageWatch
from e2e.players import SoloPage
from e2e.test_embed import BLOG, Blog, blog_page, frame_of
from parlour.match import bot_seats

FULL_SENTENCE = "This browser's storage is full: the game goes on but is not saved."
REFUSED_SENTENCE = "the game goes on but is not saved."
assert blog_page  # the fixture of a blog's page, used here too
DECKS = "psi-parlour:espeers:decks"
OLD_GAME = "psi-parlour:telepathic:pass-and-play"
# Every read of the storage areas throws, as with cookies blocked (`where`: which windows).
REFUSE = """
if (%s) {
  for (const name of ["localStorage", "sessionStorage"]) {
    Object.defineProperty(window, name, {
      get() { throw new DOMException("The operation is insecure.", "SecurityError"); },
    });
  }
}
"""
# Fill localStorage with filler keys until not even one more character fits.
FILL = """
() => {
  let n = 0, size = 1 << 20, filled = 0;
  while (size >= 1) {
    try {
      localStorage.setItem("filler:" + n, "f".repeat(size));
      n++; filled += size;
    } catch (e) {
      if (e.name !== "QuotaExceededError") throw e;
      size = Math.floor(size / 2);
    }
  }
  return filled;
}
"""
LOG_LENGTH = "(root) => document.querySelectorAll(root + ' [data-role=log] li').length"
SETTLED = (
    "() => !document.documentElement.dataset.pending && !document.documentElement.dataset.botDue"
)


def log_length(where, root: str) -> int:
    return where.evaluate(LOG_LENGTH, root)


def settled(where) -> None:
    where.wait_for_function(SETTLED, timeout=60_000)


def move_by_state(page, solo: SoloPage) -> int:
    """The person's move in ESP, chosen by the easy bot from the saved game; the log's length
    once the bot has answered."""
    settled(page)
    table = solo.table()
    before = log_length(page, solo.root)
    choice = bot_seats.decide(table, 0, "easy").choice
    esp_driver.click(page, solo.root, table.state, choice)
    page.wait_for_function(f"({LOG_LENGTH})('{solo.root}') >= {before + 2}", timeout=60_000)
    settled(page)
    return log_length(page, solo.root)


def move_by_sight(where, root: str) -> None:
    """An ESP placement made from what the screen shows (no storage to read the game from):
    the first tile of the tray, face up, on the first cell the board marks as a target; then
    the bot's reply is drawn."""
    settled(where)
    before = log_length(where, root)
    where.click(f"{root} [data-cmd=tray]:not([disabled])")
    where.click(f"{root} [data-cmd=face][data-face='up']")
    where.click(f"{root} [data-cell].target")
    where.wait_for_function(f"({LOG_LENGTH})('{root}') >= {before + 2}", timeout=60_000)
    settled(where)


def start_against_a_bot(where, url: str) -> str:
    """A game of ESP against an easy bot, from its set-up form; the play screen's selector."""
    where.goto(url + "#new-esp")
    where.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    return set_up_against_a_bot(where)


def set_up_against_a_bot(where) -> str:
    """From ESP's set-up form: the second seat an easy bot, the game started."""
    where.select_option("#new-esp [data-seat-kind='1']", "easy")
    where.click("#new-esp a[href='#start-esp']")
    where.locator("#play-esp .play").wait_for(timeout=30_000)
    return "#play-esp"


def saved_moves(page, key: str) -> int:
    raw = page.evaluate(f"localStorage.getItem('{key}')")
    return len(json.loads(raw)["table"]["match"]["log"])


def test_full_storage_the_bot_answers_the_player_is_told_and_nothing_saved_is_lost(
    page, site, watch, screenshots
):
    solo = SoloPage(page, "esp")
    page.goto(site.url)
    decks = json.dumps({"decks": {}, "draft": {"name": "Kept", "counts": {}}})
    page.evaluate(
        "([d, dk, old, ok]) => { localStorage.setItem(dk, d); localStorage.setItem(old, ok); }",
        [decks, DECKS, OLD_GAME, "{" + " " * 400_000 + "}"],
    )
    solo.start(site.url, 2, "easy")
    move_by_state(page, solo)
    before = page.evaluate(f"localStorage.getItem('{solo.storage}')")
    assert page.evaluate(FILL) > 0
    shown = move_by_state(page, solo)  # the save fails; the bot's reply is drawn all the same
    note = page.locator("#storage-note [data-role=storage-full]")
    assert FULL_SENTENCE in note.inner_text()
    assert page.evaluate(f"localStorage.getItem('{solo.storage}')") == before, "kept whole"
    assert page.locator(f"{solo.root} [data-role=thinking]").count() == 0
    page.click("#storage-note [data-cmd=storage-list]")
    listed = page.inner_text("#storage-note [data-role=storage-list]")
    assert "Your Telepathic game on this device" in listed and "Your ESPEERS decks" in listed
    assert "Your ESP game" not in listed, "the game being played is never offered"
    shoot(page, screenshots, "storage-full")
    page.click(f"#storage-note [data-cmd=storage-remove][data-key='{OLD_GAME}']")
    page.locator("#storage-note [data-role=storage-saved]").wait_for()
    assert page.evaluate(f"localStorage.getItem('{OLD_GAME}')") is None, "removed, as asked"
    assert saved_moves(page, solo.storage) == shown, "the game is saved again, as it stands"
    page.reload()
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    page.goto(site.url + "#play-esp")
    page.locator(f"{solo.root} .play").wait_for()
    assert log_length(page, solo.root) == shown, "the game comes back where it was"
    assert page.evaluate(f"localStorage.getItem('{DECKS}')") == decks, "the decks untouched"


def test_refused_storage_the_engines_start_the_bot_answers_and_the_page_says_so(
    page, site, watch, screenshots
):
    page.add_init_script(REFUSE % "true")
    root = start_against_a_bot(page, site.url)
    move_by_sight(page, root)
    assert REFUSED_SENTENCE in page.inner_text("#storage-note [data-role=storage-refused]")
    assert page.locator("#boot-error").is_hidden()
    shoot(page, screenshots, "storage-refused")


def shoot(page, screenshots, name: str) -> None:
    """The page at the top, on a phone and a desktop, light and dark; axe-core finds nothing
    serious in the storage note in any of the four."""
    log = axe.AxeLog(page, name)
    for scheme in ("light", "dark"):
        for width, height in ((360, 740), (1280, 800)):
            page.emulate_media(color_scheme=scheme)
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(screenshots / f"{name}-{width}-{scheme}.png"))
            log.check(f"[{scheme} {width}]", "#storage-note")
    page.emulate_media(color_scheme="light")
    log.assert_clean()


@contextlib.contextmanager
def esp_in_a_blog(blog_page, site):
    """A blog on another origin embedding the site's ESP set-up: its frame, with a game against
    a bot started. On leaving: the frame asked no other origin and logged no problem."""
    page, watch = blog_page
    src = site.url + "?embed=1&game=esp#new-esp"
    blog = Blog(BLOG.format(code=f'<iframe src="{src}" style="width:100%;height:900px"></iframe>'))
    try:
        page.goto(blog.url)
        frame = frame_of(page)
        set_up_against_a_bot(frame)
        yield frame
        own = (site.url, blog.url, "blob:" + site.url.rstrip("/"), "data:")
        assert [u for u in watch.requests if not u.startswith(own)] == []
        assert watch.unexpected_problems() == []
    finally:
        blog.close()


def test_a_frame_on_another_origin_denied_storage_plays_and_says_so(blog_page, site):
    blog_page[0].add_init_script(REFUSE % "window !== window.top")  # the blog keeps its own
    with esp_in_a_blog(blog_page, site) as frame:
        move_by_sight(frame, "#play-esp")
        assert REFUSED_SENTENCE in frame.inner_text("#storage-note [data-role=storage-refused]")
        assert frame.locator("#boot-error").is_hidden()


def test_a_frame_on_another_origin_with_full_storage_plays_and_says_so(blog_page, site):
    with esp_in_a_blog(blog_page, site) as frame:
        move_by_sight(frame, "#play-esp")
        before = frame.evaluate("localStorage.getItem('psi-parlour:esp:pass-and-play')")
        assert frame.evaluate(FILL) > 0
        move_by_sight(frame, "#play-esp")  # the save fails; the bot's reply is drawn
        assert FULL_SENTENCE in frame.inner_text("#storage-note [data-role=storage-full]")
        after = frame.evaluate("localStorage.getItem('psi-parlour:esp:pass-and-play')")
        assert after == before, "the save of the move before is kept whole"


@pytest.mark.parametrize("text", ["{cut sh", "[" * 100_000 + "]" * 100_000])
def test_a_save_that_cannot_be_read_is_set_aside_and_named(app, site, text, screenshots):
    key = "psi-parlour:esp:pass-and-play"
    app.evaluate("([k, t]) => localStorage.setItem(k, t)", [key, text])
    app.reload()
    app.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    resume = app.locator(f"a.button[data-resume-key='{key}']")
    assert resume.is_visible(), "a save is there: Resume shows"
    resume.click()
    app.wait_for_function("location.hash === '#new-esp'")
    note = app.inner_text("#storage-note [data-role=storage-damaged]")
    assert note.startswith("Your saved ESP game could not be read"), note
    assert app.evaluate(f"localStorage.getItem('{key}:damaged')") == text, "kept, not deleted"
    assert resume.is_hidden(), "nothing to resume: Resume no longer shows"
    if text.startswith("{"):
        shoot(app, screenshots, "storage-damaged")
    app.click("#storage-note [data-cmd=storage-dismiss]")
    assert app.locator("#storage-note [data-role=storage-damaged]").count() == 0


# The browser itself denies the frame storage, as Chromium does for a frame on another site
# when third-party cookies are blocked and its storage is not partitioned: `localStorage`
# throws a SecurityError and IndexedDB's open fails with an error event ("The user denied
# permission to access the database."), in the page and in its workers. Playwright turns
# partitioning off (its own --disable-features list), but the suite's flags end with a
# --disable-features of their own, which Chromium reads instead: partitioned storage, which a
# frame may use. So this browser repeats the list with partitioning off.
DENYING = "ThirdPartyStoragePartitioning"


@pytest.fixture
def denying_page(browser_type, browser_type_launch_args, site):
    args = [
        f"{a},{DENYING}" if a.startswith("--disable-features=") else a
        for a in browser_type_launch_args["args"]
    ]
    denying = browser_type.launch(**{**browser_type_launch_args, "args": args})
    context = denying.new_context(viewport={"width": 1000, "height": 800})
    page = context.new_page()
    watch = PageWatch(site.url)
    watch.attach(page)
    yield page, watch
    denying.close()


def place_by_sight(where, root: str) -> None:
    """An ESP placement in pass and play, from what the screen shows; then the hand-off."""
    where.click(f"{root} [data-cmd=tray]:not([disabled])")
    where.click(f"{root} [data-cmd=face][data-face='up']")
    where.click(f"{root} [data-cell].target")
    where.locator(f"{root} [data-role=handoff]").wait_for(timeout=30_000)


@pytest.mark.parametrize("mode", ["bots", "pass"])
def test_a_frame_the_browser_denies_storage_starts_plays_and_says_so(denying_page, site, mode):
    page, watch = denying_page
    src = site.url + "?embed=1&game=esp&mode=" + mode
    blog = Blog(BLOG.format(code=f'<iframe src="{src}" style="width:100%;height:900px"></iframe>'))
    try:
        page.goto(blog.url)
        page.wait_for_selector("iframe")
        frame = page.frames[1]
        up = f"{READY}, html[data-boot=failed]"  # started, or the fault panel: at once
        frame.wait_for_selector(up, state="attached", timeout=READY_TIMEOUT_MS)
        assert frame.locator("#boot-error").is_hidden(), frame.inner_text("#boot-error")
        assert frame.evaluate("(() => { try { localStorage; } catch { return 1; } })()") == 1
        if mode == "bots":
            set_up_against_a_bot(frame)
            move_by_sight(frame, "#play-esp")
        else:
            frame.click("#new-esp a[href='#start-esp']")
            frame.click("#play-esp [data-cmd=take-device]")
            place_by_sight(frame, "#play-esp")
            frame.click("#play-esp [data-cmd=take-device]")
            frame.locator("#play-esp [data-cmd=tray]").first.wait_for()
        note = frame.inner_text("#storage-note [data-role=storage-refused]")
        assert REFUSED_SENTENCE in note, note
        own = (site.url, blog.url, "blob:" + site.url.rstrip("/"), "data:")
        assert [u for u in watch.requests if not u.startswith(own)] == []
        assert watch.unexpected_problems() == []
    finally:
        blog.close()
