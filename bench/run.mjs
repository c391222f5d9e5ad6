// The benchmark harness (bench-only, never shipped): our SDK against
// what users would write instead, in one Node process, interleaved rounds,
// medians and spread; then SHA-256 alone, cold start, and a profile of where
// our own time goes. Prints tables with ratios and PASS/MISS per target,
// writes results JSON and the SVG chart (bench/chart.mjs).
//
//   npm run bench                  full run (~3 min), builds dist/ first
//                                  (the run uses a snapshot of dist/index.js: bench/_sdk.mjs)
//   npm run bench -- --quick       short run (numbers noisier)
//   node bench/run.mjs [--quick] [--json FILE] [--chart FILE] [--clock cpu|wall]
//                      [--no-cold] [--no-profile] [--no-batch] [--python]
//
// --python also runs the Python SDK's bench (python/bench/bench.py, another
// worker's; .venv/bin/python if present) and stores its JSON under "python".
//
// Defaults: --json bench/results/latest.json, --chart bench/results/chart.svg
// (…-quick.json / chart-quick.svg with --quick, so a quick run never
// overwrites the published numbers). Ratios are "row time / ours": how many
// times faster ours is, as the median over rounds of the per-round ratio.
// The machine is shared: only ratios within one run mean anything.
import { execFileSync } from "node:child_process";
import { hash as nodeHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { sha256 as nobleSha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import canonicalize from "canonicalize";
import fastStable from "fast-json-stable-stringify";
import safeStable from "safe-stable-stringify";
import { F_DIGEST, F_PREIMAGE, F_STRING_INPUT, directCore, loadParts, loadWalk, shippedCore } from "./_core.mjs";
import { combineRounds, fmtTime, getClock, measure, ratioOfRounds, ratioStats, setClock } from "./_timer.mjs";
import { SDK_PATH, SDK_SOURCE, SDK_URL, sdk } from "./_sdk.mjs";
import { ROOT } from "./_wasm.mjs";
import { renderChart } from "./chart.mjs";
import { TOOL_NAME, payloads } from "./payloads.mjs";
import * as ref from "./reference.mjs";
import { SHA_SIZES, shaRows } from "./sha256-core.mjs";
import { BATCH_ITEMS, batchRatios, batchRows, batchTargets, printBatch } from "./batch.mjs";

const argv = process.argv.slice(2);
const flag = (f) => argv.includes(f);
const opt = (f, d) => (argv.includes(f) ? argv[argv.indexOf(f) + 1] : d);
const QUICK = flag("--quick");
const JSON_OUT = opt("--json", join(ROOT, `bench/results/latest${QUICK ? "-quick" : ""}.json`));
const CHART_OUT = opt("--chart", join(ROOT, `bench/results/chart${QUICK ? "-quick" : ""}.svg`));
// Many short rounds: on a loaded machine the load drifts over seconds, and a
// round of all rows of a group then sees nearly one load level.
const TIMING = QUICK ? { rounds: 5, sliceMs: 15, warmMs: 40 } : { rounds: 21, sliceMs: 30, warmMs: 100 };
const PROFILE_TIMING = QUICK ? { rounds: 5, sliceMs: 12, warmMs: 30 } : { rounds: 15, sliceMs: 25, warmMs: 80 };
const COLD_RUNS = QUICK ? 3 : 9;
setClock(opt("--clock", "cpu"));

const { fingerprint, fingerprintJSON } = sdk;
const PREFIX = `tool_call\n${TOOL_NAME}\n`; // D17 preimage head, for the non-contract rows
const nodeHex = (s) => nodeHash("sha256", s);
const nobleHex = (s) => bytesToHex(nobleSha256(utf8ToBytes(s)));

export const ROW = {
  fp: "ours: fingerprint (value)",
  fpJSON: "ours: fingerprintJSON (text)",
  fpWasm: "ours, wasm SHA only: fingerprint (value)",
  fpJSONWasm: "ours, wasm SHA only: fingerprintJSON (text)",
  refNode: "reference + node:crypto",
  refNoble: "reference + @noble/hashes",
  sss: "safe-stable-stringify + node:crypto",
  fjss: "fast-json-stable-stringify + node:crypto",
  canon: "canonicalize (RFC 8785) + node:crypto",
  parseSss: "JSON.parse + safe-stable-stringify + node:crypto (text)",
  floor: "floor: JSON.stringify + crypto.hash",
};

/**
 * A second copy of the SDK that never sees node:crypto, as on an edge
 * runtime: src/core.ts finds node:crypto through process.getBuiltinModule
 * (once, lazily), so that is hidden while this copy loads and makes its first
 * large call: one of at least 64 KiB, which probes at once (src/core.ts,
 * HOST_HASH_AT_ONCE_BYTES; a smaller one leaves the probe to a later call,
 * which would find node:crypto). Returns null when the SDK has no host hashing
 * at all (then the default rows already are the wasm path).
 */
async function loadWasmOnlySdk() {
  if (!SDK_SOURCE.includes("getBuiltinModule")) return null;
  const saved = process.getBuiltinModule;
  process.getBuiltinModule = undefined;
  try {
    const m = await import(`${SDK_URL}?wasm-sha-only`);
    m.fingerprintJSON("probe", `[${"1,".repeat(1 << 15)}1]`);
    return m;
  } finally {
    process.getBuiltinModule = saved;
  }
}

function payloadRows(p, wasmOnly) {
  const { value, json } = p;
  const rows = {
    [ROW.fp]: () => fingerprint(TOOL_NAME, value),
    [ROW.fpJSON]: () => fingerprintJSON(TOOL_NAME, json),
  };
  if (wasmOnly) {
    rows[ROW.fpWasm] = () => wasmOnly.fingerprint(TOOL_NAME, value);
    rows[ROW.fpJSONWasm] = () => wasmOnly.fingerprintJSON(TOOL_NAME, json);
  }
  return Object.assign(rows, {
    [ROW.refNode]: () => ref.fingerprint(TOOL_NAME, value, undefined, nodeHex),
    [ROW.refNoble]: () => ref.fingerprint(TOOL_NAME, value, undefined, nobleHex),
    [ROW.sss]: () => nodeHex(PREFIX + safeStable(value)),
    [ROW.fjss]: () => nodeHex(PREFIX + fastStable(value)),
    [ROW.canon]: () => nodeHex(PREFIX + canonicalize(value)),
    [ROW.parseSss]: () => nodeHex(PREFIX + safeStable(JSON.parse(json))),
    [ROW.floor]: () => nodeHash("sha256", PREFIX + JSON.stringify(value)),
  });
}

function checkAgree(p, rows) {
  const want = ref.fingerprint(TOOL_NAME, p.value, undefined, nodeHex);
  for (const k of [ROW.fp, ROW.fpJSON, ROW.fpWasm, ROW.fpJSONWasm, ROW.refNoble]) {
    const got = rows[k]?.();
    if (got !== undefined && got !== want) throw new Error(`${p.name}: ${k} gives ${got}, the reference ${want}`);
  }
}

// --- profile: the parts of one call, timed in the same interleaved rounds ---
const HOST_HASH_MAX_BYTES = 16 * 1024 * 1024; // src/core.ts: requests up to this size hash on the host (once warm)

let walkCopy;
/**
 * src/values.ts's writeValue, one copy for all payloads and warmed with all
 * of them first: the SDK's own copy has seen every payload's shapes by then
 * (its inline caches are polymorphic), and a fresh copy per payload would be
 * unfairly fast.
 */
async function sharedWalk(ps) {
  if (!walkCopy) {
    walkCopy = await loadWalk();
    for (const p of ps) for (let i = 0, n = p.json.length > 1e5 ? 3 : 200; i < n; i++) walkCopy.walk(p.value);
  }
  return walkCopy;
}

async function profileRows(p, ps) {
  const { walk } = await sharedWalk(ps);
  const { bytes } = shippedCore();
  const want = fingerprint(TOOL_NAME, p.value);
  const digestCore = directCore(bytes, TOOL_NAME, p.json, F_DIGEST | F_STRING_INPUT);
  const preCore = directCore(bytes, TOOL_NAME, p.json, F_PREIMAGE | F_STRING_INPUT);
  if (digestCore.run() !== 0 || digestCore.digest() !== want) throw new Error(`${p.name}: direct core (DIGEST) differs from the SDK`);
  if (preCore.run() !== 0 || nodeHash("sha256", preCore.text()) !== want) throw new Error(`${p.name}: direct core (PREIMAGE) differs from the SDK`);
  if (!(walk(p.value) > 0)) throw new Error(`${p.name}: the value walk wrote nothing`);
  const preimage = preCore.text().slice(); // a copy: the view is only valid until the next run
  const parts = loadParts(p.json);
  if (parts.parse() < 0) throw new Error(`${p.name}: core-parts parse failed`);
  const encoder = new TextEncoder();
  // A third instance for the copy, so it cannot overwrite a request.
  const room = directCore(bytes, TOOL_NAME, "0").inputView(p.json.length * 3 + 64);
  const json = p.json;
  const ok = (status) => {
    if (status !== 0) throw new Error(`${p.name}: core run failed (${status})`);
  };
  const rows = {
    total: () => fingerprint(TOOL_NAME, p.value),
    totalJSON: () => fingerprintJSON(TOOL_NAME, json),
    walk: () => walk(p.value),
    stringify: () => JSON.stringify(p.value),
    wellFormed: () => json.isWellFormed(),
    copy: () => json.isWellFormed() && encoder.encodeInto(json, room.subarray(0, json.length * 3)).written,
    coreDigest: () => ok(digestCore.run()),
    corePreimage: () => ok(preCore.run()),
    hostHash: () => nodeHash("sha256", preimage),
    parse: parts.parse,
  };
  if (p.name === "small") {
    // The fixed cost of one SDK call: the smallest request, through the SDK and bare.
    const tiny = directCore(bytes, TOOL_NAME, "0", F_DIGEST | F_STRING_INPUT);
    rows.tinySdk = () => fingerprintJSON(TOOL_NAME, "0");
    rows.tinyCore = () => ok(tiny.run());
  }
  return { rows, hostHashed: digestCore.requestBytes <= HOST_HASH_MAX_BYTES };
}

function breakdown(p, m, hostHashed) {
  const t = (k) => m[k]?.median;
  // Sums and differences are taken round by round, then the median.
  const c = (f) => combineRounds(m, f);
  const core = (g) => (hostHashed ? g("corePreimage") + g("hostHash") : g("coreDigest"));
  const bytes = Buffer.byteLength(p.json);
  return {
    payload: p.name,
    bytes,
    hostHashed,
    total: t("total"),
    totalJSON: t("totalJSON"),
    walk: t("walk"),
    stringify: t("stringify"),
    wellFormed: t("wellFormed"),
    copy: t("copy"),
    core: c(core),
    glue: c((g) => g("total") - g("walk") - core(g)),
    glueJSON: c((g) => g("totalJSON") - g("copy") - core(g)),
    parse: t("parse"),
    write: c((g) => g("corePreimage") - g("parse")),
    wasmHash: c((g) => g("coreDigest") - g("corePreimage")),
    hostHash: t("hostHash"),
    coreDigest: t("coreDigest"),
    corePreimage: t("corePreimage"),
    wasmCoreMBps: (bytes / t("coreDigest")) * 1e3,
    parseWriteMBps: (bytes / t("corePreimage")) * 1e3,
    tinySdk: t("tinySdk"),
    tinyCore: t("tinyCore"),
  };
}

// --- cold start ---
function coldStart() {
  const res = { ours: [], reference: [] };
  for (let i = 0; i < COLD_RUNS; i++) {
    for (const which of i % 2 ? ["reference", "ours"] : ["ours", "reference"]) {
      const out = execFileSync(process.execPath, [join(ROOT, "bench/_cold.mjs"), which, SDK_PATH], { encoding: "utf8" });
      res[which].push(JSON.parse(out).ms);
    }
  }
  const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  return Object.fromEntries(Object.entries(res).map(([k, xs]) => [k, { medianMs: med(xs), minMs: Math.min(...xs), maxMs: Math.max(...xs), samples: xs }]));
}

// --- targets ---
// The node:crypto targets use the default SDK rows (node:crypto for large
// preimages, as shipped); the @noble/hashes target is the edge-runtime
// comparison, so it uses the wasm-SHA-only rows where the SDK has host hashing.
function targets(results) {
  const out = [];
  const add = (id, what, value, need) => out.push({ id, what, value, need, pass: value >= need });
  for (const pl of results.payloads) {
    const x = (theirs, ours) => ratioOfRounds(pl.rows[theirs], pl.rows[ours]);
    for (const [k, kw, label] of [[ROW.fp, ROW.fpWasm, "fingerprint"], [ROW.fpJSON, ROW.fpJSONWasm, "fingerprintJSON"]]) {
      add("not-slower-than-sss", `${pl.name}: ${label} vs safe-stable-stringify + node:crypto`, x(ROW.sss, k), 1);
      const need = { small: 1.6, medium: 2.2, large: 2.2 }[pl.name]; // with margin: the ratios move with the load
      if (need) add("vs-reference-node", `${pl.name}: ${label} vs reference + node:crypto`, x(ROW.refNode, k), need);
      const edge = pl.rows[kw] ? kw : k;
      add("vs-reference-noble", `${pl.name}: ${label}${edge === kw ? " (wasm SHA)" : ""} vs reference + @noble/hashes`, x(ROW.refNoble, edge), 2);
    }
  }
  const mib = results.sha.find((s) => s.size === 1 << 20);
  if (mib) add("sha256-1mib", "core SHA-256 at 1 MiB vs hash-wasm", ratioOfRounds(mib.rows["hash-wasm"], mib.rows["ours (core)"]), 1);
  return out;
}

// --- printing ---
const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);
const ratio = (x) => `${x >= 10 ? x.toFixed(1) : x.toFixed(2)}×`;

function printPayload(pl) {
  console.log(`\n${pl.name} — ${pl.bytes.toLocaleString("en-US")} B of JSON`);
  console.log(`  ${pad("row", 56)}${lpad("median", 10)}${lpad("±", 6)}${lpad("÷ fp", 9)}${lpad("÷ fpJSON", 10)}`);
  for (const [k, r] of Object.entries(pl.rows)) {
    const vsFp = ratioOfRounds(r, pl.rows[ROW.fp]), vsFj = ratioOfRounds(r, pl.rows[ROW.fpJSON]);
    console.log(`  ${pad(k, 56)}${lpad(fmtTime(r.median), 10)}${lpad(`${(r.spread * 100).toFixed(0)}%`, 6)}${lpad(ratio(vsFp), 9)}${lpad(ratio(vsFj), 10)}`);
  }
}

function printSha(s) {
  console.log(`\nSHA-256 alone — ${s.size.toLocaleString("en-US")} B`);
  for (const [k, r] of Object.entries(s.rows)) {
    console.log(`  ${pad(k, 24)}${lpad(fmtTime(r.median), 10)}${lpad(`${((s.size / r.median) * 1e3).toFixed(0)} MB/s`, 12)}${lpad(`${(r.spread * 100).toFixed(0)}%`, 6)}${lpad(ratio(ratioOfRounds(r, s.rows["ours (core)"])), 9)}`);
  }
}

function printProfile(prof) {
  const T = (ns) => (ns === undefined || Number.isNaN(ns) ? "–" : fmtTime(ns));
  console.log("\nProfile of ours: median ns per call, parts timed in the same interleaved rounds");
  console.log(`  ${pad("payload", 8)}${lpad("fingerprint", 12)}${lpad("walk", 10)}${lpad("stringify", 11)}${lpad("copy", 10)}${lpad("core", 10)}${lpad("glue", 10)}${lpad("│ fpJSON", 11)}${lpad("glue", 10)}`);
  for (const b of prof) {
    console.log(`  ${pad(b.payload, 8)}${lpad(T(b.total), 12)}${lpad(T(b.walk), 10)}${lpad(T(b.stringify), 11)}${lpad(T(b.copy), 10)}${lpad(T(b.core), 10)}${lpad(T(b.glue), 10)}${lpad(`│ ${T(b.totalJSON)}`, 11)}${lpad(T(b.glueJSON), 10)}`);
  }
  console.log(`\n  ${pad("core", 8)}${lpad("parse", 10)}${lpad("write", 10)}${lpad("wasm SHA", 10)}${lpad("host SHA", 10)}${lpad("isWellF.", 10)}${lpad("wasm MB/s", 11)}${lpad("p+w MB/s", 10)}  path`);
  for (const b of prof) {
    console.log(`  ${pad(b.payload, 8)}${lpad(T(b.parse), 10)}${lpad(T(b.write), 10)}${lpad(T(b.wasmHash), 10)}${lpad(T(b.hostHash), 10)}${lpad(T(b.wellFormed), 10)}${lpad(b.wasmCoreMBps.toFixed(0), 11)}${lpad(b.parseWriteMBps.toFixed(0), 10)}  ${b.hostHashed ? "PREIMAGE + node:crypto" : "DIGEST (wasm SHA)"}`);
  }
  const s = prof.find((b) => b.tinySdk !== undefined);
  if (s) console.log(`\n  fixed cost of one call: fingerprintJSON(name, "0") ${T(s.tinySdk)}, of which core run ${T(s.tinyCore)}`);
  console.log("  walk = src/values.ts writeValue (the D15 walk writing the value stream); copy = isWellFormed + TextEncoder.encodeInto;");
  console.log("  core = run() on the SDK's wasm bytes (+ node:crypto on the preimage where the SDK does that); glue = the");
  console.log("  rest of the SDK call (name literal, header, digest string); parse from bench/wasm/core-parts.ts,");
  console.log("  write = PREIMAGE run − parse, wasm SHA = DIGEST run − PREIMAGE run. Differences of medians: ±10% noise.");
}

// --- the Python SDK's bench, opt-in ---
function runPython() {
  const script = join(ROOT, "python/bench/bench.py");
  if (!existsSync(script)) {
    console.log("\nPython bench: python/bench/bench.py not found, skipped");
    return null;
  }
  const venv = join(ROOT, ".venv/bin/python");
  const py = existsSync(venv) ? venv : "python3";
  const out = join(dirname(JSON_OUT), `python${QUICK ? "-quick" : ""}.json`);
  console.log(`\nPython SDK (${py} python/bench/bench.py${QUICK ? " --quick" : ""})`);
  try {
    execFileSync(py, [script, ...(QUICK ? ["--quick"] : []), "--json", out], { cwd: ROOT, stdio: "inherit" });
    return JSON.parse(readFileSync(out, "utf8"));
  } catch (err) {
    console.log(`  failed: ${err.message.split("\n")[0]}`);
    return null;
  }
}

// --- main ---
async function main() {
  const t0 = Date.now();
  const core = shippedCore();
  const meta = {
    date: new Date().toISOString(),
    node: process.version,
    cpu: cpus()[0]?.model ?? "unknown",
    cores: cpus().length,
    loadavgStart: loadavg(),
    quick: QUICK,
    timing: { ...TIMING, profile: PROFILE_TIMING, clock: getClock() },
    packages: Object.fromEntries(["safe-stable-stringify", "fast-json-stable-stringify", "canonicalize", "@noble/hashes",
      "@chainsafe/as-sha256", "hash-wasm"].map((n) => [n, JSON.parse(readFileSync(join(ROOT, "node_modules", n, "package.json"), "utf8")).version])),
    wasm: { source: core.source, sha256: core.sha256, bytes: core.bytes.length },
  };
  console.log(`Overturn fingerprint bench — ${meta.node}, ${meta.cpu} × ${meta.cores}, load ${meta.loadavgStart.map((x) => x.toFixed(1)).join(" ")}, ${getClock()} clock${QUICK ? " (quick)" : ""}`);
  console.log(`  core: ${core.bytes.length} B, sha256 ${core.sha256.slice(0, 16)}… from ${core.source}`);

  const results = { meta, payloads: [], sha: [], cold: null, profile: [], targets: [] };
  const wasmOnly = await loadWasmOnlySdk();
  meta.sdkHostHash = wasmOnly !== null;
  const ps = payloads();
  for (const p of ps) {
    const rows = payloadRows(p, wasmOnly);
    checkAgree(p, rows);
    const m = measure(rows, TIMING);
    const pl = { name: p.name, bytes: Buffer.byteLength(p.json), rows: m };
    // For the chart: each row's speed relative to the reference + node:crypto, round by round.
    pl.vsReference = Object.fromEntries(Object.keys(m).map((k) => [k, ratioStats(m[ROW.refNode], m[k])]));
    results.payloads.push(pl);
    printPayload(pl);
  }
  for (const n of SHA_SIZES) {
    const s = { size: n, rows: measure(await shaRows(n), TIMING) };
    results.sha.push(s);
    printSha(s);
  }
  if (!flag("--no-batch")) {
    // The batch API against a loop of single calls, small and medium.
    results.batch = { items: BATCH_ITEMS, payloads: [] };
    for (const p of ps.filter((x) => x.name === "small" || x.name === "medium")) {
      const m = measure(batchRows(sdk, p), TIMING);
      results.batch.payloads.push({ name: p.name, rows: m, ratios: batchRatios(m) });
    }
    printBatch(results.batch, fmtTime);
  }
  if (!flag("--no-cold")) {
    results.cold = coldStart();
    const c = results.cold;
    console.log(`\nCold start (fresh node, first import → first fingerprint, median of ${COLD_RUNS}): ours ${c.ours.medianMs.toFixed(1)} ms, reference + node:crypto ${c.reference.medianMs.toFixed(1)} ms`);
  }
  if (!flag("--no-profile")) {
    try {
      for (const p of ps) {
        const { rows, hostHashed } = await profileRows(p, ps);
        results.profile.push(breakdown(p, measure(rows, PROFILE_TIMING), hostHashed));
      }
      printProfile(results.profile);
    } catch (err) {
      // Loud, not skipped: a broken profile is a bench defect to fix.
      console.error(`\nProfile FAILED: ${err.stack ?? err.message}`);
      process.exitCode = 1;
    }
  }

  if (flag("--python")) results.python = runPython();

  results.targets = targets(results);
  if (results.batch) results.targets.push(...batchTargets(results.batch));
  console.log("\nTargets (ratio = how many times faster ours is)");
  for (const t of results.targets) {
    console.log(`  ${t.pass ? "PASS" : "MISS"}  ${pad(t.what, 64)}${lpad(ratio(t.value), 8)}  (need ≥ ${t.need}×)`);
  }
  const miss = results.targets.filter((t) => !t.pass).length;
  console.log(`  ${results.targets.length - miss} pass, ${miss} miss`);

  meta.loadavgEnd = loadavg();
  meta.seconds = (Date.now() - t0) / 1e3;
  mkdirSync(dirname(JSON_OUT), { recursive: true });
  writeFileSync(JSON_OUT, `${JSON.stringify(results, null, 1)}\n`);
  mkdirSync(dirname(CHART_OUT), { recursive: true });
  writeFileSync(CHART_OUT, renderChart(results));
  console.log(`\nwrote ${JSON_OUT} and ${CHART_OUT} in ${meta.seconds.toFixed(0)} s`);
}

await main();
