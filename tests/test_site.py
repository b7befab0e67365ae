"""The static site's plumbing: pinned versions agree everywhere, the build is reproducible,
the server and Netlify send the right types and headers."""

from __future__ import annotations

import json
import os
import re
import tokenize
import tomllib
import urllib.request
from pathlib import Path

import pytest

from scripts import build, site, stdlib
from scripts.serve import MIME_TYPES, headers_for, make_server

pytestmark = pytest.mark.build_output  # one such test at a time, on either core (conftest.py)

ROOT = build.ROOT


def test_runtime_versions_are_exact_and_agree_everywhere():
    versions = build.pinned_versions()
    assert versions == {"pyodide": "314.0.7", "pyscript": "0.7.31", "micropython": "1.27.0"}
    lock = json.loads((ROOT / "package-lock.json").read_text())["packages"]
    assert lock["node_modules/pyodide"]["version"] == versions["pyodide"]
    assert lock["node_modules/@pyscript/core"]["version"] == versions["pyscript"]
    mpy = "node_modules/@micropython/micropython-webassembly-pyscript"
    assert lock[mpy]["version"] == versions["micropython"]
    config = json.loads((ROOT / "pyscript.json").read_text())
    # the engine's interpreter is our wrapper of the pinned Pyodide (the engine snapshot)
    assert config["interpreter"] == "./assets/engine-loader.mjs"
    wrapper = (ROOT / "assets" / "engine-loader.mjs").read_text()
    pyodide = f"./vendor/pyodide-{versions['pyodide']}/"
    assert wrapper.count(pyodide) == 2, "the wrapper imports and indexes the pinned Pyodide"
    assert "pyodide-" not in wrapper.replace(pyodide, "")
    main = json.loads((ROOT / "mpy.json").read_text())
    assert main["interpreter"] == (
        f"./assets/vendor/micropython-{versions['micropython']}/micropython.mjs"
    )
    # the engine worker's interpreter module is the wrapper, from the pinned folder only
    engine = (ROOT / "assets" / "engine-loader.mjs").read_text()
    engine += (ROOT / "assets" / "engine-download.mjs").read_text()
    folders = set(re.findall(r"\./vendor/pyodide-([0-9.]+)/", engine))
    assert folders == {versions["pyodide"]}
    loader = (ROOT / "assets" / "main-thread.js").read_text()
    assert f"./assets/vendor/pyscript-{versions['pyscript']}/core.js" in loader


def test_the_page_leaves_out_every_plugin_of_the_vendored_pyscript():
    """PyScript loads its plugins (editor, terminal, ...) for each Python unless the page's
    <py-config> and <mpy-config> name them with "!": the editor's looked the whole document over
    after every redraw. The names come from the vendored core's own table of plugins, so a new
    PyScript with a new plugin fails here until the page leaves it out too."""
    version = build.pinned_versions()["pyscript"]
    folder = ROOT / "assets" / "vendor" / f"pyscript-{version}"
    core = "".join(path.read_text() for path in folder.glob("core-*.js"))
    # the core's table of plugins: ={name:()=>import("./name-hash.js"),...}
    editor = core.index('"py-editor":()=>')
    table = core[core.rindex("={", 0, editor) : core.index("};", editor)]
    plugins = {name.strip('"') for name in re.findall(r'([\w"-]+):\(\)=>', table)}
    assert {"py-editor", "py-terminal", "error"} <= plugins
    page = (ROOT / "index.html").read_text()
    body = page[page.index("<body>") :]  # (in <head>, an unknown element shows in the body)
    for tag in ("py-config", "mpy-config"):
        found = re.findall(rf'<{tag} hidden type="json">(.*?)</{tag}>', body, re.S)
        assert len(found) == 1 and page.count(f"<{tag}") == 1, tag
        assert set(json.loads(found[0])["plugins"]) == {f"!{name}" for name in plugins}, tag


def test_page_references_no_other_origin():
    pages = ("index.html", "pyscript.json", "mpy.json", "assets/parlour.css")
    for name in (*pages, "assets/main-thread.js", "assets/engine-loader.mjs"):
        text = (ROOT / name).read_text()
        assert not re.search(r"""(src|href|url|interpreter)\s*[=(]\s*["']?https?://""", text), name


def test_pyscript_json_is_what_pyscript_toml_says(tmp_path: Path):
    """People edit pyscript.toml; the page loads pyscript.json, which the build writes from it
    (run `python -m scripts.build` and commit both). A change to the TOML reaches the JSON."""
    toml = tomllib.loads((ROOT / site.WORKER_CONFIG).read_text(encoding="utf-8"))
    assert json.loads((ROOT / site.WORKER_JSON).read_text(encoding="utf-8")) == toml
    assert (ROOT / site.WORKER_JSON).read_text(encoding="utf-8") == site.worker_json()
    assert site.WORKER_JSON in site.SITE_FILES and site.WORKER_CONFIG not in site.SITE_FILES
    edited = (
        (ROOT / site.WORKER_CONFIG)
        .read_text(encoding="utf-8")
        .replace("sync_main_only = true", "sync_main_only = false")
    )
    (tmp_path / site.WORKER_CONFIG).write_text(edited, encoding="utf-8")
    assert site.write_worker_json(tmp_path) and not site.write_worker_json(tmp_path)
    assert json.loads((tmp_path / site.WORKER_JSON).read_text())["sync_main_only"] is False


def test_vendored_files_are_ignored_by_git():
    ignored = (ROOT / ".gitignore").read_text().split()
    assert "/assets/vendor/" in ignored and "/assets/build/" in ignored


def test_app_zip_is_reproducible_and_holds_the_package(tmp_path):
    first = build.build_app_zip().read_bytes()
    second = build.build_app_zip().read_bytes()
    assert first == second
    import zipfile

    names = zipfile.ZipFile(build.APP_ZIP).namelist()
    assert "parlour/__init__.pyc" in names and "parlour/ui/app.pyc" in names  # scripts/pyc.py
    assert not any("__pycache__" in n for n in names)


@pytest.fixture(scope="module")
def server():
    import threading

    httpd = make_server(0, quiet=True)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


@pytest.mark.parametrize(
    ("path", "content_type"),
    [
        ("/index.html", "text/html"),
        ("/pyscript.json", "application/json"),
        ("/assets/parlour.css", "text/css"),
        ("/assets/icon.svg", "image/svg+xml"),
        ("/assets/vendor/pyodide-314.0.7/pyodide.asm.wasm", "application/wasm"),
        ("/assets/vendor/pyodide-314.0.7/pyodide.mjs", "text/javascript"),
        ("/assets/vendor/pyodide-314.0.7/pyodide-lock.json", "application/json"),
        ("/assets/vendor/pyscript-0.7.31/core.js", "text/javascript"),
    ],
)
def test_server_sets_mime_types_itself(server, path, content_type):
    with urllib.request.urlopen(server + path) as response:
        assert response.headers["Content-Type"].split(";")[0] == content_type
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        if "/assets/vendor/" in path:
            assert "immutable" in response.headers["Cache-Control"]


def test_server_mime_table_covers_every_type_the_page_uses():
    for suffix in (".wasm", ".js", ".mjs", ".json", ".svg", ".css", ".toml", ".html", ".zip"):
        assert suffix in MIME_TYPES


def test_server_rebuilds_the_app_zip_when_a_source_changes(server):
    source = site.app_sources()[0]
    build.build_app_zip()
    before = build.APP_ZIP.stat().st_mtime
    source.touch()
    with urllib.request.urlopen(server + "/assets/build/parlour.zip") as response:
        assert response.status == 200
    assert build.APP_ZIP.stat().st_mtime >= before
    assert not build.app_zip_is_stale()


def test_server_rewrites_the_standard_library_when_the_package_changes(server):
    """An import added to the package is in the trimmed standard library at the next reload:
    runtime.json, which the page reads first, and the zip are written again when stale."""
    site.app_sources()[0].touch()
    assert stdlib.is_stale()
    with urllib.request.urlopen(server + "/assets/build/runtime.json") as response:
        assert response.status == 200
        assert json.loads(response.read())["stdlib"] == stdlib.summary(stdlib.TRIMMED)
    assert not stdlib.is_stale()


def test_another_checkout_is_served_as_its_own_build_made_it(tmp_path: Path):
    """The bench's earlier code (bench/baseline.py) is built by its own scripts.build; served
    here, this checkout's list of sources (py/ui/webcrypto.py, which it may lack) is not
    applied to it: its zip is sent as it is, not rebuilt, and the request does not fail."""
    import threading

    (tmp_path / "assets" / "build").mkdir(parents=True)
    (tmp_path / "py" / "parlour").mkdir(parents=True)
    zipped = tmp_path / "assets" / "build" / "parlour.zip"
    zipped.write_bytes(b"its own build")
    source = tmp_path / "py" / "parlour" / "__init__.py"
    source.write_text("")
    os.utime(source, (zipped.stat().st_mtime + 60,) * 2)  # newer than its zip
    httpd = make_server(0, quiet=True, root=tmp_path)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{httpd.server_address[1]}/assets/build/parlour.zip"
        with urllib.request.urlopen(url) as response:
            assert response.status == 200 and response.read() == b"its own build"
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_a_deploy_with_no_sources_is_kept_up_to_date_without_a_fault(tmp_path: Path):
    """A deploy (dist/) holds no package sources and no py/ui/webcrypto.py: asking whether its
    zip is stale must not fail on a source it lacks, so the server can still rewrite its
    service worker after a file changes (e2e/test_offline.py's second deploy needs it)."""
    (tmp_path / "assets" / "build").mkdir(parents=True)
    (tmp_path / "assets" / "build" / "parlour.zip").write_bytes(b"the deploy's build")
    (tmp_path / "py").mkdir()
    assert site.app_sources(tmp_path) == []
    assert not build.app_zip_is_stale(tmp_path)


def _netlify_headers() -> dict[str, dict[str, str]]:
    config = tomllib.loads((ROOT / "netlify.toml").read_text())
    return {h["for"]: h["values"] for h in config["headers"]}


def test_netlify_builds_like_make_serve_and_sends_the_right_headers():
    config = tomllib.loads((ROOT / "netlify.toml").read_text())
    assert "scripts.build" in config["build"]["command"]
    assert "npm ci" in config["build"]["command"]
    headers = _netlify_headers()
    policy = headers["/*"]["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["default-src"] == "'self'"
    assert directives["frame-ancestors"] == "*"  # blogs embed the page
    assert directives["object-src"] == "'none'"
    script = directives["script-src"].split()
    assert "'self'" in script and "'unsafe-inline'" not in script
    fetched = [v for k, v in directives.items() if k != "frame-ancestors"]
    assert not any(src.startswith(("http", "*")) for v in fetched for src in v.split())
    assert headers["/*"]["X-Content-Type-Options"] == "nosniff"
    assert headers["/*.wasm"]["Content-Type"] == "application/wasm"
    assert headers["/assets/vendor/*"]["Cache-Control"] == "public, max-age=31536000, immutable"


def test_dist_holds_exactly_the_site(tmp_path: Path):
    out = build.assemble_dist(tmp_path / "dist")
    files = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    assert {"index.html", "pyscript.json", "py/main.py", "assets/build/parlour.zip"} <= files
    assert any(f.endswith("pyodide.asm.wasm") for f in files)
    assert not any(f.startswith(("node_modules", "tests", ".venv", "scripts")) for f in files)


@pytest.mark.parametrize(
    "path",
    ["/", "/index.html", "/assets/early.js", "/assets/vendor/pyodide-314.0.7/pyodide.mjs"],
)
def test_make_serve_sends_netlifys_headers(server, path):
    """One place for the headers: `make serve` reads netlify.toml, so the browser tests run
    under the same Content-Security-Policy as the deploy."""
    with urllib.request.urlopen(server + path) as response:
        for name, value in headers_for(path).items():
            if name != "Content-Type":
                assert response.headers[name] == value, name
        assert "default-src 'self'" in response.headers["Content-Security-Policy"]


def test_the_page_has_no_inline_script():
    """The policy allows only the site's own script files."""
    html = (ROOT / "index.html").read_text()
    for tag in re.findall(r"<script\b[^>]*>", html):
        assert "src=" in tag, tag


@pytest.mark.parametrize("path", site.app_sources(), ids=lambda p: p.name)
def test_the_browser_gets_each_module_without_comments_and_docstrings_lines_kept(path):
    import ast

    if path.suffix != ".py":
        return
    source = path.read_text()
    shipped = site.browser_source(source)
    assert shipped.count("\n") == source.count("\n")  # a traceback points at the right line
    assert stdlib.code_of(ast.parse(shipped)) == stdlib.code_of(ast.parse(source))
    lines = iter(shipped.splitlines(True))
    tokens = tokenize.generate_tokens(lambda: next(lines, ""))
    assert not [t for t in tokens if t.type == tokenize.COMMENT]


def test_nothing_the_browser_gets_imports_a_developer_only_module():
    import ast

    left_out = {name.removesuffix(".py").replace("/", ".") for name in site.DEVELOPER_ONLY}
    for path in site.app_sources():
        if path.suffix != ".py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = {node.module, *(f"{node.module}.{a.name}" for a in node.names)}
                assert not names & left_out, (path, names & left_out)
            if isinstance(node, ast.Import):
                assert not {a.name for a in node.names} & left_out, path
