// A worker that makes this device's engine snapshot and does nothing else (a Pyodide of its own,
// which never holds a JS object, a PyScript module or a player's data), started by
// assets/main-thread.js once the page is ready and idle. It answers with one line: what it did.
import { makeSnapshot } from "./engine-loader.mjs";

makeSnapshot().then(
  (what) => postMessage(what),
  (error) => postMessage(`not made: ${error && error.name ? error.name : error}`),
);
