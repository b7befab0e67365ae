// PyScript's own IndexedDB databases, where the browser refuses IndexedDB (docs/deploy.md,
// "Embedding in a blog": a frame denied storage).
//
// PyScript keeps two small databases of its own (its IDBMap, named "IDBMap/<name>"): the engine
// worker opens "IDBMap/<Pyodide's address>@<version>" (a cache of package lock files, which this
// site has none of) and waits for it before it calls `loadPyodide`; core.js opens
// "IDBMap/@pyscript.fs" on the main thread when it is imported (for pyscript.fs, which the site
// never uses). Where the browser refuses IndexedDB (a frame on another site with third-party
// storage blocked: Chromium fails every open with "The user denied permission to access the
// database.") PyScript rejects with the error *event*: in the worker that is its start-up fault,
// which it posts to the page, and an Event cannot be cloned, so the page showed "DataCloneError
// ... Event object could not be cloned" and the engines never started; on the main thread it
// was an uncaught rejection and a second dispatch of the same event, both page errors.
//
// So before PyScript runs, each thread calls `keepPyScriptCacheInMemory()`: an open of one of
// PyScript's databases goes to the browser as before, and only where the browser refuses it
// does PyScript get a store in memory instead. Nothing is kept, as nothing would have been; our
// own databases (the engine snapshot, the signing keys) are left to fail, which their code
// already takes as "nothing kept here".

const PYSCRIPT_DATABASES = "IDBMap/";

// An answer of the store in memory: its handlers are set just after the call and hear the
// answer a moment later, as a real request's would.
function answered(result) {
  const request = { result };
  queueMicrotask(() => request.onsuccess?.({ type: "success", target: request }));
  return request;
}

// The calls PyScript's IDBMap makes, on a Map.
function databaseInMemory() {
  const entries = new Map();
  const store = {
    count: () => answered(entries.size),
    clear: () => answered(entries.clear()),
    delete: (key) => answered(void entries.delete(key)),
    get: (key) => answered(entries.get(key)),
    getKey: (key) => answered(entries.has(key) ? key : undefined),
    getAll: () => answered([...entries.values()]),
    getAllKeys: () => answered([...entries.keys()]),
    put: (value, key) => answered(entries.set(key, value) && key),
  };
  return {
    objectStoreNames: { length: 1, contains: () => true },
    transaction: () => ({ objectStore: () => store }),
    close() {},
  };
}

/** Give PyScript's databases a store in memory where the browser refuses to open them. */
export function keepPyScriptCacheInMemory() {
  const factory = globalThis.IDBFactory?.prototype;
  if (!factory || factory.open.pyscriptInMemory) return;
  const open = factory.open;
  const opening = function (name, ...rest) {
    if (!String(name).startsWith(PYSCRIPT_DATABASES)) return open.call(this, name, ...rest);
    const request = {};
    let real = null;
    const inMemory = () => {
      const why = real?.error ? `${real.error.name}: ${real.error.message}` : "refused";
      console.debug(`parlour-engine: ${name} kept in memory (${why})`);
      request.result = databaseInMemory();
      request.onsuccess?.({ type: "success", target: request });
    };
    try {
      real = open.call(this, name, ...rest);
    } catch {
      queueMicrotask(inMemory); // refused at once (Firefox throws a SecurityError)
      return request;
    }
    real.onupgradeneeded = (event) => request.onupgradeneeded?.(event);
    real.onsuccess = (event) => request.onsuccess?.(event);
    real.onblocked = (event) => request.onblocked?.(event);
    real.onerror = (event) => {
      event.preventDefault();
      inMemory();
    };
    return request;
  };
  opening.pyscriptInMemory = true;
  factory.open = opening;
}
