"""The fair-play vectors computed by the browser's Python (Pyodide, on the real runtime and the
real zipped package) must equal the checked-in ones that CPython reproduces."""

from __future__ import annotations

import json
from pathlib import Path

from e2e.harness import READY_TIMEOUT_MS, UI_READY

VECTORS_DIR = Path(__file__).resolve().parent.parent / "tests" / "vectors"

RUNNER = """<!doctype html>
<html><head><meta charset="utf-8">
<script type="module" src="./assets/vendor/pyscript-0.7.31/core.js"></script></head>
<body><pre id="out"></pre>
<script type="application/json" id="vectors">{vectors}</script>
<script type="application/json" id="source">{source}</script>
<script type="py" config="./pyscript.json">
import json, sys
from pyscript import document
sys.path.insert(0, "parlour.zip")  # as py/main.py does
namespace = {{"__name__": "vectors_compute"}}
exec(compile(json.loads(document.getElementById("source").textContent), "compute.py", "exec"),
     namespace)
vectors = json.loads(document.getElementById("vectors").textContent)
document.getElementById("out").textContent = json.dumps(
    {{"python": sys.version, "computed": namespace["compute"](vectors)}})
document.documentElement.dataset.ready = "true"
</script></body></html>"""


def test_pyodide_draws_exactly_like_cpython(page, site, watch):
    vectors = json.loads((VECTORS_DIR / "fair.json").read_text())
    source = (VECTORS_DIR / "compute.py").read_text()
    html = RUNNER.format(vectors=json.dumps(vectors), source=json.dumps(source))
    page.route(
        "**/__vectors__.html",
        lambda route: route.fulfill(body=html, content_type="text/html; charset=utf-8"),
    )
    page.goto(site.url + "__vectors__.html")
    page.wait_for_selector(UI_READY, state="attached", timeout=READY_TIMEOUT_MS)
    report = json.loads(page.locator("#out").inner_text())
    assert not report["python"].startswith("3.11"), "this should be the browser's Python"
    assert report["computed"] == vectors
