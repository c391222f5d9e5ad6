// Writes vectors/diagnostics.vectors.json: the replay diagnostics as data,
// expected values from the independent oracle (test/reference/diagnostics.mjs,
// never the core). Every input is a recording line (JSON text), the one call
// model of both SDKs and CLIs. Read by test/diagnostics-vectors.test.ts and
// python/tests/test_diagnostics_vectors.py.
//   node scripts/gen-diagnostics-vectors.mjs           write
//   node scripts/gen-diagnostics-vectors.mjs --check   exit 1 when the file is stale
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { callError, diffExplained, explainLine, nearestLine } from "../test/reference/diagnostics.mjs";
import { splitmix32 } from "./_prng.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const DIAGNOSTICS_VECTORS_PATH = resolve(ROOT, "vectors/diagnostics.vectors.json");

const line = (o) => JSON.stringify(o);
const T = "create_ticket";

/** Hand-written cases: [id, decision, ...]. */
function handCases() {
  const explains = [
    ["matchon-noise-missing", "D9", line({ name: T, args: { title: " Login 500 ", priority: "P0", requestId: "r-1", tags: ["a"] }, matchOn: ["title", "priority", "ticketId", "title"] })],
    ["ignoreargs-null-dropped", "D1 D9", '{"name":"search_docs","args":{"q":"cats","page":2,"cursor":null,"nan":NaN},"ignoreArgs":["page","cursor","nan"]}'],
    ["keys-code-point-order", "D5", line({ name: "t", args: { "\u{1F600}": 1, "\uFF01": 2, a: 3, b: null }, ignoreArgs: ["a", "b"] })],
    ["argsjson-numbers-duplicates", "D11 D13", line({ name: "search_docs", argsJSON: '{"query":"x","limit":10.0,"page":1,"page":2,"limit":1E1}', ignoreArgs: ["page"] })],
    ["non-object-passes-through", "D10", line({ name: "t", args: [{ a: 1 }], matchOn: ["b"] })],
    ["string-top-level", "D10", line({ name: "t", args: "  x  ", matchOn: [] })],
    ["match-on-empty", "D9", line({ name: "t", args: { a: 1 }, matchOn: [] })],
    ["match-on-wins", "D9", line({ name: "t", args: { a: 1, b: 2 }, matchOn: ["a"], ignoreArgs: ["a"] })],
    ["unusual-kind-name", "D17", line({ name: " x\ny ", kind: "\uFEFFresource", args: { k: 1 } })],
    ["no-args", "D2", line({ name: "t" })],
    ["null-members-absent", "call", '{"name":"t","args":{"a":1},"kind":null,"matchOn":null,"argsJSON":null,"fingerprint":null}'],
    ["other-members-carried", "call", line({ name: "t", args: { a: 1 }, id: 7, ts: "2026-11-30" })],
    ["lone-surrogate-key", "D5 D6", '{"name":"t","args":{"\\ud800":1,"\\uffff":2,"\\ud83d\\ude00":3}}'],
    ["deep-1000", "D19", line({ name: "t", args: JSON.parse("[".repeat(1000) + "1" + "]".repeat(1000)) })],
  ];
  const pairs = [
    ["whitespace-nulls-order-numbers", '{"name":"t","args":{"b":[1.0,null,2],"a":" x "}}', '{ "name": "t", "args": { "a": "x", "b": [1, 2], "c": null } }'],
    ["noise-left-out", line({ name: T, args: { title: "T", priority: "P0", requestId: "r-1" }, matchOn: ["title", "priority"] }),
      line({ name: T, args: { title: "T", priority: "P0", requestId: "r-2", at: 17 }, matchOn: ["title", "priority"] })],
    ["changed-priority", line({ name: T, args: { ticketId: "T-1", priority: "P0", requestId: "a" }, matchOn: ["ticketId", "priority"] }),
      line({ name: T, args: { ticketId: "T-1", priority: "P1", requestId: "b" }, matchOn: ["ticketId", "priority"] })],
    ["nested-paths", line({ name: "t", args: { items: [0, 0, 0, { when: "x", n: 1 }], "odd key": { a: 1 }, z: [1, 2, 3] } }),
      line({ name: "t", args: { items: [0, 0, 0, { when: "y" }, 9], "odd key": { a: 2, b: 1 }, z: [1] } })],
    ["code-point-key-order", line({ name: "t", args: { "\uFF01": 1, "\u{1F600}": 1 } }), line({ name: "t", args: { "\uFF01": 2, "\u{1F600}": 2, "\uE000": 0 } })],
    ["type-change", line({ name: "t", args: { a: [1], b: { c: 1 }, d: "1" } }), line({ name: "t", args: { a: { 0: 1 }, b: [1], d: 1 } })],
    ["whole-args", line({ name: "t", args: [1, 2] }), line({ name: "t", args: " x " })],
    ["null-vs-object", line({ name: "t", args: null }), line({ name: "t", args: {} })],
    ["kind-and-name", line({ name: "a", args: 1 }), line({ name: "b", args: 2, kind: "resource" })],
    ["selection-difference", line({ name: "t", args: { a: 1, b: 2 }, matchOn: ["a"] }), line({ name: "t", args: { a: 1, b: 2 } })],
    ["escaped-keys", '{"name":"t","args":{"a\\"b":1,"\\n":2,"Z":3}}', '{"name":"t","args":{"a\\"b":2,"\\n":3,"Z":4}}'],
    ["deep-1000-leaf", line({ name: "t", args: JSON.parse("[".repeat(1000) + "1" + "]".repeat(1000)) }),
      line({ name: "t", args: JSON.parse("[".repeat(1000) + "2" + "]".repeat(1000)) })],
  ];
  const errors = [
    ["near-miss-args-json", line({ name: "t", args_json: "{}" })],
    ["near-miss-match-on", line({ name: "t", args: {}, match_on: ["a"] })],
    ["near-miss-ignore-args", line({ name: "t", args: {}, ignore_args: ["a"] })],
    ["near-miss-MatchOn", line({ name: "t", args: {}, MatchOn: ["a"] })],
    ["near-miss-Name", line({ Name: "t", args: {} })],
    ["near-miss-ignore-dash", line({ name: "t", args: {}, "ignore-args": ["a"] })],
    ["old-options-shape", line({ name: "t", args: {}, options: { matchOn: ["a"] } })],
    ["not-an-object", "[1]"],
    ["missing-name", line({ args: 1 })],
    ["name-not-string", line({ name: 7, args: 1 })],
  ];
  return { explains, pairs, errors };
}

/** Seeded random calls and one-leaf edits: the diff must name exactly that leaf. */
function randomPairs(count) {
  const next = splitmix32(0x9e3779b9);
  const pick = (n) => next() % n;
  const words = ["a", "b", "id", "x y", "\u00e9", "\u{1F600}", "_k", "10", "2"];
  const value = (depth) => {
    const r = pick(depth > 3 ? 4 : 7);
    if (r === 0) return pick(1000) / 8;
    if (r === 1) return words[pick(words.length)];
    if (r === 2) return pick(2) === 0;
    if (r === 3) return null;
    if (r === 4) return Array.from({ length: pick(4) }, () => value(depth + 1));
    const o = {};
    for (let i = pick(5); i > 0; i--) o[words[pick(words.length)]] = value(depth + 1);
    return o;
  };
  const edit = (v) => {
    if (Array.isArray(v) && v.length) { const i = pick(v.length); v[i] = edit(v[i]); return v; }
    if (v && typeof v === "object" && Object.keys(v).length) { const ks = Object.keys(v); const k = ks[pick(ks.length)]; v[k] = edit(v[k]); return v; }
    return typeof v === "number" ? v + 1 : `${String(v)}!`;
  };
  const out = [];
  for (let i = 0; i < count; i++) {
    const a = { q: value(0), r: value(0) };
    const b = edit(JSON.parse(JSON.stringify(a)));
    out.push([`random-${i}`, line({ name: "t", args: a }), line({ name: "t", args: b })]);
  }
  return out;
}

export function buildDiagnosticsVectors() {
  const { explains, pairs, errors } = handCases();
  const recording = readFileSync(resolve(ROOT, "examples/recording.jsonl"), "utf8").split("\n").filter((l) => l.trim());
  const unseen = readFileSync(resolve(ROOT, "examples/unseen-call.json"), "utf8").trim();
  const noisy = readFileSync(resolve(ROOT, "examples/noisy-call.json"), "utf8").trim();
  const cases = [];
  for (const [id, tags, l] of explains) cases.push({ id: `explain-${id}`, tags, op: "explain", line: l, expect: explainLine(l) });
  recording.forEach((l, i) => cases.push({ id: `explain-recording-${i + 1}`, tags: "example", op: "explain", line: l, expect: explainLine(l) }));
  for (const [id, a, b] of [...pairs, ...randomPairs(40)]) {
    cases.push({ id: `diff-${id}`, tags: "diff", op: "diff", a, b, expect: diffExplained(explainLine(a), explainLine(b)) });
  }
  cases.push({ id: "nearest-readme-unseen", tags: "example", op: "nearest", line: unseen, recording, expect: nearestLine(unseen, recording) });
  cases.push({ id: "nearest-readme-noisy", tags: "example", op: "nearest", line: noisy, recording, expect: nearestLine(noisy, recording) });
  const rec = [
    line({ name: T, args: { title: "Login", priority: "P0", tags: ["a", "b"] }, ignoreArgs: ["requestId"] }),
    line({ name: T, args: { title: "Login", priority: "P2", tags: ["a"] }, ignoreArgs: ["requestId"] }),
    line({ name: T, args: { title: "Login", priority: "P1", tags: ["a", "c"] }, ignoreArgs: ["requestId"] }),
    line({ name: T, args: { title: "Login", priority: "P1", tags: ["a", "b"] }, kind: "other" }),
    line({ name: "other", args: {} }),
  ];
  const probe = line({ name: T, args: { title: " Login", priority: "P1", tags: ["a", "b"], requestId: "r-9" }, ignoreArgs: ["requestId"] });
  cases.push({ id: "nearest-fewest-changes", tags: "nearest", op: "nearest", line: probe, recording: rec, expect: nearestLine(probe, rec) });
  const eq = [line({ name: "t", args: { a: 1 } }), line({ name: "t", args: { a: 2 } })];
  const eqProbe = line({ name: "t", args: { a: 3 } });
  cases.push({ id: "nearest-first-of-equals", tags: "nearest", op: "nearest", line: eqProbe, recording: eq, expect: nearestLine(eqProbe, eq) });
  const none = line({ name: T, args: {}, kind: "nope" });
  cases.push({ id: "nearest-none", tags: "nearest", op: "nearest", line: none, recording: rec, expect: nearestLine(none, rec) });
  // diff and nearest given the calls themselves (objects, not explanations): the core reads each one.
  const quoting = [
    ["kind-name-quoting", line({ name: 'say "hi" \\ now', kind: "k\u0001\u2028é", args: { a: 1 } }), line({ name: "say\u007f", kind: "k\u{1F600}", args: { a: 1 } })],
    ["kind-only", line({ name: "t", args: { a: 1 } }), line({ name: "t", kind: "resource", args: { a: 2 } })],
    ["name-only", line({ name: "t", args: { a: 1 } }), line({ name: "u", args: { a: 1 } })],
    ["default-kind-explicit", line({ name: "t", kind: "tool_call", args: { a: 1 } }), line({ name: "t", args: { a: 1 } })],
  ];
  for (const [id, a, b] of quoting) {
    cases.push({ id: `diff-calls-${id}`, tags: "diff", op: "diff-calls", a, b, expect: diffExplained(explainLine(a), explainLine(b)) });
  }
  // One side an explanation, the other a call: the core tells them apart.
  for (const [id, a, b] of [pairs[0], pairs[2]]) {
    cases.push({ id: `diff-mixed-${id}`, tags: "diff", op: "diff-mixed", a, b, expect: diffExplained(explainLine(a), explainLine(b)) });
  }
  const mixed = [
    line({ name: "other", args: { title: "Login" } }),
    line({ name: T, kind: "other", args: { title: "Login", priority: "P1" } }),
    line({ name: T, args: { title: "Login", priority: "P3", requestId: "r-1" }, ignoreArgs: ["requestId"] }),
    line({ name: T, kind: "tool_call", args: { title: "Login", priority: "P1", requestId: "r-2" }, ignoreArgs: ["requestId"] }),
    line({ name: T, args: { title: "Login", priority: "P1" } }),
  ];
  const live = line({ name: T, args: { title: " Login ", priority: "P1", requestId: "r-9" }, ignoreArgs: ["requestId"] });
  cases.push({ id: "nearest-calls-skips-other-tools-and-kinds", tags: "nearest", op: "nearest-calls", line: live, recording: mixed, expect: nearestLine(live, mixed) });
  const near = line({ name: T, args: { title: "Login", priority: "P2" } });
  cases.push({ id: "nearest-calls-first-of-equals", tags: "nearest", op: "nearest-calls", line: near, recording: mixed, expect: nearestLine(near, mixed) });
  for (const [id, l] of errors) cases.push({ id: `error-${id}`, tags: "call", op: "error", line: l, expect: callError(l) });
  return {
    description: "Replay diagnostics as data: explain / diff / nearest of recording lines (diff-calls, nearest-calls: " +
      "of the lines' objects as calls, not their explanations; diff-mixed: a's explanation, b's object), and the errors a line must give. " +
      "Expected values from test/reference/diagnostics.mjs (never the core). Generated by scripts/gen-diagnostics-vectors.mjs.",
    version: 1,
    cases,
  };
}

export function renderDiagnosticsVectors() {
  return JSON.stringify(buildDiagnosticsVectors(), null, 1) + "\n";
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const text = renderDiagnosticsVectors();
  if (process.argv.includes("--check")) {
    let now = "";
    try { now = readFileSync(DIAGNOSTICS_VECTORS_PATH, "utf8"); } catch { /* missing */ }
    if (now !== text) { console.error("vectors/diagnostics.vectors.json is stale: run node scripts/gen-diagnostics-vectors.mjs"); process.exit(1); }
    console.log("vectors/diagnostics.vectors.json is current");
  } else {
    writeFileSync(DIAGNOSTICS_VECTORS_PATH, text);
    console.log(`wrote ${buildDiagnosticsVectors().cases.length} cases to vectors/diagnostics.vectors.json`);
  }
}
