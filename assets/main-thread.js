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

// The engine worker starts at once (its download and start run off the main thread); main.py
// awaits this promise for the worker's exported functions.
window.parlourEngine = (async () => {
  await nextTask();
  const [{ PyWorker }, config] = await Promise.all([
    import(here(PYSCRIPT)),
    text(WORKER_CONFIG).then(JSON.parse),
  ]);
  await nextTask();
  const version = here(config.interpreter); // what PyScript's <script worker> tag works out
  const worker = await PyWorker(here(WORKER), { config, configURL: here(WORKER_CONFIG), version });
  return worker.sync;
})();
window.parlourEngine.catch(showFault);
window.parlourFault = showFault;

// The browser's storage, for main.py: MicroPython cannot catch an exception thrown by a JS call
// or property (it unwinds through the interpreter and ends main.py), and storage throws: a
// SecurityError where it is refused (cookies blocked, a frame denied storage), a
// QuotaExceededError when it is full. Each function here answers instead of throwing.
const storageArea = (name) => {
  try {
    const area = window[name];
    return area && area.length >= 0 ? area : null;
  } catch {
    return null;
  }
};
window.parlourStorage = {
  refused: (name) => storageArea(name) === null,
  // "" when written (a null value removes the key), "full" or "refused" when not
  write(name, key, value) {
    const area = storageArea(name);
    if (area === null) return "refused";
    try {
      if (value === null || value === undefined) area.removeItem(key);
      else area.setItem(key, value);
      return "";
    } catch {
      return "full";
    }
  },
  // the keys, as JSON text (a saved game's text is long: only the keys, to see what is saved)
  keys(name) {
    try {
      const area = storageArea(name);
      return JSON.stringify(area === null ? [] : Array.from({ length: area.length }, (_, i) => area.key(i)));
    } catch {
      return "[]";
    }
  },
  get(name, key) {
    try {
      const area = storageArea(name);
      return area === null ? null : area.getItem(key);
    } catch {
      return null;
    }
  },
  // every key and value starting with `prefix`, as JSON text ("{}" where refused)
  snapshot(name, prefix) {
    const values = {};
    try {
      const area = storageArea(name);
      for (let i = 0; area !== null && i < area.length; i++) {
        const key = area.key(i);
        if (key.startsWith(prefix)) values[key] = area.getItem(key);
      }
    } catch {
      // refused part way: what was read
    }
    return JSON.stringify(values);
  },
};

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
