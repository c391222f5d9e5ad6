// Integers in decimal: the one printer of the core. Number::toString's
// digits (dtoa.ts), the limit messages (base/limits.ts), a date's fields
// (text/isodate.ts), and every count, line number, index and offset an
// operation or the CLI writes go through here. Allocation-free: bytes at a
// caller pointer. Internal.

const CHAR_0: u32 = 0x30;

/** 10^i for i in [0, 19]: decimalLength's thresholds over all of u64. */
const POW10: usize = memory.data<u64>([
  1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
  1000000000, 10000000000, 100000000000, 1000000000000, 10000000000000,
  100000000000000, 1000000000000000, 10000000000000000, 100000000000000000,
  1000000000000000000, 10000000000000000000,
]);

/** The most digits writeDecimal writes (u64's largest value has 20). */
export const DECIMAL_MAX: usize = 20;

/** Number of decimal digits of f ≥ 1. (b·1233) >> 12 equals floor(log10(2^b))
 *  for b in [1, 64] (checked in the test), so f ∈ [2^(b−1), 2^b) has that
 *  many digits or one more. */
// @ts-ignore: decorator
@inline export function decimalLength(f: u64): i32 {
  const t = ((64 - <i32>clz(f)) * 1233) >> 12;
  return t + i32(f >= load<u64>(POW10 + (<usize>t << 3)));
}

/** Writes d < 100 as two ASCII digits at p. (d·103) >> 10 = d/10 for d < 179. */
// @ts-ignore: decorator
@inline export function write2(p: usize, d: u32): void {
  const t = (d * 103) >> 10;
  store<u16>(p, (CHAR_0 + t) | ((CHAR_0 + d - t * 10) << 8));
}

/** Writes v < 10^4 as four ASCII digits at p. (v·5243) >> 19 = v/100 for
 *  v < 43699. */
// @ts-ignore: decorator
@inline function write4(p: usize, v: u32): void {
  const hi = (v * 5243) >> 19;
  write2(p, hi);
  write2(p + 2, v - hi * 100);
}

/** Writes the decimal digits of f (no leading zeros; "0" for 0) so that they
 *  end just before `end`. The caller knows their count. The u64 divisions by
 *  10^8 are left to the engine: a umulh reciprocal measured no faster. */
export function writeDigits(f: u64, end: usize): void {
  while (f >= 100000000) {
    const hi = f / 100000000;
    const lo = <u32>(f - hi * 100000000);
    f = hi;
    const lo4 = lo / 10000;
    write4(end - 4, lo - lo4 * 10000);
    write4(end - 8, lo4);
    end -= 8;
  }
  let v = <u32>f;
  while (v >= 100) {
    const hi = v / 100;
    end -= 2;
    write2(end, v - hi * 100);
    v = hi;
  }
  if (v >= 10) write2(end - 2, v);
  else store<u8>(end - 1, CHAR_0 + v);
}

/** Writes v in decimal at out (at most DECIMAL_MAX bytes); returns the byte count. Example: 1024 → "1024", 4. */
export function writeDecimal(v: u64, out: usize): usize {
  // v | 1 has v's digit count (10^k - 1 is odd, so no even v is one below a power of ten), and 0 has one digit.
  const n = <usize>decimalLength(v | 1);
  writeDigits(v, out + n);
  return n;
}

/** Writes v (< 10^width) in exactly `width` digits at out, zeros in front. Example: 7, 3 → "007". */
export function writePadded(v: u64, width: usize, out: usize): void {
  memory.fill(out, <u8>CHAR_0, width - <usize>decimalLength(v | 1));
  writeDigits(v, out + width);
}
