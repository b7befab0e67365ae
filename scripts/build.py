"""Build the page's runtime output: the vendored browser runtime and the zipped Python package.

Why a step of our own: the page must load nothing from another origin, so Pyodide and PyScript
are copied from the npm packages pinned in package-lock.json into versioned folders under
assets/vendor/ (only the files the page needs). The Python package under py/ is shipped to the
browser as one zip, one request instead of dozens, which Python imports from directly (zipimport).
Everything written here is build output: git-ignored and re-made by `make serve`, `make test`
and the Netlify build alike. The build also writes index.html's generated parts (the set-up
forms and the rules pages' option tables) from the games' declarations (scripts/pages.py),
and pyscript.json, the engine worker's configuration the page loads, from pyscript.toml, the one
people edit (both committed; scripts/site.py says why the page keeps loading JSON).
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import re
import shutil
import sys
import zipfile
from pathlib import Path

from scripts import site

ROOT = site.ROOT
VENDOR = ROOT / "assets" / "vendor"
BUILD = site.BUILD
APP_ZIP = BUILD / "parlour.zip"
PY_SOURCE = ROOT / "py"

# The files of each npm package that the page fetches. Pyodide: the loader, the Emscripten
# module, the wasm and the lock file it reads at start; not its standard library: the worker is
# given the part of it the site imports (scripts/stdlib.py, assets/engine-loader.mjs). PyScript:
# the core and the chunks it imports for what this page does, and its plugin chunks (py-editor,
# py-terminal, py-game, ...), which the page leaves out (index.html's <py-config>) but which are
# published all the same (small). MicroPython runs the main thread (mpy scripts): its loader
# and wasm. Every file published is also kept by the service worker on a first visit, so what
# the page never asks for is left out (PYSCRIPT_UNUSED).
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "pyodide-lock.json",
)
MICROPYTHON_FILES = ("micropython.mjs", "micropython.wasm")
# PyScript's chunks (by name, without the build's hash) for what the page does not do: an
# editor (codemirror, and `index`, its shared chunk) or a terminal (xterm, and `mpy`/`py`, the
# terminal's halves); unpacking a zip into a folder (`zip`: parlour.zip is copied as one file);
# a TOML configuration (`toml`: ours are JSON); a list of packages (`pyodide_graph`); PyScript's
# own service worker and storage helper, and its stylesheet (no `<script type=py>` tag here).
PYSCRIPT_UNUSED = (
    "codemirror*",
    "xterm*",
    "index",
    "mpy",
    "py",
    "zip",
    "toml",
    "pyodide_graph",
    "service-worker",
    "storage",
    "core.css",
)
_HASHED = re.compile(r"^(?P<chunk>.+)-[A-Za-z0-9_-]{8}\.js$")


def pyscript_chunk(name: str) -> str:
    """A PyScript file's name without the build's hash: "py-editor-C4XsZtn7.js" -> "py-editor"."""
    hashed = _HASHED.match(name)
    return hashed.group("chunk") if hashed else name.removesuffix(".js")


def pinned_versions(root: Path = ROOT) -> dict[str, str]:
    """Return the exact runtime versions pinned in package.json (name -> version)."""
    deps = json.loads((root / "package.json").read_text())["dependencies"]
    return {
        "pyodide": deps["pyodide"],
        "pyscript": deps["@pyscript/core"],
        "micropython": deps["@micropython/micropython-webassembly-pyscript"],
    }


def vendor_dirs(root: Path = ROOT) -> dict[str, Path]:
    """The versioned vendor folders, e.g. assets/vendor/pyodide-314.0.7."""
    versions = pinned_versions(root)
    return {name: root / "assets" / "vendor" / f"{name}-{v}" for name, v in versions.items()}


def _installed_version(package_dir: Path) -> str | None:
    manifest = package_dir / "package.json"
    if not manifest.exists():
        return None
    return json.loads(manifest.read_text()).get("version")


def _pyscript_files(dist: Path) -> list[Path]:
    return sorted(
        p
        for p in dist.iterdir()
        if p.suffix in {".js", ".css"}
        and not any(fnmatch.fnmatchcase(pyscript_chunk(p.name), u) for u in PYSCRIPT_UNUSED)
    )


def _package_files(name: str, source: Path) -> list[Path]:
    """The files of one npm package that the page needs."""
    if name == "pyodide":
        return [source / f for f in PYODIDE_FILES]
    if name == "micropython":
        return [source / f for f in MICROPYTHON_FILES]
    return _pyscript_files(source / "dist")


def vendor_runtime(root: Path = ROOT) -> list[Path]:
    """Copy the pinned runtime from node_modules into versioned folders; return the files copied."""
    versions = pinned_versions(root)
    targets = vendor_dirs(root)
    sources = {
        "pyodide": root / "node_modules" / "pyodide",
        "pyscript": root / "node_modules" / "@pyscript" / "core",
        "micropython": root / "node_modules" / "@micropython" / "micropython-webassembly-pyscript",
    }
    copied: list[Path] = []
    for name, source in sources.items():
        found = _installed_version(source)
        if found != versions[name]:
            raise SystemExit(
                f"node_modules has {name} {found}, package.json pins {versions[name]}: "
                "run `npm ci`."
            )
        files = _package_files(name, source)
        target = targets[name]
        target.mkdir(parents=True, exist_ok=True)
        for f in files:
            dest = target / f.name
            if not dest.exists() or dest.stat().st_size != f.stat().st_size:
                shutil.copyfile(f, dest)
            copied.append(dest)
        for left in set(target.iterdir()) - set(copied):  # a file an earlier build vendored
            left.unlink()
    _remove_stale_vendor_dirs(root, set(targets.values()))
    return copied


def _remove_stale_vendor_dirs(root: Path, keep: set[Path]) -> None:
    vendor = root / "assets" / "vendor"
    for d in vendor.iterdir():
        if d.is_dir() and d not in keep:
            shutil.rmtree(d)


def app_zip_is_stale(root: Path = ROOT) -> bool:
    zip_path = root / "assets" / "build" / "parlour.zip"
    if not zip_path.exists():
        return True
    built = zip_path.stat().st_mtime
    return any(p.stat().st_mtime > built for p in site.app_sources(root))


def build_app_zip(root: Path = ROOT) -> Path:
    """Zip py/parlour with fixed timestamps so equal sources give byte-equal zips; each module
    compiled (scripts/pyc.py: the engine's Python compiles nothing on a first visit), its data
    files as they are; entries stored, not deflated."""
    from scripts import pyc

    zip_path = root / "assets" / "build" / "parlour.zip"
    zip_path.parent.mkdir(parents=True, exist_ok=True)
    entries = {
        path.relative_to(root / "py").as_posix(): path.read_text(encoding="utf-8")
        for path in site.app_sources(root)
    }
    sources = {name: site.browser_source(text) for name, text in entries.items() if is_py(name)}
    code = pyc.compiled(sources, APP_ZIP_IN_ENGINE, root, pyc.UNANNOTATED)
    tmp = zip_path.with_suffix(".tmp")
    # stored, as the standard library's: the host compresses the whole zip, which shrinks
    # compiled code better than deflating each entry (0.58 MB gzipped against 0.71)
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_STORED) as zf:
        for name, text in entries.items():
            info = zipfile.ZipInfo(name + "c" if is_py(name) else name, (2020, 1, 1, 0, 0, 0))
            zf.writestr(info, code[name] if is_py(name) else text)
    tmp.replace(zip_path)
    return zip_path


def is_py(name: str) -> bool:
    return name.endswith(".py")


# Where the worker's Python reads the package from (py/worker.py puts it on sys.path): the file
# names its compiled code carries, as if compiled from the zip's sources there.
APP_ZIP_IN_ENGINE = "parlour.zip/"


RUNTIME_SIZES = BUILD / "runtime.json"
# The module the worker's PyScript loads as its interpreter: Pyodide's loader, given the trimmed
# standard library and wrapped to start from a memory snapshot kept on the device
# (pyscript.json's "interpreter"; docs/deploy.md, "The engine snapshot").
ENGINE_LOADER = ROOT / "assets" / "engine-loader.mjs"
# The files of the engine's runtime that the worker downloads (Pyodide), whose bytes the page
# counts while they arrive: "Downloading the game engine: 4.1 of 13.6 MB".
COUNTED = (".wasm", ".zip", ".mjs", ".json")
# The order Pyodide asks for them in: the page fetches them in the same order, one at a time.
FETCH_ORDER = (
    "engine-loader.mjs",
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide-lock.json",
    "python_stdlib.zip",
    "pyodide.asm.wasm",
)


def stdlib_zip(root: Path = ROOT) -> Path:
    """The standard library zip the engine loads (the trimmed one, scripts/stdlib.py): a
    snapshot holds offsets into it."""
    return root / "assets" / "build" / "python_stdlib.zip"


def warm_imports(root: Path = ROOT) -> list[str]:
    """The modules a snapshot imports: every module of the package the browser gets, so that no
    screen, game or bot compiles a module from parlour.zip after a restore (worker.py's glue,
    which holds JS objects, stays out: a snapshot cannot hold one)."""
    py = root / "py"
    names = [
        ".".join(p.relative_to(py).with_suffix("").parts).removesuffix(".__init__")
        for p in site.app_sources(root)
        if p.suffix == ".py" and p.relative_to(py).parts[0] != site.WORKER_GLUE
    ]
    return sorted(names)


def snapshot_key(root: Path = ROOT) -> str:
    """A hash of everything a memory snapshot depends on: Pyodide's version, the standard
    library and app zips (byte for byte: a snapshot holds offsets into both), the warm imports
    and the loader that makes and restores it. A new key makes every kept snapshot stale."""
    digest = hashlib.sha256()
    digest.update(pinned_versions(root)["pyodide"].encode() + b"\0")
    for path in (stdlib_zip(root), root / "assets" / "build" / "parlour.zip"):
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    digest.update(json.dumps(warm_imports(root)).encode() + b"\0")
    loader = root / ENGINE_LOADER.relative_to(ROOT)
    digest.update(hashlib.sha256(loader.read_bytes()).digest())
    return digest.hexdigest()[:16]


def write_runtime_sizes(stdlib: dict[str, object], root: Path = ROOT) -> Path:
    """assets/build/runtime.json: each file the worker fetches to start Pyodide, with its size
    in bytes, and their total; the page's loading screens read it (assets/main-thread.js). It
    names the trimmed standard library (`stdlib`: address, bytes, SHA-256) the engines start
    with, which the page's own build made (scripts/stdlib.py), and the engine snapshot's key and
    warm imports (assets/engine-loader.mjs): run after the app zip and the trimmed zip."""
    folder = vendor_dirs(root)["pyodide"]
    loader = root / ENGINE_LOADER.relative_to(ROOT)
    trimmed = root / str(stdlib["url"])
    found = [p for p in folder.iterdir() if p.is_file() and p.suffix in COUNTED]
    files = sorted(
        [loader, trimmed, *found],
        key=lambda p: (FETCH_ORDER.index(p.name) if p.name in FETCH_ORDER else 99, p.name),
    )
    listed = [["./" + p.relative_to(root).as_posix(), p.stat().st_size] for p in files]
    out = root / RUNTIME_SIZES.relative_to(ROOT)
    out.parent.mkdir(parents=True, exist_ok=True)
    snapshot = {"key": snapshot_key(root), "imports": warm_imports(root)}
    total = sum(size for _, size in listed)
    # the SHA-256 of each runtime file outside the versioned vendor folders (which never change
    # in place): the service worker's install takes the engine's hand-over of one only if it
    # matches (scripts/sw.js), so a deploy between the two can never mix versions
    hashes = {
        "./" + p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in files
        if not p.is_relative_to(folder)
    }
    sizes = {
        "files": listed,
        "bytes": total,
        "hashes": hashes,
        "stdlib": stdlib,
        "snapshot": snapshot,
    }
    text = json.dumps(sizes, indent=1)
    if not out.is_file() or out.read_text(encoding="utf-8") != text + "\n":
        out.write_text(text + "\n", encoding="utf-8")
    return out


def write_stdlib(root: Path = ROOT) -> Path:
    """The trimmed standard library (scripts/stdlib.py), then runtime.json, which names it with
    its size and hash."""
    from scripts import stdlib

    trimmed = stdlib.write_trimmed(root)
    write_runtime_sizes(stdlib.summary(trimmed, root), root)
    return trimmed


# Published files that are the Python runtimes' rather than Psi Parlour's own, besides the
# vendored folders: the engine's loader and the part of Pyodide's standard library the site uses.
RUNTIME_OF_OURS = ("assets/engine-loader.mjs", "assets/build/python_stdlib.zip")


def is_runtime(name: str) -> bool:
    """A published file (a path from the site's root) of the runtimes, not of the app: what the
    weight figures count apart from the app's own bytes (bench, the Embed page's figures)."""
    return name.startswith("assets/vendor/") or name in RUNTIME_OF_OURS


def assemble_dist(out: Path, root: Path = ROOT) -> Path:
    """Copy exactly the published site into `out` (for Netlify): no tests, tooling or sources."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for name in site.published_files(root):
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(root / name, out / name)
    return out


def main(argv: list[str]) -> int:
    from scripts import offline, pages  # pages: the catalog's parts of the page

    if site.write_worker_json():  # before the service worker's list, which hashes it
        print(f"{site.WORKER_JSON}: rewritten from {site.WORKER_CONFIG}")
    if pages.write():
        print("index.html: the generated parts were rewritten from the games' declarations")
    copied = vendor_runtime()
    zip_path = build_app_zip()
    trimmed = write_stdlib()  # after the app zip: the snapshot key hashes both zips
    worker = offline.write_service_worker()
    print(
        f"vendored {len(copied)} runtime files; built {zip_path.relative_to(ROOT)} and "
        f"{trimmed.relative_to(ROOT)} ({trimmed.stat().st_size:,} bytes); "
        f"{worker.relative_to(ROOT)} keeps the site offline, version {offline.version()}"
    )
    if argv[:1] == ["--dist"] and len(argv) == 2:
        out = assemble_dist(ROOT / argv[1])
        print(f"assembled the site in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
