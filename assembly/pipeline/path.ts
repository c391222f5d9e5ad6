// The path of a value a host refuses (D15, D16, D20), in D15's notation
// (abi.ts F_PATH): `args`, then `.key` for an identifier key, `["a b"]` for
// any other (its JSON string literal, D6, as JSON.stringify writes it, never
// trimmed), `[3]` for an index; "the call" for a whole call itself. The host
// sends the keys and indices as a JSON array, which the reader puts on the
// tape: an index is a small-integer literal, printed as it is. Internal.
import { ensure, putByte, sinkAdvance, sinkEnd } from "../json/sink";
import { NUM_LITERAL, STR_CLEAN, T_NULL, T_STR, nodeAt, nodeType, subtreeEnd } from "../json/tape";
import { writeJsonString } from "./canonical";

/** Writes the path of the array `root` (null first: from a whole call) into the sink; false on OOM or another shape. */
export function writePath(root: u32): bool {
  const end = subtreeEnd(root);
  let k = root + 1;
  const call = k < end && nodeType(k) == T_NULL;
  if (call) k++;
  if (!ensure(8)) return false;
  if (!call) { store<u32>(sinkEnd(), 0x73677261); sinkAdvance(4); } // "args"
  else if (k == end) { store<u64>(sinkEnd(), 0x6C6C616320656874); sinkAdvance(8); } // "the call"
  for (let first = call; k < end; k++, first = false) {
    const node = nodeAt(k), flags = load<u8>(node, 1), n = <usize>load<u32>(node, 4), p = <usize>load<u64>(node, 8);
    const key = load<u8>(node) == T_STR; // the tape's node: type, flags, a = length, b = where its bytes are
    if (!key && (flags & NUM_LITERAL) == 0) return false;
    let ident = key && n > 0;
    for (let i: usize = 0; ident && i < n; i++) {
      const c = <u32>load<u8>(p + i);
      ident = (c | 0x20) - 0x61 < 26 || c == 0x5F || c == 0x24 || (i > 0 && c - 0x30 < 10);
    }
    if (!ensure(n * 6 + 4)) return false; // its literal at most 6 bytes a byte (writeJsonString's bound), and [ ]
    if (!ident) putByte(0x5B); // [
    else if (!first) putByte(0x2E); // .
    if (key && !ident) {
      if (!writeJsonString(p, n, (flags & STR_CLEAN) != 0)) return false;
    } else {
      memory.copy(sinkEnd(), p, n); // an identifier or an index as it is
      sinkAdvance(n);
    }
    if (!ident) putByte(0x5D); // ]
  }
  return true;
}
