"""The project's own static server, for `make serve`, the e2e tests and the benchmark.

Why not `python -m http.server`: it takes MIME types from the host's tables, and a .wasm served
with the wrong type makes Pyodide hang with no error. Here every type the page uses is set
explicitly. It serves only what a deploy publishes. The zipped Python package and the service
worker are rebuilt on request when a source changed, so editing and reloading is enough during
development (the page then offers the new version, as it would after a deploy).
"""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import functools
import os
import sys
import threading
import tomllib
import urllib.parse
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from scripts import build, offline, site, stdlib

ROOT = build.ROOT

MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".wasm": "application/wasm",
    ".svg": "image/svg+xml",
    ".toml": "application/toml",
    ".py": "text/x-python; charset=utf-8",
    ".zip": "application/zip",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".txt": "text/plain; charset=utf-8",
    ".webmanifest": "application/manifest+json",
}

_build_lock = threading.Lock()
STDLIB_PATHS = ("/assets/build/runtime.json", "/assets/build/python_stdlib.zip")
NETLIFY = ROOT / "netlify.toml"


@functools.cache
def header_rules() -> list[tuple[str, dict[str, str]]]:
    """netlify.toml's [[headers]] rules, in order: the one place the site's headers are written,
    so the deploy and `make serve` (and the browser tests) send the same."""
    config = tomllib.loads(NETLIFY.read_text())
    return [(rule["for"], dict(rule["values"])) for rule in config.get("headers", [])]


def headers_for(path: str) -> dict[str, str]:
    """The headers Netlify sends for `path`: every matching rule, a later one overriding an
    earlier one's header of the same name; pages without a cache rule are revalidated."""
    headers = {"Cache-Control": "no-cache"}
    for pattern, values in header_rules():
        if fnmatch.fnmatchcase(path, pattern):
            headers.update(values)
    return headers


class ParlourHandler(SimpleHTTPRequestHandler):
    """Static files with explicit MIME types and the same cache headers as netlify.toml."""

    def guess_type(self, path: str | os.PathLike[str]) -> str:
        return MIME_TYPES.get(Path(path).suffix.lower(), "application/octet-stream")

    def send_head(self):
        root = Path(self.directory)
        path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path)
        if not self.is_published(root, path):
            self.send_error(HTTPStatus.NOT_FOUND, "Not part of the site")
            return None
        # Another checkout (the bench's earlier code, with sources of its own) was built by its
        # own scripts.build: this checkout's rules (its list of sources) are not its own. This
        # checkout and a deploy of it (dist/, no sources) are kept up to date by them.
        ours = root == ROOT or not (root / "py" / "parlour").is_dir()
        if path in ("/assets/build/parlour.zip", "/" + offline.WORKER) and ours:
            with _build_lock:
                if build.app_zip_is_stale(root):
                    build.build_app_zip(root)
                if path == "/" + offline.WORKER and offline.is_stale(root):
                    offline.write_service_worker(root)
        # the standard library the package imports, and runtime.json (read first) naming it
        if path in STDLIB_PATHS and root == ROOT:
            with _build_lock:
                if stdlib.is_stale(root):
                    build.write_stdlib(root)
        return super().send_head()

    def is_published(self, root: Path, path: str) -> bool:
        """Only what a deploy publishes (site.published_files), as Netlify would answer: a
        file the page needs but the deploy leaves out fails here first. The benchmark adds its
        own pages (`also_serve`)."""
        name = path.lstrip("/")
        if name in ("", "index.html", offline.WORKER):
            return True
        if name.startswith(getattr(self.server, "also_serve", ())):
            return True
        return name in site.published_files(root)

    def end_headers(self) -> None:
        path = self.path.split("?")[0].split("#")[0]
        for name, value in headers_for(path).items():
            if name.lower() != "content-type":  # the type comes from MIME_TYPES, as sent already
                self.send_header(name, value)
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - base signature
        if not getattr(self.server, "quiet", False):
            super().log_message(format, *args)


class ParlourServer(ThreadingHTTPServer):
    """A threading server that treats a client hanging up mid-file as normal, not an error."""

    daemon_threads = True
    quiet = False
    also_serve: tuple[str, ...] = ()  # path prefixes served beside the site (the bench's pages)

    def handle_error(self, request: object, client_address: object) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


def make_server(
    port: int = 0,
    host: str = "127.0.0.1",
    quiet: bool = False,
    root: Path = ROOT,
    also_serve: tuple[str, ...] = (),
) -> ParlourServer:
    """A server bound to host:port (0 picks a free port), serving the site of the project root
    (or of another checkout, for the bench's comparison with earlier code)."""
    handler = functools.partial(ParlourHandler, directory=str(root))
    server = ParlourServer((host, port), handler)
    server.quiet = quiet
    server.also_serve = also_serve
    return server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument("--host", default="127.0.0.1")
    args = parser.parse_args()
    server = make_server(args.port, args.host)
    print(f"Psi Parlour on http://{args.host}:{server.server_address[1]}/  (Ctrl-C stops)")
    with contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()


if __name__ == "__main__":
    main()
