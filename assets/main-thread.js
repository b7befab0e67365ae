// The page's two Pythons (docs/two-threads.md).
//
// Main thread: the vendored MicroPython runs py/main.py, which owns the DOM. It is started here,
// not by a <script type="mpy"> tag, because PyScript's mpy start first writes PyScript's own
// Python package (about 33 KB of source) into MicroPython's file system in one 95-110 ms task,
// a package the main thread never imports; that one task alone broke "a click at any moment is
// answered within 100 ms". Here each step is its own short task.
//
// Worker: PyScript's PyWorker runs py/worker.py in Pyodide (pyscript.json); it exports `call`,
// which main.py awaits through window.parlourEngine, each answer read here first (answers.mjs).

import { lighten, release, unbulk } from "./answers.mjs";

const MANIFEST = "./mpy.json"; // {"interpreter": ..., "files": {site path: module path}}
const MAIN = "./py/main.py";
const WORKER = "./py/worker.py";
const WORKER_CONFIG = "./pyscript.json"; // PyScript's worker configuration, as JSON
const PYSCRIPT = "./assets/vendor/pyscript-0.7.31/core.js";
const IDB_REFUSED = "./assets/idb-refused.mjs"; // PyScript's databases where IndexedDB is refused
const RUNTIME = "./assets/build/runtime.json"; // the build's list of Pyodide's files and sizes
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

// PyScript's core, as it is imported, starts a MutationObserver on the whole document (every
// element and attribute added, and an XPath query over each added subtree) to find
// <script type="py"> tags and py-* event attributes. This page has neither: its Pythons are
// started here and its clicks go through main.py, so the watch only added its callback to the
// end of every redraw's task (about 5 ms of an ESPEERS redraw at 4x). That one watch is
// refused: while the core is imported, an observe of `document` itself for children, subtree
// and attributes, once (the page's own watches are of <html> and <body>, in assets/site.js;
// everything else observes as usual).
async function withoutDocumentWatch(load) {
  const prototype = MutationObserver.prototype;
  const observe = prototype.observe;
  let refused = false;
  const refusing = function (target, options) {
    const watch = options && options.childList && options.subtree && options.attributes;
    if (target === document && watch && !options.attributeFilter && !refused) refused = true;
    else observe.call(this, target, options);
  };
  prototype.observe = refusing;
  try {
    return await load();
  } finally {
    if (prototype.observe === refusing) prototype.observe = observe;
  }
}

/** Start an engine worker (Pyodide, py/worker.py) and resolve to its exported functions. */
export async function startEngine() {
  await nextTask();
  // PyScript's core.js opens a database of its own as it is imported: where the browser
  // refuses IndexedDB it gets one in memory, before (assets/idb-refused.mjs)
  const pyscript = import(here(IDB_REFUSED)).then((idb) => {
    idb.keepPyScriptCacheInMemory();
    return withoutDocumentWatch(() => import(here(PYSCRIPT)));
  });
  const [{ PyWorker }, { config, configURL }] = await Promise.all([pyscript, workerConfig()]);
  await nextTask();
  // the interpreter module PyScript's worker imports (what its <script worker> tag works out):
  // pyscript.json's assets/engine-loader.mjs, Pyodide's loadPyodide from this device's snapshot
  // or cold, counting its own download
  const version = here(config.interpreter);
  const worker = await PyWorker(here(WORKER), { config, configURL, version });
  const engine = worker.sync;
  const call = async (request) => lighten(await engine.call(request));
  // each answer reaches main.py without its bulk (assets/answers.mjs); the worker's other
  // exports (a test's) pass as they are
  return new Proxy(engine, { get: (target, name) => (name === "call" ? call : target[name]) });
}

// The engine worker starts at once (its download and start run off the main thread); main.py
// awaits this promise for the worker's exported functions.
window.parlourEngine = startEngine();
window.parlourEngine.catch(showFault);
window.parlourEngine.then(whenOffline).then(() => whenIdle(keepSnapshot)).catch(() => {});
// the loading screens' numbers, for the page's own engine only; never in the engine's way
nextTask().then(watchDownload).catch(() => {});

// The engine snapshot (assets/engine-loader.mjs): once the engines are ready and the page is
// idle, a worker of its own makes this device's snapshot, for the next visit to start from, or
// finds it already kept. Nothing of it runs on this thread but starting and ending that worker.
const SNAPSHOT_MAKER = "./assets/snapshot-worker.mjs";
const whenIdle = (then) =>
  "requestIdleCallback" in window ? requestIdleCallback(then, { timeout: 5000 }) : setTimeout(then, 1000);

// The maker loads Pyodide a second time: it waits until the service worker answers this page
// (a first visit: once its install took the engine's download), so that load comes from the
// device, not the network (a private window keeps no disk cache: the 9.6 MB binary would be
// downloaded again). A browser without service workers makes it at once, from its HTTP cache.
function whenOffline() {
  const workers = navigator.serviceWorker;
  const refused = () => document.documentElement.dataset.offline === "unavailable";
  if (!workers || workers.controller || refused()) return Promise.resolve();
  return new Promise((resolve) => {
    workers.addEventListener("controllerchange", resolve, { once: true });
    window.addEventListener("parlour-offline-unavailable", resolve, { once: true }); // assets/site.js
  });
}

function keepSnapshot() {
  try {
    const maker = new Worker(here(SNAPSHOT_MAKER), { type: "module" });
    const end = (what) => {
      console.debug(`parlour-engine: snapshot ${what}`);
      maker.terminate();
    };
    maker.onmessage = (event) => end(event.data);
    maker.onerror = () => end("not made: the worker failed");
  } catch {
    // no module workers here: every visit starts cold, as before
  }
}

// Honest loading (issue 28): the screens count the bytes of the runtime the engine worker
// downloads against the total the build wrote (assets/build/runtime.json). The worker counts
// them itself, as they arrive (assets/engine-download.mjs, in its interpreter module), and says so on a
// BroadcastChannel: the runtime is downloaded once. (Measuring it here with a fetch of our own
// downloaded it twice where the browser keeps no disk cache: private windows, fresh profiles.)
// What the screens say: bytes so far of the total, an estimate of the time left, and at the end
// whether it came from this device or was downloaded and kept.
const LOAD_CHANNEL = "psi-parlour:engine-load";
const MB = (bytes) => (bytes / 1e6).toFixed(1);
const seconds = (s) => (s < 90 ? `${Math.max(1, Math.round(s))} s` : `${Math.round(s / 60)} min`);

function showLoading(text, share) {
  document.querySelectorAll("[data-load-progress]").forEach((el) => {
    el.textContent = text;
  });
  document.querySelectorAll("[data-load-percent]").forEach((el) => {
    el.textContent = share === null || share >= 1 ? "" : `${Math.floor(share * 100)}%`;
  });
  document.querySelectorAll(".boot-wait .progress-bar").forEach((bar) => {
    bar.classList.toggle("measured", share !== null);
    if (share !== null) bar.style.setProperty("--loaded", String(share));
  });
}

async function watchDownload() {
  if (typeof BroadcastChannel !== "function") return;
  const channel = new BroadcastChannel(LOAD_CHANNEL); // listening before the worker counts
  const early = []; // counts heard before the sizes are read
  channel.onmessage = ({ data }) => early.push(data);
  const response = await fetch(RUNTIME);
  if (!response.ok) {
    channel.close();
    return;
  }
  const { files, bytes: total } = await response.json();
  const sizes = new Map(files.map(([url, size]) => [here(url), size]));
  const loaded = new Map(); // url -> bytes so far (a file done counts whole)
  const cached = new Map(); // url -> whether it came from this device
  const root = document.documentElement;
  const start = performance.now();
  let drawn = 0;
  let over = false;
  const fetched = () => [...loaded.values()].reduce((a, b) => a + b, 0);
  const draw = (force) => {
    const now = performance.now();
    if (!force && now - drawn < 250) return; // a few words a second, not a task per count
    drawn = now;
    const sum = fetched();
    const elapsed = (now - start) / 1000;
    const left = elapsed > 1 && sum > 0 ? ((total - sum) * elapsed) / sum : null;
    const about = left === null ? "" : `, about ${seconds(left)} left`;
    showLoading(
      `Downloading the game engine: ${MB(sum)} of ${MB(total)} MB (${Math.floor((100 * sum) / total)}%)${about}.`,
      sum / total,
    );
    root.dataset.loadBytes = `${sum}/${total}`;
  };
  // every file in and where each came from known (or the engine up: what is known then)
  const finish = () => {
    if (over) return;
    over = true;
    channel.close();
    const took = (performance.now() - start) / 1000;
    const known = [...cached.values()];
    const local =
      (known.length > 0 && known.every(Boolean)) ||
      Boolean(navigator.serviceWorker && navigator.serviceWorker.controller);
    root.dataset.loadBytes = `${fetched()}/${total}`;
    root.dataset.loadFrom = local ? "device" : "network";
    showLoading(
      local
        ? `The game engine (${MB(total)} MB) was already on this device: nothing to download. Starting it…`
        : `Downloaded the game engine (${MB(fetched())} MB in ${seconds(took)}). It is kept on this device, so your next visit starts without downloading it. Starting it…`,
      1,
    );
  };
  const heard = (data) => {
    const size = data && sizes.get(data.url);
    if (over || size === undefined) return; // not a runtime file, or counted already
    // another tab's engine may count the same files: a file's count only grows
    const now = data.done ? size : Math.min(size, Number(data.loaded) || 0);
    loaded.set(data.url, Math.max(loaded.get(data.url) || 0, now));
    if (typeof data.cached === "boolean") cached.set(data.url, data.cached);
    if (fetched() === total && cached.size === sizes.size) finish();
    else draw(false);
  };
  draw(true);
  channel.onmessage = ({ data }) => heard(data);
  early.forEach(heard);
  window.parlourEngine.then(() => {
    for (const url of sizes.keys()) heard({ url, done: true }); // up: every file is in
    finish();
  });
}
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
    let text;
    try {
      text = unbulk(value); // an answer's save, kept here (answers.mjs)
    } catch {
      return "refused"; // never: an answer's bulk goes only once it is applied
    }
    try {
      if (text === null || text === undefined) area.removeItem(key);
      else area.setItem(key, text);
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

// WebRTC's and BroadcastChannel's calls that throw rather than reject, for shell/links.py (a
// throw ends main.py, above): WebRTC switched off in the browser or by an extension, a frame
// denied it, a channel closing under a send. Each answers null or false instead.
window.parlourLinks = {
  // a peer connection, or null where the browser refuses one
  connection(config) {
    try {
      return new RTCPeerConnection(JSON.parse(config));
    } catch {
      return null;
    }
  },
  // the host's data channel on `pc`, or null
  channel(pc, label) {
    try {
      return pc.createDataChannel(label, { ordered: true });
    } catch {
      return null;
    }
  },
  // a BroadcastChannel between this browser's tabs, or null
  broadcast(name) {
    try {
      return new BroadcastChannel(name);
    } catch {
      return null;
    }
  },
  // true when `text` went out on `channel` (a data channel or a BroadcastChannel)
  send(channel, text) {
    try {
      const tabs = typeof BroadcastChannel === "function" && channel instanceof BroadcastChannel;
      if (tabs) channel.postMessage(text);
      else channel.send(text);
      return true;
    } catch {
      return false;
    }
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

// A region's changes since its last drawing (parlour.ui.redraw: [marks, puts, splices] as JSON
// text, every path counted in elements from the region), made here in one call: MicroPython
// would cross to the DOM once per step of every path. Answers {lost, fresh}: whether the focus
// was in a part taken out, and the elements put in; or null when a part is not where the worker
// drew it (the caller then draws the whole).
window.parlourPatch = (region, text) => {
  let changes;
  try {
    changes = JSON.parse(unbulk(text)); // kept here when long (answers.mjs)
  } catch {
    return null;
  }
  const [marks, puts, splices] = changes;
  const find = (path, tag) => {
    let node = region;
    for (const i of path) {
      node = node.children[i];
      if (!node) return null;
    }
    return node.tagName.toLowerCase() === tag.toLowerCase() ? node : null;
  };
  const marked = marks.map(([path, tag]) => find(path, tag));
  const targets = puts.map(([path, tag]) => find(path, tag));
  const parents = splices.map(([path, tag]) => (path.length ? find(path, tag) : region));
  if ([...marked, ...targets, ...parents].includes(null)) return null;
  const active = document.activeElement;
  const fresh = [];
  let lost = false;
  // A focused control about to go loses its focus before the first write, while the page is
  // still laid out: taken out with the focus in it, it made the browser lay out the half-changed
  // page at once (issue 39), and the focus is given back after the writes anyway (shell.dom).
  // Not a field: blurred, one edited would fire "change" in the middle of the patch.
  const going = splices.flatMap(([, , start, taken], i) =>
    Array.from({ length: taken }, (_, n) => parents[i].children[start + n]),
  );
  const field = active && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName);
  if (active && !field && [...targets, ...going].some((part) => part && part.contains(active))) {
    active.blur();
  }
  marks.forEach(([, , attrs], i) => {
    for (const [name, value] of Object.entries(attrs)) {
      if (value === null) marked[i].removeAttribute(name);
      else marked[i].setAttribute(name, value);
    }
  });
  puts.forEach(([path, , html], i) => {
    const parent = targets[i].parentElement;
    lost = lost || targets[i].contains(active);
    targets[i].outerHTML = html;
    fresh.push(parent.children[path[path.length - 1]]);
  });
  for (let i = 0; i < splices.length; i++) {
    const [, , start, taken, added, html] = splices[i];
    const parent = parents[i];
    for (let n = 0; n < taken; n++) {
      const child = parent.children[start];
      if (!child) return null;
      lost = lost || child.contains(active);
      child.remove();
    }
    const after = parent.children[start];
    if (html && after) after.insertAdjacentHTML("beforebegin", html);
    else if (html) parent.insertAdjacentHTML("beforeend", html);
    for (let n = start; n < start + added; n++) fresh.push(parent.children[n]);
  }
  return { lost, fresh: fresh.filter(Boolean) };
};

// A region's whole drawing (HTML, or the name of an answer's kept drawing: answers.mjs); false,
// and the region left as it was, when the drawing is no longer kept (never: an answer's bulk
// goes only once it is applied). An answer applied: its bulk goes (window.parlourRelease).
window.parlourHTML = (region, html) => {
  try {
    region.innerHTML = unbulk(html);
    return true;
  } catch {
    return false;
  }
};
window.parlourRelease = release;
