"""Actions that wait for the page to answer them.

A click on the page goes to the engines in a worker and comes back a few milliseconds later, so
when Playwright's click returns, the page has not changed yet. Every action of a test (click,
fill, press, select, goto) therefore waits, after it is done, until the page has no request on
its way to the worker (<html data-pending> is gone) and stays so for a few short beats (an
answer may change the address, and the page then asks again). Before the engines are ready,
requests wait in the page by design: then an action does not wait.
"""

from __future__ import annotations

import contextlib
import functools

from playwright.sync_api._generated import Keyboard, Locator, Page

SETTLED = """
() => new Promise((resolve) => {
  let quiet = 0;
  const look = () => {
    const root = document.documentElement;
    const busy = root.hasAttribute("data-pending") && root.dataset.engine === "ready";
    quiet = busy ? 0 : quiet + 1;
    if (quiet >= 3) resolve(true); else setTimeout(look, 4);
  };
  setTimeout(look, 4);
})
"""
ACTIONS = ("click", "dblclick", "fill", "press", "select_option", "check", "uncheck", "tap", "type")


def settle(page: Page) -> None:
    """Wait until the page has answered everything asked of it so far."""
    with contextlib.suppress(Exception):  # the page navigated away or closed: all done
        page.evaluate(SETTLED)


def _after(method, page_of):
    @functools.wraps(method)
    def action(self, *args, **kwargs):
        result = method(self, *args, **kwargs)
        settle(page_of(self))
        return result

    action.settles = True
    return action


def install() -> None:
    """Make every action of Page, Locator and the keyboard wait for the page's answer."""
    for cls, page_of in ((Page, lambda p: p), (Locator, lambda loc: loc.page)):
        for name in (*ACTIONS, "goto"):
            method = getattr(cls, name, None)
            if method is not None and not getattr(method, "settles", False):
                setattr(cls, name, _after(method, page_of))
    original = Page.keyboard
    if getattr(original.fget, "settles", False):
        return

    class SettlingKeyboard:
        def __init__(self, page: Page) -> None:
            self._page, self._keyboard = page, original.fget(page)

        def __getattr__(self, name):
            found = getattr(self._keyboard, name)
            if name in ("press", "type", "insert_text", "down", "up"):
                return lambda *a, **k: (found(*a, **k), settle(self._page))[0]
            return found

    def keyboard(self: Page) -> SettlingKeyboard:
        return SettlingKeyboard(self)

    keyboard.settles = True  # type: ignore[attr-defined]
    Page.keyboard = property(keyboard)  # type: ignore[method-assign,assignment]
    assert Keyboard  # the class patched indirectly, through the page's property
