// Quick SHA-256 throughput check (not a test): the core's assembly/sha256.ts
// against hash-wasm and node:crypto, in one process, at 64 B, 1 KiB, 1 MiB.
// Run: node bench/sha256-core.mjs   (needs node_modules; compiles
// test/wasm/sha256.ts with the release target into a temp dir first).
//
// Rows:
//   core in place  — hashRepeat in wasm: reset/update/final over data already
//                    in wasm memory; what the canonical writer pays.
//   core from JS   — copy a Uint8Array in, one call, hex string out: the
//                    same work hash-wasm's update/digest("hex") does.
//   hash-wasm      — createSHA256() once, then init().update(x).digest("hex").
//   node:crypto    — createHash("sha256").update(x).digest("hex").
// Best of several interleaved rounds, so background load hurts every row
// alike; read the ratios.
import { execFileSync } from "node:child_process";
import { readFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { createSHA256 } from "hash-wasm";

const root = new URL("..", import.meta.url).pathname;
const out = join(mkdtempSync(join(tmpdir(), "sha256-bench-")), "sha256.wasm");
execFileSync(process.execPath, [
  join(root, "node_modules/assemblyscript/bin/asc.js"), "test/wasm/sha256.ts",
  "--config", "asconfig.json", "--target", "release", "--outFile", out,
], { cwd: root, stdio: "inherit" });
const ex = new WebAssembly.Instance(new WebAssembly.Module(readFileSync(out)), {}).exports;

const hw = await createSHA256();
const SIZES = [64, 1024, 1 << 20];
const ROUNDS = 5;
const SLICE_MS = 150;

/** Calls fn(reps) with growing reps until it takes >= SLICE_MS; returns ns per call. */
function time(fn) {
  let reps = 1;
  for (;;) {
    const t0 = process.hrtime.bigint();
    fn(reps);
    const ns = Number(process.hrtime.bigint() - t0);
    if (ns >= SLICE_MS * 1e6) return ns / reps;
    reps = Math.ceil(reps * Math.min(100, Math.max(2, (SLICE_MS * 1.2e6) / Math.max(ns, 1))));
  }
}

const latin1 = new TextDecoder("latin1");
for (const n of SIZES) {
  const data = new Uint8Array(n);
  for (let i = 0; i < n; i++) data[i] = (i * 2654435761) >>> 24;
  const want = createHash("sha256").update(data).digest("hex");

  const p = ex.inputPtr(n);
  new Uint8Array(ex.memory.buffer, p, n).set(data);
  const ours = () => {
    new Uint8Array(ex.memory.buffer, p, n).set(data);
    return latin1.decode(new Uint8Array(ex.memory.buffer, ex.hashOneShot(n), 64));
  };
  const theirs = () => hw.init().update(data).digest("hex");
  if (ours() !== want || theirs() !== want) throw new Error(`digest mismatch at ${n} B`);

  const rows = {
    "core in place": (r) => ex.hashRepeat(n, r),
    "core from JS": (r) => { for (let i = 0; i < r; i++) ours(); },
    "hash-wasm": (r) => { for (let i = 0; i < r; i++) theirs(); },
    "node:crypto": (r) => { for (let i = 0; i < r; i++) createHash("sha256").update(data).digest("hex"); },
  };
  const best = Object.fromEntries(Object.keys(rows).map((k) => [k, Infinity]));
  for (let round = 0; round < ROUNDS; round++)
    for (const [k, fn] of Object.entries(rows)) best[k] = Math.min(best[k], time(fn));

  console.log(`\n${n} B`);
  for (const [k, ns] of Object.entries(best)) {
    const mbs = (n / ns) * 1e3; // bytes/ns * 1e3 = MB/s (10^6 B/s)
    console.log(`  ${k.padEnd(14)} ${mbs.toFixed(1).padStart(8)} MB/s  ${(ns / 1e3).toFixed(3).padStart(10)} µs/call`);
  }
}
