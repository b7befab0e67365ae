"""The deploy, checked against the files it publishes: every header rule in netlify.toml applies to
a file that exists, and every file gets the headers it needs (the wasm's type, immutable caching
only for versioned folders, no caching for the service worker and the page, the policy with
frame-ancestors for blogs). `make serve` reads the same rules (scripts/serve.py)."""

from __future__ import annotations

import fnmatch
import tomllib

import pytest

from scripts import build, offline, site
from scripts.serve import MIME_TYPES, header_rules, headers_for

pytestmark = pytest.mark.build_output  # one such test at a time, on either core (conftest.py)

ROOT = build.ROOT
PUBLISHED = ["/" + name for name in site.published_files()]
IMMUTABLE = "public, max-age=31536000, immutable"


def test_the_site_has_what_the_page_needs():
    needed = {"/index.html", "/sw.js", "/assets/manifest.webmanifest", "/assets/build/parlour.zip"}
    assert needed <= set(PUBLISHED)
    assert any(p.endswith("/pyodide.asm.wasm") for p in PUBLISHED)


def test_every_header_rule_applies_to_a_published_file():
    for pattern, _ in header_rules():
        assert pattern == "/" or any(fnmatch.fnmatchcase(p, pattern) for p in PUBLISHED), pattern


@pytest.mark.parametrize("path", PUBLISHED)
def test_every_published_file_gets_the_headers_it_needs(path):
    headers = headers_for(path)
    policy = headers["Content-Security-Policy"]
    assert "frame-ancestors *" in policy and "default-src 'self'" in policy
    assert headers["X-Content-Type-Options"] == "nosniff"
    versioned = path.startswith("/assets/vendor/") and any(
        f"-{v}/" in path for v in build.pinned_versions().values()
    )
    if versioned:
        assert headers["Cache-Control"] == IMMUTABLE
    else:
        assert "immutable" not in headers["Cache-Control"], "it may change at the next deploy"
    if path in ("/sw.js", "/index.html", "/assets/build/parlour.zip"):
        assert headers["Cache-Control"] == "no-cache"
    if path.endswith(".wasm"):
        assert headers["Content-Type"] == "application/wasm"
    if path.endswith(".mjs"):  # a module's import fails without a JavaScript type
        assert headers["Content-Type"] == "text/javascript; charset=utf-8"
    if path.endswith(".webmanifest"):
        assert headers["Content-Type"] == "application/manifest+json"
    suffix = "." + path.rsplit(".", 1)[-1]
    assert suffix in MIME_TYPES, f"make serve has no type for {suffix}"


def test_the_page_itself_is_never_cached_stale():
    assert headers_for("/")["Cache-Control"] == "no-cache"


def test_netlify_publishes_exactly_what_make_serve_serves(tmp_path):
    config = tomllib.loads((ROOT / "netlify.toml").read_text())
    assert config["build"]["publish"] == "dist"
    assert "--dist dist" in config["build"]["command"]
    out = build.assemble_dist(tmp_path / "dist")
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert files == site.published_files()


def test_the_service_worker_keeps_every_published_file_and_names_its_cache_by_them(tmp_path):
    kept = offline.precached()
    assert set(kept) == set(site.published_files()) - {"sw.js"}
    text = (ROOT / "sw.js").read_text()
    assert offline.version() in text
    assert all(f'"./{name}"' in text for name in kept)
    dist = build.assemble_dist(tmp_path / "dist")
    before = offline.version(dist)
    (dist / "assets" / "parlour.css").write_text("/* changed */")
    assert offline.version(dist) != before  # any change is a new version
    assert offline.is_stale(dist)
    offline.write_service_worker(dist)
    assert not offline.is_stale(dist)
    assert offline.version(dist) in (dist / "sw.js").read_text()


def test_the_embed_page_states_the_download_as_it_is():
    """The Embed page tells bloggers what each reader downloads: the figures must stay true."""
    import gzip
    import re

    html = (ROOT / "index.html").read_text()
    runtime_mb, app_mb = (
        float(x)
        for x in re.search(r"about ([\d.]+) MB compressed.*?about ([\d.]+) MB of", html).groups()
    )
    sizes = {n: len(gzip.compress((ROOT / n).read_bytes(), 9)) for n in site.published_files()}
    runtime = sum(v for n, v in sizes.items() if build.is_runtime(n)) / 1e6
    app = sum(v for n, v in sizes.items() if not build.is_runtime(n)) / 1e6
    assert abs(runtime - runtime_mb) <= 0.1 * runtime, (runtime, runtime_mb)
    assert app <= app_mb, (app, app_mb)
