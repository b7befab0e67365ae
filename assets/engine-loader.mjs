// The engine worker's interpreter module (pyscript.json's "interpreter"): Pyodide's own
// `loadPyodide`, wrapped so a return visit starts from a memory snapshot kept on this device.
//
// A cold start runs Python's start-up and compiles the package from parlour.zip: seconds on
// every visit. A snapshot is Pyodide's memory after start-up and after importing the package
// (`makeMemorySnapshot`); restoring it takes a fraction of a second. The snapshot is made on this
// device, in a worker of its own that does nothing else (assets/snapshot-worker.mjs, started by
// assets/main-thread.js when the page is idle), and kept raw in IndexedDB, which the service
// worker's clean-up of old caches never touches. It is never shipped.
//
// It is valid only for the exact runtime it was made with: the build hashes Pyodide's version,
// the standard library zip, parlour.zip, the list of imports and this file into a key
// (assets/build/runtime.json). A snapshot under another key is deleted; one that fails to
// restore is deleted and the engines start cold. No storage (a private window, storage refused,
// a full disk) means a cold start, silently. docs/deploy.md, "The engine snapshot".
//
// `_makeSnapshot` and `_loadSnapshot` are private options of Pyodide 314.0.7: pinned there
// and tested (e2e/test_snapshot.py).

import { loadPyodide as pyodideLoad, version } from "./vendor/pyodide-314.0.7/pyodide.mjs";
import { counting } from "./engine-download.mjs";
import { keepPyScriptCacheInMemory } from "./idb-refused.mjs";

export { version };

const INDEX_URL = new URL("./vendor/pyodide-314.0.7/", import.meta.url).href;
const RUNTIME = new URL("./build/runtime.json", import.meta.url).href;
const APP_ZIP = new URL("./build/parlour.zip", import.meta.url).href;
// the part of the standard library the site imports, written by the build (scripts/stdlib.py),
// instead of Pyodide's whole python_stdlib.zip
const STDLIB_URL = new URL("./build/python_stdlib.zip", import.meta.url).href;
const SITE = new URL("../", import.meta.url).href; // one snapshot per deployment on an origin
const DB = "psi-parlour-engine";
const KEYS = "keys"; // site -> the key of its snapshot (small: read first, to decide)
const BYTES = "bytes"; // site -> the snapshot (about 30 MB)

// The options every Pyodide of the site starts with, the snapshot's maker and the player's
// engine alike: a snapshot restores only into the runtime it was made with.
// (PyScript passes this module's own folder as indexURL: Pyodide's files are in the vendor folder.)
const runtimeOptions = () => ({
  indexURL: INDEX_URL,
  stdLibURL: STDLIB_URL,
});

const logged = (what) => console.debug(`parlour-engine: ${what}`); // tests read these lines

// PyScript's worker opens a cache of its own in IndexedDB before it calls `loadPyodide`: where
// the browser refuses IndexedDB it gets one in memory (assets/idb-refused.mjs), or the engines
// would never start.
keepPyScriptCacheInMemory();

// -- IndexedDB, as promises; every failure is a rejection the callers turn into "no snapshot" --

const done = (request) =>
  new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });

function openStore() {
  const request = indexedDB.open(DB, 1);
  request.onupgradeneeded = () => {
    request.result.createObjectStore(KEYS);
    request.result.createObjectStore(BYTES);
  };
  return done(request);
}

const read = (db, store) => done(db.transaction(store).objectStore(store).get(SITE));

// The snapshot's bytes, asked for once more, a moment later, after an UnknownError: Chromium
// keeps a large value as a blob of its own, and says UnknownError for a read that failed for a
// passing cause (short of memory), NotReadableError for a file gone (MDN). A second try saves a
// cold start and a snapshot made again when the cause passed. Chromium 150 also says
// UnknownError, for good, for a private window's value whose writer has gone (e2e/engine_seed.py
// found it); then the second read fails too, and the engines start cold as before.
const readBytes = async (db) => {
  try {
    return await read(db, BYTES);
  } catch (error) {
    if (error?.name !== "UnknownError") throw error;
    logged(`reading the snapshot again (${error})`);
    await new Promise((resolve) => setTimeout(resolve, 250));
    return read(db, BYTES);
  }
};

function write(db, entries) {
  const transaction = db.transaction([KEYS, BYTES], "readwrite");
  for (const [store, value] of entries) {
    if (value === undefined) transaction.objectStore(store).delete(SITE);
    else transaction.objectStore(store).put(value, SITE);
  }
  return new Promise((resolve, reject) => {
    transaction.oncomplete = resolve;
    transaction.onerror = transaction.onabort = () => reject(transaction.error);
  });
}

const forget = (db) => write(db, [[KEYS, undefined], [BYTES, undefined]]);

/** The build's key and list of warm imports for this version of the site. */
async function expected() {
  const response = await fetch(RUNTIME);
  if (!response.ok) throw new Error(`${RUNTIME}: ${response.status}`);
  return (await response.json()).snapshot;
}

// -- the player's engine ------------------------------------------------------------------

// The runtime's files, whose download the loading screens count (runtime.json's list): Pyodide's
// folder, the trimmed standard library and this module.
const isRuntime = (url) => url.startsWith(INDEX_URL) || url === STDLIB_URL || url === import.meta.url;

/** Pyodide started from this device's snapshot when there is a good one, else cold; its
 * download counted for the loading screens (assets/engine-download.mjs). */
export function loadPyodide(options = {}) {
  return counting(() => loadEngine(options), isRuntime, INDEX_URL);
}

async function loadEngine(options) {
  const start = performance.now();
  const settings = { ...options, ...runtimeOptions() };
  let db = null;
  try {
    const [db_, { key }] = await Promise.all([openStore(), expected()]);
    db = db_;
    const stored = await read(db, KEYS);
    if (stored === key) {
      const pyodide = await restore(settings, readBytes(db));
      logged(`restored from the snapshot in ${Math.round(performance.now() - start)} ms`);
      return pyodide;
    }
    if (stored !== undefined) await forget(db); // made for another version of the site
  } catch (error) {
    // a private window, storage refused, or a snapshot that would not restore
    logged(`no snapshot (${error}): starting cold`);
    if (db !== null) await forget(db).catch(() => {});
  }
  const pyodide = await pyodideLoad(settings);
  logged(`started cold in ${Math.round(performance.now() - start)} ms`);
  return pyodide;
}

/** Restore, then give back what a snapshot froze: Python's random state was the maker's. */
async function restore(settings, bytes) {
  const snapshot = await bytes;
  if (!(snapshot instanceof ArrayBuffer) || snapshot.byteLength < 8) {
    throw new Error("the stored snapshot is not one");
  }
  const pyodide = await pyodideLoad({
    ...settings,
    _loadSnapshot: snapshot,
    createPyodideModule: sizedFor(snapshot),
  });
  // parlour.zip comes back into the file system from PyScript (pyscript.json's "files") before
  // worker.py runs: nothing imports between here and there.
  pyodide.runPython("import sys\nif 'random' in sys.modules: sys.modules['random'].seed()");
  return pyodide;
}

// Pyodide 314.0.7 restores a snapshot into the memory its wasm declares (30 MiB): the
// INITIAL_MEMORY it sets for a snapshot is never read (pyodide/pyodide#6254), so a snapshot of a
// heap that grew past it fails with "offset is out of bounds". The package's imports grow it to
// about 36 MiB, so the module is grown to the snapshot's heap before the restore, through
// Pyodide's `createPyodideModule` option (the same constructor, from pyodide.asm.mjs).
function sizedFor(snapshot) {
  const heap = snapshot.byteLength - new Uint32Array(snapshot, 0, 2)[1]; // after the header
  return async (settings) => {
    const create = (await import(`${INDEX_URL}pyodide.asm.mjs`)).default;
    const module = await create(settings);
    if (module.HEAP8.length < heap && !module.growMemory(heap)) {
      throw new Error("no memory for the snapshot");
    }
    return module;
  };
}

// -- the snapshot's maker (assets/snapshot-worker.mjs) -----------------------------------------

/** Make and keep this version's snapshot, unless this device has it; say what happened. */
export async function makeSnapshot() {
  const db = await openStore();
  const [{ key, imports }, stored] = await Promise.all([expected(), read(db, KEYS)]);
  if (stored === key) return "kept"; // (another version's was deleted by loadPyodide)
  const [pyodide, zip] = await Promise.all([
    pyodideLoad({ ...runtimeOptions(), _makeSnapshot: true }),
    fetch(APP_ZIP).then((r) => (r.ok ? r.arrayBuffer() : Promise.reject(new Error(r.status)))),
  ]);
  // where and as PyScript puts it (pyscript.json's "files": ./parlour.zip, in the home folder),
  // and imported as worker.py imports it, so the zip importer's cache matches after a restore
  pyodide.FS.writeFile("parlour.zip", new Uint8Array(zip));
  // (a JSON list of names is a Python list: no JS object crosses into Python, which a snapshot
  // could not hold)
  pyodide.runPython(
    "import importlib, sys\nsys.path.insert(0, 'parlour.zip')\n" +
      `for name in ${JSON.stringify(imports)}: importlib.import_module(name)\ndel name`,
  );
  const snapshot = pyodide.makeMemorySnapshot();
  const whole = snapshot.byteOffset === 0 && snapshot.byteLength === snapshot.buffer.byteLength;
  await write(db, [
    [KEYS, key],
    [BYTES, whole ? snapshot.buffer : snapshot.slice().buffer],
  ]);
  return `made (${(snapshot.byteLength / 1e6).toFixed(1)} MB)`;
}
