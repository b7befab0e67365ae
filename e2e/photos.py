"""Screenshots that do not hang a test on a compositor gone quiet.

Headless Chromium can leave `Page.captureScreenshot` unanswered: once in a full run (Chromium
156, e2e/test_phones.py after a resize from 360 to 1280 px) Playwright logged "fonts loaded" and
then waited out its 30 s, with the page answering everything else. The failure is the browser's
(reported for Chromium 147-149 too: the compositor has no new frame to copy) and not the page's,
and the same screenshot taken again at once came back in every run here. So every screenshot of
the suite gets a first try of FIRST_TRY_MS; when that runs out, a short screencast makes the
compositor draw a frame (the wake-up browser-use/browser-harness#812 describes, which changes no
viewport or emulation) and the screenshot is taken once more, with Playwright's own timeout.
A screenshot a test gives its own timeout is left as it is.
"""

from __future__ import annotations

import functools
import warnings

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api._generated import Locator, Page

FIRST_TRY_MS = 15_000
WAKE_MS = 250
wakes: list[str] = []  # one line per wake-up, also given as a warning in the run's summary


def wake(page: Page) -> None:
    """Make the page's compositor draw: a screencast for WAKE_MS, then stopped."""
    session = page.context.new_cdp_session(page)
    try:
        session.send("Page.startScreencast", {"format": "jpeg", "quality": 10, "everyNthFrame": 1})
        page.wait_for_timeout(WAKE_MS)
        session.send("Page.stopScreencast")
    finally:
        session.detach()


def _patient(shoot, page_of):
    @functools.wraps(shoot)
    def screenshot(self, *args, **kwargs):
        if "timeout" in kwargs:
            return shoot(self, *args, **kwargs)
        try:
            return shoot(self, *args, timeout=FIRST_TRY_MS, **kwargs)
        except PlaywrightTimeout as error:
            wakes.append(f"{kwargs.get('path', 'a screenshot')}: {str(error).splitlines()[0]}")
            warnings.warn(f"{wakes[-1]}; woken and taken again", stacklevel=2)
            wake(page_of(self))
            return shoot(self, *args, **kwargs)

    screenshot.patient = True
    return screenshot


def install() -> None:
    """Give every screenshot of a page or a locator its second try."""
    for cls, page_of in ((Page, lambda p: p), (Locator, lambda loc: loc.page)):
        if not getattr(cls.screenshot, "patient", False):
            cls.screenshot = _patient(cls.screenshot, page_of)  # type: ignore[method-assign]
