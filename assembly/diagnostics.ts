// The diagnostics module's exports (build/diagnostics.wasm): the ABI of
// index.ts, with calls (F_CALL, call.ts) and explanation records
// (F_EXPLAIN, explain.ts) compiled in. Loaded by the hosts on first use of
// explain/diff/nearest and by the CLIs, never on the fingerprint path.
export { FINGERPRINT_VERSION } from "./abi";
export { abiId, limits, reserve, result, version } from "./request";
import { WithCalls, runRequest } from "./request";
import { runBatch as batch } from "./batch";

export function run(len: usize): i32 {
  return runRequest<WithCalls>(len);
}

/** Items from..count-1 of the batch at the input region (abi.ts BATCH_*); digests at out. Issue 13. */
export function runBatch(from: u32, out: usize): u32 {
  return batch<WithCalls>(from, out);
}
