"""The trimmed standard library the worker starts with (scripts/stdlib.py): it holds every module
the browser's Python code can import, is written byte for byte the same from the same sources,
and is the one the page's runtime names (engine-loader, runtime.json, service worker)."""

from __future__ import annotations

import ast
import hashlib
import json
import re
import zipfile
from pathlib import Path

import pytest

from scripts import build, offline, site, stdlib

pytestmark = pytest.mark.build_output  # one such test at a time, on either core (conftest.py)

ROOT = build.ROOT
RUNTIME = ROOT / "assets" / "build" / "runtime.json"


@pytest.fixture(scope="module")
def trimmed() -> Path:
    return stdlib.write_trimmed()


def _every_import(path: Path) -> set[str]:
    """Every absolute import in a file, at any depth (an import inside a function counts)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def missing_modules(zip_names: list[str], full_names: list[str], imported: set[str]) -> set[str]:
    """The standard-library modules in `imported` (and the packages above them) that Pyodide's
    full zip has and the trimmed one lacks."""
    full, kept = stdlib.module_files(full_names), stdlib.module_files(zip_names)
    wanted = {part for name in imported for part in stdlib.with_parents(name)}
    return {name for name in wanted if name in full and name not in kept}


def _browser_imports() -> set[str]:
    sources = [p for p in site.app_sources() if p.suffix == ".py"]
    return set().union(*(_every_import(p) for p in [*sources, ROOT / "py" / "worker.py"]))


def test_every_module_the_browser_code_imports_is_in_the_trimmed_zip(trimmed):
    with zipfile.ZipFile(trimmed) as small, zipfile.ZipFile(stdlib.full_stdlib()) as full:
        gone = missing_modules(small.namelist(), full.namelist(), _browser_imports())
    assert gone == set(), f"imported by the package but not in {trimmed.name}: {sorted(gone)}"


def test_a_module_left_out_of_the_zip_is_found_missing(trimmed):
    """The check above can fail: the zip without `secrets` (imported inside a function of
    ui/app.py) or without `json.decoder` (a submodule json imports) is caught."""
    imported = _browser_imports()
    assert "secrets" in imported
    with zipfile.ZipFile(trimmed) as small, zipfile.ZipFile(stdlib.full_stdlib()) as full:
        names = small.namelist()
        for left_out in ("secrets.pyc", "json/__init__.pyc"):
            kept = [n for n in names if n != left_out]
            gone = missing_modules(kept, full.namelist(), imported)
            assert gone == {left_out.removesuffix(".pyc").replace("/__init__", "")}


def test_an_import_inside_a_function_counts_for_the_package():
    source = "import json\n\ndef later():\n    import secrets\n    from urllib.parse import quote\n"
    assert {"json", "secrets", "urllib.parse", "urllib.parse.quote"} <= stdlib.imported_names(
        source, "parlour.ui"
    )
    assert "secrets" not in stdlib.imported_names(source, "parlour.ui", at_import_only=True)


def test_a_standard_module_brings_what_it_imports_when_imported_not_its_script_or_windows_parts():
    source = (
        "import sys\nif sys.platform == 'win32':\n    import winreg\nelse:\n    import posix\n"
        "def f():\n    import doctest\nif __name__ == '__main__':\n    import unittest\n"
    )
    found = stdlib.imported_names(source, "", at_import_only=True)
    assert {"sys", "posix"} <= found
    assert not {"winreg", "doctest", "unittest"} & found


def test_a_module_this_python_cannot_parse_is_read_line_by_line():
    """Pyodide's standard library is newer than the build's Python (class C[T]: is 3.12)."""
    source = (
        "from . import (\n    events,\n    futures)\nimport os, re as regex\n"
        "class Box[T]:\n    def f(self):\n        import inspect\n"
    )
    found = stdlib.imported_names(source, "asyncio", at_import_only=True)
    assert {"asyncio.events", "asyncio.futures", "os", "re"} <= found
    assert "inspect" not in found


def test_the_trimmed_zip_is_stored_sorted_and_byte_for_byte_reproducible(trimmed):
    first = trimmed.read_bytes()
    again = stdlib.write_trimmed().read_bytes()
    assert first == again
    with zipfile.ZipFile(trimmed) as z:
        infos = z.infolist()
    assert [i.filename for i in infos] == sorted(i.filename for i in infos)
    assert {i.compress_type for i in infos} == {zipfile.ZIP_STORED}  # the host compresses it
    assert {i.date_time for i in infos} == {stdlib.FIXED_TIME}
    assert len(first) < 0.5 * 1e6 * 7  # far below the whole library's 7 MB of sources


def test_runtime_json_names_the_trimmed_zip_with_its_hash_and_counts_it(trimmed):
    runtime = json.loads(RUNTIME.read_text())
    data = trimmed.read_bytes()
    assert runtime["stdlib"] == {
        "url": "assets/build/python_stdlib.zip",
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
    }
    listed = dict(runtime["files"])
    assert listed["./assets/build/python_stdlib.zip"] == len(data)
    assert not any(url.startswith("./assets/vendor/") and "stdlib" in url for url in listed)
    assert runtime["bytes"] == sum(listed.values())
    # the weight figures count both as the runtime's, not the app's own bytes
    ours = {"assets/engine-loader.mjs", runtime["stdlib"]["url"]}
    assert set(build.RUNTIME_OF_OURS) == ours and all(build.is_runtime(n) for n in ours)


def test_the_engine_loader_gives_pyodide_the_trimmed_zip(trimmed):
    config = json.loads((ROOT / "pyscript.json").read_text())
    assert config["interpreter"] == "./assets/engine-loader.mjs"
    loader = (ROOT / "assets" / "engine-loader.mjs").read_text()
    pyodide = build.vendor_dirs()["pyodide"].relative_to(ROOT / "assets").as_posix()
    assert f'from "./{pyodide}/pyodide.mjs"' in loader
    assert re.search(r'STDLIB_URL = new URL\("\./build/python_stdlib\.zip"', loader)
    # the options every Pyodide of the site starts with (the engine, and the snapshot's maker)
    options = re.search(r"const runtimeOptions = \(\) => \(\{(.*?)\}\);", loader, re.S)
    assert "stdLibURL: STDLIB_URL" in options.group(1)


def test_a_first_visit_keeps_the_trimmed_zip_and_not_the_whole_library(trimmed):
    kept = offline.precached()
    assert "assets/build/python_stdlib.zip" in kept and "assets/engine-loader.mjs" in kept
    assert not any(name.endswith("python_stdlib.zip") and "vendor" in name for name in kept)
    assert not (build.vendor_dirs()["pyodide"] / "python_stdlib.zip").exists()


def test_every_pyscript_chunk_a_kept_chunk_imports_up_front_is_kept():
    """PyScript's chunks for features the page does not use are left out: a chunk that one we
    keep imports statically must be kept; one it imports on demand may be left out only when
    it is named unused (an editor, a terminal, a TOML config, a zip unpacked into a folder)."""
    folder = build.vendor_dirs()["pyscript"]
    kept = {p.name for p in folder.iterdir()}
    for name in kept:
        text = (folder / name).read_text()
        for static in re.findall(r'from\s*"\./([^"]+)"', text):
            assert static in kept, (name, static)
        for later in re.findall(r'import\("\./([^"]+)"\)', text):
            unused = any(
                re.fullmatch(u.replace("*", ".*"), build.pyscript_chunk(later))
                for u in build.PYSCRIPT_UNUSED
            )
            assert later in kept or unused, (name, later)
    assert {"core.js", "py-editor-C4XsZtn7.js"} <= kept and "zip-T1gzVEcZ.js" not in kept
