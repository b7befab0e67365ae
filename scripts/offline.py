"""The service worker that keeps the site playable offline, written from scripts/sw.js.

The build fills the template with the list of every published file and a version made from a
hash of their contents, so any change to the site is a new service worker, installed in the
background and used by each page only after it reloads (never a mix of two versions). The worker
names its caches by this version and by its registration's scope, which only the browser knows.
`make serve` rewrites it when a file changed since, so development sees the same update flow as a
deploy.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from scripts import site

ROOT = site.ROOT
TEMPLATE = Path(__file__).with_name("sw.js")
WORKER = "sw.js"


def precached(root: Path = ROOT) -> list[str]:
    """What the service worker keeps: every published file but itself."""
    return [f for f in site.published_files(root) if f != WORKER]


def version(root: Path = ROOT) -> str:
    """The first 16 hex digits of a SHA-256 over every kept file's path and bytes: equal sites
    share a version, any change makes a new one."""
    digest = hashlib.sha256()
    for name in precached(root):
        digest.update(name.encode() + b"\0")
        digest.update(hashlib.sha256((root / name).read_bytes()).digest())
    return digest.hexdigest()[:16]


def service_worker(root: Path = ROOT) -> str:
    """The template filled in, without its comment lines: every visitor downloads /sw.js, and
    the template is where it is read."""
    files = ["./" + name for name in precached(root)]
    lines = TEMPLATE.read_text().splitlines()
    code = "\n".join(line for line in lines if not line.lstrip().startswith("//")).strip()
    text = code.replace("__VERSION__", version(root)) + "\n"
    return text.replace("__FILES__", json.dumps(files, indent=2))


def is_stale(root: Path = ROOT) -> bool:
    """True when a published file changed after /sw.js was written (or it is missing)."""
    worker = root / WORKER
    if not worker.exists():
        return True
    written = worker.stat().st_mtime
    sources = [TEMPLATE, *(root / name for name in precached(root))]
    return any(p.stat().st_mtime > written for p in sources)


def write_service_worker(root: Path = ROOT) -> Path:
    """Write /sw.js (only when its text changes, so an unchanged site is no update)."""
    worker = root / WORKER
    text = service_worker(root)
    if not worker.exists() or worker.read_text() != text:
        worker.write_text(text)
    else:
        worker.touch()
    return worker
