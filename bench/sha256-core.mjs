// SHA-256 alone (FIPS 180-4), bench-only: our core's assembly/hash/sha256.ts
// (through the test entry test/wasm/sha256.ts, compiled like the shipped
// module) against hash-wasm, @chainsafe/as-sha256, @noble/hashes and
// node:crypto, at 64 B, 1 KiB and 1 MiB. Used by bench/run.mjs; also runs
// alone: `node bench/sha256-core.mjs [--quick]`.
//
// Every row is "Uint8Array in, lowercase hex out", the same work:
//   ours (core)       copy into wasm memory, one call, 64 hex bytes decoded
//   ours in place     hashRepeat inside wasm over data already in memory (no
//                     copy, no hex): what the canonical writer pays; info only
//   hash-wasm         createSHA256() once, then init().update(x).digest("hex")
//   @chainsafe        digest(x) + hex
//   @noble/hashes     bytesToHex(sha256(x))
//   node:crypto       crypto.hash("sha256", x) (one-shot, the fastest API)
import { createHash, hash as nodeHash } from "node:crypto";
import { digest as csDigest } from "@chainsafe/as-sha256";
import { sha256 as nobleSha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { createSHA256 } from "hash-wasm";
import { compileEntry, instantiate } from "./_wasm.mjs";

export const SHA_SIZES = [64, 1024, 1 << 20];

/** Rows for one input size: { name: op } where op() returns the hex digest. */
export async function shaRows(n) {
  const ex = instantiate(compileEntry("test/wasm/sha256.ts"));
  const hw = await createSHA256();
  const data = new Uint8Array(n);
  for (let i = 0; i < n; i++) data[i] = (i * 2654435761) >>> 24;
  const want = createHash("sha256").update(data).digest("hex");
  const latin1 = new TextDecoder("latin1");
  const p = ex.inputPtr(n);
  const ours = () => {
    new Uint8Array(ex.memory.buffer, p, n).set(data);
    return latin1.decode(new Uint8Array(ex.memory.buffer, ex.hashOneShot(n), 64));
  };
  const rows = {
    "ours (core)": ours,
    "ours in place": () => (ex.hashRepeat(n, 1), want),
    "hash-wasm": () => hw.init().update(data).digest("hex"),
    "@chainsafe/as-sha256": () => bytesToHex(csDigest(data)),
    "@noble/hashes": () => bytesToHex(nobleSha256(data)),
    "node:crypto": () => nodeHash("sha256", data),
  };
  for (const [k, op] of Object.entries(rows)) {
    if (op() !== want) throw new Error(`SHA-256 mismatch: ${k} at ${n} B`);
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { measure } = await import("./_timer.mjs");
  const quick = process.argv.includes("--quick");
  for (const n of SHA_SIZES) {
    const res = measure(await shaRows(n), { rounds: quick ? 3 : 7, sliceMs: quick ? 40 : 120 });
    console.log(`\n${n} B`);
    for (const [k, r] of Object.entries(res)) {
      console.log(`  ${k.padEnd(22)} ${((n / r.median) * 1e3).toFixed(1).padStart(8)} MB/s  ${(r.median / 1e3).toFixed(3).padStart(10)} µs/call`);
    }
  }
}
