"""The play screen's shared aids in the real page (issue 17): the page's live region says each
move, the focus follows the screens, a "?" shows its sentence to a keyboard, the log folds,
"Describe the board" reads the position, and the result leaves the board in sight."""

from __future__ import annotations

from e2e.harness import READY, READY_TIMEOUT_MS
from e2e.players import EspPage, plan_game

ROOT = "#play-esp"
FOCUSED = "() => document.activeElement && document.activeElement.outerHTML.slice(0, 200)"


def test_moves_are_said_and_the_focus_follows_each_screen(page, site, watch):
    names = ("Ada", "Bo")
    esp = EspPage(page, names)
    page.goto(site.url + "#home")
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    page.click("#home a[href='#rules-esp'] >> nth=0")
    page.wait_for_function("document.activeElement.tagName === 'H2'")
    assert page.evaluate("document.activeElement.closest('section').id") == "rules-esp"
    esp.start(site.url)
    button = page.locator(f"{ROOT} [data-cmd=take-device]")
    button.wait_for()
    assert page.evaluate("document.activeElement.dataset.cmd") == "take-device", page.evaluate(
        FOCUSED
    )
    plan = plan_game(names)
    for seat, choice in plan[:3]:
        esp.take_device(seat)
        assert page.evaluate("document.activeElement.dataset.role") == "status"
        esp.play(seat, choice)
        said = page.inner_text("#announcer")
        assert said and said == page.locator(f"{ROOT} [data-role=last-move]").inner_text()
    # The "?" beside Undo: its sentence shows on focus, and the button names it for a reader.
    esp.take_device(plan[3][0])
    tip = page.locator(f"{ROOT} .help:has([data-help=undo])")
    assert not tip.locator(".help-text").is_visible()
    tip.locator(".help-button").focus()
    assert tip.locator(".help-text").is_visible()
    assert "Takes back the last move" in tip.locator(".help-text").inner_text()
    # The log folds away and back, and stays folded through a redraw.
    page.click(f"{ROOT} .log-toggle")
    assert not page.locator(f"{ROOT} [data-role=log]").is_visible()
    page.click(f"{ROOT} [data-cmd=describe-board]")
    description = page.locator(f"{ROOT} [data-role=description]")
    assert description.locator("li").count() >= 1
    assert page.inner_text("#announcer").startswith(description.locator("li").first.inner_text())
    assert not page.locator(f"{ROOT} [data-role=log]").is_visible()
    page.click(f"{ROOT} .log-toggle")
    assert page.locator(f"{ROOT} [data-role=log]").is_visible()


def test_the_result_leaves_the_board_in_sight(page, site, watch):
    names = ("Ada", "Bo")
    esp = EspPage(page, names)
    esp.start(site.url)
    for seat, choice in plan_game(names):
        esp.take_device(seat)
        esp.play(seat, choice)
    result = page.locator(f"{ROOT} [data-role=result]")
    result.wait_for()
    assert page.evaluate("document.activeElement.matches('[data-role=result] h2')")
    board = page.locator(f"{ROOT} .board-wrap").bounding_box()
    panel = result.bounding_box()
    assert board and panel
    apart = panel["x"] >= board["x"] + board["width"] or panel["y"] >= board["y"] + board["height"]
    assert apart, f"the result covers the board: {panel} over {board}"
    assert page.locator(f"{ROOT} [data-cell]").first.is_visible()
