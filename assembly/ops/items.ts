// The items of a JSON text the reader has accepted (json/reader.ts): a flat
// list a host turns into its own language's value with an explicit stack, so
// a recorded line handed back to the caller (replay.ts, R_VALUE) never goes
// through a recursive parser (D19: deep nesting works) nor one that refuses
// NaN/Infinity (D12). Internal.
//
// Each item is three little-endian u32 (tag, from, to), tags J_* in abi.ts,
// positions in the unit the host indexes its text by (U_*): the host reads a
// scalar's own text with its language's JSON reader, so numbers and escapes
// become exactly what JSON.parse / json.loads make of them.
import { J_ARRAY, J_END, J_NONFINITE, J_OBJECT, J_SCALAR, J_STRING, U_CODE_POINTS, U_UTF16 } from "../abi";
import { bytes } from "../json/emit";
import { head16 } from "./scratch";

/**
 * Writes the items of [p, p + n) into the sink. The text must have passed
 * parseText: every string is closed and every scalar is ASCII, so one pass
 * over the bytes finds the items; the loops still stop at the end.
 */
export function writeItems(p: usize, n: usize, unit: u32): bool {
  const end = p + n;
  let q = p;
  let at: u32 = 0; // q's position in the host's unit
  while (q < end) {
    const c = <u32>load<u8>(q);
    // Whitespace and separators: the tags already say where a key or value starts.
    if (c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x2C || c == 0x3A) { q++; at++; continue; }
    if (c == 0x7B || c == 0x5B || c == 0x7D || c == 0x5D) {
      if (!item(c == 0x7B ? J_OBJECT : c == 0x5B ? J_ARRAY : J_END, at, at + 1)) return false;
      q++; at++;
      continue;
    }
    const from = at;
    let tag = J_SCALAR;
    if (c == 0x22) {
      tag = J_STRING;
      q++; at++;
      while (q < end) {
        const d = <u32>load<u8>(q);
        if (d == 0x22) break;
        if (d == 0x5C) { tag = J_SCALAR; q += 2; at += 2; continue; } // an escape's second byte is ASCII
        q++;
        if (d >= 0x80) at += width(d, unit); else at++;
      }
      q++; at++;
    } else {
      // N(aN), I(nfinity), -I(nfinity): the tokens D12 reads.
      if (c == 0x4E || c == 0x49 || (c == 0x2D && q + 1 < end && load<u8>(q + 1) == 0x49)) tag = J_NONFINITE;
      while (q < end) {
        const d = <u32>load<u8>(q);
        if (d == 0x2C || d == 0x5D || d == 0x7D || d == 0x3A || d == 0x20 || d == 0x09 || d == 0x0A || d == 0x0D) break;
        q++; at++;
      }
    }
    if (!item(tag, from, at)) return false;
  }
  return true;
}

/** How many units byte d (>= 0x80) of a strict UTF-8 string adds. */
@inline function width(d: u32, unit: u32): u32 {
  if (unit != U_UTF16 && unit != U_CODE_POINTS) return 1;
  if (d < 0xC0) return 0; // a continuation byte
  return unit == U_UTF16 && d >= 0xF0 ? 2 : 1; // four bytes: a surrogate pair in UTF-16
}

function item(tag: u32, from: u32, to: u32): bool {
  const h = head16();
  store<u32>(h, tag); store<u32>(h, from, 4); store<u32>(h, to, 8);
  return bytes(h, 12);
}
