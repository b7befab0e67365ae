// The worker's answers, read on the main thread by the browser's own JSON.parse rather than by
// MicroPython. main.py gets each answer without its bulk (a save, a region's drawing, a
// redraw's changes): each bulky string stays here, and main.py gets a short name in its place,
// which the page's functions that take such a string take instead (parlourStorage.write,
// parlourHTML, parlourPatch: assets/main-thread.js). MicroPython read a 44 KB answer (an
// ESPEERS save of 35 KB and a redraw's changes) in about 30 ms on this machine, over 100 ms on a
// CPU 4x slower: the longest main-thread task of a whole game (issue 39, docs/performance.md).
// It reads what is left (under 2 KB) in a few.

const NAME = "\u0001bulk:"; // no save, drawing or changes starts so (JSON, HTML); not NUL,
// which ends a string MicroPython hands to JS
export const BULKY = 256; // characters: a string this long or longer stays here
const kept = new Map(); // an answer's number -> its bulky strings
let answers = 0;

/** The answer `text` (JSON), its bulk kept here: the same JSON with each bulky string of a
 * storage write, a drawing or its changes replaced by its name, and `bulk`, the answer's number
 * (for `release`), when any was kept. */
export function lighten(text) {
  const effects = JSON.parse(text);
  if (effects === null || typeof effects !== "object" || Array.isArray(effects)) return text;
  const number = ++answers;
  const strings = [];
  const keep = (value) => {
    if (typeof value !== "string" || value.length < BULKY) return value;
    strings.push(value);
    return `${NAME}${number}:${strings.length - 1}`;
  };
  for (const area of ["local", "session"]) {
    const writes = effects[area];
    if (writes && typeof writes === "object") {
      for (const key of Object.keys(writes)) writes[key] = keep(writes[key]);
    }
  }
  for (const row of Array.isArray(effects.render) ? effects.render : []) {
    if (Array.isArray(row)) row[1] = keep(row[1]);
  }
  for (const drawn of Object.values(effects.patch && typeof effects.patch === "object" ? effects.patch : {})) {
    if (Array.isArray(drawn)) drawn[2] = keep(drawn[2]);
  }
  if (!strings.length) return text;
  kept.set(number, strings);
  effects.bulk = number;
  return JSON.stringify(effects);
}

/** What a value main.py passes back stands for: the bulky string it names, or itself. Throws
 * when it names a string no longer kept (an answer is released only once it is applied). */
export function unbulk(value) {
  if (typeof value !== "string" || !value.startsWith(NAME)) return value;
  const [number, index] = value.slice(NAME.length).split(":").map(Number);
  const strings = kept.get(number);
  if (!strings || !(index >= 0 && index < strings.length)) {
    throw new Error(`answer ${number}'s part ${index} is not kept`);
  }
  return strings[index];
}

/** An answer applied: its bulk goes. */
export function release(number) {
  kept.delete(Number(number));
}

/** How many answers' bulk is kept (a test's count: none once every answer is applied). */
export const keptCount = () => kept.size;
