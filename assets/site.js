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
// the version it started with, and a game in progress is saved on this device and resumes.
function offerUpdate(waiting) {
  const notice = document.getElementById("update-ready");
  if (!notice || !waiting) return;
  notice.hidden = false;
  root.dataset.update = "ready";
  notice.querySelector("button").onclick = () => waiting.postMessage("skip-waiting");
}

function watchForUpdates(registration) {
  if (registration.waiting && navigator.serviceWorker.controller) {
    offerUpdate(registration.waiting);
  }
  registration.addEventListener("updatefound", () => {
    const incoming = registration.installing;
    incoming?.addEventListener("statechange", () => {
      // With no controller this is the first install: nothing to replace, nothing to offer.
      if (incoming.state === "installed" && navigator.serviceWorker.controller) {
        offerUpdate(incoming);
      }
    });
  });
  let reloading = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (root.dataset.update === "ready" && !reloading) {
      reloading = true;
      location.reload();
    }
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
  } catch (error) {
    // Private windows and some embeds may refuse storage: the site still works online.
    console.info("Offline play is not available here:", error.message);
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

// The message (README, "Embedding"): {type: "psi-parlour:height", version: 1, height: px}.
// It carries nothing but a number, so it may go to any parent ("*"); the parent's snippet
// checks that it comes from this site's origin.
const HEIGHT_MESSAGE = "psi-parlour:height";

function tellHeight() {
  let last = 0;
  const send = () => {
    const height = Math.ceil(document.body.getBoundingClientRect().height);
    if (height !== last && height > 0) {
      last = height;
      window.parent.postMessage({ type: HEIGHT_MESSAGE, version: 1, height }, "*");
    }
  };
  new ResizeObserver(send).observe(document.body);
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

if (embedded) {
  linkFullSite();
  if (window.parent !== window) tellHeight();
}
watchNetwork();
keepOffline();
