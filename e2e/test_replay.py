"""Replays through the real page: a finished game shared, its link opened in a fresh page,
stepped through with the buttons and the keys, checked, exported and imported; a damaged link
refused in words; the same replay inside an embed.

The shared game is a two-seat Psi Squad game whose cyphers the test chose, so it knows the one
secret still sealed at the end (the winner's own cypher): it must not be in the viewer's page at
any move until "show everything" is switched on.
"""

from __future__ import annotations

import json
import time

import pytest

from e2e.harness import READY, READY_TIMEOUT_MS
from e2e.settle import settle
from e2e.test_psi_squad import PsiPage
from parlour.games import GAMES
from parlour.match.replay import CUT_SHORT, NEWER, VERSION, from_code
from parlour.ui.pass_and_play import new_table
from parlour.ui.play import PlaySession
from parlour.ui.screens import screen_for
from tests.replays import endless

ROOT = "#replay .replay-root"
VIEWER = f"{ROOT} .replay"
# The viewer's HTML without the link the Copy button carries (a compressed link is not a
# secret in words, but its letters and digits could spell anything).
PAGE_TEXT = """() => {
  const root = document.querySelector('#replay .replay-root').cloneNode(true);
  root.querySelectorAll('[data-copy]').forEach(e => e.removeAttribute('data-copy'));
  return root.innerHTML;
}"""
# The slider let go at a value: the change event a drag or a key ends with.
SLIDE = "(el, v) => { el.value = v; el.dispatchEvent(new Event('change', {bubbles: true})); }"


def open_replay(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    page.locator(f"{ROOT} > *").first.wait_for()


def position(page) -> int:
    return int(page.get_attribute(VIEWER, "data-position") or "-1")


def bot_game_code(game: str = "psi-squad") -> str:
    """A finished game between easy bots, played here under CPython, as a replay code."""
    table = new_table(game, ("Ann", "Bo"), {"length": 3}, {0: "easy", 1: "easy"})
    session = PlaySession(table, screen_for(game))
    while table.match.result() is None:
        session.bot_move()
    return session.replay_record().code()


def test_a_finished_game_is_shared_and_watched_move_by_move(page, site, watch, screenshots):
    psi = PsiPage(page, ("Dee", "Eli"), ("707", "123"))
    psi.start(site.url)
    psi.seal_all()
    guesser = psi.take_device_if_asked()
    target = 1 - guesser
    psi.guess(target, psi.cyphers[target])  # one cypher left: the game is over
    dialog = page.locator("[data-role=result]")
    dialog.wait_for()
    page.click("[data-role=result] [data-cmd=share]")
    link = page.input_value("[data-role=result] [data-role=share-link]")
    assert link.startswith(site.url + "#replay=1."), link
    page.screenshot(path=screenshots / "replay-share-dialog.png")
    secret = psi.cyphers[guesser]  # sealed until the audit
    record = from_code(link)
    assert [o.value for o in record.openings[guesser] or ()] == [secret]

    viewer = page.context.browser.new_page()
    open_replay(viewer, link)
    assert viewer.locator(f"{ROOT} [data-audit=verified]").is_visible()
    last = int(viewer.get_attribute(f"{VIEWER} input[type=range]", "max") or "0")
    assert position(viewer) == 0 and last >= 3
    for _ in range(last):
        assert secret not in viewer.evaluate(PAGE_TEXT), "a sealed cypher before its time"
        viewer.click(f"{VIEWER} [data-cmd=next]")
    assert position(viewer) == last
    assert "The cypher is guessed!" in viewer.inner_text(f"{VIEWER} [data-role=said]")
    assert secret not in viewer.evaluate(PAGE_TEXT), "a sealed cypher before the switch"
    viewer.click(f"{VIEWER} [data-cmd=previous]")
    assert position(viewer) == last - 1
    viewer.click(f"{VIEWER} [data-cmd=first]")
    assert position(viewer) == 0
    viewer.keyboard.press("ArrowRight")
    viewer.keyboard.press("ArrowRight")
    assert position(viewer) == 2
    viewer.keyboard.press("ArrowLeft")
    assert position(viewer) == 1
    viewer.keyboard.press("End")
    assert position(viewer) == last
    viewer.keyboard.press("Home")
    assert position(viewer) == 0
    assert secret not in viewer.evaluate(PAGE_TEXT)
    viewer.keyboard.press("End")
    viewer.click(f"{VIEWER} [data-cmd=everything]")
    assert viewer.get_attribute(VIEWER, "data-everything") == "on"
    assert secret in viewer.inner_text(f"{VIEWER} [data-role=final]")
    viewer.screenshot(path=screenshots / "replay-desktop-everything.png", full_page=True)
    viewer.close()


def test_autoplay_and_the_slider(page, site, watch):
    open_replay(page, site.url + "#replay=" + bot_game_code())
    page.eval_on_selector(f"{VIEWER} input[type=range]", SLIDE, "2")
    settle(page)
    assert position(page) == 2
    page.click(f"{VIEWER} [data-cmd=play]")
    assert page.get_attribute(f"{VIEWER} [data-cmd=play]", "aria-pressed") == "true"
    page.wait_for_function(
        "Number(document.querySelector('#replay .replay').dataset.position) >= 3", timeout=10_000
    )
    page.click(f"{VIEWER} [data-cmd=play]")  # pause
    stopped = position(page)
    page.wait_for_timeout(2000)
    assert position(page) == stopped >= 3


@pytest.mark.parametrize(
    ("code", "sentence"),
    [
        ("cut", CUT_SHORT),
        ("newer", NEWER.format(what="replay link", version=VERSION + 1, ours=VERSION)),
        ("hello", "This is not a Psi Parlour replay link."),
    ],
)
def test_a_damaged_link_gets_a_sentence(page, site, watch, code, sentence):
    good = bot_game_code()
    damaged = {"cut": good[: len(good) // 2], "newer": f"{VERSION + 1}." + good[2:]}
    fragment = damaged.get(code, code)
    open_replay(page, site.url + "#replay=" + fragment)
    assert page.inner_text(f"{ROOT} [data-role=replay-error]") == sentence
    assert page.locator("#replay").is_visible() and not page.locator("#home").is_visible()


def test_a_game_file_is_exported_and_imported(page, site, watch, tmp_path, screenshots):
    code = bot_game_code()
    open_replay(page, site.url + "#replay=" + code)
    page.keyboard.press("End")
    with page.expect_download() as download:
        page.click(f"{VIEWER} [data-cmd=download]")
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.name.startswith("psi-parlour-psi-squad-") and saved.suffix == ".json"
    assert json.loads(saved.read_text())["format"] == "psi-parlour/replay"
    page.click(f"{VIEWER} a[href='#replay']")  # "Open another"
    page.locator(f"{ROOT} [data-replay-file]").wait_for()
    page.screenshot(path=screenshots / "replay-open.png")
    page.set_input_files(f"{ROOT} [data-replay-file]", str(saved))
    page.locator(VIEWER).wait_for()
    assert page.evaluate("location.hash") == "#replay=" + code
    assert page.locator(f"{ROOT} [data-audit=verified]").is_visible()
    bad = tmp_path / "notes.json"
    bad.write_text('{"hello": "world"}')
    page.click(f"{VIEWER} a[href='#replay']")
    page.set_input_files(f"{ROOT} [data-replay-file]", str(bad))
    error = page.locator(f"{ROOT} [data-role=replay-error]", has_text="not a Psi Parlour game")
    error.wait_for()  # the file is read, then sent


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_replay_embedded_and_on_a_phone(browser, site, screenshots, scheme):
    context = browser.new_context(viewport={"width": 360, "height": 780}, color_scheme=scheme)
    page = context.new_page()
    open_replay(page, site.url + "?embed=1#replay=" + bot_game_code())
    page.click(f"{VIEWER} [data-cmd=next]")
    assert position(page) == 1
    link = page.get_attribute(f"{VIEWER} [data-cmd=copy]", "data-copy") or ""
    assert link.startswith(site.url + "#replay=1."), "the link is the full site's"
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the replay is {overflow}px wider than the phone"
    page.screenshot(path=screenshots / f"replay-phone-{scheme}.png", full_page=True)
    context.close()


# A click on a step button, timed to the first frame painted after the viewer shows the new
# position (the worker answers, the main thread draws, the browser paints).
TIMED_CLICK = """async ([cmd, want]) => {
  const viewer = () => document.querySelector('#replay .replay-root .replay');
  const started = performance.now();
  viewer().querySelector(`[data-cmd=${cmd}]`).click();
  while (viewer().dataset.position !== String(want)) {
    await new Promise(r => requestAnimationFrame(r));
  }
  await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
  return performance.now() - started;
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.timing
def test_the_longest_replay_accepted_steps_within_half_a_second(browser, site, screenshots, scheme):
    """Issue 25: a forged Psi Squad link as long as the site accepts (its `max_moves`) opens,
    and Last, one step back and First each answer, from the click to the frame drawn, within
    0.5 s; the log and the guesses say how many earlier rows they leave out. Before, a 20,000-move
    link took 39 s for Last and 37 s for one step back. Looked at at 1280 and 360 px."""
    most = GAMES["psi-squad"].options.max_moves  # type: ignore[union-attr]
    code = endless(most).code()
    context = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme=scheme)
    page = context.new_page()
    open_replay(page, site.url + "#replay")  # the page ready, then the link opened in it
    started = time.perf_counter()
    page.evaluate("code => { location.hash = 'replay=' + code; }", code)
    page.locator(VIEWER).wait_for(timeout=60_000)
    print(f"longest replay opened in {time.perf_counter() - started:.1f} s (replayed, audited)")
    last = int(page.get_attribute(f"{VIEWER} input[type=range]", "max") or "0")
    assert last > 200
    took: dict[str, list[int]] = {"last": [], "previous": [], "first": []}
    for _ in range(2):  # each step twice: the better of two, as a busy machine stalls anything
        for cmd, want in (("last", last), ("previous", last - 1), ("first", 0)):
            took[cmd].append(round(page.evaluate(TIMED_CLICK, [cmd, want])))
            if cmd == "previous":
                assert page.locator(f"{VIEWER} [data-role=log-earlier]").is_visible()
                assert page.locator(f"{VIEWER} [data-role=history-earlier]").is_visible()
                page.screenshot(path=screenshots / f"replay-longest-1280-{scheme}.png")
    print(f"longest replay ({most} moves), ms from click to drawn: {took}")
    assert all(min(ms) < 500 for ms in took.values()), took
    assert page.locator(f"{VIEWER} [data-audit=verified]").is_visible()
    assert "cannot prove who played" in page.inner_text(f"{VIEWER} [data-role=verdict-scope]")
    page.evaluate(TIMED_CLICK, ["last", last])  # the windows, on a phone
    page.set_viewport_size({"width": 360, "height": 740})
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the replay is {overflow}px wider than the phone"
    page.screenshot(path=screenshots / f"replay-longest-360-{scheme}.png", full_page=True)
    context.close()


def test_an_esp_replay_is_played_on_against_the_computer_to_a_verified_end(page, site, watch):
    """Issue 28, point 9: "Play on from here" where every tile is symbol-up (not once a tile is
    symbol-down), and the new game, the original's moves first, played to a verified end."""
    from e2e.players import SoloPage
    from parlour.match.replay import ReplayRecord
    from tests.test_play_on import UP_FIRST, esp_game

    table = esp_game()
    record = ReplayRecord.of(table.match, {s: table.openings(s) for s in table.stores})
    url = site.url + "#replay=" + record.code()
    open_replay(page, f"{url}&move={UP_FIRST + 1}")
    assert position(page) == UP_FIRST + 1
    assert page.locator(f"{ROOT} [data-cmd=play-on]").count() == 0  # a symbol-down tile
    page.click(f"{ROOT} [data-cmd=previous]")
    assert position(page) == UP_FIRST
    page.click(f"{ROOT} [data-cmd=play-on]")
    solo = SoloPage(page, "esp")
    page.locator(f"{solo.root} .play").wait_for()
    new = solo.settle()
    assert [(e.seat, e.action) for e in new.match.entries[:UP_FIRST]] == list(
        record.moves[:UP_FIRST]
    )
    person = min(table.game.to_move(table.match.state_at(UP_FIRST)))
    assert new.match.config.seats[person] == "You"
    assert new.match.config.bot_levels == {1 - person: "medium"}
    assert new.match.seed != record.seed and new.match.config.match_id == record.config.match_id
    finished = solo.play_to_the_end()
    assert finished.match.result() is not None
    assert page.locator(f"{solo.root} [data-audit=verified]").count() == 1
