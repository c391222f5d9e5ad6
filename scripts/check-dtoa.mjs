// Long differential run of assembly/num/dtoa.ts (formatDouble, contract
// decision D7) against V8's String(x): 10,000,000 seeded doubles by default
// — 7M random 64-bit patterns (NaN skipped), 1M random integers, 1M short
// decimals, 1M uniform [0, 1) values. The default suite (test/dtoa.test.ts)
// checks ~1.4M; this is the opt-in long run.
//
// Needs build/test-dtoa.wasm: node scripts/build-test-wasm.mjs
// Run:   node scripts/check-dtoa.mjs [count=10000000] [seed=1]
// Exits 1 on any mismatch, listing the first few as IEEE bits in hex.
import { readFileSync } from "node:fs";
import { splitmix32 as prng } from "./_prng.mjs";

const total = Number(process.argv[2] ?? 10_000_000);
const seed = Number(process.argv[3] ?? 1);

const wasm = readFileSync(new URL("../build/test-dtoa.wasm", import.meta.url));
const ex = new WebAssembly.Instance(new WebAssembly.Module(wasm), {}).exports;
const BUF = ex.buf();
const mem = new Uint8Array(ex.memory.buffer); // format never grows memory


const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
const u64 = new BigUint64Array(f64.buffer);
const hex = (x) => { f64[0] = x; return "0x" + u64[0].toString(16).padStart(16, "0"); };

let checked = 0;
const failures = [];
function check(x) {
  checked++;
  const n = ex.format(x);
  const s = String(x);
  let ok = n === s.length;
  for (let i = 0; ok && i < n; i++) ok = mem[BUF + i] === s.charCodeAt(i);
  if (!ok && failures.length < 10) {
    const got = Buffer.from(mem.subarray(BUF, BUF + n)).toString("latin1");
    failures.push(`${hex(x)}: want ${s} got ${got}`);
  }
}

const next = prng(seed);
const start = performance.now();
const bitsCount = Math.round(total * 0.7);
const restCount = Math.round(total * 0.1);
while (checked < bitsCount) {
  u32[0] = next();
  u32[1] = next();
  const x = f64[0];
  if (x === x) check(x);
}
for (let i = 0; i < restCount; i++) {
  const m = next() * 2 ** 21 + (next() >>> 11); // < 2^53
  check(i & 1 ? m : m * 2 ** (next() % 64));
}
for (let i = 0; i < restCount; i++) {
  const d = 1 + (next() % 10);
  check(Number(((next() * 2 ** 21 + (next() >>> 11)) % 10 ** (1 + (next() % 15)) / 10 ** d).toFixed(d)));
}
for (let i = 0; i < restCount; i++) check(next() / 2 ** 32 + next() / 2 ** 64);

const secs = ((performance.now() - start) / 1000).toFixed(1);
console.log(`check-dtoa: ${checked} doubles, seed ${seed}, ${failures.length ? "MISMATCHES" : "all equal String(x)"}, ${secs} s`);
for (const f of failures) console.log("  " + f);
process.exit(failures.length ? 1 : 0);
