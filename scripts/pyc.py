"""The engine's modules compiled at build time: .pyc files in both zips instead of sources.

Why: a first visit's Pyodide compiled every module it imported from source, the standard
library's at its own start and the package's after it, on every cold start: measured under Node
on this machine, Pyodide's start with the trimmed library fell from 5.7-8.9 s to 0.5-1.2 s with
compiled modules, and the package's imports from 2.0-2.8 s to 0.6-0.8 s (docs/performance.md,
"First visit: compiled modules"). The engine's own Python makes them: the pinned Pyodide, run by
Node (scripts/pyc.mjs), so the bytecode is the browser's. Each .pyc is PEP 552's unchecked
hash-based kind, which zipimport loads with no source beside it; its code's file name is where
the source would have been (`prefix` + name), so a traceback names the right file and line.

The package's modules are compiled without their functions' annotations (scripts/unannotated.py:
nothing reads them at run time); the standard library's as Python ships them.

Compiling takes seconds (Node starts Pyodide), so results are kept by content: the cache holds a
.pyc per (Pyodide version, file name, source, recipe, and the Node script that compiles), and a
build compiles only what changed.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import shutil
import subprocess
from pathlib import Path

from scripts import site

ROOT = site.ROOT
NODE_SCRIPT = Path(__file__).with_name("pyc.mjs")
CACHE = ROOT / ".cache" / "pyc"


def pyodide_folder(root: Path = ROOT) -> Path:
    """The pinned Pyodide's npm package: the Python the browser's engine runs."""
    return root / "node_modules" / "pyodide"


AS_WRITTEN = "as written"
UNANNOTATED = "unannotated"  # the functions' annotations left out (scripts/unannotated.py)
RECIPES = {UNANNOTATED: Path(__file__).with_name("unannotated.py")}  # each but AS_WRITTEN


def _key(version: str, filename: str, source: str, recipe: str) -> str:
    text = f"{version}\0{filename}\0{source}\0{_compiler(recipe)}"
    return hashlib.sha256(text.encode()).hexdigest()


@functools.cache
def _compiler(recipe: str) -> str:
    """What compiles with `recipe`, as text, read once a build: the Node script, and the
    recipe's own file (part of each .pyc's key)."""
    if recipe == AS_WRITTEN:
        return NODE_SCRIPT.read_text()
    return f"{NODE_SCRIPT.read_text()}\0{recipe}\0{RECIPES[recipe].read_text()}"


def compiled(
    sources: dict[str, str], prefix: str, root: Path = ROOT, recipe: str = AS_WRITTEN
) -> dict[str, bytes]:
    """Zip entry name -> its .pyc, for each (entry name -> source) in `sources`; the code's file
    name is `prefix` + the entry's name; `recipe` says whether the code keeps everything its
    source says (AS_WRITTEN) or leaves the functions' annotations out (UNANNOTATED)."""
    folder = pyodide_folder(root)
    version = json.loads((folder / "package.json").read_text())["version"]
    keys = {name: _key(version, prefix + name, text, recipe) for name, text in sources.items()}
    CACHE.mkdir(parents=True, exist_ok=True)
    todo = {
        n: [prefix + n, s, recipe] for n, s in sources.items() if not (CACHE / keys[n]).is_file()
    }
    if todo:
        for name, data in _run_pyodide(folder, todo).items():
            (CACHE / keys[name]).write_bytes(data)
    return {name: (CACHE / keys[name]).read_bytes() for name in sources}


def _run_pyodide(folder: Path, files: dict[str, list[str]]) -> dict[str, bytes]:
    node = shutil.which("node")
    if node is None:
        raise SystemExit("the build compiles the engine's modules with Node: install Node 20+")
    request = json.dumps({"pyodide": str(folder), "files": files})
    run = subprocess.run(
        [node, str(NODE_SCRIPT)], input=request, capture_output=True, text=True, check=False
    )
    if run.returncode != 0:
        raise SystemExit(f"compiling the engine's modules failed:\n{run.stderr[-2000:]}")
    return {name: base64.b64decode(text) for name, text in json.loads(run.stdout).items()}
