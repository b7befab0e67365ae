"""Learn by playing, in the real page: each game's tutorial reached from its card (and from its
rules page), followed to its end by pressing only what it highlights; ESP's by the keyboard alone
(the focus goes to the thing to press, Enter presses it); screenshots at 360 and 1280 px, light
and dark."""

from __future__ import annotations

import pytest

from e2e.games import driver
from e2e.harness import READY, READY_TIMEOUT_MS
from parlour.games.declared import GAME_IDS

SETTLED = (
    "() => !document.documentElement.dataset.pending && !document.documentElement.dataset.botDue"
)
LESSON_GAMES = list(GAME_IDS)
MAX_STEPS = 40


def root(game: str) -> str:
    return f"#learn-{game} .learn-root"


def progress(page, game: str) -> str:
    return page.inner_text(f"{root(game)} .lesson-progress")


def open_from_card(page, site, game: str) -> None:
    page.goto(site.url)
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    page.click(f".game-card[data-game='{game}'] a[href='#learn-{game}']")
    page.locator(f"{root(game)} .lesson").wait_for(timeout=60_000)


def follow_highlights(page, game: str, keyboard: bool = False, shots=None) -> int:
    """Press the highlighted thing until the script is over; the number of presses."""
    for presses in range(MAX_STEPS):
        page.wait_for_function(SETTLED, timeout=60_000)
        if progress(page, game).endswith(("Playing on", "Done")):
            return presses
        marked = page.locator(f"{root(game)} .learn-next")
        assert marked.count() == 1, f"step {presses}: {marked.count()} highlighted"
        if shots is not None:
            shots(presses)
        before = progress(page, game)
        if keyboard:
            focused = page.evaluate(
                "() => document.activeElement && document.activeElement.matches('.learn-next')"
            )
            assert focused, f"step {presses}: the focus is not on the highlighted thing"
            page.keyboard.press("Enter")
        else:
            marked.click()
        page.wait_for_function(SETTLED, timeout=60_000)
        assert progress(page, game) != before, f"step {presses} did not advance"
    raise AssertionError("the lesson never ended")


@pytest.mark.parametrize("game", LESSON_GAMES)
def test_each_tutorial_is_completed_by_following_its_highlights(page, site, watch, game):
    open_from_card(page, site, game)
    assert "Step 1 of" in progress(page, game)
    presses = follow_highlights(page, game)
    assert presses >= 5
    announced = page.inner_text("#announcer")
    assert announced, "the live region says the lesson's words"


def test_a_wrong_press_is_explained_and_changes_nothing(page, site, watch):
    open_from_card(page, site, "esp")
    page.click(f"{root('esp')} [data-cmd=lesson-next]")
    page.wait_for_function(SETTLED)
    page.click(f"{root('esp')} [data-cmd=face][data-face=down]")
    assert "Not that one yet" in page.inner_text(f"{root('esp')} [data-role=message]")
    assert "Step 2 of" in progress(page, "esp")
    assert (
        page.get_attribute(f"{root('esp')} [data-cmd=face][data-face=down]", "aria-pressed")
        == "false"
    )
    page.click(f"{root('esp')} [data-cmd=lesson-restart]")
    assert "Step 1 of" in progress(page, "esp")


@pytest.mark.parametrize("game", LESSON_GAMES)
def test_each_tutorial_by_keyboard_alone_from_its_rules_page(page, site, watch, game):
    """The focus goes to the thing to press after every step, and Enter presses it."""
    page.goto(site.url + f"#rules-{game}")
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    page.focus(f"#rules-{game} a[href='#learn-{game}']")
    page.keyboard.press("Enter")
    page.locator(f"{root(game)} .lesson").wait_for(timeout=60_000)
    page.wait_for_function(SETTLED)
    follow_highlights(page, game, keyboard=True)
    if game == "esp":
        result = page.inner_text(f"{root(game)} [data-role=result]")
        assert "Ada 3, Bo (bot) 2" in result
        assert page.locator(f"{root(game)} [data-audit=verified]").count() == 1


SIZES = {360: 740, 1280: 800}
# The steps photographed (by the number of presses before them): each at both widths, in both
# themes, by changing the viewport and the colour scheme of the one page.
SHOT_AT = {game: driver(game).LESSON_PHOTOS for game in LESSON_GAMES}  # e2e/games/


# Where the highlighted thing stands once scrolled to: inside the viewport, and the element at its
# centre is itself or inside it (not covered by a bar, a dialog or the lesson's own card).
REACHABLE = """el => {
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const hit = document.elementFromPoint(x, y);
  return {
    inside: r.left >= 0 && r.right <= window.innerWidth + 1 && r.top >= 0
      && r.bottom <= window.innerHeight + 1 && r.width > 0 && r.height > 0,
    uncovered: !!hit && (hit === el || el.contains(hit)),
  };
}"""
SIDEWAYS = "document.documentElement.scrollWidth - window.innerWidth"


@pytest.mark.parametrize("game", LESSON_GAMES)
def test_each_tutorial_fits_a_phone_and_a_laptop_in_both_themes(
    page, site, watch, screenshots, game
):
    """At the steps photographed, at 360 and 1280 px, light and dark: nothing scrolls sideways,
    the lesson's words are on screen, and the thing to press can be seen and pressed."""
    open_from_card(page, site, game)

    def check(name: str) -> None:
        for width, height in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                where = f"{game} at {name}, {width} px, {scheme}"
                marked = page.locator(f"{root(game)} .learn-next").first
                marked.scroll_into_view_if_needed()
                page.screenshot(path=screenshots / f"tutorial-{game}-{width}-{scheme}-{name}.png")
                assert page.evaluate(SIDEWAYS) <= 0, f"{where}: the page scrolls sideways"
                assert page.locator(f"{root(game)} .lesson-progress").is_visible(), where
                spot = marked.evaluate(REACHABLE)
                assert spot["inside"], f"{where}: the highlighted thing is off screen"
                assert spot["uncovered"], f"{where}: the highlighted thing is covered"
        page.set_viewport_size({"width": 1280, "height": 800})
        page.emulate_media(color_scheme="light")

    def shots(presses: int) -> None:
        if presses in SHOT_AT[game]:
            check(f"step{presses}")

    follow_highlights(page, game, shots=shots)
