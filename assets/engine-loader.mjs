// The engine worker's Python (pyscript.json's "interpreter"): Pyodide's own loadPyodide, given
// the part of the standard library the site imports, which the build writes
// (scripts/stdlib.py), instead of Pyodide's whole python_stdlib.zip.
import { loadPyodide as load, version } from "./vendor/pyodide-314.0.7/pyodide.mjs";

export { version };

// PyScript passes this module's own folder as indexURL: Pyodide's files are in the vendor folder.
const indexURL = new URL("./vendor/pyodide-314.0.7/", import.meta.url).href;
const stdLibURL = new URL("./build/python_stdlib.zip", import.meta.url).href;

export function loadPyodide(options = {}) {
  return load({ ...options, indexURL, stdLibURL });
}
