// The fingerprint module's exports: the only entry points of
// build/fingerprint.wasm. One call per fingerprint, pointer/length over
// linear memory, no imports. build/engine.wasm (entry/engine.ts) has the
// same exports over the same tree, and also reads calls (F_CALL, call.ts)
// and writes explanation records (F_EXPLAIN, explain.ts): kept out of this
// module so the fingerprint path keeps its size and start-up (README). Every
// number of the ABI (flags, layouts, tags, error codes) is defined in abi.ts
// and generated for the hosts (scripts/gen-abi.mjs).
//
//   reserve(n) -> ptr   input region with room for n bytes (0: out of memory).
//                       The address is fixed for the instance's lifetime; the
//                       memory buffer itself may move when memory grows.
//   run(len)  -> status 0, or an error code (abi.ts). Reads the request
//                       at ptr[0..len), fills the result block.
//   result()  -> ptr    the result block (fixed address, RESULT_* layout).
//   version() -> 1, FINGERPRINT_VERSION = 1 (D18).
//   limits(depth, members)  caps for the calls that follow (limits.ts).
//   abiId()   -> ABI_ID, a hash of abi.ts: hosts refuse a module whose ABI
//                       is not the one their constants were generated from.
//   wordBuf() -> ptr, word(id, len) -> n: the message of an error a host
//                       raises itself (abi.ts W_*; base/words.ts), its
//                       parameters at wordBuf(), the n bytes at wordBuf() + WORD_OUT.
//   runBatch(from, out) -> where it stopped: many requests in one call, from
//                       columns at the input region (abi.ts BATCH_*, batch.ts).
//
// Request: HEADER_WORDS little-endian u32 (flags, kindLen, nameLen,
// matchLen, ignoreLen, argsLen), then the parts back to back:
//   kind      as a JSON string literal ("" = default "tool_call")
//   name      as a JSON string literal
//   matchOn   keys as a JSON array of strings (F_MATCH_ON)
//   ignoreArgs keys as a JSON array of strings (F_IGNORE; D9: matchOn wins)
//   args      JSON text (UTF-8 / WTF-8; F_STRING_INPUT: no BOM, D12), or a
//             host-value stream (F_VALUES, json/values.ts)
// F_DIGEST hashes kind "\n" name "\n" canonical (D17); F_TEXT returns the
// canonical text; F_PREIMAGE returns the whole preimage as the text, for
// hosts that hash large texts faster themselves (node:crypto).
// F_CALL: args is a whole call (a recording line or a host object through
// the value stream, call.ts) and the other parts are empty. F_EXPLAIN
// returns the explanation record (explain.ts) as the text.
export { FINGERPRINT_VERSION } from "../abi";
export { abiId, limits, reserve, result, version, word, wordBuf } from "./dispatch";
import { FingerprintOnly, runRequest } from "./dispatch";
import { runBatch as batch } from "../ops/batch";

export function run(len: usize): i32 {
  return runRequest<FingerprintOnly>(len);
}

/** Items from..count-1 of the batch at the input region (abi.ts BATCH_*); digests at out. */
export function runBatch(from: u32, out: usize): u32 {
  return batch<FingerprintOnly>(from, out);
}
