// The replay index at scale: load N recorded calls (default
// 1,000,000) into one Recording, then answer live calls. Reports load time,
// answers per second (hits as JSON text, hits as objects, misses with the
// nearest call) and the memory a recorded call costs: the growth of the
// process's resident set while loading, per call (the recorded line's bytes,
// kept by the core, included; load time includes making the lines). Not part
// of the test gate; run with --expose-gc so the baseline is settled.
//   node --expose-gc bench/replay.mjs [N] [--json out.json]
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { Recording } = require("../dist/index.cjs");

const N = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 1_000_000);
const out = process.argv.includes("--json") ? process.argv[process.argv.indexOf("--json") + 1] : null;
const TOOLS = ["search_docs", "create_ticket", "get_weather", "list_files"];

/** Recorded call i: ~110 bytes, four tools, a result carried along. */
const call = (i) => ({ name: TOOLS[i & 3], args: { q: `query ${i}`, page: i % 7, tags: ["a", "b"] } });
const lineOf = (i) => JSON.stringify({ ...call(i), result: { id: i } });

const rss = () => Number(readFileSync("/proc/self/status", "utf8").split("\n").find((l) => l.startsWith("VmRSS:")).split(/ +/)[1]) * 1024;
const gc = () => { globalThis.gc?.(); globalThis.gc?.(); };

// The recording as a stream hands it over: chunks made on the fly, so the
// resident set grows by the index alone (the chunks are garbage once sent).
const enc = new TextEncoder();
let bytes = 0;
function* chunks() {
  for (let i = 0; i < N; i += 10_000) {
    let s = "";
    for (let k = i; k < Math.min(N, i + 10_000); k++) s += lineOf(k) + "\n";
    const b = enc.encode(s);
    bytes += b.length;
    yield b;
  }
}
gc();
const before = rss();
let t = performance.now();
const rec = Recording.load(chunks());
const loadMs = performance.now() - t;
gc();
const after = rss();
const wasmBytes = rec.memoryBytes; // before answering: unused() below grows the scratch for its report
if (rec.size !== N || rec.badLines.length) throw new Error(`indexed ${rec.size} of ${N}`);

function rate(label, n, f) {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) f(i);
  const ms = performance.now() - t0;
  return { label, n, perSecond: Math.round(n / (ms / 1000)) };
}
const M = Math.min(N, 100_000);
const step = Math.max(1, Math.floor(N / M));
const texts = Array.from({ length: M }, (_, i) => JSON.stringify(call(i * step)));
const results = [
  rate("hit, call as JSON text", M, (i) => { if (!rec.answer(texts[i]).hit) throw new Error("miss"); }),
  rate("hit, call as object (again: exhausted, so a miss with no nearest scan)", M, (i) => rec.answer(call(i * step))),
  rate("miss, nearest of N/4 same-tool calls", 3, (i) => rec.answer({ name: "search_docs", args: { q: `nope ${i}` } })),
];
t = performance.now();
const unused = rec.unused().length;
const unusedMs = performance.now() - t;

const report = {
  node: process.version, calls: N, recordingBytes: bytes, loadSeconds: +(loadMs / 1000).toFixed(2),
  loadCallsPerSecond: Math.round(N / (loadMs / 1000)),
  wasmMemoryBytes: wasmBytes, wasmBytesPerCall: Math.round(wasmBytes / N),
  rssGrowthBytes: after - before, rssBytesPerCall: Math.round((after - before) / N),
  lineBytesPerCall: Math.round(bytes / N), answers: results, unused, unusedSeconds: +(unusedMs / 1000).toFixed(2),
};
console.log(JSON.stringify(report, null, 1));
if (out) writeFileSync(out, JSON.stringify(report, null, 1) + "\n");
