// Test-only entry over assembly/num/dtoa.ts (ECMAScript Number::toString)
// and the integer printer it shares (num/digits.ts):
// formats into a static buffer the test reads back, and exposes the
// logarithm approximations so the test can check their stated ranges.
// Never shipped.

import {
  formatDouble, floorLog10Pow2, floorLog10ThreeQuartersPow2, floorLog2Pow10,
} from "../../assembly/num/dtoa";
import { writeDecimal, writePadded } from "../../assembly/num/digits";
import { pow5Entry } from "../../assembly/num/_pow5";

/** formatDouble's contract: 32 writable bytes. */
const BUF: usize = memory.data(32, 16);

export function buf(): usize { return BUF; }

/** Writes String(x) at buf(); returns its byte length. */
export function format(x: f64): i32 { return formatDouble(x, BUF); }

/** Entry q of the 5^q table (num/_pow5.ts): its address, the table filled. */
export function pow5(q: i32): usize { return pow5Entry(q); }

/** Writes the integer v in decimal at buf() (num/digits.ts); returns its byte length. */
export function decimal(v: u64): i32 { return <i32>writeDecimal(v, BUF); }

/** Writes v in exactly width digits at buf(). */
export function padded(v: u64, width: i32): void { writePadded(v, <usize>width, BUF); }

/** Formats n doubles from `src` (for timing without per-call overhead);
 *  returns the total length so the work is not optimised away. */
export function formatMany(src: usize, n: i32): i32 {
  let total = 0;
  for (let i = 0; i < n; i++) total += formatDouble(load<f64>(src + (<usize>i << 3)), BUF);
  return total;
}

/** Start of a scratch region past static data for formatMany's input. */
// @ts-ignore: __heap_base is a compiler builtin
const SCRATCH: usize = (__heap_base + 15) & ~<usize>15;

/** Returns the scratch pointer after growing memory so len bytes fit. */
export function scratch(len: usize): usize {
  const needPages = <i32>((SCRATCH + len + 0xffff) >>> 16);
  const have = memory.size();
  if (needPages > have && memory.grow(needPages - have) < 0) unreachable();
  return SCRATCH;
}

export function log10Pow2(q: i32): i32 { return floorLog10Pow2(q); }
export function log10ThreeQuartersPow2(q: i32): i32 { return floorLog10ThreeQuartersPow2(q); }
export function log2Pow10(j: i32): i32 { return floorLog2Pow10(j); }
