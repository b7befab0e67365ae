// The engine's download, counted as it arrives (issue 28, honest loading), for the interpreter
// module (assets/engine-loader.mjs), which runs Pyodide's loadPyodide inside `counting`.
//
// While Pyodide loads, every runtime file the worker fetches (the lock file, the WebAssembly
// binary, the standard library) is counted from a clone of its answer, the answer itself going
// to Pyodide untouched; the modules already imported are counted when each is in (the browser's
// resource timing). The page's loading screens hear the counts on a BroadcastChannel: the
// runtime is downloaded once, by the worker, and never a second time to be measured.

const CHANNEL = "psi-parlour:engine-load"; // the page's side: assets/main-thread.js
const EVERY_MS = 200; // a few counts a second, not a message per chunk

function tell(channel, message) {
  try {
    channel.postMessage(message);
  } catch {
    // a closed channel: nobody is counting any more
  }
}

// The service worker keeps the runtime for offline play; it installs after the engine is up, and
// would download the runtime a second time where the browser keeps no disk cache (a private
// window: the 9.6 MB WebAssembly binary is too big for its memory cache). So a first visit's
// worker hands its download over in this cache, which the service worker's install takes the
// runtime from, then deletes (scripts/sw.js, HANDED).
const HANDED = "psi-parlour runtime, handed over";

// Whether this worker's files come from the service worker (a later visit): Pyodide's module,
// imported above, then went through it.
function fromServiceWorker(index) {
  const [entry] = performance.getEntriesByName(new URL("pyodide.mjs", index).href);
  return Boolean(entry && entry.workerStart > 0);
}

async function handOver(url, response) {
  try {
    await (await caches.open(HANDED)).put(url, response);
  } catch {
    // no storage here (refused, full): the service worker downloads it itself
  }
}

// Count one answer's bytes as they arrive, from its clone (the answer goes to Pyodide as is);
// on a first visit the counted copy is handed over to the service worker.
async function count(channel, url, response, keep) {
  const copy = response.clone();
  let loaded = 0;
  let told = 0;
  const counted = new TransformStream({
    transform(chunk, controller) {
      loaded += chunk.length;
      const now = performance.now();
      if (now - told >= EVERY_MS) {
        told = now;
        tell(channel, { url, loaded });
      }
      controller.enqueue(chunk);
    },
  });
  const body = copy.body.pipeThrough(counted);
  const { status, statusText, headers } = copy;
  if (keep) await handOver(url, new Response(body, { status, statusText, headers }));
  else await body.pipeTo(new WritableStream());
  tell(channel, { url, loaded, done: true });
}

// Each runtime file once it is in: whether it came from this device (no bytes over the network).
function entriesSeen(channel, isRuntime) {
  return (list) => {
    for (const entry of list.getEntries()) {
      if (!isRuntime(entry.name)) continue;
      tell(channel, { url: entry.name, done: true, cached: entry.transferSize === 0 });
    }
  };
}

/**
 * Run `load` (Pyodide's loadPyodide, cold or from a snapshot) with the runtime's downloads
 * counted: `isRuntime(url)` says which addresses are the runtime's (runtime.json's files), and
 * `index` is Pyodide's folder (its module, imported before, says whether the service worker
 * answered: a later visit, with nothing to hand over).
 */
export async function counting(load, isRuntime, index) {
  const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL) : null;
  if (channel === null) return load();
  const seen = entriesSeen(channel, isRuntime);
  const observer = new PerformanceObserver(seen);
  observer.observe({ type: "resource", buffered: true });
  const keep = typeof caches === "object" && !fromServiceWorker(index);
  const fetchItself = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const response = await fetchItself(input, init);
    const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url, index).href;
    if (isRuntime(url) && response.ok && response.body) {
      count(channel, url, response, keep).catch(() => {});
    }
    return response;
  };
  try {
    return await load();
  } finally {
    globalThis.fetch = fetchItself;
    seen({ getEntries: () => observer.takeRecords() }); // the entries not yet delivered
    observer.disconnect();
    setTimeout(() => channel.close(), 1000); // the last counts first
  }
}
