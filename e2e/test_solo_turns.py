"""ESPEERS against a bot in the page, after the pacing changes (issue 28, points 3 and 4; issue
39): the stops switch, "Since your turn:" in the log's words, "Your turn" only in your own turn
and never beside "Thinking…", the stack resolving by itself with each resolution in the log,
the switch remembered for the next game, the discard prompt's button, photographed at 360 and
1280 px and checked by axe, and the game to its end with every pass taken for the person in the
log, verified."""

from __future__ import annotations

from e2e import clicks
from e2e.players import SoloPage
from e2e.test_accessibility import Sweep
from e2e.test_espeers import open_saved_game
from parlour.games.espeers import stops
from parlour.games.espeers.actions import Discard, Mulligan, Pass, Play
from parlour.match import bot_seats
from parlour.match.table import Table
from tests.games.test_espeers import A_HEAD, B_HEAD, autos, deck_with, stacked_table

ROOT = "#play-espeers"
WIDTHS = ((360, 740), (1280, 800))


def photos(page, screenshots, name: str) -> None:
    """The screen at a phone's and a laptop's width, the page left at the laptop's."""
    for width, height in WIDTHS:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(
            "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
        )
        page.screenshot(path=screenshots / f"{name}-{width}.png", full_page=True)


def test_espeers_against_a_bot_reads_at_a_glance_and_passes_for_you(page, site, watch, screenshots):
    solo = SoloPage(page, "espeers")
    solo.start(site.url, 2, "medium")
    switch = page.locator(f"{ROOT} [data-cmd={stops.STANDING}]")
    sweep = Sweep(page, "espeers against a bot, the switch on")
    seen_since = chips = 0
    resolved_shot = False
    for _ in range(200):
        table = solo.settle()
        solo.check_view()
        if table.match.result() is not None:
            break
        state = table.state
        chip = page.locator(f"{ROOT} .your-turn")
        assert not (chip.count() and page.locator(f"{ROOT} [data-role=thinking]").count())
        if chip.count():
            chips += 1
            mine = state.active == 0 or state.phase == "mulligan"
            assert chip.inner_text() == ("Your turn" if mine else "Your answer")
        since = page.locator(f"{ROOT} [data-role=since] li")
        if since.count():
            log = page.locator(f"{ROOT} [data-role=log] li").all_inner_texts()
            assert since.all_inner_texts()[-1] == log[-1]
            seen_since += 1
        if switch.count() and switch.get_attribute("aria-pressed") == "false" and seen_since:
            switch.click()
            page.wait_for_function(
                f"document.querySelector('{ROOT} [data-cmd={stops.STANDING}]')"
                "?.getAttribute('aria-pressed') !== 'false'"
            )
            continue
        on = switch.count() and switch.get_attribute("aria-pressed") == "true"
        if on and not resolved_shot and any(" resolves" in t for t in since.all_inner_texts()):
            resolved_shot = True  # the stack resolved by itself: each resolution a line
            sweep.check("the stack resolved by itself")
            photos(page, screenshots, "espeers-solo-resolved")
        before = table.match.step
        choice = bot_seats.decide(table, 0, "medium").choice
        if isinstance(choice, Discard):
            discard_prompt(page, screenshots, sweep, "espeers-solo-discard")
        clicks.CLICKS["espeers"](page, solo.root, state, choice)
        page.wait_for_function(
            f"JSON.parse(localStorage.getItem('{solo.storage}')).table.match.log.length > {before}"
        )
    table = solo.settle()
    assert table.match.result() is not None
    assert seen_since and chips and resolved_shot
    assert page.locator(f"{ROOT} [data-audit=verified]").count() == 1
    photos(page, screenshots, "espeers-solo-result")
    # the switch is remembered: a rematch starts with it on
    page.click(f"{ROOT} [data-role=result] [data-cmd=rematch]")
    page.wait_for_function(
        f"document.querySelector('{ROOT} [data-cmd={stops.STANDING}]')"
        "?.getAttribute('aria-pressed') === 'true'"
    )
    sweep.assert_clean()


def discard_prompt(page, screenshots, sweep: Sweep, name: str) -> None:
    """The discard prompt: its button names the count asked for and waits for it."""
    confirm = page.locator(f"{ROOT} [data-cmd=discard]")
    assert confirm.is_disabled()
    assert "(0 of" in confirm.inner_text() and "Discard 0" not in confirm.inner_text()
    sweep.check("the discard prompt")
    photos(page, screenshots, name)


def must_discard() -> Table:
    """Ada (pass-and-play) plays Quick Recall, it resolves: seven cards at her Discard."""
    table = stacked_table((deck_with(A_HEAD), deck_with(B_HEAD)))
    autos(table)  # each deck sealed
    for seat in (0, 1):
        assert table.act(seat, Mulligan(True)).ok
    for seat, action in ((0, Play("quick-recall")), (1, Pass()), (0, Pass()), (0, Pass())):
        assert table.act(seat, action).ok, action
    assert table.state.pending is not None and table.state.pending.kind == "discard"
    return table


def test_the_discard_prompt_never_offers_a_button_against_its_sentence(
    page, site, watch, screenshots
):
    open_saved_game(page, site.url, must_discard())
    page.click(f"{ROOT} [data-cmd=take-device]")
    sweep = Sweep(page, "espeers, the discard prompt")
    discard_prompt(page, screenshots, sweep, "espeers-discard-prompt")
    confirm = page.locator(f"{ROOT} [data-cmd=discard]")
    page.click(f"{ROOT} [data-cmd=discard-pick][data-slot='0']")
    page.wait_for_function(f"!document.querySelector('{ROOT} [data-cmd=discard]').disabled")
    assert confirm.inner_text().startswith("Discard 1 card (1 of 1 chosen)")
    photos(page, screenshots, "espeers-discard-chosen")
    confirm.click()
    page.locator(f"{ROOT} [data-cmd=discard]").wait_for(state="detached")
    sweep.assert_clean()
