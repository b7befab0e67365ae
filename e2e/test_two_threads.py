"""The page answers clicks while the engines warm up (issue "A page that never freezes").

A click on Rules, on Play and on a set-up field, made 200 ms, 1 s and 2 s after navigation,
is answered within 100 ms each while Pyodide is still loading in its worker (its wasm is held
back here, so the engines are surely not ready yet). "Answered" is the page's next frame after
the click, in the page's own clock (the click event's timeStamp is when the input arrived, so
a busy main thread would show); the test then checks the page did the visible thing.
"""

from __future__ import annotations

import pytest

from e2e.harness import READY, READY_TIMEOUT_MS, hold_back_python

ANSWERED_MS = 100
PROBE = """
window.__answers = [];
document.addEventListener("click", (event) => {
  const arrived = event.timeStamp;
  setTimeout(() => requestAnimationFrame(() => window.__answers.push(performance.now() - arrived)));
}, true);
"""
CLICKS = [
    ("Rules", ".game-card[data-game='esp'] a[href='#rules-esp']", "#rules-esp"),
    ("Play", ".game-card[data-game='esp'] a[href='#new-esp']", "#new-esp"),
    ("a set-up field", "#new-esp input[name='esp-seats'][value='3']", None),
]


@pytest.mark.parametrize("after_ms", [200, 1000, 2000])
def test_clicks_are_answered_while_the_engines_warm_up(browser, site, after_ms):
    context = browser.new_context()
    context.add_init_script(PROBE)
    page = context.new_page()
    held = hold_back_python(page)
    page.goto(site.url + "#home", wait_until="commit")
    for what, selector, screen in CLICKS:
        page.wait_for_function(f"performance.now() >= {after_ms}", polling=5)
        if screen is None:
            page.goto(site.url + "#new-esp", wait_until="commit")  # the form's own screen
        before = page.evaluate("window.__answers.length")
        page.click(selector)
        page.wait_for_function(f"window.__answers.length > {before}")
        waited = page.evaluate("window.__answers[window.__answers.length - 1]")
        assert waited <= ANSWERED_MS, f"{what} at {after_ms} ms took {waited:.0f} ms"
        if screen is not None:
            assert page.locator(screen).is_visible(), f"{what} showed nothing"
        else:
            assert page.locator(selector).is_checked()
        assert page.locator("html").get_attribute("data-engine") is None  # still warming up
        page.goto(site.url + "#home", wait_until="commit")
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
