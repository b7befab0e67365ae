"""The engine's modules compiled at build time (scripts/pyc.py): both zips the worker imports
from hold .pyc files its own Python made, and no source to compile on a first visit."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from scripts import build, pyc, site, stdlib

pytestmark = pytest.mark.build_output  # one such test at a time, on either core (conftest.py)

UNCHECKED_HASH = (0b01).to_bytes(4, "little")  # PEP 552: no source needed beside it


def _modules(zip_path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(zip_path) as z:
        return {n: z.read(n) for n in z.namelist() if n.endswith((".py", ".pyc"))}


def _one_python(modules: dict[str, bytes]) -> set[bytes]:
    """The magic numbers of the compiled modules (one Python's: one number)."""
    return {data[:4] for data in modules.values()}


def test_the_package_ships_compiled_every_module_and_no_source():
    zipped = _modules(build.build_app_zip())
    sources = {
        p.relative_to(site.ROOT / "py").as_posix() for p in site.app_sources() if p.suffix == ".py"
    }
    assert set(zipped) == {name + "c" for name in sources}
    assert {data[4:8] for data in zipped.values()} == {UNCHECKED_HASH}
    assert len(_one_python(zipped)) == 1
    with zipfile.ZipFile(build.APP_ZIP) as z:  # the host compresses the whole zip
        assert {i.compress_type for i in z.infolist()} == {zipfile.ZIP_STORED}


def test_the_trimmed_standard_library_ships_compiled_by_the_same_python():
    app = _modules(build.APP_ZIP)
    std = _modules(stdlib.write_trimmed())
    assert std and all(name.endswith(".pyc") for name in std)
    assert {data[4:8] for data in std.values()} == {UNCHECKED_HASH}
    assert _one_python(std) == _one_python(app)  # the engine's Python, not this one's
    import importlib.util

    assert _one_python(std) != {importlib.util.MAGIC_NUMBER}  # the build's 3.11 made none


def test_a_module_is_compiled_once_and_kept_by_its_content(tmp_path, monkeypatch):
    """A second build compiles nothing unchanged (Node is not started), and a changed source
    is compiled again."""
    monkeypatch.setattr(pyc, "CACHE", tmp_path)
    runs: list[dict[str, list[str]]] = []

    def fake_pyodide(folder: Path, files: dict[str, list[str]]) -> dict[str, bytes]:
        runs.append(files)
        return {name: f"pyc of {source}".encode() for name, (_, source) in files.items()}

    monkeypatch.setattr(pyc, "_run_pyodide", fake_pyodide)
    first = pyc.compiled({"a.py": "x = 1", "b.py": "y = 2"}, "here.zip/")
    again = pyc.compiled({"a.py": "x = 1", "b.py": "y = 3"}, "here.zip/")
    assert first == {"a.py": b"pyc of x = 1", "b.py": b"pyc of y = 2"}
    assert again == {"a.py": b"pyc of x = 1", "b.py": b"pyc of y = 3"}
    assert runs == [
        {"a.py": ["here.zip/a.py", "x = 1"], "b.py": ["here.zip/b.py", "y = 2"]},
        {"b.py": ["here.zip/b.py", "y = 3"]},
    ]
