"""The npm packages used by the tests only (axe-core, for e2e/test_accessibility.py) are pinned to
one exact version and never reach a reader: nothing published comes from them, and the page
names none of them."""

from __future__ import annotations

import json

import pytest

from scripts import build, site

pytestmark = pytest.mark.build_output  # one such test at a time, on either core (conftest.py)

ROOT = build.ROOT
MANIFEST = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))
LOCK = json.loads((ROOT / "package-lock.json").read_text(encoding="utf-8"))
DEV = MANIFEST.get("devDependencies", {})


def test_axe_core_is_a_dev_dependency_pinned_exactly_and_locked():
    version = DEV["axe-core"]
    assert version[0].isdigit() and all(c.isdigit() or c == "." for c in version), version
    assert LOCK["packages"]["node_modules/axe-core"]["version"] == version
    assert LOCK["packages"]["node_modules/axe-core"].get("dev") is True


def test_no_dev_dependency_is_published_or_named_by_the_page():
    published = site.published_files()
    assert not [p for p in published if "node_modules" in p]
    for name in DEV:
        assert not [p for p in published if name in p], f"{name} is published"
        for page in ("index.html", "sw.js", "py/main.py"):
            path = ROOT / page
            if path.is_file():
                assert name not in path.read_text(encoding="utf-8"), f"{page} names {name}"
