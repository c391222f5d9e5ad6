// Test-only entry over assembly/num/strtod.ts (correctly rounded decimal ->
// double) and its helpers: an input region the test fills, the parser, the
// per-stage counters and force switch (present only in asserts-on builds),
// and raw access to Eisel–Lemire, floorLog2Pow10 and the 64x64->128 multiply's high half.
// Never shipped.

import { floorLog2Pow10 } from "../../assembly/num/dtoa"; // shared with strtod
import { parseDouble, eiselLemire, strtodStats } from "../../assembly/num/strtod";
import { umulh } from "../../assembly/num/_u128";

/** Start of the input region: page-aligned, past static data. */
// @ts-ignore: __heap_base is a compiler builtin
const INPUT: usize = (__heap_base + 0xffff) & ~<usize>0xffff;

/** Returns the input pointer after growing memory so len bytes fit there. */
export function inputPtr(len: usize): usize {
  const needPages = <i32>((INPUT + len + 0xffff) >>> 16);
  const have = memory.size();
  if (needPages > have && memory.grow(needPages - have) < 0) unreachable();
  return INPUT;
}

export function parse(len: i32): f64 { return parseDouble(INPUT, len); }

export function countClinger(): i32 { return strtodStats().clinger; }
export function countEL(): i32 { return strtodStats().el; }
export function countFallback(): i32 { return strtodStats().fallback; }
export function resetCounts(): void {
  const s = strtodStats();
  s.clinger = 0;
  s.el = 0;
  s.fallback = 0;
}
/** 0: normal; 1: skip Clinger; 2: every call goes to the exact fallback. */
export function setForce(mode: i32): void { strtodStats().force = mode; }

export function el(w: u64, q: i32): i64 { return eiselLemire(w, q); }
export function log2Pow10(q: i32): i32 { return floorLog2Pow10(q); }
export function mulHi(a: u64, b: u64): u64 { return umulh(a, b); }
