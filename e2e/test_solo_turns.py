"""ESPEERS against a bot in the page, after the pacing change (issue 28, points 3 and 4): the
stops switch, "Since your turn:" in the log's words, "Your turn" only in your own turn, and the
game to its end with every pass taken for the person in the log, verified."""

from __future__ import annotations

from e2e import clicks
from e2e.players import SoloPage
from parlour.games.espeers import stops
from parlour.match import bot_seats

ROOT = "#play-espeers"


def test_espeers_against_a_bot_reads_at_a_glance_and_passes_for_you(page, site, watch):
    solo = SoloPage(page, "espeers")
    solo.start(site.url, 2, "medium")
    switch = page.locator(f"{ROOT} [data-cmd={stops.STANDING}]")
    seen_since = chips = 0
    for _ in range(200):
        table = solo.settle()
        solo.check_view()
        if table.match.result() is not None:
            break
        state = table.state
        chip = page.locator(f"{ROOT} .your-turn")
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
        before = table.match.step
        choice = bot_seats.decide(table, 0, "medium").choice
        clicks.CLICKS["espeers"](page, solo.root, state, choice)
        page.wait_for_function(
            f"JSON.parse(localStorage.getItem('{solo.storage}')).table.match.log.length > {before}"
        )
    table = solo.settle()
    assert table.match.result() is not None
    assert seen_since and chips
    assert page.locator(f"{ROOT} [data-audit=verified]").count() == 1
