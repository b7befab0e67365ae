"""Embedded in a blog: a parent page on another origin (another host name and port) pastes the
code the Embed page makes; the frame starts, plays a whole game, tells its height as it changes,
and needs no cross-origin isolation. Online play works from inside a frame, its invite opening
the full site.
"""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from e2e.harness import READY, READY_TIMEOUT_MS, PageWatch
from e2e.players import SoloPage
from e2e.test_online import ROOT, Device, OnlineGame, psi_squad_player

BLOG = """<!doctype html><html><head><meta charset="utf-8"><title>A blog</title></head>
<body style="margin: 2rem; font-family: serif"><h1>My games blog</h1><p>Try this:</p>
{code}
<p id="after">Thanks for reading.</p></body></html>"""


class Blog:
    """A page on another origin: `localhost` and a port of its own (the site is 127.0.0.1)."""

    def __init__(self, html: str) -> None:
        body = html.encode()

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"http://localhost:{self.httpd.server_address[1]}/"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def embed_code(page, site, game: str, mode: str) -> str:
    """The code from the Embed page, as a blogger would copy it."""
    page.goto(site.url + "#embed")
    page.select_option("[data-embed=game]", game)
    page.select_option("[data-embed=mode]", mode)
    code = page.locator("[data-embed-code]")
    made = f"mode={mode}" if mode != "pass" else f'game={game}"'
    page.wait_for_function(
        "(m) => document.querySelector('[data-embed-code]').value.includes(m)", arg=made
    )
    return code.input_value()


def frame_of(page):
    page.wait_for_selector("iframe")
    frame = page.frames[1]
    frame.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    return frame


def heights(page, frame) -> tuple[float, float]:
    """The iframe's height in the blog, and the height of what the frame shows."""
    outer = page.evaluate("document.querySelector('iframe').clientHeight")
    inner = frame.evaluate("document.body.getBoundingClientRect().height")
    return outer, inner


def follows(page, frame) -> float:
    """Wait until the blog has sized the frame to its content; return that height. Both are
    read again at each look: the content may still grow after the first (a bot moved at once,
    Quick bots), and a height taken once could be waited for in vain."""
    deadline = time.monotonic() + 10
    outer, inner = heights(page, frame)
    while abs(outer - inner) > 2:
        assert time.monotonic() < deadline, f"the frame is {outer} px, its content {inner} px"
        page.wait_for_timeout(50)
        outer, inner = heights(page, frame)
    return outer


@pytest.fixture
def blog_page(browser, site):
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    page = context.new_page()
    watch = PageWatch(site.url)
    watch.attach(page)
    yield page, watch
    context.close()


def test_a_blog_embeds_a_game_played_to_the_end_with_the_height_following(blog_page, site):
    page, watch = blog_page
    code = embed_code(page, site, "psi-squad", "bots")
    assert f'event.origin !== "{site.url.rstrip("/")}"' in code
    blog = Blog(BLOG.format(code=code))
    try:
        page.goto(blog.url)
        frame = frame_of(page)
        assert frame.evaluate("crossOriginIsolated") is False
        assert frame.locator(".masthead").is_hidden() and frame.locator(".colophon").is_hidden()
        full = frame.locator("#full-site")
        assert full.is_visible() and "embed" not in (full.get_attribute("href") or "")
        sizes = {follows(page, frame)}  # the set-up form
        solo = SoloPage(frame, "psi-squad")
        frame.click("#new-psi-squad a[href='#start-psi-squad']")
        frame.locator("#play-psi-squad .play").wait_for()
        sizes.add(follows(page, frame))
        solo.play_to_the_end()
        assert frame.locator("#play-psi-squad [data-audit=verified]").count() == 1
        sizes.add(follows(page, frame))
        frame.evaluate("location.hash = '#rules-psi-squad'")
        sizes.add(follows(page, frame))
        assert len(sizes) >= 3, sizes  # the frame grew and shrank with its screens
        assert page.locator("#after").is_visible()
        own = (site.url, blog.url, "blob:" + site.url.rstrip("/"), "data:")
        assert [u for u in watch.requests if not u.startswith(own)] == []
        assert watch.unexpected_problems() == []
    finally:
        blog.close()


def test_without_the_script_the_frame_keeps_its_height_and_scrolls(blog_page, site):
    page, _ = blog_page
    src = site.url + "?embed=1&game=esp&theme=dark"
    blog = Blog(BLOG.format(code=f'<iframe src="{src}" style="width:100%;height:500px"></iframe>'))
    try:
        page.goto(blog.url)
        frame = frame_of(page)
        assert heights(page, frame)[0] == 500
        assert frame.evaluate("document.documentElement.scrollHeight") > 500  # scrolls inside
        assert frame.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") is False
        ground = frame.evaluate("getComputedStyle(document.body).backgroundColor")
        assert ground == "rgb(19, 16, 28)", ground  # dark, as asked, on a light device
    finally:
        blog.close()


def test_online_play_from_inside_an_embed_with_an_invite_to_the_full_site(browser, site):
    decide = psi_squad_player()

    src = site.url + "?embed=1&game=psi-squad&mode=online"
    blog = Blog(BLOG.format(code=f'<iframe src="{src}" style="width:100%;height:900px"></iframe>'))
    game = OnlineGame(browser, site, "psi-squad", ("Ada", "Bo"))
    game.watches.clear()  # the blog's own page is on another origin; the guest is checked below
    try:
        game.host.page.goto(blog.url)
        frame = frame_of(game.host.page)
        assert frame.locator("#new-psi-squad .online-setup").get_attribute("open") is not None
        frame.check("input[name='psi-squad-seats'][value='2']")
        frame.check("input[name='psi-squad-length'][value='3']")
        for seat, name in enumerate(game.names):
            frame.fill(f"#new-psi-squad [data-seat-name='{seat}']", name)
        frame.click("#new-psi-squad >> text=Make the invites")
        game.host.page = frame
        link = frame.locator("[data-role=invite-1]")
        link.wait_for()
        assert link.get_attribute("value").startswith(site.url + "#join=")  # the full site
        game.guests[1] = Device(browser, site, game.watches)
        game.invite(1)
        for device in game.devices:
            device.page.locator(f"{ROOT} .play").wait_for()
        game.play_to_the_end(decide)
        game.check_end()
    finally:
        game.close()
        blog.close()


# A blog with a long text above the game and below it, as a post reads.
LONG_BLOG = BLOG.replace(
    "<p>Try this:</p>", '<p style="height: 300px">A long post before the game.</p><p>Try this:</p>'
).replace("</body>", '<p style="height: 1500px">And a long one after.</p></body>')
# The card wholly in the window, its top in the upper third (not at the window's bottom edge).
CARD_IN_VIEW = """([outer, top, bottom]) => {
  const frame = document.querySelector('iframe').getBoundingClientRect().top;
  return frame + top >= 0 && frame + top <= innerHeight / 3 && frame + bottom <= innerHeight;
}"""


def card_box(frame, selector: str) -> list[float]:
    """Where a card is in the frame's own page: [0, top, bottom]."""
    box = frame.evaluate(
        "(s) => { const b = document.querySelector(s).getBoundingClientRect();"
        " return [0, b.top + scrollY, b.bottom + scrollY]; }",
        selector,
    )
    return [float(x) for x in box]


def shoot_blog(page, screenshots, name: str) -> None:
    """The blog at a phone's width and a desktop's, where the reader is."""
    for width in (360, 1280):
        page.set_viewport_size({"width": width, "height": 800})
        page.wait_for_timeout(300)  # the frame's new height told and taken
        page.screenshot(path=str(screenshots / f"{name}-{width}.png"))


def test_a_new_hand_off_is_scrolled_into_the_readers_view_as_the_frame_shrinks(
    blog_page, site, screenshots
):
    # Psi Squad's set-up (about 1,100 px) becomes a hand-off of about 400: the reader, scrolled
    # down to "Start the game", would be left looking at the text below the frame.
    page, watch = blog_page
    code = embed_code(page, site, "psi-squad", "pass")
    blog = Blog(LONG_BLOG.format(code=code))
    try:
        page.goto(blog.url)
        frame = frame_of(page)
        follows(page, frame)
        start = frame.locator("#new-psi-squad a[href='#start-psi-squad']")
        start.scroll_into_view_if_needed()
        start.click()
        handoff = "#play-psi-squad [data-role=handoff]"
        frame.locator(handoff).wait_for()
        follows(page, frame)
        page.wait_for_function(CARD_IN_VIEW, arg=card_box(frame, handoff), timeout=5_000)
        assert frame.evaluate("document.activeElement.dataset.cmd") == "take-device"
        shoot_blog(page, screenshots, "embed-hand-off")
        assert watch.unexpected_problems() == []  # no "Blocked autofocusing" at the hand-off
    finally:
        blog.close()


def test_a_frame_opened_again_goes_back_to_the_readers_game(blog_page, site, screenshots):
    page, watch = blog_page
    src = site.url + "?embed=1&game=esp&mode=pass"
    blog = Blog(BLOG.format(code=f'<iframe src="{src}" style="width:100%;height:900px"></iframe>'))
    try:
        page.goto(blog.url)
        frame = frame_of(page)
        frame.click("#new-esp a[href='#start-esp']")
        frame.click("#play-esp [data-cmd=take-device]")
        frame.locator("#play-esp [data-cmd=tray]").first.wait_for()
        page.reload()  # the reader comes back to the post
        frame = frame_of(page)
        assert frame.evaluate("location.hash") == "#play-esp"
        frame.locator("#play-esp [data-role=handoff]").wait_for()  # the game, behind its hand-off
        assert page.evaluate("scrollY") == 0, "the blog opens at its top, not at the game"
        shoot_blog(page, screenshots, "embed-reopened")
        assert watch.unexpected_problems() == []
    finally:
        blog.close()
