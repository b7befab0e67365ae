// The engine's Python compiles the site's modules (scripts/pyc.py): run by the build under Node
// with the pinned Pyodide, the one the browser gets, so the bytecode and its magic number are
// that Python's. Reads {"pyodide": folder, "files": {name: [filename, source]}} as JSON on stdin
// and writes {name: base64 .pyc} on stdout. Column positions are left out (PYTHONNODEBUGRANGES:
// a third of the bytes; tracebacks keep their lines). A file asked for "unannotated" is compiled
// without its functions' annotations (scripts/unannotated.py, run here in the engine's Python).
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const request = JSON.parse(readFileSync(0, "utf-8"));
const { loadPyodide } = await import(pathToFileURL(`${request.pyodide}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ env: { PYTHONNODEBUGRANGES: "1" } });
pyodide.globals.set("files", JSON.stringify(request.files));
pyodide.globals.set("unannotated_py", readFileSync(new URL("./unannotated.py", import.meta.url), "utf-8"));
const out = pyodide.runPython(`
import base64, importlib.util, json, marshal

found = {}
exec(unannotated_py, found)
recipes = {"unannotated": found["unannotated"]}  # scripts/pyc.py's UNANNOTATED; else as written

def pyc(filename, source, recipe):
    """An unchecked hash-based .pyc (PEP 552): valid with or without its source beside it."""
    data = source.encode("utf-8")
    tree = recipes[recipe](source, filename) if recipe in recipes else data
    code = compile(tree, filename, "exec", dont_inherit=True)
    head = importlib.util.MAGIC_NUMBER + (0b01).to_bytes(4, "little")
    return head + importlib.util.source_hash(data) + marshal.dumps(code)

json.dumps({
    name: base64.b64encode(pyc(filename, source, recipe)).decode()
    for name, (filename, source, recipe) in sorted(json.loads(files).items())
})
`);
process.stdout.write(out);
