"""The layering (README, "How the code is laid out"), checked on the source: pure modules never
touch the browser, and imports point down only."""

from __future__ import annotations

import ast
from dataclasses import fields
from pathlib import Path

import pytest

import parlour
from parlour.games.catalog import CATALOG, Entry

pytestmark = pytest.mark.build_output  # one such test at a time, on either core (conftest.py)

PACKAGE = Path(parlour.__file__).parent
BROWSER_MODULES = {"pyscript", "js", "pyodide"}
# Each layer may import itself and the layers listed after it.
ORDER = ("ui", "net", "match", "bots", "games", "fair")


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
        elif isinstance(node, ast.ImportFrom) and node.level > 0:
            # Relative imports: resolve against the module's package.
            base = path.relative_to(PACKAGE.parent).with_suffix("").parts[: -node.level]
            names.add(".".join((*base, node.module or "")).rstrip("."))
    return names


def _layer_of(path: Path) -> str | None:
    parts = path.relative_to(PACKAGE).parts
    return parts[0] if len(parts) > 1 else None


def test_every_layer_exists():
    for layer in ORDER:
        assert (PACKAGE / layer / "__init__.py").exists(), layer


def test_the_package_never_touches_the_browser():
    """Everything in parlour runs in the worker (or under CPython): no module of it imports
    pyscript, js or pyodide, so none can reach a DOM, and all of it is tested here."""
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        bad = {name for name in _imports(path) if name.split(".")[0] in BROWSER_MODULES}
        if bad:
            offenders.append(f"{path.relative_to(PACKAGE)} imports {sorted(bad)}")
    assert offenders == []


def test_imports_point_down_only():
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        layer = _layer_of(path)
        if layer is None:
            continue
        allowed = set(ORDER[ORDER.index(layer) :])
        for name in _imports(path):
            parts = name.split(".")
            in_parlour = parts[0] == "parlour" and len(parts) > 1 and parts[1] in ORDER
            if in_parlour and parts[1] not in allowed:
                offenders.append(f"{path.relative_to(PACKAGE)} imports {name}")
    assert offenders == []


# -- the package's import graph: imports inside functions and the catalog's import paths ------

# The catalog names each game's parts as import paths (strings), some in upper layers (a screen
# in ui/, bots in bots/): the module that reads an entry's part and loads it imports that module.
PARTS = tuple(f.name for f in fields(Entry) if f.name not in ("id", "name", "page"))


def _package_modules(package: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package by its dotted name (a package by its own name)."""
    modules: dict[str, Path] = {}
    for path in package.rglob("*.py"):
        parts = path.relative_to(package.parent).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def _module_imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package's modules that `name` imports anywhere, inside functions too: `from
    parlour.games import turns` names parlour.games.turns, `from parlour.games import GAMES`
    names parlour.games."""
    here = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in modules)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = here.split(".")[: len(here.split(".")) - node.level + 1]
                base = ".".join([*package, *([node.module] if node.module else [])])
            for alias in node.names:
                if f"{base}.{alias.name}" in modules:
                    found.add(f"{base}.{alias.name}")
                elif base in modules:
                    found.add(base)
    return found - {name}


def _catalog_parts(path: Path, catalog: tuple[Entry, ...]) -> set[str]:
    """The modules of the catalog's parts that a module reading the catalog loads: those of
    every entry, for each part it reads (`entry.screen`, `entry.bots`...)."""
    read = {
        node.attr
        for node in ast.walk(ast.parse(path.read_text(), str(path)))
        if isinstance(node, ast.Attribute) and node.attr in PARTS
    }
    return {getattr(entry, part).partition(":")[0] for entry in catalog for part in read}


def package_graph(
    package: Path = PACKAGE, catalog: tuple[Entry, ...] = CATALOG
) -> dict[str, set[str]]:
    """Each module of the package and the package's modules it imports, anywhere in it, or
    loads through the catalog's import paths."""
    modules = _package_modules(package)
    catalog_module = f"{package.name}.games.catalog"
    graph = {name: _module_imports(name, path, modules) for name, path in modules.items()}
    for name, path in modules.items():
        if catalog_module in graph[name]:
            graph[name] |= _catalog_parts(path, catalog) & set(modules)
    return graph


def test_no_import_circle_in_the_package():
    """No module of the package imports itself back through others, counting imports inside
    functions (the arena imported ESPEERS's balance in its main, which imports the arena) and
    the parts the catalog names as strings (games/options.py loaded each game's declaration,
    which imports games/options.py: the loading is games/declared.py now)."""
    found = circles(package_graph())
    assert found == []


def test_the_catalog_s_parts_are_loaded_from_a_layer_that_may_import_them():
    """The module that loads a part the catalog names (a screen, the bots) is in a layer at or
    above the part's: games/ may load an engine, never a screen."""
    offenders = []
    for name, imported in package_graph().items():
        layer = name.split(".")[1] if "." in name else None
        if layer not in ORDER:
            continue
        allowed = set(ORDER[ORDER.index(layer) :])
        offenders += [
            f"{name} loads {other}"
            for other in imported
            if other.split(".")[1] in set(ORDER) - allowed
        ]
    assert offenders == []


def test_the_package_graph_sees_function_imports_and_the_catalog_s_paths(tmp_path):
    """The checks above could pass by seeing nothing: a circle through an import inside a
    function is found, and so is one through a catalog part read by the module that loads it."""
    package = tmp_path / "parlour"
    for folder in ("games", "ui", "bots"):
        (package / folder).mkdir(parents=True)
        (package / folder / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "games" / "catalog.py").write_text("")
    (package / "bots" / "arena.py").write_text("from parlour.bots import balance\n")
    (package / "bots" / "balance.py").write_text("def main():\n    from .arena import play\n")
    (package / "ui" / "screens.py").write_text(
        "from parlour.games.catalog import CATALOG, load\nS = [e.screen for e in CATALOG]\n"
    )
    (package / "ui" / "esp").mkdir()
    (package / "ui" / "esp" / "__init__.py").write_text("")
    (package / "ui" / "esp" / "screen.py").write_text("from parlour.ui.screens import S\n")
    (package / "games" / "options.py").write_text(
        "from parlour.games import catalog\nx = catalog.CATALOG[0].screen\n"
    )
    graph = package_graph(package, CATALOG[:1])
    assert graph["parlour.games.options"] == {"parlour.games.catalog", "parlour.ui.esp.screen"}
    assert circles(graph) == [
        ["parlour.bots.arena", "parlour.bots.balance"],
        ["parlour.ui.esp.screen", "parlour.ui.screens"],
    ]


def test_the_checker_sees_a_browser_import(tmp_path):
    """The checks above could pass by seeing nothing: make sure they parse what they should."""
    module = tmp_path / "m.py"
    module.write_text("import js\nfrom pyscript import document\nfrom os import path\n")
    assert {"js", "pyscript", "os"} <= _imports(module)


def test_game_logic_never_uses_the_random_module():
    offenders = [
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if "random" in {n.split(".")[0] for n in _imports(path)}
    ]
    assert offenders == []


SHELL = PACKAGE.parent / "shell"
ENTRY_POINTS = {"main": PACKAGE.parent / "main.py", "worker": PACKAGE.parent / "worker.py"}


def test_the_main_thread_imports_no_engine():
    """py/shell/ and py/main.py run on MicroPython on the main thread: the DOM, events, storage
    and data channels, and nothing of the games (no parlour module at all)."""
    offenders = []
    for path in [*SHELL.glob("*.py"), ENTRY_POINTS["main"]]:
        for name in _imports(path):
            if name.split(".")[0] == "parlour" or name.split(".")[0] not in MAIN_THREAD_IMPORTS:
                offenders.append(f"{path.name} imports {name}")
    assert offenders == []


# What MicroPython on the main thread has and what the shell may use.
MAIN_THREAD_IMPORTS = {"shell", "json", "asyncio", "js", "jsffi"}


def test_the_worker_entry_point_touches_no_dom():
    """py/worker.py only exports the app's one function; it imports no browser module itself
    (its signing keys come from py/ui/webcrypto.py)."""
    names = _imports(ENTRY_POINTS["worker"])
    assert not {n.split(".")[0] for n in names} & BROWSER_MODULES
    assert "parlour.ui.app" in names


WORKER_GLUE = PACKAGE.parent / "ui"


def test_the_worker_s_browser_glue_is_in_its_folder_and_the_page_gets_it():
    """Signed play needs WebCrypto and IndexedDB in the worker: py/ui/, outside the
    package (which stays pure), holds the worker's only modules that touch the browser, as
    py/shell/ holds the main thread's; the app's zip carries them."""
    from scripts.site import app_sources

    glue = WORKER_GLUE / "webcrypto.py"
    assert "ui.webcrypto" in _imports(ENTRY_POINTS["worker"])
    assert {"js", "pyodide.ffi"} <= _imports(glue)
    assert set(WORKER_GLUE.glob("*.py")) <= set(app_sources())
    browser_glue = {
        path.relative_to(PACKAGE.parent).parts[0]
        for path in PACKAGE.parent.rglob("*.py")
        if {name.split(".")[0] for name in _imports(path)} & BROWSER_MODULES
    }
    assert "ui" in browser_glue <= {"shell", "ui", "main.py"}


def test_the_shell_is_what_the_page_loads():
    """Every main-thread module is listed in mpy.json's files, and nothing else is."""
    import json

    config = json.loads((PACKAGE.parent.parent / "mpy.json").read_text())
    listed = {Path(src).name for src in config["files"]}
    assert listed == {p.name for p in SHELL.glob("*.py")}


def test_no_module_of_the_page_imports_the_test_only_crypto_package():
    """`cryptography` (requirements-dev.txt) signs in the tests only: the page signs with
    WebCrypto, so nothing under py/ may import it (it is not in the page's Pyodide)."""
    offenders = []
    for path in PACKAGE.parent.rglob("*.py"):
        if {"cryptography", "cffi"} & {n.split(".")[0] for n in _imports(path)}:
            offenders.append(str(path.relative_to(PACKAGE.parent)))
    assert offenders == []


# -- the tools: the build's scripts, the bench and the browser tests ------------------------------

TOOLS = ("scripts", "bench", "e2e")
REPO = PACKAGE.parent.parent


def _tool_imports(path: Path, modules: set[str]) -> set[str]:
    """The tool modules `path` imports anywhere (inside functions too): `from scripts import
    build` names scripts.build."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names & modules


def tool_graph(root: Path = REPO) -> dict[str, set[str]]:
    """Each module of scripts/, bench/ and e2e/ and the tool modules it imports."""
    paths = {
        f"{package}.{path.stem}": path
        for package in TOOLS
        for path in (root / package).glob("*.py")
        if path.stem != "__init__"
    }
    return {name: _tool_imports(path, set(paths)) for name, path in paths.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of `graph`: each group of modules that import one another, directly or
    through others (the strongly connected components of more than one module, or one that
    imports itself), sorted."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        for other in sorted(graph[module]):
            if other not in order:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], order[other])
        if low[module] == order[module]:
            group = stack[stack.index(module) :]
            del stack[stack.index(module) :]
            if len(group) > 1 or module in graph[module]:
                found.append(sorted(group))

    for module in sorted(graph):
        if module not in order:
            visit(module)
    return sorted(found)


def test_no_circles_among_the_build_the_bench_and_the_browser_tests():
    """scripts/build.py once imported scripts/offline.py, which imported it back (and the build,
    through the stdlib measurement, the browser tests, which serve the site with the build):
    what the site is made of is scripts/site.py, which imports none of them."""
    assert circles(tool_graph()) == []


def test_the_bench_and_the_scripts_import_no_test_module():
    """The bench and the build's measurements drive the page through e2e's players and harness,
    never through a test module (which pytest owns: its fixtures and parametrisations)."""
    offenders = [
        f"{module} imports {other}"
        for module, imported in tool_graph().items()
        if not module.startswith("e2e.")
        for other in imported
        if other.split(".")[-1].startswith("test_")
    ]
    assert offenders == []


def test_the_circle_finder_sees_a_circle(tmp_path):
    """The checks above could pass by seeing nothing: a circle of two modules, through an import
    inside a function, is found, and a chain is not."""
    for package in TOOLS:
        (tmp_path / package).mkdir()
    (tmp_path / "scripts" / "a.py").write_text("from scripts import b\n")
    (tmp_path / "scripts" / "b.py").write_text("def main():\n    from scripts.a import x\n")
    (tmp_path / "bench" / "c.py").write_text("import scripts.a\nfrom e2e import test_x\n")
    (tmp_path / "e2e" / "test_x.py").write_text("")
    graph = tool_graph(tmp_path)
    assert graph["bench.c"] == {"scripts.a", "e2e.test_x"}
    assert circles(graph) == [["scripts.a", "scripts.b"]]


# -- the UI: no circles; py/: no module holding more than one role ---------------------------

UI = PACKAGE / "ui"
PY = PACKAGE.parent  # py/: the package, the main thread's shell, the worker's glue, entry points
MOST_LINES = 500  # a module of py/ longer than this holds more than one role (issues 30 and 40)


def _ui_imports() -> dict[str, set[str]]:
    """Each ui/ module and the ui/ modules it imports, type-only imports included: a module
    that names another's type depends on it as much as one that calls it."""
    modules = {f"parlour.ui.{p.stem}": p for p in UI.glob("*.py") if p.stem != "__init__"}
    return {name: _imports(path) & set(modules) for name, path in modules.items()}


def test_no_circle_among_the_ui_modules():
    """The app hands itself to the parts it makes on first use (lessons, replays, online play,
    play by link) as a `Host`; none imports the app back, nor any other circle."""
    assert circles(_ui_imports()) == []


def test_no_module_of_py_is_over_500_lines():
    """A module over 500 lines mixes roles (a session, its drawing, shared pieces; a screen's
    board, controls and clicks): split it by role, as play.py was (issue 30), and the screens,
    play_session.py, the rules, the bots' models and by_link/device.py were (issue 40). Every
    module of py/ counts: the rules and the bots' models too, the shell and the glue."""
    lines = {str(p.relative_to(PY)): len(p.read_text().splitlines()) for p in PY.rglob("*.py")}
    assert {"main.py", "worker.py", "shell/page.py", "parlour/ui/play_session.py"} <= set(lines)
    assert {name: n for name, n in lines.items() if n > MOST_LINES} == {}
