"""Shared pieces of the browser tests and the benchmark: the server, Chromium's flags, a watcher.

Chromium is Debian's (or whatever $CHROMIUM names); the flags keep it from reaching the internet
(this machine has none) and let it run as root. The watcher records every request and console
message of a page so a test can fail on a foreign origin or on any console error or warning.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from typing import ClassVar
from urllib.parse import urlsplit

from e2e import photos, settle
from scripts.serve import make_server

settle.install()  # every test action waits for the page's answer (e2e/settle.py)
photos.install()  # a screenshot the compositor leaves unanswered is taken again (e2e/photos.py)

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-features=WebRtcHideLocalIpsWithMdns",
]

DEBIAN_CHROMIUM = "/usr/bin/chromium"
CSP_WATCH = """
document.addEventListener("securitypolicyviolation", (e) => {
  console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || "inline"}`);
});
"""
# Every main-thread task over 50 ms, from navigation on, told to the watcher as a console line
# (a page's own record would be lost when a test closes it).
LONG_TASKS = """
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) console.debug(`parlour-longtask ${e.duration}`);
}).observe({type: "longtask", buffered: true});
"""
# The engines are loaded (the worker answers): what a test that plays means by "ready".
READY = "html[data-engine='ready']"
# The main thread answers clicks (MicroPython is up): well before the engines.
UI_READY = "html[data-ready='true']"
READY_TIMEOUT_MS = 60_000


def chromium_launch_args() -> dict:
    """Keyword arguments for `playwright.chromium.launch`."""
    args: dict = {"args": list(CHROMIUM_ARGS)}
    executable = os.environ.get("CHROMIUM") or (
        DEBIAN_CHROMIUM if os.path.exists(DEBIAN_CHROMIUM) else None
    )
    if executable:
        args["executable_path"] = executable
    return args


class SiteServer:
    """The project's own static server on a free loopback port, in a background thread."""

    def __init__(self, root=None, also_serve: tuple[str, ...] = ()) -> None:
        where = {} if root is None else {"root": root}
        self.httpd = make_server(0, quiet=True, also_serve=also_serve, **where)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}/"

    def __enter__(self) -> SiteServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@dataclass
class PageWatch:
    """Every request and console message one page made, for the end-of-test checks."""

    origin: str
    requests: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    allowed_problems: list[str] = field(default_factory=list)
    long_tasks: list[float] = field(default_factory=list)  # main-thread tasks over 50 ms
    everyone: ClassVar[list[PageWatch]] = []  # every watcher made, for the bench to read

    def __post_init__(self) -> None:
        PageWatch.everyone.append(self)

    def attach(self, page) -> None:
        # Every Content-Security-Policy violation becomes a console error, so it fails the test
        # (Chromium logs most of them itself; this catches the ones it reports only as events).
        page.add_init_script(CSP_WATCH)
        page.add_init_script(LONG_TASKS)
        page.on("request", lambda r: self.requests.append(r.url))
        page.on("console", self._on_console)
        page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))

    def _on_console(self, message) -> None:
        if message.text.startswith("parlour-longtask "):
            self.long_tasks.append(float(message.text.split()[1]))
        elif message.type in ("error", "warning"):
            self.problems.append(f"console {message.type}: {message.text}")

    def foreign_requests(self) -> list[str]:
        """Requests to any origin but the site's own (data: and blob: URLs are local)."""
        own = urlsplit(self.origin)
        return [
            url
            for url in self.requests
            if urlsplit(url).scheme not in ("data", "blob")
            and (urlsplit(url).scheme, urlsplit(url).netloc) != (own.scheme, own.netloc)
        ]

    def unexpected_problems(self) -> list[str]:
        return [p for p in self.problems if not any(a in p for a in self.allowed_problems)]


class HeldRequests:
    """Requests parked by a route handler until the test lets them go."""

    def __init__(self) -> None:
        self.routes: list = []
        self.released = False

    def park(self, route) -> None:
        if self.released:  # asked for after the test let go (the page fetches it late)
            route.continue_()
        else:
            self.routes.append(route)

    def release(self) -> None:
        """Let go of what is parked and of anything asked for from now on: the page downloads
        the runtime's files one at a time, so the wasm may not have been asked for yet (then
        it was parked after a release, and the engines never started)."""
        self.released = True
        for route in self.routes:
            route.continue_()
        self.routes.clear()


def hold_back_python(page) -> HeldRequests:
    """Keep Pyodide's wasm from arriving, to see the page as it is before Python is ready.

    The handler must return at once (Playwright's sync API runs it on the test's thread), so it
    parks the route and the test continues it later.
    """
    held = HeldRequests()
    page.route("**/pyodide.asm.wasm", held.park)
    return held
