"""ESP for everyone, in the real page (issue 17): a whole game by keyboard alone, from the home
screen to the result against a bot; the board's cells as tap targets on a phone; its
highlights against every seat's colour, light and dark.

The keyboard game chooses its moves like a player (the easy bot's choice for the person's seat,
or a winning move when there is one) and makes them with Tab, Shift+Tab, Enter and the arrow
keys only: no click, no focus() from the test.
"""

from __future__ import annotations

import json
import re
from collections import deque

import pytest

from e2e.harness import READY, READY_TIMEOUT_MS
from e2e.keys import active, tab_to
from e2e.players import SoloPage
from parlour.fair.rng import Rng
from parlour.games import GAMES
from parlour.games.esp.actions import AnswerDraw, Flip, Move, Pass, Place
from parlour.match import bot_seats
from parlour.match.config import MatchConfig
from parlour.match.table import Table
from parlour.ui.esp.board import next_focus, parse_key
from parlour.ui.esp.screen import EspScreen
from parlour.ui.play import PlaySession

ESP = GAMES["esp"]
ROOT = "#play-esp"
MAX_HUMAN_MOVES = 90


def focused_cell(page):
    return parse_key(page.evaluate("document.activeElement?.dataset?.cell || ''"))


def arrows_to(page, target: tuple[int, int]) -> None:
    """From the focused cell to `target` with the arrow keys (a path the page's own arrow rule
    can take, found over the cells drawn)."""
    drawn = [
        parse_key(c)
        for c in page.eval_on_selector_all(
            f"{ROOT} [data-cell]", "els => els.map(e => e.dataset.cell)"
        )
    ]
    cells = [c for c in drawn if c is not None]
    start = focused_cell(page)
    assert start is not None, f"no cell has the focus: {active(page)}"
    paths = {start: []}
    todo = deque([start])
    while todo and target not in paths:
        here = todo.popleft()
        for key in ("ArrowRight", "ArrowLeft", "ArrowUp", "ArrowDown"):
            there = next_focus(cells, here, key)
            if there is not None and there not in paths:
                paths[there] = [*paths[here], key]
                todo.append(there)
    assert target in paths, f"no arrow path from {start} to {target}"
    for key in paths[target]:
        page.keyboard.press(key)
    assert focused_cell(page) == target


def into_board(page) -> None:
    """Tab forward into the board (its one Tab stop)."""
    tab_to(page, f"{ROOT} [data-cell]")


def press_enter(page) -> None:
    page.keyboard.press("Enter")


def play_by_keys(page, table: Table, choice) -> None:
    state = table.state
    if isinstance(choice, Place):
        tab_to(page, f"{ROOT} [data-cmd=tray][data-symbol='{choice.symbol.value}']")
        press_enter(page)
        face = "down" if choice.hidden else "up"
        tab_to(page, f"{ROOT} [data-cmd=face][data-face='{face}']")
        press_enter(page)
        into_board(page)
        arrows_to(page, choice.cell)
        press_enter(page)
    elif isinstance(choice, Flip):
        into_board(page)
        arrows_to(page, choice.cell)
        press_enter(page)  # chooses the tile: the focus goes on to "Flip this tile"
        tab_to(page, f"{ROOT} [data-cmd=flip]", back=True)
        press_enter(page)
    elif isinstance(choice, Move):
        into_board(page)
        arrows_to(page, choice.cell)
        press_enter(page)
        arrows_to(page, ESP.landing(state, choice.cell, choice.direction))
        press_enter(page)
    elif isinstance(choice, Pass):
        tab_to(page, f"{ROOT} [data-cmd=pass]")
        press_enter(page)
    elif isinstance(choice, AnswerDraw):
        tab_to(
            page, f"{ROOT} [data-cmd=answer-draw][data-accept='{'yes' if choice.accept else 'no'}']"
        )
        press_enter(page)
    else:
        raise AssertionError(f"no keys for {choice}")


def _wins(table: Table, action) -> bool:
    if not isinstance(action, (Place, Move, Flip)):
        return False
    sealed = ESP.seal(table.state, 0, action, table.stores[0])
    outcome = ESP.apply(table.state, 0, sealed).outcome
    return outcome is not None and 0 in outcome.winners


def choose(table: Table, played: set[str]):
    """In the movement stage a winning move if there is one (a shorter test); while placing,
    never a set (so the keys for a flip and a jump get their turn); a first flip when one is
    open; else the easy bot's choice."""
    legal = table.legal(0)
    if not table.state.placing:
        wins = [a for a in legal if _wins(table, a)]
        if wins:
            return wins[0]
        flips = [a for a in legal if isinstance(a, Flip)]
        if flips and "Flip" not in played:
            return flips[0]  # one flip at least, by keys
    choice = bot_seats.decide(table, 0, "easy").choice
    if table.state.placing and _wins(table, choice):
        return next((a for a in legal if not _wins(table, a)), choice)
    return choice


def test_a_whole_game_by_keyboard_alone_from_the_home_screen_to_the_result(page, site, watch):
    page.goto(site.url)
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    tab_to(page, ".game-card[data-game='esp'] a[href='#new-esp']")
    press_enter(page)
    tab_to(page, "#new-esp [data-seat-kind='1']")
    page.keyboard.press("ArrowDown")  # Person -> Bot: easy
    assert page.eval_on_selector("#new-esp [data-seat-kind='1']", "e => e.value") == "easy"
    tab_to(page, "#new-esp a[href='#start-esp']")
    press_enter(page)
    page.locator(f"{ROOT} .play").wait_for()
    solo = SoloPage(page, "esp")
    # The order of a turn: the tray before the board.
    stops = tab_to(page, f"{ROOT} [data-cell]")
    trays = [i for i, s in enumerate(stops) if "|tray|" in s]
    assert trays and trays[0] < len(stops) - 1, f"the tray comes after the board: {stops}"
    played: set[str] = set()
    for _ in range(MAX_HUMAN_MOVES):
        table = solo.settle()
        solo.check_view()
        if table.match.result() is not None:
            break
        before = table.match.step
        choice = choose(table, played)
        played.add(type(choice).__name__)
        play_by_keys(page, table, choice)
        page.wait_for_function(
            f"JSON.parse(localStorage.getItem('{solo.storage}')).table.match.log.length > {before}"
        )
    else:
        raise AssertionError("the game did not end")
    print("played by keys:", sorted(played), "moves:", table.match.step)
    dialog = page.locator("[data-role=result]")
    dialog.wait_for()
    assert active(page).startswith("h2|"), "the focus is not on the result's title"
    assert dialog.locator("[data-audit=verified]").count() == 1
    result = table.match.result()
    if result.winners:
        counted = dialog.locator("[data-role=set-count]").inner_text()
        # esp/told.py set_count_tree's three openings: "The set holds 4 of Ada's tiles...",
        # "The set's 5 tiles are all Bo's." and, two sets at once, "The 2 sets hold 6 tiles..."
        assert re.match(r"The (set holds |set's 5 tiles are all |\d+ sets hold )", counted), counted
    tab_to(page, "[data-role=result] [data-cmd=close-result]")
    press_enter(page)
    assert page.locator("[data-role=result]").count() == 0
    if result.winners:
        assert page.locator(f"{ROOT} .in-set").count() >= 5


# -- the phone ---------------------------------------------------------------------------------


def four_seat_midgame() -> Table:
    """A four-player game in the movement stage, the last move a jump (made here, in CPython)."""
    names = ("Ada", "Bo", "Cy", "Di")
    table = Table.new(ESP, MatchConfig("esp", "m-e2e-access-1", names), bytes(32), range(4))
    rng = Rng(b"\x00\x00\x00\x03")
    calm = 0
    while True:
        seat = min(ESP.to_move(table.state))
        safe = [
            a
            for a in table.legal(seat)
            if ESP.apply(
                table.state, seat, ESP.seal(table.state, seat, a, table.stores[seat])
            ).outcome
            is None
        ]
        jumps = [a for a in safe if isinstance(a, Move)]
        if not table.state.placing:
            calm += 1
            if calm > 6 and jumps:
                assert table.act(seat, jumps[0]).ok
                return table
        assert table.act(seat, rng.choice(safe)).ok


def open_saved(page, site_url: str, table: Table) -> None:
    """The page with `table` as its saved pass-and-play game, the next player's view shown."""
    saved = json.dumps(PlaySession(table, EspScreen()).to_json())
    page.goto(site_url)
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    page.evaluate(
        "([k, v]) => localStorage.setItem(k, v)", ["psi-parlour:esp:pass-and-play", saved]
    )
    page.reload()  # the worker reads the saved game when it starts
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    page.goto(site_url + "#play-esp")
    page.click(f"{ROOT} [data-cmd=take-device]")


BOXES = f"""() => [...document.querySelectorAll("{ROOT} .esp-board [data-cell]")].map(e => {{
  const r = e.getBoundingClientRect(); return [e.dataset.cell, r.width, r.height]; }})"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_on_a_phone_every_cell_is_a_44px_target_and_the_board_pans_and_zooms(
    browser, site, screenshots, scheme
):
    context = browser.new_context(viewport={"width": 360, "height": 740}, color_scheme=scheme)
    page = context.new_page()
    table = four_seat_midgame()
    open_saved(page, site.url, table)
    # the zoom a player uses: the one the game opens at ("normal")
    assert "normal" in page.inner_text(f"{ROOT} [data-role=zoom-level]")
    boxes = page.evaluate(BOXES)
    assert len(boxes) > 40
    small = [b for b in boxes if b[1] < 44 or b[2] < 44]
    assert small == [], f"cells under 44 px: {small[:5]}"
    # a 40-tile board is wider than a phone: it scrolls inside its frame, not the page
    frame = page.locator(f"{ROOT} [data-role=board-frame]")
    assert frame.evaluate("f => f.scrollWidth > f.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    # the viewer's own hidden symbols are drawn large enough to read (the ink of the symbol,
    # as tall as a capital of 24 px text; a symbol-up tile's is about 21 px)
    marks = page.eval_on_selector_all(
        f"{ROOT} .esp-board use.mark", "els => els.map(e => e.getBoundingClientRect().width)"
    )
    assert marks and min(marks) >= 18
    page.screenshot(path=screenshots / f"esp-access-phone-{scheme}.png", full_page=True)
    # zoom: + by keyboard makes the cells larger; − down to the whole board makes it fit
    width = boxes[0][1]
    page.locator(f"{ROOT} [data-cmd=zoom-in]").press("Enter")
    assert page.evaluate(BOXES)[0][1] > width * 1.2
    for _ in range(3):
        page.locator(f"{ROOT} [data-cmd=zoom-out]").press("Enter")
    assert "whole board" in page.inner_text(f"{ROOT} [data-role=zoom-level]")
    assert frame.evaluate("f => f.scrollWidth <= f.clientWidth + 1")
    page.screenshot(path=screenshots / f"esp-access-phone-{scheme}-whole.png", full_page=True)
    context.close()


# -- highlights against every seat's colour ---------------------------------------------------

CONTRAST = f"""() => {{
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => {{
    const [r, g, b] = rgb(c).map(v => {{
      v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    }});
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  }};
  const ratio = (a, b) => {{
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05);
  }};
  const fills = {{}};
  for (const seat of [0, 1, 2, 3]) {{
    const hex = document.querySelector(`{ROOT} .esp-board .seat-${{seat}} .hex`);
    if (hex) fills[seat] = getComputedStyle(hex).fill;
  }}
  const out = {{}};
  for (const kind of ["select", "last", "from", "set"]) {{
    const ring = document.querySelector(`{ROOT} .esp-board .${{kind}}-ring`);
    const halo = document.querySelector(`{ROOT} .esp-board .${{kind}}-halo`);
    if (!ring) continue;
    const line = getComputedStyle(ring).stroke, dark = getComputedStyle(halo).stroke;
    out[kind] = {{ halo_vs_line: ratio(line, dark) }};
    for (const [seat, fill] of Object.entries(fills))
      out[kind][seat] = Math.max(ratio(line, fill), ratio(dark, fill));
  }}
  return {{ fills: Object.keys(fills).length, rings: out }};
}}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_highlights_stand_out_from_every_seats_colour(browser, site, scheme):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme=scheme)
    page = context.new_page()
    table = four_seat_midgame()
    open_saved(page, site.url, table)
    seat = min(ESP.to_move(table.state))
    own = next(a.cell for a in table.legal(seat) if isinstance(a, (Flip, Move)))
    page.click(f"{ROOT} [data-cell='{own[0]},{own[1]}']")
    found = page.evaluate(CONTRAST)
    assert found["fills"] == 4
    assert set(found["rings"]) >= {"select", "last", "from"}
    for kind, against in found["rings"].items():
        assert against["halo_vs_line"] >= 3, (kind, against)
        weakest = min(v for k, v in against.items() if k != "halo_vs_line")
        # the line or its halo: one of the two stands out from each seat's tile by 3:1
        assert weakest >= 3, (scheme, kind, against)
    context.close()
