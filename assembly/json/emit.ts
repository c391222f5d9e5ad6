// Sink helpers for the formatters of the operations and the CLI: a static
// ASCII literal, bytes from the request, an integer in decimal. Internal;
// false on out of memory.
import { ensure, putByte, putBytes, sinkAdvance, sinkEnd } from "./sink";
import { DECIMAL_MAX, writeDecimal } from "../num/digits";

/** A static ASCII literal into the sink. */
export function lit(s: string): bool {
  if (!ensure(<usize>s.length)) return false;
  for (let i = 0; i < s.length; i++) putByte(<u32>s.charCodeAt(i));
  return true;
}

/** n bytes at p into the sink. */
export function bytes(p: usize, n: usize): bool {
  if (!ensure(n)) return false;
  putBytes(p, n);
  return true;
}

/** v in decimal into the sink (num/digits.ts: the core's one integer printer). */
export function decimal(v: u64): bool {
  if (!ensure(DECIMAL_MAX)) return false;
  sinkAdvance(writeDecimal(v, sinkEnd()));
  return true;
}

/** v in decimal, with "-" when negative. */
export function signedDecimal(v: i64): bool {
  if (v < 0 && !lit("-")) return false;
  return decimal(v < 0 ? <u64>-v : <u64>v);
}
