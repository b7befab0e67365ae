// assets/answers.mjs in Node: an answer's bulk is kept aside by name and given back whole, the
// rest of the answer is the same, and an answer applied lets its bulk go. Prints "ok" or throws.
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const { BULKY, keptCount, lighten, release, unbulk } = await import(
  pathToFileURL(join(root, "assets/answers.mjs")).href
);

const save = JSON.stringify({ log: "m".repeat(5000), note: 'quotes " and \\ and \u00e9' });
const whole = `<p data-x="1">${"b".repeat(3000)}</p>`;
const changes = JSON.stringify([[], [[[0], "p", `<p>${"c".repeat(600)}</p>`]], []]);
const answer = {
  local: { "psi-parlour:save": save, "psi-parlour:short": "1", "psi-parlour:gone": null },
  session: { "psi-parlour:tab": "t".repeat(BULKY) },
  render: [["#a", whole], ["#b", null], ["#c", "<p>small</p>"]],
  patch: { "#a": [4, null, ""], "#b": [7, 6, changes] },
  text: [["#t", "x".repeat(400)]],
  focus: "#a",
  later: [[600, { op: "bot", game: "esp", step: 3 }]],
};
const text = JSON.stringify(answer);
const light = JSON.parse(lighten(text));
assert.ok(JSON.stringify(light).length < 800, "the bulk stays behind");
// the same answer but for the kept strings, each given back whole by its name
assert.equal(unbulk(light.local["psi-parlour:save"]), save);
assert.equal(unbulk(light.session["psi-parlour:tab"]), "t".repeat(BULKY));
assert.equal(unbulk(light.render[0][1]), whole);
assert.equal(unbulk(light.patch["#b"][2]), changes);
assert.equal(light.local["psi-parlour:short"], "1");
// a name crosses to MicroPython and back: a NUL in it would end it there (a C string)
assert.ok(!JSON.stringify(light).includes("\\u0000") && !light.render[0][1].includes("\u0000"));
assert.equal(light.local["psi-parlour:gone"], null);
assert.deepEqual(light.render.slice(1), answer.render.slice(1));
assert.deepEqual(light.patch["#a"], answer.patch["#a"]);
assert.deepEqual(light.text, answer.text); // only saves, drawings and changes are kept
assert.deepEqual([light.focus, light.later], [answer.focus, answer.later]);
assert.equal(unbulk("<p>not a name</p>"), "<p>not a name</p>");
assert.equal(unbulk(null), null);
assert.equal(keptCount(), 1);
// an answer with nothing long is passed on as it came
const small = JSON.stringify({ text: [["#t", "hi"]] });
assert.equal(lighten(small), small);
assert.equal(lighten("[1, 2]"), "[1, 2]");
assert.equal(keptCount(), 1);
// two answers in flight keep apart; each applied answer lets its own go
const second = JSON.parse(lighten(JSON.stringify({ render: [["#a", whole + "2"]] })));
assert.notEqual(second.bulk, light.bulk);
assert.equal(unbulk(second.render[0][1]), whole + "2");
release(light.bulk);
assert.throws(() => unbulk(light.render[0][1]), /not kept/);
assert.equal(unbulk(second.render[0][1]), whole + "2");
release(second.bulk);
assert.equal(keptCount(), 0);
// a name of a part past the answer's is not read as another string
assert.throws(() => unbulk(second.render[0][1].replace(/:0$/, ":5")), /not kept/);
// a malformed answer fails as JSON.parse does (main.py's reading failed so before)
assert.throws(() => lighten("{not json"), SyntaxError);
console.log("ok");
