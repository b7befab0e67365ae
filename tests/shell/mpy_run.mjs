// Runs a test module of the main thread's code under the real MicroPython (the PyScript build
// vendored for the page), in Node: py/shell/*.py and the test files go into MicroPython's file
// system, the test module runs, and every `test_*` function in it is called (awaited if it is a
// coroutine). One line per test: "ok <name>" or "FAIL <name>" and the traceback. Exit code 1 if
// any failed. Usage: node tests/shell/mpy_run.mjs tests/shell/mpy_test_dom.py
import { readFileSync, readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const { loadMicroPython } = await import(
  join(root, "node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs")
);
let failed = false;
const mp = await loadMicroPython({
  stdout: (line) => {
    if (line.startsWith("FAIL")) failed = true;
    console.log(line);
  },
  stderr: (line) => console.error(line),
});
mp.FS.mkdir("/shell");
for (const name of readdirSync(join(root, "py/shell"))) {
  if (name.endsWith(".py")) mp.FS.writeFile(`/shell/${name}`, readFileSync(join(root, "py/shell", name)));
}
for (const name of readdirSync(here)) {
  if (name.endsWith(".py")) mp.FS.writeFile(`/${name}`, readFileSync(join(here, name)));
}
const module = basename(process.argv[2]).replace(/\.py$/, "");
try {
await mp.runPythonAsync(`
import sys
sys.path.insert(0, "/")
import ${module} as suite
for name in sorted(dir(suite)):
    if not name.startswith("test_"):
        continue
    try:
        result = getattr(suite, name)()
        if hasattr(result, "send"):
            await result
        print("ok", name)
    except BaseException as error:
        print("FAIL", name)
        sys.print_exception(error)
`);
} catch (error) {  // a module that does not even import: say why in a few lines
  console.log("FAIL import " + module);
  console.log(String(error.message || error).slice(0, 2000));
  failed = true;
}
process.exit(failed ? 1 : 0);
