"""Telepathic as people play it: pass-and-play through the real page.

The cards are dealt in the page, so the test learns each seat's condition cards the way a player
would, from that seat's own view, and plans moves from what the page shows. To learn a partner's
cards before planning, a partner takes back the card just handed to them (Undo), as a player may.
"""

from __future__ import annotations

import json

import pytest

from e2e.harness import READY, READY_TIMEOUT_MS
from e2e.keys import choose, press, tab_to
from e2e.players import SETTLED
from e2e.tele_planner import plan_loss, plan_win
from parlour.games.telepathic.actions import Announce, Continue, HandCard, Perform, Respond
from parlour.games.telepathic.grid import ACTION_CARDS, COLUMNS, holds
from parlour.match import bot_seats
from parlour.match.table import Table
from parlour.ui.telepathic.screen import in_a_line

ROOT = "#play-telepathic"
CARD_IDS = {c.name: c.id for c in ACTION_CARDS}


class TelePage:
    def __init__(
        self, page, names: tuple[str, ...], arrangement: str, mode: str = "standard"
    ) -> None:
        self.page = page
        self.names = names
        self.arrangement = arrangement
        self.mode = mode
        self.cards: dict[int, dict[str, str]] = {}
        self.viewer: int | None = None

    def start(self, site_url: str) -> None:
        page = self.page
        if page.url.startswith(site_url):
            page.goto(site_url + "#new-telepathic")
        else:
            page.goto(site_url + "#new-telepathic")
            page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
        page.locator(f"input[name='telepathic-arrangement'][value='{self.arrangement}']").check()
        page.locator(f"input[name='telepathic-mode'][value='{self.mode}']").check()
        for seat, name in enumerate(self.names):
            page.fill(f"#new-telepathic [data-seat-name='{seat}']", name)
        page.click("#new-telepathic >> text=Start the game")
        replace = page.locator("#start-telepathic [data-cmd=replace-game]")
        if replace.count():  # the game before is still saved: the page asks first
            replace.click()
        self.cards, self.viewer = {}, None

    # -- reading the page -------------------------------------------------------------------

    def take_device_if_asked(self) -> int:
        page = self.page
        page.locator(f"{ROOT} .play").wait_for()
        handoff = page.locator(f"{ROOT} [data-role=handoff]")
        if handoff.count():
            name = handoff.locator("h2").inner_text()
            page.click(f"{ROOT} [data-cmd=take-device]")
            self.viewer = self.names.index(name)
        self.read_my_cards()
        return self.viewer

    def read_my_cards(self) -> None:
        """Learn the viewer's cards from its own view, and check nobody else's are shown."""
        text = self.page.locator(f"{ROOT} .my-cards").inner_text()
        mine = {}
        for which in ("win", "lose"):
            item = self.page.locator(f"{ROOT} .my-cards [data-role=my-{which}]")
            if item.count():
                mine[which] = item.get_attribute("data-card")
                assert f"{which.title()}: {in_a_line(mine[which])}" in text
        if mine:
            self.cards[self.viewer] = mine
        whole = self.page.locator(ROOT).inner_text()
        for seat, cards in self.cards.items():
            if seat == self.viewer:
                continue
            for card in cards.values():
                if card not in mine.values():
                    assert in_a_line(card) not in whole, "another seat's card shows"

    def grid(self) -> tuple:
        tiles = {}
        for label in self.page.locator(f"{ROOT} [data-tile]").evaluate_all(
            "els => els.map(e => e.getAttribute('aria-label'))"
        ):
            tile, cell = label.split(", ")[:2]  # then perhaps "moved by the last card"
            colour, shape = tile.split(" ")
            index = 4 * (int(cell[1]) - 1) + COLUMNS.index(cell[0])
            tiles[index] = (colour, shape)
        return tuple(tiles[i] for i in range(16))

    def row(self) -> list[str | None]:
        cards = self.page.locator(f"{ROOT} .card-row .cards > *").all()
        return [
            None
            if "empty" in (c.get_attribute("class") or "")
            else CARD_IDS[c.locator(".card-name").inner_text()]
            for c in cards
        ]

    # -- acting -----------------------------------------------------------------------------

    def hand(self, slot: int) -> None:
        self.page.click(f"{ROOT} [data-cmd=pick-card][data-slot='{slot}']")
        self.page.click(f"{ROOT} [data-cmd=hand]")

    def perform(self, set_index: int) -> None:
        self.page.click(f"{ROOT} [data-cmd=pick-set][data-set='{set_index}']")
        assert self.page.locator(f"{ROOT} .tele-board.preview").count() == 1
        self.page.click(f"{ROOT} [data-cmd=perform]")

    def learn_by_taking_back(self) -> None:
        """Hand a card, let the receiver read their cards, and take it back (Undo)."""
        self.take_device_if_asked()
        slot = next(i for i, c in enumerate(self.row()) if c)
        self.hand(slot)
        self.take_device_if_asked()
        self.page.click(f"{ROOT} [data-cmd=undo]")
        # the move taken back is another player's: the seat shown is asked to allow it
        allow = self.page.locator(f"{ROOT} [data-cmd=allow-undo]")
        if allow.count():
            allow.click()

    def announce(self, claims: dict[int, str]) -> None:
        page = self.page
        page.click(f"{ROOT} [data-cmd=announce-open]")
        for seat, name in claims.items():
            page.click(f"{ROOT} [data-cmd=claim][data-seat='{seat}'][data-name='{name}']")
        page.click(f"{ROOT} [data-cmd=announce]")

    def answer(self, announcer: int, name: str) -> None:
        self.take_device_if_asked()
        self.page.click(f"{ROOT} [data-cmd=claim][data-seat='{announcer}'][data-name='{name}']")
        self.page.click(f"{ROOT} [data-cmd=answer]")

    def result(self) -> tuple[str, str]:
        dialog = self.page.locator("[data-role=result]")
        dialog.wait_for()
        assert dialog.locator("[data-audit=verified]").is_visible()
        return dialog.locator("h2").inner_text(), dialog.inner_text()


def _new_plan(tele: TelePage, site_url: str, wins_of: list[int], loses_of: list[int]):
    """Start games until one has a short safe win with the cards in view; return its plan."""
    for _ in range(10):
        tele.start(site_url)
        tele.learn_by_taking_back()
        if tele.arrangement == "director" and not _director_first_turn(tele):
            continue  # that turn met the second partner's unknown lose condition
        tele.learn_by_taking_back()
        tele.take_device_if_asked()
        if not all(s in tele.cards for s in set(wins_of) | set(loses_of)):
            continue
        wins = [tele.cards[s]["win"] for s in wins_of]
        loses = [tele.cards[s]["lose"] for s in loses_of]
        plan = plan_win(tele.grid(), tele.row(), wins, loses)
        if plan:
            return plan
    raise AssertionError("no game with a short win in ten deals")


def _director_first_turn(tele: TelePage) -> bool:
    """The first partner is known; play one safe turn with them so the second receives next."""
    tele.take_device_if_asked()
    grid, row = tele.grid(), tele.row()
    lose = tele.cards[1]["lose"]
    slot = next(i for i, c in enumerate(row) if c)
    safe = plan_win(grid, [row[slot], None, None, None], [], [lose], depth=1) or [(0, 0)]
    tele.hand(slot)
    tele.take_device_if_asked()
    tele.perform(safe[0][1])
    return not tele.page.locator("[data-role=result]").count()


def test_a_standard_game_of_two_to_a_win(page, site, watch, screenshots):
    tele = TelePage(page, ("Mary", "Bob"), "pair")
    plan = _new_plan(tele, site.url, wins_of=[0, 1], loses_of=[0, 1])
    for slot, set_index in plan:
        tele.take_device_if_asked()
        tele.hand(slot)
        tele.take_device_if_asked()
        tele.perform(set_index)
    announcer = tele.take_device_if_asked()
    partner = 1 - announcer
    page.screenshot(path=screenshots / "telepathic-desktop-before-announcement.png", full_page=True)
    tele.announce({partner: tele.cards[partner]["win"]})
    tele.answer(announcer, tele.cards[announcer]["win"])
    title, text = tele.result()
    assert title == "Mary and Bob win!"
    assert "Both win conditions were named and are met on the grid." in text
    page.screenshot(path=screenshots / "telepathic-desktop-win.png")


def test_a_standard_game_of_two_lost_with_the_proof(page, site, watch):
    tele = TelePage(page, ("Ann", "Ben"), "pair")
    for _ in range(10):
        tele.start(site.url)
        tele.learn_by_taking_back()
        tele.learn_by_taking_back()
        tele.take_device_if_asked()
        loses = [tele.cards[s]["lose"] for s in (0, 1)]
        move = plan_loss(tele.grid(), tele.row(), loses)
        if move:
            break
    else:
        raise AssertionError("no deal with a losing move in view")
    tele.hand(move[0])
    tele.take_device_if_asked()
    tele.perform(move[1])
    title, text = tele.result()
    assert title == "A draw" or "lose condition" in text
    assert "the game is lost" in text
    met = [s for s in (0, 1) if holds(tele.grid(), tele.cards[s]["lose"])]
    assert any(f"({tele.cards[s]['lose']}: three in a line)" in text for s in met)


def test_director_mode_to_a_win(page, site, watch, screenshots):
    tele = TelePage(page, ("Dee", "Cal", "Sam"), "director")
    plan = _new_plan(tele, site.url, wins_of=[1, 2], loses_of=[1, 2])
    for slot, set_index in plan:
        assert tele.take_device_if_asked() == 0  # the director takes every turn
        tele.hand(slot)
        tele.take_device_if_asked()
        tele.perform(set_index)
    assert tele.take_device_if_asked() == 0
    tele.announce({1: tele.cards[1]["win"], 2: tele.cards[2]["win"]})
    title, _ = tele.result()
    assert title == "Dee, Cal and Sam win!"
    page.locator("[data-role=result]").screenshot(path=screenshots / "telepathic-three-win.png")


def test_four_players_on_opposed_teams(page, site, watch):
    tele = TelePage(page, ("Ada", "Bo", "Cy", "Di"), "teams")
    tele.start(site.url)
    assert tele.take_device_if_asked() == 0
    tele.hand(0)
    assert tele.take_device_if_asked() == 2  # the partner sits opposite
    tele.perform(0)
    tele.announce({0: tele.cards[0]["win"]})  # Cy names Ada's card right
    tele.answer(2, tele.cards[2]["win"])  # and Ada names Cy's
    grid = tele.grid()
    both_met = holds(grid, tele.cards[0]["win"]) and holds(grid, tele.cards[2]["win"])
    title, _ = tele.result()
    assert title == ("Ada and Cy win!" if both_met else "Bo and Di win!")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_telepathic_on_a_phone(browser, site, screenshots, scheme):
    context = browser.new_context(viewport={"width": 360, "height": 780}, color_scheme=scheme)
    page = context.new_page()
    tele = TelePage(page, ("Mary", "Bob"), "pair")
    tele.start(site.url)
    tele.take_device_if_asked()
    tele.hand(1)
    tele.take_device_if_asked()
    page.click(f"{ROOT} [data-cmd=pick-set][data-set='1']")
    page.screenshot(path=screenshots / f"telepathic-phone-{scheme}.png", full_page=True)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the grid is {overflow}px wider than the phone"
    context.close()


# -- keyboard only: from the home screen to the result, against a bot -------------------------

STORAGE = "psi-parlour:telepathic:pass-and-play"


def tele_by_keys(page, state, choice) -> None:
    if isinstance(choice, HandCard):
        choose(
            page,
            f"{ROOT} [data-roving=cards]",
            f"{ROOT} [data-cmd=pick-card][data-slot='{choice.slot}']",
        )
        press(page, f"{ROOT} [data-cmd=hand]")
    elif isinstance(choice, Perform):
        choose(
            page,
            f"{ROOT} [data-roving=sets]",
            f"{ROOT} [data-cmd=pick-set][data-set='{choice.set_index}']",
        )
        press(page, f"{ROOT} [data-cmd=perform]")
    elif isinstance(choice, (Announce, Respond)):
        if isinstance(choice, Announce):
            press(page, f"{ROOT} [data-cmd=announce-open]")
            claims = list(choice.claims)
        else:
            claims = [(state.announcer, choice.name)]
        for seat, name in claims:
            group = f"{ROOT} .claim:has([data-seat='{seat}']) [data-roving=claim]"
            choose(page, group, f"{group} [data-name='{name}']")
        press(page, f"{ROOT} [data-cmd={'announce' if isinstance(choice, Announce) else 'answer'}]")
    elif isinstance(choice, Continue):
        press(page, f"{ROOT} [data-cmd=continue]")
    else:
        raise AssertionError(f"no keys for {choice}")


def test_a_whole_game_against_a_bot_by_keyboard_alone(page, site, watch):
    """Home screen, set-up form, every move, the result: Tab, the arrow keys and Enter only. The
    person's moves are the easy bot's choices for their seat (read from the saved game)."""
    page.goto(site.url)
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    press(page, "a[href='#new-telepathic']")
    tab_to(page, "#new-telepathic [data-seat-kind='1']")
    page.keyboard.press("ArrowDown")  # Person -> Bot: easy
    assert page.input_value("#new-telepathic [data-seat-kind='1']") == "easy"
    press(page, "#new-telepathic a[href='#start-telepathic']")
    page.locator(f"{ROOT} .play").wait_for()
    moves = 0
    for _ in range(60):
        page.wait_for_function(SETTLED, timeout=60_000)
        table = Table.from_json(
            json.loads(page.evaluate(f"localStorage.getItem('{STORAGE}')"))["table"]
        )
        if table.match.result() is not None:
            break
        assert 0 in table.game.to_move(table.state), "settled, but nobody waits on the person"
        before = table.match.step
        tele_by_keys(page, table.state, bot_seats.decide(table, 0, "easy").choice)
        page.wait_for_function(
            f"JSON.parse(localStorage.getItem('{STORAGE}')).table.match.log.length > {before}"
        )
        moves += 1
    else:
        raise AssertionError("the game did not end")
    assert moves >= 1
    dialog = page.locator(f"{ROOT} [data-role=result]")
    dialog.wait_for()
    assert dialog.locator("[data-audit=verified]").count() == 1
