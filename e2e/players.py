"""People playing through the real page, for the browser tests and the bench: one person
against bots (`SoloPage`), and ESP's pass-and-play checked against a mirror of the game
(`EspPage`, `plan_game`). Here, not in a test module, so the bench and the build's measurement
import no tests.
"""

from __future__ import annotations

import json

from e2e import clicks
from e2e.games import esp as esp_driver
from e2e.harness import READY, READY_TIMEOUT_MS
from parlour.fair.rng import Rng
from parlour.games import GAMES
from parlour.games.esp.actions import Flip, Move
from parlour.match import bot_seats
from parlour.match.config import MatchConfig
from parlour.match.table import Table
from parlour.ui.esp.screen import EspScreen

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


# The bots at a person's pace (600 ms), for a test that looks at a bot's thinking chip: with
# Quick bots (e2e/conftest.py turns them on for every tab) a bot's move may come and go before
# the test looks, on a loaded machine (two tests failed so under load 10).
PERSONS_PACE = (
    "sessionStorage.setItem('e2e:quick-bots', '1');"
    " localStorage.removeItem('psi-parlour:quick-bots');"
)


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


ESP = GAMES["esp"]
ESP_SCREEN = EspScreen()


def mirror(names: tuple[str, ...]) -> Table:
    config = MatchConfig("esp", "m-e2e-mirror", names)
    return Table.new(ESP, config, bytes(32), range(len(names)))


def _winner_of(table: Table, seat: int, action) -> bool:
    store = table.stores[seat]
    state = ESP.apply(table.state, seat, ESP.seal(table.state, seat, action, store))
    return state.outcome is not None


def plan_game(
    names: tuple[str, ...], max_moves: int = 24, first: int = 0
) -> list[tuple[int, object]]:
    """A deterministic game with hidden tiles, a flip and a jump, won early in movement (the
    first such game from the planner's attempt `first` on)."""
    for attempt in range(first, 500):
        rng = Rng(attempt.to_bytes(4, "big"))
        table = mirror(names)
        plan: list[tuple[int, object]] = []
        while table.match.result() is None and len(plan) < 10 * len(names) + max_moves:
            seat = min(ESP.to_move(table.state))
            legal = table.legal(seat)
            wins = [a for a in legal if _winner_of(table, seat, a)]
            flips = [a for a in legal if isinstance(a, Flip)]
            if table.state.placing:
                safe = [a for a in legal if a not in wins]
                choice = rng.choice(safe) if safe else legal[0]
            elif (
                wins
                and any(isinstance(a, Flip) for _, a in plan)
                and any(isinstance(a, Move) for _, a in plan)
            ):
                choice = wins[0]
            else:
                calm = [a for a in legal if a not in wins]
                choice = (
                    (flips[0] if flips and rng.below(2) else rng.choice(calm)) if calm else legal[0]
                )
            assert table.act(seat, choice).ok
            plan.append((seat, choice))
        outcome = table.match.result()
        if outcome is not None and outcome.winners and not table.state.placing:
            return plan
    raise AssertionError("no short game found")


class EspPage:
    """Clicks on the real page, checked against the mirror after every move."""

    def __init__(self, page, names: tuple[str, ...]) -> None:
        self.page = page
        self.names = names
        self.mirror = mirror(names)

    def start(self, site_url: str) -> None:
        page = self.page
        page.goto(site_url + "#new-esp")
        page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
        page.locator(f"input[name='esp-seats'][value='{len(self.names)}']").check()
        for seat, name in enumerate(self.names):
            page.fill(f"[data-seat-name='{seat}']", name)
        page.click("text=Start the game")

    def take_device(self, seat: int) -> None:
        handoff = self.page.locator("#play-esp [data-role=handoff]")
        handoff.wait_for()
        assert handoff.locator("h2").inner_text() == self.names[seat]
        assert self.page.locator("#play-esp [data-cell]").count() == 0, "board visible in hand-off"
        self.page.click("#play-esp [data-cmd=take-device]")
        self.check_secrets(seat)
        log = self.page.locator("#play-esp [data-role=log] li")
        assert log.count() == self.mirror.match.step

    def check_secrets(self, viewer: int) -> None:
        """Another seat's symbol-down tile has no symbol in the DOM; the viewer's have theirs."""
        page = self.page
        for cell, tile in self.mirror.state.board.items():
            if tile.up:
                continue
            group = page.locator(f"#play-esp [data-cell='{cell[0]},{cell[1]}']")
            uses = group.locator("use")
            if tile.owner == viewer:
                symbol = self.mirror.stores[viewer].value(f"tile:{tile.index}")
                assert uses.count() == 1
                assert uses.first.get_attribute("href").endswith("#zener-" + symbol)
            else:
                assert uses.count() == 0, f"a hidden symbol of seat {tile.owner} is in the DOM"

    def play(self, seat: int, choice) -> None:
        if isinstance(choice, Flip):
            # The plan's flip carries the planner's opening; the mirror flips with its own.
            choice = next(
                a for a in self.mirror.legal(seat) if isinstance(a, Flip) and a.cell == choice.cell
            )
        esp_driver.click(self.page, "#play-esp", self.mirror.state, choice)
        page = self.page
        before = self.mirror.state
        assert self.mirror.act(seat, choice).ok
        said = ESP_SCREEN.describe(
            before, seat, self.mirror.game.parse_action(self.mirror.match.entries[-1].action)
        )
        shown = page.locator("#play-esp [data-role=last-move], #play-esp [data-role=result] p")
        shown.first.wait_for()
        assert said in shown.first.inner_text() or self.mirror.match.result() is not None
