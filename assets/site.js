// The site around the games (README, "Offline and installing" and "Embedding"): the service
// worker that keeps the site offline, the notice of a new version, and in an embed the height
// told to the parent page. Plain JavaScript beside the Pythons: none of it touches a game, and
// all of it must work even while (or if) Python cannot start.

const root = document.documentElement;
const embedded = "embed" in root.dataset;

// ---- Offline: the service worker (/sw.js, written by the build) ----------------------------

// Installed once the engines are up, so its copy of the site comes from the browser's cache
// instead of competing with the first start for the network.
function engineReady() {
  if (root.dataset.engine === "ready" || root.dataset.boot === "failed") return Promise.resolve();
  return new Promise((resolve) => {
    new MutationObserver((_, observer) => {
      if (root.dataset.engine === "ready" || root.dataset.boot === "failed") {
        observer.disconnect();
        resolve();
      }
    }).observe(root, { attributes: true, attributeFilter: ["data-engine", "data-boot"] });
  });
}

// A new version waits until the player chooses to reload: the page they have keeps running on
// the version it started with (the service worker answers it from that version's cache), and a
// game in progress is saved on this device and resumes. Every open tab says so; the tab whose
// Reload is pressed first lets the new version take over, and each other tab moves to it when
// its own Reload is pressed.
function watchForUpdates(registration) {
  const notice = document.getElementById("update-ready");
  let accepted = false;
  const offer = () => {
    if (!notice) return;
    notice.hidden = false;
    root.dataset.update = "ready";
    notice.querySelector("button").onclick = () => {
      accepted = true;
      if (registration.waiting) registration.waiting.postMessage("skip-waiting");
      else location.reload(); // another tab let it take over already
    };
  };
  // With no controller a version is the first install: nothing to replace, nothing to offer.
  const offerIfReplacing = () => navigator.serviceWorker.controller && offer();
  const follow = (incoming) => {
    if (incoming.state === "installed") offerIfReplacing();
    incoming.addEventListener("statechange", () => {
      if (incoming.state === "installed") offerIfReplacing();
    });
  };
  if (registration.waiting) offerIfReplacing();
  if (registration.installing) follow(registration.installing);
  registration.addEventListener("updatefound", () => follow(registration.installing));
  let controlled = navigator.serviceWorker.controller !== null;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (accepted) location.reload();
    else if (controlled) offer(); // another tab let a new version take over: this page is old
    controlled = true;
  });
}

async function keepOffline() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  await engineReady();
  try {
    const registration = await navigator.serviceWorker.register("./sw.js", { scope: "./" });
    watchForUpdates(registration);
    root.dataset.offline = "registered";
    await navigator.serviceWorker.ready;
    root.dataset.offline = "ready";
    // This page is up, so any page it replaced is gone: the worker may drop that one's version.
    navigator.serviceWorker.controller?.postMessage("loaded");
  } catch (error) {
    // Private windows and some embeds may refuse storage: the site still works online.
    console.info("Offline play is not available here:", error.message);
    root.dataset.offline = "unavailable"; // (the engine snapshot's maker waits on this or a worker)
    window.dispatchEvent(new Event("parlour-offline-unavailable"));
  }
}

// Online play needs a network path to the other devices; the set-up forms say so when there is
// none (a LAN without internet is enough: the browser counts that as online).
function watchNetwork() {
  const mark = () => {
    root.dataset.network = navigator.onLine ? "online" : "offline";
  };
  window.addEventListener("online", mark);
  window.addEventListener("offline", mark);
  mark();
}

// ---- Embedded: the height the parent page may give the frame -------------------------------

// The message (README, "Embedding"): {type: "psi-parlour:height", version: 1, height: px}, and
// when a card the reader must see is new on the page (a hand-off, the result, "Replace your
// game?"), once, `card: {top, height}` in the frame's pixels, so the blog's snippet can scroll it
// into view: the frame grows and shrinks with its screens (a Psi Squad set-up of 1,084 px became
// a hand-off of 392 px, and the hand-off landed at the window's bottom edge, or above it).
// It carries nothing but numbers, so it may go to any parent ("*"); the parent's snippet
// checks that it comes from this site's origin.
const HEIGHT_MESSAGE = "psi-parlour:height";
const CARDS = "[data-role=handoff], [data-role=result], [data-role=replace-game]";

function tellHeight() {
  let last = 0;
  let told = null; // the card last told
  const send = () => {
    const height = Math.ceil(document.body.getBoundingClientRect().height);
    const shown = [...document.querySelectorAll(CARDS)].find((c) => c.getClientRects().length);
    // only while the reader is in the frame: a blog opened again must not scroll to its game
    const card = shown && shown !== told && document.hasFocus() ? shown : null;
    if (shown) told = shown;
    if ((height !== last || card) && height > 0) {
      last = height;
      const message = { type: HEIGHT_MESSAGE, version: 1, height };
      if (card) {
        const box = card.getBoundingClientRect();
        message.card = { top: Math.round(box.top + window.scrollY), height: Math.ceil(box.height) };
      }
      window.parent.postMessage(message, "*");
    }
  };
  // a new card may come without a change of height: every redraw is looked at, once a frame
  let due = false;
  const soon = () => {
    if (due) return;
    due = true;
    requestAnimationFrame(() => {
      due = false;
      send();
    });
  };
  new ResizeObserver(send).observe(document.body);
  new MutationObserver(soon).observe(document.body, { childList: true, subtree: true });
  window.addEventListener("hashchange", send);
  send();
}

// "Open the full site": the same screen (the game, the replay) without the embed's chrome.
function linkFullSite() {
  const link = document.getElementById("full-site");
  if (!link) return;
  const update = () => {
    link.href = `${location.pathname}${location.hash}`;
  };
  window.addEventListener("hashchange", update);
  update();
}

// ESP's "More board beyond the edge": shown while the board's frame can scroll. The frame's
// size and its board's are watched, and the frame's area marked (data-pans) at each change. (A
// scroll-driven animation drew this before, without script; Chromium 150 and 156 kept a
// frame's scroll range from before a window's resize, so the hint stayed on a frame that could
// no longer scroll.) The marks are the page's own: the worker's redraws leave them alone.
function markPanningFrames() {
  const watched = new WeakSet();
  const mark = (frame) => {
    const area = frame.closest(".esp-area");
    if (!area) return;
    const pans =
      frame.scrollWidth > frame.clientWidth + 1 || frame.scrollHeight > frame.clientHeight + 1;
    area.toggleAttribute("data-pans", pans);
  };
  const sizes = new ResizeObserver((entries) => {
    for (const entry of entries) {
      const frame = entry.target.closest(".esp-frame");
      if (frame) mark(frame);
    }
  });
  const watch = () => {
    for (const frame of document.querySelectorAll(".esp-frame")) {
      for (const part of [frame, frame.firstElementChild]) {
        if (part && !watched.has(part)) {
          watched.add(part);
          sizes.observe(part);
        }
      }
    }
  };
  new MutationObserver(watch).observe(document.body, { childList: true, subtree: true });
  watch();
}

// ESP's board frame scrolls to what matters: the chosen tile, the cells a click would act on, the
// last move, the winning set (the box the worker draws over them, .scroll-anchor). CSS does it
// when a frame is made (scroll-initial-target); a redraw keeps the frame and changes only the
// board's changed parts (issue 39: making the frame anew at each move put the whole board back,
// up to 40 KB of SVG, 50-90 ms on a phone's CPU), so where the anchor moves or comes anew, its
// frame is scrolled here to centre it (as the CSS does), once the browser has laid it out.
function followBoardAnchors() {
  const moved = new Set();
  let due = false;
  const follow = () => {
    due = false;
    for (const anchor of moved) {
      const frame = anchor.isConnected ? anchor.closest(".esp-frame") : null;
      if (!frame) continue;
      const [f, a] = [frame.getBoundingClientRect(), anchor.getBoundingClientRect()];
      frame.scrollBy({
        left: a.left + a.width / 2 - (f.left + f.width / 2),
        top: a.top + a.height / 2 - (f.top + f.height / 2),
        behavior: "instant",
      });
    }
    moved.clear();
  };
  const seen = (records) => {
    for (const record of records) {
      const found = record.type === "attributes" ? [record.target] : [...record.addedNodes];
      for (const node of found) {
        if (node.nodeType !== 1) continue;
        if (node.matches(".scroll-anchor")) moved.add(node);
        else if (record.type === "childList") node.querySelectorAll(".scroll-anchor").forEach((a) => moved.add(a));
      }
    }
    if (moved.size && !due) {
      due = true;
      requestAnimationFrame(follow);
    }
  };
  new MutationObserver(seen).observe(document.body, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ["data-left", "data-top", "data-width", "data-height"],
  });
}

if (embedded) {
  linkFullSite();
  if (window.parent !== window) tellHeight();
}
watchNetwork();
markPanningFrames();
followBoardAnchors();
keepOffline();
