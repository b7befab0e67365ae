// Psi Parlour's service worker: the whole site, one version at a time, offline after one visit.
//
// This file is a template: `python3 -m scripts.build` writes /sw.js from it, filling in the list
// of every file the site publishes and a cache name made from a hash of their contents
// (scripts/offline.py). A new deploy therefore changes /sw.js, the browser installs the new
// version in the background into a cache of its own, and the page offers "A new version is
// ready: reload". Until the player reloads, the old worker keeps serving the old cache whole:
// a page never mixes files of two versions.

const CACHE = "__CACHE__";
const FILES = __FILES__;
const PREFIX = "psi-parlour-";
// Versioned folders never change in place: the browser's HTTP cache may answer for them.
const IMMUTABLE = "/assets/vendor/";

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      Promise.all(
        FILES.map(async (file) => {
          const url = new URL(file, self.registration.scope);
          const fresh = url.pathname.includes(IMMUTABLE) ? "default" : "no-cache";
          const response = await fetch(url, { cache: fresh });
          if (!response.ok) throw new Error(`${url}: ${response.status}`);
          await cache.put(url, response);
        }),
      ),
    ),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names.filter((n) => n.startsWith(PREFIX) && n !== CACHE).map((n) => caches.delete(n)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

// The page asks for the waiting version when the player chooses to reload.
self.addEventListener("message", (event) => {
  if (event.data === "skip-waiting") self.skipWaiting();
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  // The page under any query (?embed=1, ?source=app) is the one page the cache holds.
  const scope = new URL(self.registration.scope);
  const page = url.pathname === scope.pathname || url.pathname === `${scope.pathname}index.html`;
  const key = request.mode === "navigate" && page ? new URL("./index.html", scope) : url;
  event.respondWith(
    caches
      .open(CACHE)
      .then((cache) => cache.match(key))
      .then((cached) => cached || fetch(request)),
  );
});
