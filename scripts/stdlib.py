"""The trimmed standard library: only the part of Pyodide's python_stdlib.zip the site imports.

Why: Pyodide's standard library zip is 2.5 MB and already deflated, so the host cannot shrink it
further, and every first visit downloads it; the worker imports under a third of its modules.
The build writes a zip of the modules that can be imported, and the worker's Pyodide is given it
instead (`stdLibURL`, assets/engine-loader.mjs). What can be imported is found two ways:

- by reading the code: every import of the package (py/parlour as the browser gets it,
  py/worker.py, py/ui/) at any depth (an import inside a function counts), then what
  each standard-library module reached imports when it is imported (its module level and class
  bodies; not its functions, which would pull in unittest, pdb and multiprocessing: 6.4 MB, nor
  the branches for a script or for Windows), until nothing new is reached;
- by measuring what Pyodide, PyScript and the worker import, at start and while playing, that no
  code of ours names (Pyodide's own package, codecs looked up by name, a stdlib function's own
  import): scripts/stdlib_start.txt, made by `python -m scripts.stdlib_measure` in Chromium.

The zip's entries are STORED, not deflated, so the host's gzip or brotli compresses the whole
zip (better than entry by entry); its bytes depend on nothing but the chosen files (sorted,
fixed timestamps), so its hash names the standard library the engines started with; and its
modules go without comments and docstrings where the build can prove the code unchanged.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import io
import re
import sys
import tokenize
import zipfile
from collections.abc import Iterable
from pathlib import Path

from scripts import site

ROOT = site.ROOT
TRIMMED = site.BUILD / "python_stdlib.zip"
MEASURED = Path(__file__).with_name("stdlib_start.txt")
FIXED_TIME = (2020, 1, 1, 0, 0, 0)
# Where the worker reads the standard library from, in Pyodide's file system.
ZIP_IN_ENGINE = "/lib/python314.zip"


def full_stdlib(root: Path = ROOT) -> Path:
    """Pyodide's own standard library zip, from the pinned npm package."""
    return root / "node_modules" / "pyodide" / "python_stdlib.zip"


def module_files(names: Iterable[str]) -> dict[str, str]:
    """Module name -> the zip entry holding it (a module file or a package's __init__.py, or
    their compiled .pyc, as the trimmed zip holds them)."""
    found: dict[str, str] = {}
    for name in names:
        if not name.endswith((".py", ".pyc")):
            continue
        module = name.removesuffix("c").removesuffix(".py").replace("/", ".")
        found[module.removesuffix(".__init__")] = name
    return found


_IMPORT = re.compile(r"^[ \t]*import[ \t]+([\w., \t]+)", re.M)
_FROM = re.compile(r"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]+)", re.M)


def _names(listed: str) -> list[str]:
    parts = (p.split() for p in listed.strip("() \t\n").replace("\\", " ").split(","))
    return [words[0] for words in parts if words and words[0] != "*"]


def _absolute(module: str, level: int, package: str) -> str:
    """`from ..x import y` inside `package` as an absolute name."""
    if not level:
        return module
    base = package.rsplit(".", level - 1)[0] if level > 1 else package
    return f"{base}.{module}" if module else base


def _statements(tree: ast.AST, at_import_only: bool) -> Iterable[ast.AST]:
    """Every node of the module, or with `at_import_only` those that run when it is imported:
    not the bodies of its functions (a class body runs, its methods do not)."""
    if not at_import_only:
        yield from ast.walk(tree)
        return
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        children = list(ast.iter_child_nodes(node))
        if isinstance(node, ast.If) and (skipped := _never_here(node.test)) is not None:
            children = [node.test, *(node.orelse if skipped else node.body)]
        todo += [
            child
            for child in children
            if not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        ]


# Tests whose branch never runs in the worker: a module run as a script, or on Windows.
_ELSEWHERE = {("__name__", "__main__"), ("sys.platform", "win32"), ("os.name", "nt")}


def _never_here(test: ast.expr) -> bool | None:
    """For `if NAME == VALUE` naming a script or Windows: True when the `if` body never runs
    in the worker, False when its `else` never does; None for any other test."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    left, right = test.left, test.comparators[0]
    if not (isinstance(right, ast.Constant) and isinstance(op := test.ops[0], ast.Eq | ast.NotEq)):
        return None
    if (ast.unparse(left), right.value) not in _ELSEWHERE:
        return None
    return isinstance(op, ast.Eq)


def imported_names(source: str, package: str, at_import_only: bool = False) -> set[str]:
    """Every module name an import in `source` may load, at any depth of the code: for
    `from a import b` both a and a.b (b may be a submodule). `package` resolves relative imports.

    Pyodide's standard library is newer than the Python running the build: a module whose
    syntax this Python cannot parse is read line by line instead (its import statements)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return _scanned_names(source, package, at_import_only)
    found: set[str] = set()
    for node in _statements(tree, at_import_only):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = _absolute(node.module or "", node.level, package)
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


# Lines whose indented block never runs when the module is imported: a function, a script's part.
_DEF = re.compile(r"^[ \t]*(?:(?:async[ \t]+)?def[ \t]|if __name__ == .__main__.:)")


def _scanned_names(source: str, package: str, at_import_only: bool) -> set[str]:
    """The import statements of a module this Python cannot parse, read line by line; with
    `at_import_only`, none indented under a `def` (a function's body)."""
    found: set[str] = set()
    inside: list[int] = []  # indents of the functions the line is in
    offset = 0
    for line in source.splitlines(keepends=True):
        start, offset = offset, offset + len(line)
        text = line.lstrip(" \t")
        if not text.strip() or text.startswith("#"):
            continue
        indent = len(line) - len(text)
        inside = [d for d in inside if d < indent]
        if _DEF.match(line):
            inside.append(indent)
            continue
        if at_import_only and inside:
            continue
        if (match := _IMPORT.match(line)) is not None:
            found.update(_names(match.group(1)))
        elif (match := _FROM.match(source, start)) is not None:
            dots = len(match.group(1)) - len(match.group(1).lstrip("."))
            module = _absolute(match.group(1).lstrip("."), dots, package)
            found.add(module)
            found.update(f"{module}.{n}" for n in _names(match.group(2)))
    return found


def with_parents(name: str) -> list[str]:
    """A module and every package above it (importing a.b.c runs a, a.b and a.b.c)."""
    parts = name.split(".")
    return [".".join(parts[: i + 1]) for i in range(len(parts))]


def package_imports(root: Path = ROOT) -> set[str]:
    """Every module name the browser's Python code imports (the package as shipped, the
    worker's entry point and its glue), at any depth."""
    py = root / "py"
    sources = [p for p in site.app_sources(root) if p.suffix == ".py"] + [py / "worker.py"]
    found: set[str] = set()
    for path in sources:
        module = path.relative_to(py).with_suffix("").as_posix().replace("/", ".")
        package = module.removesuffix(".__init__") if path.name == "__init__.py" else module
        package = package if path.name == "__init__.py" else package.rpartition(".")[0]
        found |= imported_names(path.read_text(encoding="utf-8"), package)
    return found


def measured_start(path: Path = MEASURED) -> set[str]:
    """The modules measured as imported at the engines' start (one a line; # comments)."""
    lines = (line.split("#")[0].strip() for line in path.read_text().splitlines())
    return {line for line in lines if line}


def needed_modules(full: zipfile.ZipFile, roots: Iterable[str]) -> set[str]:
    """The zip's modules reachable from `roots`, following what each runs when imported."""
    files = module_files(full.namelist())
    needed: set[str] = set()
    todo = [m for name in roots for m in with_parents(name) if m in files]
    while todo:
        module = todo.pop()
        if module in needed:
            continue
        needed.add(module)
        entry = files[module]
        package = module if entry.endswith("__init__.py") else module.rpartition(".")[0]
        source = full.read(entry).decode("utf-8")
        for name in imported_names(source, package, at_import_only=True):
            todo += [m for m in with_parents(name) if m in files and m not in needed]
    return needed


def trimmed_entries(full: zipfile.ZipFile, modules: set[str]) -> list[str]:
    """The zip entries of those modules, and the folders above them, sorted."""
    files = module_files(full.namelist())
    entries = {files[m] for m in modules}
    folders = {e.rsplit("/", 1)[0] + "/" for e in entries if "/" in e}
    for folder in list(folders):
        parts = folder.rstrip("/").split("/")
        folders.update("/".join(parts[: i + 1]) + "/" for i in range(len(parts)))
    return sorted(entries | (folders & set(full.namelist())))


def write_trimmed(root: Path = ROOT) -> Path:
    """Write assets/build/python_stdlib.zip: stored entries, sorted, fixed times; only when its
    bytes change, so an unchanged build is no new version of the site."""
    out = root / TRIMMED.relative_to(ROOT)
    with zipfile.ZipFile(full_stdlib(root)) as full:
        modules = needed_modules(full, package_imports(root) | measured_start())
        buffer = _stored_zip(full, trimmed_entries(full, modules), root)
    out.parent.mkdir(parents=True, exist_ok=True)
    if not out.is_file() or out.read_bytes() != buffer:
        out.write_bytes(buffer)
    else:
        out.touch()  # up to date with its sources (is_stale)
    return out


def is_stale(root: Path = ROOT) -> bool:
    """True when the trimmed zip is missing or older than a source it is made from: the code it
    reads imports from, or the measured list (`make serve` then writes it again)."""
    out = root / TRIMMED.relative_to(ROOT)
    if not out.is_file():
        return True
    sources = [*site.app_sources(root), root / "py" / "worker.py", MEASURED]
    written = out.stat().st_mtime
    return any(p.is_file() and p.stat().st_mtime > written for p in sources)


def _stored_zip(full: zipfile.ZipFile, entries: list[str], root: Path = ROOT) -> bytes:
    """The zip of `entries`: each module compiled (scripts/pyc.py), from its shipped source."""
    from scripts import pyc

    sources = {n: shipped(full.read(n).decode("utf-8")) for n in entries if n.endswith(".py")}
    code = pyc.compiled(sources, ZIP_IN_ENGINE + "/", root)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as zf:
        for name in entries:
            info = zipfile.ZipInfo(name + "c" if name in code else name, FIXED_TIME)
            info.external_attr = (0o40755 << 16 | 0x10) if name.endswith("/") else 0o644 << 16
            data = b"" if name.endswith("/") else code.get(name) or full.read(name)
            zf.writestr(info, data)
    return buffer.getvalue()


@functools.cache  # a pure function of the text: one build, or a test run, strips each once
def shipped(source: str) -> str:
    """A standard-library module as the worker gets it: without comments and docstrings, as
    the package is shipped (site.browser_source: lines kept, so tracebacks point right), a
    third of the zip's bytes. Only where this Python can prove the code unchanged (the same
    syntax tree but for docstrings); a module it cannot parse, or where they differ, goes as
    it is."""
    try:
        before = ast.parse(source)
        after = site.browser_source(source)
        same = code_of(ast.parse(after)) == code_of(before)
    except (SyntaxError, tokenize.TokenError, IndentationError):
        return source
    return after if same else source


def code_of(tree: ast.Module) -> str:
    """The syntax tree with every docstring emptied, as text, to compare two versions' code."""
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        value = first.value if isinstance(first, ast.Expr) else None
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            value.value = ""
    return ast.dump(tree)


def summary(path: Path, root: Path = ROOT) -> dict[str, object]:
    """What runtime.json records of the trimmed zip: address, size and SHA-256."""
    data = path.read_bytes()
    return {
        "url": path.relative_to(root).as_posix(),
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
    }


# The measurement: the worker, given Pyodide's whole standard library, reports the modules it
# has read from it, at start and after games against bots in all four games and a visit to each
# other screen (the person's moves are the easy bot's, clicked as the browser tests do).
if __name__ == "__main__":
    written = write_trimmed()
    with zipfile.ZipFile(written) as z:
        print(f"{written}: {len(z.namelist())} entries, {written.stat().st_size} bytes")
    print("runtime.json names it after the build: python -m scripts.build")
    sys.exit(0)
