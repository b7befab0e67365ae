"""The page answers clicks while the engines warm up (issue "A page that never freezes").

A click on Rules, on Play and on a set-up field, made 200 ms, 1 s and 2 s after navigation,
is answered within 100 ms each while Pyodide is still loading in its worker (its wasm is held
back here, so the engines are surely not ready yet), and the page shows what was asked.

"Answered" is when the page takes the click up: the first listener runs, timed from the moment
the input arrived (the event's timeStamp), in the page's own clock, so a main thread busy with
anything else (Pyodide's start on the main thread made a click wait 3-7 s) shows as waiting.
This is the figure the issue's sketch measured. Two later moments are recorded as well and
given when a click fails: the end of the task that handled it (listeners and the link's own
navigation, which lays the new screen out) and the next frame. While the page is still loading,
these VMs take 100-300 ms to put a long screen such as a rules page on screen for the first
time (README, "Start-up").

The click is a plain mouse event at the element's centre, timed by one timer in the page:
Playwright's locator actions first evaluate its own injected script in the page (50-80 ms of
main-thread work a visitor's browser never does), and a test that polled would keep the page
busy; either would be counted against the page.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from e2e.harness import READY, READY_TIMEOUT_MS, hold_back_python

pytestmark = [
    pytest.mark.first_visit,  # the engines warming up on a first visit
    pytest.mark.timing,  # each click is answered within ANSWERED_MS: run alone (Makefile)
]

ANSWERED_MS = 100
PROBE = """
window.__answers = [];
addEventListener("click", (event) => {
  const arrived = event.timeStamp;
  const answer = {taken: performance.now() - arrived, target: event.target};
  window.__answers.push(answer);
  setTimeout(() => {
    answer.handled = performance.now() - arrived;
    requestAnimationFrame(() => setTimeout(() => (answer.painted = performance.now() - arrived)));
  });
}, true);
"""
CLICKS = [
    ("Rules", ".game-card[data-game='esp'] a[href='#rules-esp']", "#rules-esp"),
    ("Play", ".game-card[data-game='esp'] a[href='#new-esp']", "#new-esp"),
    ("a set-up field", "#new-esp input[name='esp-seats'][value='3']", None),
]


def click_until_it_lands(page, url: str, what: str, selector: str, after_ms: int) -> None:
    """Open `url`, then a real mouse click on `selector`'s centre no sooner than `after_ms`
    after navigation, answered within ANSWERED_MS. While the page loads, its layout can still
    move between aiming and the click's arrival, so a click can land beside the element: then
    the visit is made again (the click may have gone anywhere), each click held to the limit."""
    for _ in range(5):
        # not the harness's goto, which then polls the page until it settles (e2e/settle.py)
        Page.goto.__wrapped__(page, url, wait_until="commit")
        before = page.evaluate("window.__answers.length")
        page.mouse.click(*page.evaluate(CENTRE, [selector, after_ms]))
        page.wait_for_function(f"window.__answers[{before}]?.painted")
        answer = page.evaluate(f"window.__answers[{before}]")
        assert answer["taken"] <= ANSWERED_MS, (
            f"{what} at {after_ms} ms waited {answer['taken']:.0f} ms (handled after"
            f" {answer['handled']:.0f} ms, on screen after {answer['painted']:.0f} ms)"
        )
        if page.evaluate(f"window.__answers[{before}].target.closest({selector!r}) !== null"):
            return
    raise AssertionError(f"five clicks on {what} landed beside it")


CENTRE = """async ([selector, after]) => {
  // One timer in the page, not a poll: a test that kept asking would keep the page busy.
  await new Promise((resolve) => setTimeout(resolve, after - performance.now()));
  let element;  // on a loaded machine the parser may not have reached it yet
  while (!(element = document.querySelector(selector))) {
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
  element.scrollIntoView({block: "center"});
  // The page may still be settling (styles, the header): aim where the element is now and
  // the point really hits it, as a person's pointer would.
  for (;;) {
    const box = element.getBoundingClientRect();
    const [x, y] = [box.left + box.width / 2, box.top + box.height / 2];
    if (element.contains(document.elementFromPoint(x, y))) return [x, y];
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
}"""


@pytest.mark.parametrize("after_ms", [200, 1000, 2000])
def test_clicks_are_answered_while_the_engines_warm_up(browser, site, after_ms):
    context = browser.new_context()
    context.add_init_script(PROBE)
    page = context.new_page()
    held = hold_back_python(page)
    for what, selector, screen in CLICKS:
        url = site.url + ("#new-esp" if screen is None else "#home")
        click_until_it_lands(page, url, what, selector, after_ms)
        if screen is not None:
            # 200 ms in, the parser may not have reached the screen yet (the rules sit half way
            # down the page): the browser shows it, as the link's target, once it is parsed
            expect(page.locator(screen), f"{what} showed nothing").to_be_visible(timeout=3_000)
        else:
            assert page.locator(selector).is_checked()
        assert page.locator("html").get_attribute("data-engine") is None  # still warming up
    held.release()
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    context.close()


def test_a_game_started_while_the_engines_warm_up_starts_once_with_what_was_typed(page, site):
    """Clicks made before the worker is ready are kept and answered when it is: never lost,
    never doubled."""
    held = hold_back_python(page)
    page.goto(site.url + "#new-psi-squad")
    page.wait_for_selector("html[data-ready='true']", state="attached", timeout=READY_TIMEOUT_MS)
    page.check("input[name='psi-squad-seats'][value='2']")
    page.fill("#new-psi-squad [data-seat-name='0']", "Early")
    page.fill("#new-psi-squad [data-seat-name='1']", "Bird")
    page.click("#new-psi-squad >> text=Start the game")
    assert page.locator("#start-psi-squad .boot-wait").is_visible()
    assert page.locator("html").get_attribute("data-pending") is not None  # kept, waiting
    held.release()
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    handoff = page.locator("#play-psi-squad [data-role=handoff]")
    handoff.wait_for(timeout=READY_TIMEOUT_MS)
    assert handoff.locator("h2").inner_text() in ("Early", "Bird")
    saved = page.evaluate("Object.keys(localStorage).filter(k => k.includes('pass-and-play'))")
    assert saved == ["psi-parlour:psi-squad:pass-and-play"]  # one game, started once
    names = page.evaluate(
        "JSON.parse(localStorage['psi-parlour:psi-squad:pass-and-play']).summary.names"
    )
    assert names == ["Early", "Bird"]
