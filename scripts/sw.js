// Psi Parlour's service worker: the whole site, offline after one visit, and every page served
// only the files of the version it started on.
//
// This file is a template: `python3 -m scripts.build` writes /sw.js from it, filling in the list
// of every file the site publishes and a version made from a hash of their contents
// (scripts/offline.py). A new deploy therefore changes /sw.js, the browser installs the new
// version in the background into a cache of its own, and every open page offers "A new version
// is ready: Reload".
//
// Several tabs may run several versions at once: when one tab accepts the new version, the
// others go on with the version they loaded until they reload. So this worker remembers, for
// every page and engine worker it answers (a "client"), which version's cache it started on, and
// answers each from that cache alone; an old version's cache goes when its last client does.
// Caches are named by the registration's scope as well, so two deployments of the site on one
// origin (say /parlour/ and /parlour-test/) never touch each other's copy.

const VERSION = "__VERSION__";
const FILES = __FILES__;
const SCOPE = self.registration.scope;
const OURS = `psi-parlour ${SCOPE} `; // a scope is a URL: it holds no space
const CACHE = OURS + VERSION;
// Caches of the first service worker, named by version alone: ours if they hold our page.
const UNSCOPED = /^psi-parlour-[0-9a-f]{16}$/;
// Versioned folders never change in place: the browser's HTTP cache may answer for them.
const IMMUTABLE = "/assets/vendor/";
// Inside each version's cache, one empty entry per client on that version (never a published
// path: the site has no dot-folder), and the time the version took over.
const CLIENT = new URL("./.parlour/client/", SCOPE).href;
const ACTIVATED = new URL("./.parlour/activated", SCOPE).href;
// Every answer from a cache but the runtime's names its version in this header; a request
// with ?parlour-version=<version> is for that version's file (assets/main-thread.js asks so for
// the engine worker's configuration, which the worker fetches first: a worker may start after a
// newer version took over its page).
const HEADER = "x-parlour-version";
const PIN = "parlour-version";

const versions = new Map(); // client id -> cache name: this worker's memory of the entries

// The runtime as the engine worker downloaded it on a first visit (assets/engine-download.mjs): taken
// from here rather than downloaded again, then the hand-over cache goes.
const HANDED = "psi-parlour runtime, handed over";

// A handed-over copy is taken for a versioned file (it never changes in place), and for another
// runtime file only if it is byte for byte the one this version's runtime.json names by its
// SHA-256 (a deploy between the page's download and this install would otherwise mix versions).
const RUNTIME = "./assets/build/runtime.json";

async function runtimeHashes() {
  try {
    const response = await fetch(new URL(RUNTIME, SCOPE), { cache: "no-cache" });
    const hashes = response.ok ? (await response.clone().json()).hashes || {} : {};
    return [response, new Map(Object.entries(hashes).map(([f, h]) => [new URL(f, SCOPE).href, h]))];
  } catch {
    return [null, new Map()];
  }
}

async function sha256(response) {
  const digest = await crypto.subtle.digest("SHA-256", await response.clone().arrayBuffer());
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function handedCopy(handed, url, hashes) {
  const kept = handed ? await handed.match(url) : undefined;
  if (!kept) return undefined;
  if (url.pathname.includes(IMMUTABLE)) return kept;
  const expected = hashes.get(url.href);
  return expected && (await sha256(kept)) === expected ? kept : undefined;
}

async function install() {
  const cache = await caches.open(CACHE);
  const handed = (await caches.has(HANDED)) ? await caches.open(HANDED) : null;
  const [runtime, hashes] = handed ? await runtimeHashes() : [null, new Map()];
  await Promise.all(
    FILES.map(async (file) => {
      const url = new URL(file, SCOPE);
      const immutable = url.pathname.includes(IMMUTABLE);
      const fresh = url.href === new URL(RUNTIME, SCOPE).href && runtime && runtime.ok;
      const kept = fresh ? runtime : await handedCopy(handed, url, hashes);
      const response = kept || (await fetch(url, { cache: immutable ? "default" : "no-cache" }));
      if (!response.ok) throw new Error(`${url}: ${response.status}`);
      // kept as it will go out (stamped now, not on every answer: see `answer`)
      await cache.put(url, immutable ? response : stamped(response, CACHE));
    }),
  );
  if (handed) await caches.delete(HANDED);
}

self.addEventListener("install", (event) => event.waitUntil(install()));

// Every cache of this scope: this deployment's versions, and an unscoped one holding our page.
async function ourCaches() {
  const names = await caches.keys();
  const unscoped = await Promise.all(
    names
      .filter((n) => UNSCOPED.test(n))
      .map(async (n) => ((await caches.open(n)).match(new URL("./index.html", SCOPE)) ? n : null)),
  );
  return [...names.filter((n) => n.startsWith(OURS)), ...unscoped.filter(Boolean)];
}

async function remember(id, name) {
  versions.set(id, name);
  await (await caches.open(name)).put(CLIENT + encodeURIComponent(id), new Response(""));
}

// The cache a client started on, from memory or from the entries (this worker may have been
// stopped and started since), or null for a client never seen.
async function recorded(id) {
  if (versions.has(id)) return versions.get(id);
  for (const name of await ourCaches()) {
    if (await (await caches.open(name)).match(CLIENT + encodeURIComponent(id))) {
      versions.set(id, name);
      return name;
    }
  }
  return null;
}

// A client that said which version it is (PIN) is that version from now on.
async function pin(id, name) {
  if ((await recorded(id)) === name) return;
  const entry = CLIENT + encodeURIComponent(id);
  for (const other of await ourCaches()) await (await caches.open(other)).delete(entry);
  await remember(id, name);
}

// A client first seen by this version started on its files: it loaded while this version was
// the one answering (or from the network, which this version was installed from).
async function versionOf(id) {
  if (!id) return CACHE;
  const name = await recorded(id);
  if (name && (await caches.has(name))) return name;
  await remember(id, CACHE);
  return CACHE;
}

// The version that answered before this one: the last to take over, else the unscoped one.
async function previousVersion() {
  let newest = null;
  let when = -1;
  for (const name of await ourCaches()) {
    if (name === CACHE) continue;
    const stamp = await (await caches.open(name)).match(ACTIVATED);
    const time = stamp ? Number(await stamp.text()) : 0;
    if (time > when) [newest, when] = [name, time];
  }
  return newest;
}

// Drop the entries of clients that are gone, then every old version no client uses.
async function prune() {
  const all = await self.clients.matchAll({ type: "all", includeUncontrolled: true });
  const alive = new Set(all.map((c) => c.id));
  for (const name of await ourCaches()) {
    const cache = await caches.open(name);
    const entries = (await cache.keys()).filter((r) => r.url.startsWith(CLIENT));
    let used = name === CACHE;
    for (const entry of entries) {
      const id = decodeURIComponent(entry.url.slice(CLIENT.length));
      if (alive.has(id)) used = true;
      else {
        versions.delete(id);
        await cache.delete(entry);
      }
    }
    if (!used) await caches.delete(name);
  }
}

// Taking over: every page and worker that was running the old version keeps it (they are
// ours now, and would otherwise be answered from the new cache); pages loaded from the network
// before any worker (a first visit) are claimed as this version.
async function takeOver() {
  const previous = await previousVersion();
  const running = await self.clients.matchAll({ type: "all" });
  for (const client of running) {
    if (previous && !(await recorded(client.id))) await remember(client.id, previous);
  }
  await (await caches.open(CACHE)).put(ACTIVATED, new Response(String(Date.now())));
  await self.clients.claim();
  await prune();
}

self.addEventListener("activate", (event) => event.waitUntil(takeOver()));

// "skip-waiting": the player chose to reload into this version. "loaded": a page is up, so any
// page it replaced is gone and that page's version may be too.
self.addEventListener("message", (event) => {
  if (event.data === "skip-waiting") self.skipWaiting();
  if (event.data === "loaded") event.waitUntil(prune());
});

// The version a cache of this scope holds ("" for an unscoped cache of the first worker).
const versionIn = (name) => (name.startsWith(OURS) ? name.slice(OURS.length) : "");

// The same answer, saying which version it came from.
function stamped(response, name) {
  const headers = new Headers(response.headers);
  const version = versionIn(name);
  if (version) headers.set(HEADER, version);
  const { status, statusText } = response;
  return new Response(response.body, { status, statusText, headers });
}

// A page opened now is this version; anything else asked for is answered from its client's,
// or from the version its address names (a new engine worker of an old page).
async function answer(event, key, pinned) {
  let name;
  if (event.request.mode === "navigate") name = CACHE;
  else if (pinned && (await caches.has(pinned))) {
    name = pinned;
    if (event.clientId) await pin(event.clientId, name);
  } else name = await versionOf(event.clientId);
  const cached = await (await caches.open(name)).match(key);
  // Every file goes out as the cache holds it, stamped when it was kept: Chromium keeps a
  // script's compiled code only then, and a body passed through a stream of this worker's own
  // costs its CPU while the page starts (the 3.3 MB standard library). A cache kept by an
  // earlier service worker holds unstamped copies: those are stamped on the way.
  if (!cached) return fetch(event.request);
  const version = versionIn(name);
  const asKept = key.pathname.includes(IMMUTABLE) || cached.headers.get(HEADER) === version;
  return asKept || !version ? cached : stamped(cached, name);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  const asked = url.searchParams.get(PIN);
  const pinned = asked && OURS + asked;
  if (pinned) url.search = "";
  // The page under any query (?embed=1, ?source=app) is the one page the cache holds.
  const scope = new URL(SCOPE);
  const page = url.pathname === scope.pathname || url.pathname === `${scope.pathname}index.html`;
  const key = request.mode === "navigate" && page ? new URL("./index.html", scope) : url;
  if (request.mode === "navigate" && event.resultingClientId) {
    event.waitUntil(remember(event.resultingClientId, CACHE));
  }
  event.respondWith(answer(event, key, pinned));
});
