"""The keyboard-only e2e tests' one way to find and press controls: Tab (or Shift+Tab) until
the focus is on a control, as a person would, and the arrow keys along a row of choices that
is one Tab stop (`data-roving`). No click and no focus() from the test."""

from __future__ import annotations

MAX_TABS = 160
# The focused control, in short ("button|undo|||"): the stops a Tab walk passed, for messages
# and for checking the order of a turn.
ACTIVE = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return "body";
  const d = el.dataset || {};
  return [el.tagName.toLowerCase(), d.cmd || "", d.symbol || d.face || d.accept || "",
          d.cell || "", el.getAttribute("href") || ""].join("|");
}"""


def active(page) -> str:
    return page.evaluate(ACTIVE)


def focused_matches(page, selector: str) -> bool:
    return page.evaluate("s => !!document.activeElement?.matches(s)", selector)


def tab_to(page, selector: str, back: bool = False, limit: int = MAX_TABS) -> list[str]:
    """Press Tab (Shift+Tab when `back`) until the focus is on `selector`; the stops passed."""
    seen: list[str] = []
    for _ in range(limit):
        if focused_matches(page, selector):
            return seen
        page.keyboard.press("Shift+Tab" if back else "Tab")
        seen.append(active(page))
    raise AssertionError(f"Tab never reached {selector}: {seen[-12:]}")


def press(page, selector: str) -> None:
    tab_to(page, selector)
    page.keyboard.press("Enter")


def choose(page, group: str, wanted: str) -> None:
    """In a row of choices that is one Tab stop (`data-roving`), move with the arrow keys to
    `wanted` and press Enter."""
    tab_to(page, f"{group} button")
    here, there = page.evaluate(
        """([group, wanted]) => {
            const items = [...document.querySelectorAll(group + ' button')];
            return [items.indexOf(document.activeElement),
                    items.indexOf(document.querySelector(wanted))];
        }""",
        [group, wanted],
    )
    assert there >= 0, f"no {wanted} in {group}"
    for _ in range(abs(there - here)):
        page.keyboard.press("ArrowRight" if there > here else "ArrowLeft")
    assert focused_matches(page, wanted), f"the arrows did not reach {wanted}"
    page.keyboard.press("Enter")
