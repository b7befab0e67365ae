"""Games against bots through the real page: one person, every other seat a bot.

The person's moves are chosen here by the easy bot (from the saved game, which holds the person's
own store) and made with clicks; the bots think in the worker. Checked throughout: no hand-off
ever appears, the board always shows the person's seat, a "thinking" chip shows while a bot is to
move, and the main thread never runs a task over 200 ms, from the set-up form to the audit.
"""

from __future__ import annotations

import json

import pytest

from e2e import clicks
from e2e.harness import READY, READY_TIMEOUT_MS
from parlour.match import bot_seats
from parlour.match.table import Table

MAX_TASK_MS = 200
MAX_HUMAN_MOVES = 120
SETTLED = (
    "() => !document.documentElement.dataset.pending && !document.documentElement.dataset.botDue"
)
# Each bot decision's time in the worker, as the page was told it (`data-bot-thought`).
THOUGHTS = """
window.parlourThoughts = [];
new MutationObserver(records => {
  for (const r of records) {
    const v = document.documentElement.dataset.botThought;
    if (v) window.parlourThoughts.push(parseFloat(v.split(':')[1]));
  }
}).observe(document, {attributes: true, subtree: true, attributeFilter: ['data-bot-thought']});
"""


class SoloPage:
    """One person (seat 0) against bots, on the play screen of `game`."""

    def __init__(self, page, game: str) -> None:
        self.page, self.game = page, game
        self.root = f"#play-{game}"
        self.storage = f"psi-parlour:{game}:pass-and-play"

    def start(self, site_url: str, seats: int, level: str, seat_radio: str | None = None) -> None:
        page, game = self.page, self.game
        page.goto(site_url + f"#new-{game}")
        page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
        if seat_radio:
            page.check(seat_radio)
        for seat in range(1, seats):
            page.select_option(f"#new-{game} [data-seat-kind='{seat}']", level)
        page.click(f"#new-{game} a[href='#start-{game}']")
        page.locator(f"{self.root} .play").wait_for()

    def table(self) -> Table:
        raw = self.page.evaluate(f"localStorage.getItem('{self.storage}')")
        return Table.from_json(json.loads(raw)["table"])

    def settle(self) -> Table:
        """Wait until no request is on its way and no bot's move is coming."""
        self.page.wait_for_function(SETTLED, timeout=60_000)
        return self.table()

    def check_view(self) -> None:
        page = self.page
        assert page.locator(f"{self.root} [data-role=handoff]").count() == 0, "a hand-off"
        assert page.get_attribute(f"{self.root} .play", "data-viewer") == "0"

    def play_to_the_end(self) -> Table:
        for _ in range(MAX_HUMAN_MOVES):
            table = self.settle()
            self.check_view()
            if table.match.result() is not None:
                return table
            seat, state = 0, table.state
            assert 0 in table.game.to_move(state), "settled, but nobody waits on the person"
            choice = bot_seats.decide(table, seat, "easy").choice
            before = table.match.step
            clicks.CLICKS[self.game](self.page, self.root, state, choice)
            self.page.wait_for_function(
                f"JSON.parse(localStorage.getItem('{self.storage}')).table.match.log.length"
                f" > {before}"
            )
        raise AssertionError("the game did not end")


GAMES = [
    ("esp", 2, None),
    ("espeers", 2, None),
    ("psi-squad", 3, None),
    ("telepathic", 2, None),
]


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
    clicks.esp(page, solo.root, table.state, choice)
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
