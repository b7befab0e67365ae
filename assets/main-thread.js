// The page's two Pythons (docs/two-threads.md).
//
// Main thread: the vendored MicroPython runs py/main.py, which owns the DOM. It is started here,
// not by a <script type="mpy"> tag, because PyScript's mpy start first writes PyScript's own
// Python package (about 33 KB of source) into MicroPython's file system in one 95-110 ms task,
// a package the main thread never imports; that one task alone broke "a click at any moment is
// answered within 100 ms". Here each step is its own short task.
//
// Worker: PyScript's PyWorker runs py/worker.py in Pyodide (pyscript.toml); it exports `call`,
// which main.py awaits through window.parlourEngine.

const MANIFEST = "./mpy.json"; // {"interpreter": ..., "files": {site path: module path}}
const MAIN = "./py/main.py";
const WORKER = "./py/worker.py";
const WORKER_CONFIG = "./pyscript.json"; // PyScript's worker configuration, as JSON
const PYSCRIPT = "./assets/vendor/pyscript-0.7.31/core.js";
const here = (path) => new URL(path, document.baseURI).href;

const text = async (url) => {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
  return response.text();
};

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

// The error panel, for a fault while either Python starts (main.py reports the worker's).
function showFault(error) {
  console.error(error);
  const panel = document.getElementById("boot-error");
  if (panel) {
    panel.querySelector("pre").textContent = String(error && error.stack ? error.stack : error);
    panel.hidden = false;
  }
  document.documentElement.dataset.boot = "failed";
}

// The service worker names the site's version on every file it answers (scripts/sw.js). The
// engine worker fetches its configuration under that name first, and the service worker answers
// it from then on with this page's version, even if a newer one took over since this page
// loaded. (PyScript reads a configuration's type from the end of its address: hence "&.json".)
async function workerConfig() {
  const response = await fetch(WORKER_CONFIG);
  if (!response.ok) throw new Error(`${WORKER_CONFIG}: ${response.status} ${response.statusText}`);
  const version = response.headers.get("x-parlour-version");
  const pinned = version ? `?parlour-version=${version}&.json` : "";
  return { config: await response.json(), configURL: here(WORKER_CONFIG + pinned) };
}

/** Start an engine worker (Pyodide, py/worker.py) and resolve to its exported functions. */
export async function startEngine() {
  await nextTask();
  const [{ PyWorker }, { config, configURL }] = await Promise.all([
    import(here(PYSCRIPT)),
    workerConfig(),
  ]);
  await nextTask();
  const version = here(config.interpreter); // what PyScript's <script worker> tag works out
  const worker = await PyWorker(here(WORKER), { config, configURL, version });
  return worker.sync;
}

// The engine worker starts at once (its download and start run off the main thread); main.py
// awaits this promise for the worker's exported functions.
window.parlourEngine = startEngine();
window.parlourEngine.catch(showFault);
window.parlourFault = showFault;

async function writeModules(micropython, files) {
  const sources = await Promise.all(Object.keys(files).map(text));
  Object.values(files).forEach((path, index) => {
    const folders = path.split("/").slice(0, -1);
    folders.forEach((_, depth) => {
      const folder = folders.slice(0, depth + 1).join("/");
      if (!micropython.FS.analyzePath(folder).exists) micropython.FS.mkdir(folder);
    });
    micropython.FS.writeFile(path, sources[index]);
  });
}

async function startMainThread() {
  const manifest = JSON.parse(await text(MANIFEST));
  const interpreter = here(manifest.interpreter);
  const [{ loadMicroPython }, main] = await Promise.all([import(interpreter), text(MAIN)]);
  await nextTask();
  const micropython = await loadMicroPython({
    url: interpreter.replace(/\.mjs$/, ".wasm"),
    stderr: (line) => console.error(line),
    stdout: (line) => console.log(line),
  });
  await nextTask();
  await writeModules(micropython, manifest.files);
  await nextTask();
  await micropython.runPythonAsync(main);
}

startMainThread().catch(showFault);
