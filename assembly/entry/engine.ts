// The engine module's exports (build/engine.wasm): the ABI of
// entry/fingerprint.ts, with calls (F_CALL, call.ts), explanation records (F_EXPLAIN,
// explain.ts), tool declarations (F_TOOLS, tools.ts) and the replay index
// (F_REPLAY, replay.ts) compiled in. Loaded by the hosts on first use of
// explain/diff/nearest/replay and by the CLIs, never on the fingerprint path.
// reserve() keeps a recording's index (replay.ts) behind the input region.
export { FINGERPRINT_VERSION } from "../abi";
export { abiId, limits, result, version, word, wordBuf } from "./dispatch";
import { WithCalls, runRequest } from "./dispatch";
import { reserveKeepingStore } from "../ops/replay";
import { runBatch as batch } from "../ops/batch";

export function reserve(n: usize): usize {
  return reserveKeepingStore(n);
}

export function run(len: usize): i32 {
  return runRequest<WithCalls>(len);
}

/** Items from..count-1 of the batch at the input region (abi.ts BATCH_*); digests at out. */
export function runBatch(from: u32, out: usize): u32 {
  return batch<WithCalls>(from, out);
}
