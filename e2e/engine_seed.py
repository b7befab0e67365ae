"""Most browser tests start the engines as a return visit does: from the engine snapshot.

A fresh browser context is a device that never saw the site, so every page of the suite used to
start Pyodide cold (3-5 s on a quiet 2-core machine, 10-25 s while it is busy) and then make a
snapshot in idle time that no one would use. A player's device does that once. Here the suite
makes the snapshot once, in a context of its own, exactly as a player's device makes it
(assets/snapshot-worker.mjs), and puts a copy in each new context's IndexedDB before the test's
first page opens, under the key and address the page's loader looks for
(assets/engine-loader.mjs). The page under test is the published one, unchanged: it restores
the snapshot as on any return visit, and its maker finds the snapshot kept.

Tests of a first visit (the loading screens, clicks while the engines load, the snapshot's own
lifecycle) are marked `first_visit` and get a context with nothing in it (e2e/conftest.py).
"""

from __future__ import annotations

import base64
import contextlib
import os
import time
from pathlib import Path

from e2e.harness import READY, READY_TIMEOUT_MS

# A folder of the checkout the site does not publish (.gitignore), served beside the site
# during the browser tests only: the blank page that seeds a context, and the snapshot's bytes.
FOLDER = ".e2e-engine-seed"
FOLDER_PATH = Path(__file__).resolve().parent.parent / FOLDER
# (named by the run, so two runs in one checkout keep their own)
SEED_PAGE, SEED_BYTES = f"seed-{os.getpid()}.html", f"engine-{os.getpid()}.snapshot"
DB, KEYS, BYTES = "psi-parlour-engine", "keys", "bytes"  # assets/engine-loader.mjs
CHUNK = 4_000_000  # bytes read out of the browser per call

READ_CHUNK = """async ([db, store, site, start, size]) => {
  const open = indexedDB.open(db, 1);
  const opened = await new Promise((ok, no) => { open.onsuccess = () => ok(open.result);
                                                 open.onerror = () => no(open.error); });
  const get = opened.transaction(store).objectStore(store).get(site);
  const value = await new Promise((ok, no) => { get.onsuccess = () => ok(get.result);
                                                get.onerror = () => no(get.error); });
  opened.close();
  if (typeof value === "string" || value === undefined) return value ?? null;
  if (start >= value.byteLength) return "";
  const part = new Uint8Array(value, start, Math.min(size, value.byteLength - start));
  let text = "";
  for (let i = 0; i < part.length; i += 0x8000)
    text += String.fromCharCode(...part.subarray(i, i + 0x8000));
  return btoa(text);
}"""

WRITE = """async ([db, keys, bytes, site, key, url]) => {
  const snapshot = await (await fetch(url)).arrayBuffer();
  const open = indexedDB.open(db, 1);
  open.onupgradeneeded = () => { open.result.createObjectStore(keys);
                                 open.result.createObjectStore(bytes); };
  const opened = await new Promise((ok, no) => { open.onsuccess = () => ok(open.result);
                                                 open.onerror = () => no(open.error); });
  const done = opened.transaction([keys, bytes], "readwrite");
  done.objectStore(keys).put(key, site);
  done.objectStore(bytes).put(snapshot, site);
  await new Promise((ok, no) => { done.oncomplete = ok; done.onerror = done.onabort = no; });
  opened.close();
  return snapshot.byteLength;
}"""


class EngineSeed:
    """This build's engine snapshot, made once in a context of its own, for seeding others.

    The site's own server hands the seeding page and the bytes out of a folder of the test's,
    `FOLDER` (the server's `also_serve`): the page must be on the site's origin to reach its
    IndexedDB, and on the loopback address (a page a route makes up has none, and Chromium's
    local network rules then refuse its fetch from a loopback server; a route answering the
    38 MB itself took 30-50 s a context)."""

    def __init__(self, site_url: str, key: str) -> None:
        self.site_url = site_url
        self.key = key

    @classmethod
    def made_in(cls, browser, site_url: str, timeout_s: float = 180) -> EngineSeed:
        """Open the site as a first visit, wait for its snapshot's maker, read the snapshot."""
        context = browser.new_context()
        try:
            page = context.new_page()
            said: list[str] = []
            page.on("console", lambda m: said.append(m.text))
            page.goto(site_url)
            page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
            deadline = time.monotonic() + timeout_s
            while not any(s.startswith("parlour-engine: snapshot ") for s in said):
                if time.monotonic() > deadline:
                    raise TimeoutError("the page made no engine snapshot")
                page.wait_for_timeout(200)
            made = next(s for s in said if s.startswith("parlour-engine: snapshot "))
            if "made" not in made and "kept" not in made:
                raise RuntimeError(made)
            key = page.evaluate(READ_CHUNK, [DB, KEYS, site_url, 0, 0])
            FOLDER_PATH.mkdir(exist_ok=True)
            (FOLDER_PATH / SEED_PAGE).write_text("<!doctype html><title>seed</title>\n")
            with (FOLDER_PATH / SEED_BYTES).open("wb") as out:
                start = 0
                while chunk := page.evaluate(READ_CHUNK, [DB, BYTES, site_url, start, CHUNK]):
                    out.write(base64.b64decode(chunk))
                    start += CHUNK
            return cls(site_url, key)
        finally:
            context.close()

    def seed(self, context) -> None:
        """Put the snapshot in this context's IndexedDB, for the site's address.

        The seeding page stays open, blank, until the context closes. Chromium 150 (Debian
        12's) keeps a large IndexedDB value of an off-the-record context (every Playwright
        context) as a blob that it may drop when the page that wrote it closes: read from
        another page after the writer closed, about one in four failed ("UnknownError: Failed
        to read large IndexedDB value"; 3 of 12 in a probe, 0 of 20 with the writer open, 0 of
        16 on Chromium 156 either way). Such a page started cold: the return-visit tests failed
        now and then on 150 only."""
        page = context.new_page()
        page.goto(self.site_url + f"{FOLDER}/{SEED_PAGE}")
        bytes_url = self.site_url + f"{FOLDER}/{SEED_BYTES}"
        page.evaluate(WRITE, [DB, KEYS, BYTES, self.site_url, self.key, bytes_url])

    @staticmethod
    def clear() -> None:
        """Remove this run's files (and the folder, when no other run's are left)."""
        for name in (SEED_PAGE, SEED_BYTES):
            (FOLDER_PATH / name).unlink(missing_ok=True)
        with contextlib.suppress(OSError):
            FOLDER_PATH.rmdir()
