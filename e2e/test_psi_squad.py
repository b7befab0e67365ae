"""Psi Squad as people play it: pass-and-play through the real page.

The test chooses every cypher, so it knows every secret: whenever a seat's view is on screen, no
other seat's cypher that is still unguessed may be anywhere in the page's DOM.
"""

from __future__ import annotations

import json

import pytest

from e2e.harness import READY, READY_TIMEOUT_MS
from e2e.keys import choose, press, tab_to
from e2e.players import SETTLED
from parlour.games.psi_squad.actions import Guess
from parlour.games.psi_squad.rules import max_status
from parlour.games.psi_squad.state import score
from parlour.match import bot_seats
from parlour.match.table import Table
from parlour.words import and_list

ROOT = "#play-psi-squad"


class PsiPage:
    def __init__(self, page, names: tuple[str, ...], cyphers: tuple[str, ...]) -> None:
        self.page = page
        self.names = names
        self.cyphers = cyphers
        self.length = len(cyphers[0])
        self.status = [max_status(self.length)] * len(names)
        self.values = [0] * len(names)
        self.guessed = [False] * len(names)
        self.viewer: int | None = None

    def start(self, site_url: str) -> None:
        page = self.page
        page.goto(site_url + "#new-psi-squad")
        page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
        page.locator(f"input[name='psi-squad-seats'][value='{len(self.names)}']").check()
        page.locator(f"input[name='psi-squad-length'][value='{self.length}']").check()
        for seat, name in enumerate(self.names):
            page.fill(f"#new-psi-squad [data-seat-name='{seat}']", name)
        page.click("#new-psi-squad >> text=Start the game")

    def take_device_if_asked(self) -> int:
        """Take the device when the hand-off screen asks; return whose view is shown."""
        page = self.page
        page.locator(f"{ROOT} .play").wait_for()
        handoff = page.locator(f"{ROOT} [data-role=handoff]")
        if handoff.count():
            name = handoff.locator("h2").inner_text()
            self.assert_no_secret(None)
            page.click(f"{ROOT} [data-cmd=take-device]")
            self.viewer = self.names.index(name)
        self.assert_no_secret(self.viewer)
        return self.viewer

    def assert_no_secret(self, viewer: int | None) -> None:
        html = self.page.locator(ROOT).inner_html()
        for seat, cypher in enumerate(self.cyphers):
            if seat != viewer and not self.guessed[seat]:
                assert cypher not in html, f"{self.names[seat]}'s cypher is in the DOM"

    def type_digits(self, digits: str, by_keyboard: bool = False) -> None:
        if by_keyboard:
            self.page.keyboard.type(digits)
        else:
            for d in digits:
                self.page.click(f"{ROOT} [data-cmd=digit][data-digit='{d}']")

    def seal_all(self) -> None:
        for _ in self.names:
            seat = self.take_device_if_asked()
            self.type_digits(self.cyphers[seat], by_keyboard=seat % 2 == 1)
            self.page.click(f"{ROOT} [data-cmd=seal-cypher]")

    def guess(self, target: int, digits: str) -> None:
        """The seat on screen guesses; the test keeps its own score independently."""
        page, guesser = self.page, self.viewer
        page.click(f"{ROOT} [data-cmd=target][data-seat='{target}']")
        self.type_digits(digits)
        page.click(f"{ROOT} [data-cmd=guess]")
        correct, spotted = score(self.cyphers[target], digits)
        value = correct + 2 * spotted
        self.status[guesser] += value - self.values[target]
        self.values[target] = value
        self.guessed[target] = spotted == self.length
        said = (
            f"guessed {digits} at {self.names[target]}: {correct} correct, {spotted} spotted: "
            f"Value {value}"
        )
        shown = page.locator(f"{ROOT} [data-role=last-move], [data-role=result]")
        shown.first.wait_for()
        if not page.locator("[data-role=result]").count():
            assert said in shown.first.inner_text()

    def unguessed_targets(self) -> list[int]:
        return [s for s in range(len(self.names)) if s != self.viewer and not self.guessed[s]]


def play_to_the_end(psi: PsiPage, wrong_first: int) -> None:
    """Each guesser first makes `wrong_first` near-miss guesses in turn, then guesses exactly."""
    page = psi.page
    misses = 0
    while not page.locator("[data-role=result]").count():
        psi.take_device_if_asked()
        target = psi.unguessed_targets()[0]
        secret = psi.cyphers[target]
        if misses < wrong_first:
            misses += 1
            psi.guess(target, secret[::-1] if misses % 2 else "0" * psi.length)
        else:
            psi.guess(target, secret)


def finish_scores(psi: PsiPage) -> list[int]:
    left = [s for s in range(len(psi.names)) if not psi.guessed[s]]
    final = list(psi.status)
    if len(left) == 1:
        final[left[0]] += max_status(psi.length) - psi.values[left[0]]
    return final


def check_result(psi: PsiPage) -> None:
    page = psi.page
    dialog = page.locator("[data-role=result]")
    dialog.wait_for()
    final = finish_scores(psi)
    best = max(final)
    winners = [psi.names[s] for s in range(len(final)) if final[s] == best]
    title = dialog.locator("h2").inner_text()
    assert title == and_list(winners) + (" win!" if len(winners) > 1 else " wins!")
    rows = {}
    for row in dialog.locator("[data-role=final] tbody tr").all():
        rows[row.locator("th").inner_text()] = row.locator("td").all_inner_texts()
    for seat, name in enumerate(psi.names):
        cypher, _bonus, status = rows[name]
        assert cypher == psi.cyphers[seat]  # every cypher opened at the end
        assert status == str(final[seat])
    assert dialog.locator("[data-audit=verified]").is_visible()


def test_a_three_seat_game_to_the_end_with_hand_offs_and_notes(page, site, watch, screenshots):
    psi = PsiPage(page, ("Ann", "Bo", "Cy"), ("1123", "4567", "8890"))
    psi.start(site.url)
    psi.seal_all()
    seat = psi.take_device_if_asked()
    target = psi.unguessed_targets()[0]
    # Private notes: marked on this seat's sheet, gone from the others', back on return.
    page.click(f"{ROOT} [data-cmd=target][data-seat='{target}']")
    page.click(f"{ROOT} [data-cmd=note][data-note='0:5']")
    page.click(f"{ROOT} [data-cmd=note][data-note='0:5']")
    assert page.locator(f"{ROOT} [data-note='0:5']").inner_text() == "?"
    # A malformed guess is refused with a sentence and changes nothing.
    psi.type_digits("12")
    page.click(f"{ROOT} [data-cmd=guess]")
    assert page.locator(f"{ROOT} .message").inner_text() == (
        "A cypher has exactly 4 digits; that guess has 2."
    )
    page.screenshot(path=screenshots / "psi-desktop-sheet.png", full_page=True)
    page.click(f"{ROOT} [data-cmd=erase]")
    page.click(f"{ROOT} [data-cmd=erase]")
    psi.guess(target, psi.cyphers[target][::-1])
    other = psi.take_device_if_asked()
    assert other != seat
    if target != other:
        page.click(f"{ROOT} [data-cmd=target][data-seat='{target}']")
        assert page.locator(f"{ROOT} .note.maybe").count() == 0  # notes are per seat
    play_to_the_end(psi, wrong_first=2)
    check_result(psi)
    page.screenshot(path=screenshots / "psi-desktop-result.png")


def test_the_two_seat_variant_with_three_digit_cyphers(page, site, watch):
    psi = PsiPage(page, ("Dee", "Eli"), ("707", "123"))
    psi.start(site.url)
    psi.seal_all()
    play_to_the_end(psi, wrong_first=1)
    check_result(psi)
    assert "Max 9" in page.locator(f"{ROOT} caption").first.inner_text()


def test_refusals_read_as_sentences(page, site, watch):
    psi = PsiPage(page, ("Fay", "Gus", "Hal"), ("11223", "44556", "77889"))
    psi.start(site.url)
    psi.seal_all()
    psi.take_device_if_asked()
    page.click(f"{ROOT} [data-cmd=guess]")
    assert page.locator(f"{ROOT} .message").inner_text() == "Type the 5 digits of your guess."
    psi.type_digits("12345")
    page.click(f"{ROOT} [data-cmd=guess]")
    assert page.locator(f"{ROOT} .message").inner_text() == "Choose whose cypher you are guessing."
    assert page.locator(f"{ROOT} [data-role=history] tr").count() == 0


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_psi_squad_on_a_phone(browser, site, screenshots, scheme):
    context = browser.new_context(viewport={"width": 360, "height": 780}, color_scheme=scheme)
    page = context.new_page()
    psi = PsiPage(page, ("Ivy", "Jo", "Kai"), ("0123", "4567", "8901"))
    psi.start(site.url)
    psi.seal_all()
    psi.take_device_if_asked()
    target = psi.unguessed_targets()[0]
    psi.guess(target, "9999")
    psi.take_device_if_asked()
    page.click(f"{ROOT} [data-cmd=target] >> nth=0")
    page.screenshot(path=screenshots / f"psi-phone-{scheme}.png", full_page=True)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the play sheet is {overflow}px wider than the phone"
    context.close()


# -- keyboard only: from the home screen to the result, against a bot -------------------------

STORAGE = "psi-parlour:psi-squad:pass-and-play"


def psi_by_keys(page, choice) -> None:
    if isinstance(choice, Guess):
        group = f"{ROOT} [data-roving=targets]"
        choose(page, group, f"{group} [data-seat='{choice.target}']")
    page.keyboard.type(choice.digits)  # typed digits go to the entry wherever the focus is
    press(page, f"{ROOT} [data-cmd={'guess' if isinstance(choice, Guess) else 'seal-cypher'}]")


def test_a_whole_game_against_a_bot_by_keyboard_alone(page, site, watch):
    """Home screen, set-up form, every move, the result: Tab, the arrow keys, digits and Enter
    only. The person's moves are the easy bot's choices for their seat (read from the saved
    game, which holds the person's own cypher)."""
    page.goto(site.url)
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    press(page, "a[href='#new-psi-squad']")
    tab_to(page, "input[name='psi-squad-seats']:checked")
    page.keyboard.press("ArrowLeft")  # 3 players -> 2
    tab_to(page, "input[name='psi-squad-length']:checked")
    page.keyboard.press("ArrowLeft")  # 4 digits -> 3
    tab_to(page, "#new-psi-squad [data-seat-kind='1']")
    page.keyboard.press("ArrowDown")  # Person -> Bot: easy
    assert page.input_value("#new-psi-squad [data-seat-kind='1']") == "easy"
    press(page, "#new-psi-squad a[href='#start-psi-squad']")
    page.locator(f"{ROOT} .play").wait_for()
    moves = 0
    for _ in range(80):
        page.wait_for_function(SETTLED, timeout=60_000)
        raw = page.evaluate(f"localStorage.getItem('{STORAGE}')")
        table = Table.from_json(json.loads(raw)["table"])
        if table.match.result() is not None:
            break
        assert table.state.length == 3 and table.state.seats == 2
        assert 0 in table.game.to_move(table.state), "settled, but nobody waits on the person"
        before = table.match.step
        psi_by_keys(page, bot_seats.decide(table, 0, "easy").choice)
        page.wait_for_function(
            f"JSON.parse(localStorage.getItem('{STORAGE}')).table.match.log.length > {before}"
        )
        moves += 1
    else:
        raise AssertionError("the game did not end")
    assert moves >= 2  # the cypher and at least one guess
    dialog = page.locator(f"{ROOT} [data-role=result]")
    dialog.wait_for()
    assert dialog.locator("[data-audit=verified]").count() == 1
