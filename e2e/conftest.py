"""Browser-test fixtures: one server per session, Debian's Chromium, and a watched page.

Every test that uses `app` fails at the end if the page asked any other origin for anything, or
logged a console error or warning that the test did not declare as expected.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from e2e.harness import READY, READY_TIMEOUT_MS, PageWatch, SiteServer, chromium_launch_args

SCREENSHOTS = Path(__file__).parent / "screenshots"


class DeployedSite:
    """A site served by something else at $PARLOUR_SITE (e.g. Netlify's own dev server, which
    reads netlify.toml: README, "Deploying"), for running the suite against it."""

    def __init__(self, url: str) -> None:
        self.url = url.rstrip("/") + "/"


@pytest.fixture(scope="session")
def site():
    if os.environ.get("PARLOUR_SITE"):
        yield DeployedSite(os.environ["PARLOUR_SITE"])
        return
    with SiteServer() as server:
        yield server


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, **chromium_launch_args()}


@pytest.fixture
def watch(page, site):
    """The watcher of the default page; checked when the test ends."""
    w = PageWatch(site.url)
    w.attach(page)
    yield w
    assert w.foreign_requests() == [], "the page asked another origin"
    assert w.unexpected_problems() == [], "the page logged errors or warnings"


@pytest.fixture
def app(page, site, watch):
    """The page, loaded and with Python ready."""
    page.goto(site.url)
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    return page


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(exist_ok=True)
    return SCREENSHOTS
