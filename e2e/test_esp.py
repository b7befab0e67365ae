"""ESP as people play it: pass-and-play through the real page, clicks only.

The moves are planned by a mirror of the game in CPython (the same engine, its own secrets), then
made on the page with clicks. At every step the test checks that no symbol of another seat's
symbol-down tile is anywhere in the DOM, and that a hand-off screen hides everything between
players.
"""

from __future__ import annotations

import pytest

from e2e.harness import READY, READY_TIMEOUT_MS, hold_back_python
from e2e.players import ESP, EspPage, plan_game
from parlour.games.esp.actions import Place, ProposeDraw
from parlour.games.zener import Symbol


def test_a_two_seat_game_to_a_win_with_hand_offs_hidden_tiles_a_flip_and_a_jump(
    page, site, watch, screenshots
):
    names = ("Ada", "Bo")
    plan = plan_game(names)
    esp = EspPage(page, names)
    esp.start(site.url)
    for index, (seat, choice) in enumerate(plan):
        esp.take_device(seat)
        if index == len(plan) - 2:
            page.screenshot(path=screenshots / "esp-desktop-movement.png")
        esp.play(seat, choice)
    dialog = page.locator("[data-role=result]")
    dialog.wait_for()
    winner = esp.mirror.match.result().winners
    assert dialog.locator("h2").inner_text() == f"{names[min(winner)]} wins!"
    assert dialog.locator("[data-audit=verified]").is_visible()
    page.screenshot(path=screenshots / "esp-desktop-result.png")
    dialog.locator("[data-cmd=close-result]").click()
    assert page.locator("#play-esp .in-set").count() >= 5
    # At the end every hidden tile is opened on the board for everyone.
    hidden = [c for c, t in esp.mirror.state.board.items() if not t.up]
    for cell in hidden:
        assert (
            page.locator(f"#play-esp [data-cell='{cell[0]},{cell[1]}'] use.revealed").count() == 1
        )


def test_a_three_seat_game_hands_off_in_seat_order_refuses_with_reasons_and_resumes(
    page, site, watch
):
    names = ("Light", "Dark", "Vi")
    plan = plan_game(names)[:9]
    esp = EspPage(page, names)
    esp.start(site.url)
    for seat, choice in plan[:4]:
        esp.take_device(seat)
        esp.play(seat, choice)
    # A refused click says why, and changes nothing.
    seat, choice = plan[4]
    esp.take_device(seat)
    page.click(f"#play-esp [data-cmd=tray][data-symbol='{choice.symbol.value}']")
    far = max(esp.mirror.state.board)
    page.click(f"#play-esp [data-cell='{far[0] + 1},{far[1]}']")
    message = page.locator("#play-esp .message").inner_text()
    assert message in (
        "A tile must touch at least two tiles already on the board.",
        "That would enclose a tile on all six sides.",
    )
    assert page.locator("#play-esp [data-role=log] li").count() == 4
    esp.play(seat, choice)
    # Undo takes back the last placement once the player holding the device allows it; the
    # previous player gets the device back.
    esp.take_device(plan[5][0])
    page.click("#play-esp [data-cmd=undo]")
    question = page.locator("#play-esp [data-role=undo-question]")
    assert f"take back {names[seat]}'s move?" in question.inner_text()
    assert page.evaluate("document.activeElement.matches('[data-role=undo-question] h2')")
    page.click("#play-esp [data-cmd=allow-undo]")
    esp.mirror.undo()
    # the hand-off says a move was taken back, and whose
    note = page.locator("#play-esp [data-role=handoff] [data-role=last-move]").inner_text()
    assert note.startswith(f"{names[plan[5][0]]} let {names[seat]} take back a move.")
    esp.take_device(seat)
    assert page.locator("#play-esp [data-role=log] li").count() == 4
    esp.play(seat, choice)
    # the player who has just moved takes it back on the hand-off, before passing the device
    page.click("#play-esp [data-role=handoff] [data-cmd=take-back]")
    esp.mirror.undo()
    assert page.locator("#play-esp [data-role=handoff]").count() == 0
    message = page.locator("#play-esp [data-role=message]").inner_text()
    assert message.startswith(f"{names[seat]} took back their move:")
    assert page.locator("#play-esp [data-role=log] li").count() == 4
    esp.play(seat, choice)
    for seat, choice in plan[5:]:
        esp.take_device(seat)
        esp.play(seat, choice)
    # A reload resumes the same game, behind a hand-off screen.
    page.reload()
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    nxt = min(ESP.to_move(esp.mirror.state))
    esp.take_device(nxt)
    assert page.locator("#play-esp [data-role=log] li").count() == len(plan)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_esp_on_a_phone(browser, site, screenshots, scheme):
    context = browser.new_context(viewport={"width": 360, "height": 780}, color_scheme=scheme)
    page = context.new_page()
    names = ("Ada", "Bo")
    esp = EspPage(page, names)
    esp.start(site.url)
    page.screenshot(path=screenshots / f"esp-phone-{scheme}-handoff.png")
    for seat, choice in plan_game(names)[:7]:
        esp.take_device(seat)
        esp.play(seat, choice)
    esp.take_device(1)
    page.click("#play-esp [data-cmd=tray] >> nth=0")
    page.screenshot(path=screenshots / f"esp-phone-{scheme}-placing.png", full_page=True)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the game is {overflow}px wider than the phone"
    context.close()


@pytest.mark.first_visit
def test_starting_before_python_is_ready_waits_with_progress_then_starts(page, site, watch):
    held = hold_back_python(page)
    page.goto(site.url)
    page.locator(".game-card[data-game='esp']").get_by_role("link", name="Play", exact=True).click()
    page.fill("[data-seat-name='0']", "Early")
    page.click("text=Start the game")
    wait = page.locator("#start-esp .boot-wait")
    assert wait.is_visible() and wait.locator(".progress-bar").is_visible()
    assert page.locator("html").get_attribute("data-engine") is None
    held.release()
    handoff = page.locator("#play-esp [data-role=handoff]")
    handoff.wait_for(timeout=READY_TIMEOUT_MS)
    assert handoff.locator("h2").inner_text() == "Early"


def test_keyboard_only_placement_and_a_rematch(page, site, watch):
    names = ("Kim", "Lee")
    esp = EspPage(page, names)
    esp.start(site.url)
    page.locator("#play-esp [data-cmd=take-device]").focus()
    page.keyboard.press("Enter")
    page.locator("#play-esp [data-cmd=tray][data-symbol=square]").focus()
    page.keyboard.press("Enter")
    page.locator("#play-esp [data-cell='0,0']").focus()
    page.keyboard.press("Enter")
    esp.mirror.act(0, Place((0, 0), Symbol.SQUARE))
    esp.take_device(1)
    page.locator("#play-esp [data-cmd=tray][data-symbol=star]").focus()
    page.keyboard.press("Enter")
    page.locator("#play-esp [data-cell='0,0']").focus()
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("document.activeElement.getAttribute('data-cell')")
    assert focused == "1,0"
    page.keyboard.press("Enter")
    assert page.locator("#play-esp [data-role=last-move]").inner_text() == (
        "Lee places a star, symbol-up."
    )
    esp.mirror.act(1, Place((1, 0), Symbol.STAR))
    esp.take_device(0)
    page.click("#play-esp [data-cmd=offer-draw]")
    esp.mirror.act(0, ProposeDraw())
    esp.take_device(1)
    page.click("#play-esp [data-cmd=answer-draw][data-accept=yes]")
    dialog = page.locator("[data-role=result]")
    assert dialog.locator("h2").inner_text() == "A draw"
    assert "The players agreed to a draw." in dialog.inner_text()
    dialog.locator("[data-cmd=rematch]").click()
    handoff = page.locator("#play-esp [data-role=handoff]")
    assert handoff.locator("h2").inner_text() == "Kim"
