"""Games against bots through the real page: one person, every other seat a bot.

The person's moves are chosen here by the easy bot (from the saved game, which holds the person's
own store) and made with clicks; the bots think in the worker. Checked throughout: no hand-off
ever appears, the board always shows the person's seat, a "thinking" chip shows while a bot is to
move, and the main thread never runs a task over 200 ms, from the set-up form to the audit.
"""

from __future__ import annotations

import pytest

from e2e.games import esp as esp_driver
from e2e.players import THOUGHTS, SoloPage
from parlour.games.declared import default_tables
from parlour.match import bot_seats

pytestmark = pytest.mark.timing  # the longest main-thread task is bounded: run alone

MAX_TASK_MS = 200
GAMES = [(game, seats, None) for game, seats in default_tables()]  # every game of the catalog


@pytest.mark.parametrize(("game", "seats", "radio"), GAMES, ids=[g[0] for g in GAMES])
def test_a_whole_game_against_bots_never_hands_off_nor_blocks_the_page(
    page, site, watch, game, seats, radio
):
    page.add_init_script(THOUGHTS)
    solo = SoloPage(page, game)
    solo.start(site.url, seats, "medium", radio)
    table = solo.play_to_the_end()
    assert page.locator(f"{solo.root} [data-audit=verified]").count() == 1
    names = table.match.config.seats
    assert all(names[s].endswith("(bot)") for s in range(1, seats))
    log = page.inner_text(f"{solo.root} [data-role=log]")
    assert names[1] in log, "the log names the bot"
    thoughts = page.evaluate("window.parlourThoughts")
    assert thoughts, "no bot decided anything"
    assert watch.long_tasks == [] or max(watch.long_tasks) <= MAX_TASK_MS, (
        f"main-thread tasks over {MAX_TASK_MS} ms: {sorted(watch.long_tasks)[-5:]}"
    )


def test_the_thinking_chip_and_undo_of_a_move_with_the_bots_reply(page, site, watch):
    solo = SoloPage(page, "esp")
    solo.start(site.url, 2, "medium")
    table = solo.settle()
    choice = bot_seats.decide(table, 0, "easy").choice
    esp_driver.click(page, solo.root, table.state, choice)
    page.locator(f"{solo.root} [data-role=thinking]").wait_for()  # during the pause
    table = solo.settle()
    assert table.match.step == 2 and 0 in table.game.to_move(table.state)
    assert page.locator(f"{solo.root} [data-role=thinking]").count() == 0
    page.click(f"{solo.root} [data-cmd=undo]")
    table = solo.settle()
    assert table.match.step == 0
    assert "Took back your move and the bots' replies." in page.inner_text(
        f"{solo.root} [data-role=status]"
    ) or "Took back" in page.inner_text(f"{solo.root} .message")
    solo.check_view()
