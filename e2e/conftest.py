"""Browser-test fixtures: one server per session, Debian's Chromium, and a watched page.

Every test that uses `app` fails at the end if the page asked any other origin for anything, or
logged a console error or warning that the test did not declare as expected.
"""

from __future__ import annotations

import os
import time
import warnings
from pathlib import Path

import pytest

from e2e import engine_seed
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
    with SiteServer(also_serve=(engine_seed.FOLDER + "/",)) as server:
        yield server


# Every page plays with "Quick bots" on (ui/pace.py), as a player who chose it: a bot's move
# comes 80 ms after the last instead of 600 ms (the person's time to follow, not the test's).
# Set once per tab, where nothing is set yet, so a test that turns it off keeps it off across
# its reloads; storage the browser refuses leaves the page's own default.
QUICK_BOTS = """
try {
  if (!sessionStorage.getItem("e2e:quick-bots")) {
    sessionStorage.setItem("e2e:quick-bots", "1");
    if (localStorage.getItem("psi-parlour:quick-bots") === null)
      localStorage.setItem("psi-parlour:quick-bots", "1");
  }
} catch (e) {}
"""


class SeedingBrowser:
    """The session's browser, whose new contexts hold this build's engine snapshot, as a
    returning player's device does (e2e/engine_seed.py); during a test marked `first_visit`,
    or when no snapshot could be made, they hold nothing, as a new device's."""

    def __init__(self, browser, seed: engine_seed.EngineSeed | None) -> None:
        self.browser = browser
        self.seed = seed
        self.first_visit = False

    def new_context(self, **kwargs):
        context = self.browser.new_context(**kwargs)
        if self.seed is not None and not self.first_visit:
            self.seed.seed(context)
        context.add_init_script(QUICK_BOTS)
        return context

    def __getattr__(self, name: str):
        return getattr(self.browser, name)


def _cpu_times() -> tuple[int, int] | None:
    """(busy, total) jiffies of every core since boot, or None where /proc/stat is not there."""
    try:
        with open("/proc/stat") as stat:
            fields = [int(n) for n in stat.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle and iowait
    return sum(fields) - idle, sum(fields)


def wait_for_a_quiet_machine(busy_share: float = 0.2, window_s: float = 0.25, cap_s: float = 15.0):
    """Wait until the machine's cores are at most `busy_share` busy over `window_s`, for at most
    `cap_s` (then go on: the test itself says whether the page was quick enough).

    The previous test's browser processes (a closed context's renderer and engine worker, a
    snapshot being made) take a moment to end; a test that bounds a time the page takes must not
    count their work against the page (Makefile: "each page with the machine to itself as a
    visitor's would be"). Returns the seconds waited, or None where the machine cannot tell."""
    start = time.monotonic()
    before = _cpu_times()
    if before is None:
        return None
    while time.monotonic() - start < cap_s:
        time.sleep(window_s)
        after = _cpu_times()
        assert after is not None
        busy, total = after[0] - before[0], after[1] - before[1]
        if total > 0 and busy / total <= busy_share:
            break
        before = after
    return time.monotonic() - start


@pytest.fixture(autouse=True)
def _quiet_machine_for_timing(request):
    """A test marked `timing` starts once the machine is quiet (wait_for_a_quiet_machine)."""
    if request.node.get_closest_marker("timing") is not None:
        if "browser" in request.fixturenames:
            request.getfixturevalue("browser")  # the session's engine seed is made first
        wait_for_a_quiet_machine()
    yield


@pytest.fixture(scope="session")
def browser(browser, site):
    """pytest-playwright's browser, seeding its contexts (a deployed site is not seeded: the
    seed's folder is served by the suite's own server)."""
    seed = None
    if isinstance(site, SiteServer):
        try:
            seed = engine_seed.EngineSeed.made_in(browser, site.url)
        except Exception as error:  # every page then starts cold: slower, and as correct
            warnings.warn(f"no engine snapshot to seed the tests with: {error}", stacklevel=1)
    yield SeedingBrowser(browser, seed)
    engine_seed.EngineSeed.clear()


@pytest.fixture(autouse=True)
def _first_visit(request):
    """A test marked `first_visit` sees the site as a device that never visited it."""
    if "browser" not in request.fixturenames:
        yield
        return
    seeding = request.getfixturevalue("browser")
    seeding.first_visit = request.node.get_closest_marker("first_visit") is not None
    yield
    seeding.first_visit = False


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
