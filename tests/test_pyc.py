"""The engine's modules compiled at build time (scripts/pyc.py): both zips the worker imports
from hold .pyc files its own Python made, and no source to compile on a first visit."""

from __future__ import annotations

import ast
import dataclasses
import sys
import types
import zipfile
from pathlib import Path

import pytest

from scripts import build, pyc, site, stdlib
from scripts.unannotated import unannotated

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


def test_the_package_is_compiled_unannotated_and_the_standard_library_as_written(monkeypatch):
    """The package's function annotations are left out (nothing reads them at run time); the
    standard library's code is Python's own (some of it may read them)."""
    recipes: dict[str, str] = {}
    real = pyc.compiled

    def recorded(sources, prefix, root=site.ROOT, recipe=pyc.AS_WRITTEN):  # type: ignore[no-untyped-def]
        recipes[prefix] = recipe
        return real(sources, prefix, root, recipe)

    monkeypatch.setattr(pyc, "compiled", recorded)
    build.build_app_zip()
    stdlib.write_trimmed()
    assert recipes == {
        build.APP_ZIP_IN_ENGINE: pyc.UNANNOTATED,
        stdlib.ZIP_IN_ENGINE + "/": pyc.AS_WRITTEN,
    }


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
        return {name: f"pyc of {source}".encode() for name, (_, source, _) in files.items()}

    monkeypatch.setattr(pyc, "_run_pyodide", fake_pyodide)
    first = pyc.compiled({"a.py": "x = 1", "b.py": "y = 2"}, "here.zip/")
    again = pyc.compiled({"a.py": "x = 1", "b.py": "y = 3"}, "here.zip/")
    assert first == {"a.py": b"pyc of x = 1", "b.py": b"pyc of y = 2"}
    assert again == {"a.py": b"pyc of x = 1", "b.py": b"pyc of y = 3"}
    assert runs == [
        {
            "a.py": ["here.zip/a.py", "x = 1", pyc.AS_WRITTEN],
            "b.py": ["here.zip/b.py", "y = 2", pyc.AS_WRITTEN],
        },
        {"b.py": ["here.zip/b.py", "y = 3", pyc.AS_WRITTEN]},
    ]
    # the same source compiled by another recipe is another .pyc
    pyc.compiled({"a.py": "x = 1"}, "here.zip/", recipe=pyc.UNANNOTATED)
    assert runs[-1] == {"a.py": ["here.zip/a.py", "x = 1", pyc.UNANNOTATED]}


def test_the_engines_python_leaves_the_annotations_out_of_the_code_it_compiles(
    tmp_path, monkeypatch
):
    """Through the build's own compiler (Pyodide under Node, scripts/pyc.mjs): the names only an
    annotation uses are in the code compiled as written, and not in the code compiled
    unannotated."""
    monkeypatch.setattr(pyc, "CACHE", tmp_path)
    source = "def seat(name: Zyxwvut, *more: Qwertyu) -> Asdfghj:\n    return name\n"
    kept = pyc.compiled({"m.py": source}, "here.zip/")["m.py"]
    left = pyc.compiled({"m.py": source}, "here.zip/", recipe=pyc.UNANNOTATED)["m.py"]
    names = (b"Zyxwvut", b"Qwertyu", b"Asdfghj")
    assert all(n in kept for n in names)
    assert not any(n in left for n in names) and b"seat" in left


ANNOTATED = """\
from __future__ import annotations
import dataclasses

@dataclasses.dataclass(frozen=True)
class Seat:
    name: str
    score: int = 0

    def scored(self, points: int, *more: int, why: str = "", **notes: object) -> Seat:
        return dataclasses.replace(self, score=self.score + points + sum(more))

async def later(seat: Seat, /, wait: float) -> None:
    raise ValueError(seat.name)

def broken(x: int) -> int:
    return x // 0
"""


def test_the_package_is_compiled_without_its_functions_annotations_and_keeps_its_fields(
    monkeypatch,
):
    """scripts/unannotated.py: no function keeps an annotation, a dataclass keeps its fields, and
    a traceback still names the line the source has."""
    module = types.ModuleType("seats")
    monkeypatch.setitem(sys.modules, "seats", module)
    namespace = module.__dict__
    exec(compile(unannotated(ANNOTATED, "seats.py"), "seats.py", "exec"), namespace)
    seat = namespace["Seat"]("Ada")  # type: ignore[operator]
    assert seat.scored(2, 3).score == 5
    assert [f.name for f in dataclasses.fields(seat)] == ["name", "score"]
    functions = [type(seat).scored, namespace["later"], namespace["broken"]]
    assert all(f.__annotations__ == {} for f in functions)  # type: ignore[attr-defined]
    with pytest.raises(ZeroDivisionError) as raised:
        namespace["broken"](1)  # type: ignore[operator]
    assert raised.traceback[-1].lineno == ANNOTATED.splitlines().index("    return x // 0")


def test_every_module_of_the_package_compiles_without_its_function_annotations():
    """Every shipped source still compiles once its function annotations are left out, and keeps
    every annotation a class body has (its fields)."""
    for path in site.app_sources():
        if path.suffix != ".py":
            continue
        source = site.browser_source(path.read_text(encoding="utf-8"))
        tree = unannotated(source, path.name)
        compile(tree, path.name, "exec")
        functions = [
            n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
        ]
        parameters = [a for f in functions for a in ast.walk(f.args) if isinstance(a, ast.arg)]
        assert not any(f.returns for f in functions), path
        assert not any(a.annotation for a in parameters), path
        assert _fields(tree) == _fields(ast.parse(source)), path


def _fields(tree: ast.AST) -> list[str]:
    """Every annotated assignment (a class's fields, a module's names), as text."""
    return [ast.dump(n) for n in ast.walk(tree) if isinstance(n, ast.AnnAssign)]
