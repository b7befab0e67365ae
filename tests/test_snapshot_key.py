"""The engine snapshot's build side (issue 29): the key that makes a kept snapshot stale, the
list of warm imports, and that importing them draws no randomness a snapshot would freeze."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from scripts import build

ROOT = build.ROOT


def fake_site(root: Path) -> Path:
    """The inputs of the key, in a folder of their own: package.json's pins, the trimmed standard
    library zip, the app zip, the package's sources and the loader."""
    shutil.copyfile(ROOT / "package.json", root / "package.json")
    stdlib = build.stdlib_zip(root)
    stdlib.parent.mkdir(parents=True, exist_ok=True)
    stdlib.write_bytes(b"stdlib zip")
    (root / "assets" / "build").mkdir(parents=True, exist_ok=True)
    (root / "assets" / "build" / "parlour.zip").write_bytes(b"app zip")
    (root / "assets" / "engine-loader.mjs").write_text("// loader\n")
    for name in ("parlour/__init__.py", "parlour/games/__init__.py", "parlour/games/esp.py"):
        (root / "py" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "py" / name).write_text("")
    (root / "py" / "ui").mkdir()
    (root / "py" / "ui" / "__init__.py").write_text("")
    (root / "py" / "ui" / "webcrypto.py").write_text("import js\n")
    return root


def test_the_warm_imports_are_the_package_without_the_glue(tmp_path):
    site = fake_site(tmp_path)
    assert build.warm_imports(site) == ["parlour", "parlour.games", "parlour.games.esp"]


def test_the_key_changes_with_each_thing_a_snapshot_depends_on(tmp_path):
    site = fake_site(tmp_path)
    key = build.snapshot_key(site)
    assert key == build.snapshot_key(site)  # the same inputs, the same key
    assert len(key) == 16
    changes = {
        "stdlib": lambda: build.stdlib_zip(site).write_bytes(b"another stdlib zip"),
        "app zip": lambda: (site / "assets/build/parlour.zip").write_bytes(b"another app zip"),
        "imports": lambda: (site / "py/parlour/games/telepathic.py").write_text(""),
        "loader": lambda: (site / "assets/engine-loader.mjs").write_text("// changed\n"),
    }
    seen = {key}
    for what, change in changes.items():
        change()
        key = build.snapshot_key(site)
        assert key not in seen, what
        seen.add(key)
    pins = json.loads((site / "package.json").read_text())
    pins["dependencies"]["pyodide"] = "314.0.8"
    (site / "package.json").write_text(json.dumps(pins))
    build.stdlib_zip(site).parent.mkdir(parents=True, exist_ok=True)
    build.stdlib_zip(site).write_bytes(b"another stdlib zip")  # the same bytes, a new version
    assert build.snapshot_key(site) not in seen


def test_the_build_writes_the_key_and_the_imports_of_this_site():
    runtime = json.loads(build.RUNTIME_SIZES.read_text())
    assert runtime["snapshot"] == {
        "key": build.snapshot_key(),
        "imports": build.warm_imports(),
    }
    shipped = zipfile.ZipFile(build.APP_ZIP).namelist()
    modules = {  # each shipped compiled (scripts/pyc.py)
        name.removesuffix(".pyc").removesuffix("/__init__").replace("/", ".")
        for name in shipped
        if name.endswith(".pyc") and name.startswith("parlour/")
    }
    assert set(runtime["snapshot"]["imports"]) == modules
    assert not [name for name in runtime["snapshot"]["imports"] if "webcrypto" in name]


# Every way the package could draw randomness at import: a snapshot would freeze the draw, and
# every page load restored from it would share it (secrets come from `secrets`, at use).
NO_DRAWS = """
import os, random, secrets, sys, uuid
def refuse(*args, **kwargs):
    raise AssertionError("drawn at import")
for module, names in ((secrets, ("token_bytes", "token_hex", "token_urlsafe", "randbelow",
                                 "choice", "randbits")),
                      (random, ("random", "randrange", "randint", "choice", "shuffle",
                                "sample", "getrandbits", "seed", "randbytes")),
                      (os, ("urandom",)), (uuid, ("uuid4",))):
    for name in names:
        setattr(module, name, refuse)
random.Random.__init__ = refuse
random.SystemRandom.__init__ = refuse
sys.path.insert(0, sys.argv[1])
import importlib
for name in sys.argv[2:]:
    importlib.import_module(name)
"""


def test_importing_the_warm_modules_draws_no_randomness():
    """From the sources (the zip holds the engine's compiled modules, scripts/pyc.py, which
    this Python cannot load; the zip's sources are these less comments and docstrings)."""
    imports = build.warm_imports()
    done = subprocess.run(
        [sys.executable, "-c", NO_DRAWS, str(build.ROOT / "py"), *imports],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
