// Internal to assembly/: formats an f64 exactly as ECMAScript
// Number::toString(x, 10) does (ECMA-262 §6.1.6.1.20; V8's `String(x)`),
// contract decision D7.
//
// Digits: the shortest decimal that reads back as x; among several of that
// length the one closest to x, and on an exact tie the even one (the
// spec's Note 2 rule, which V8 follows). They come from Schubfach
// (R. Giulietti, "The Schubfach way to render doubles", 2020): pick 10^k
// no larger than the width of the rounding interval of x, so the interval
// holds at most one multiple of 10^(k+1) and at least one of 10^k, and
// decide between those few candidates with the interval's bounds scaled by
// 10^−k in round-to-odd integer arithmetic, where every comparison is
// exact. Unlike the paper (126-bit factors, truncated product) the factors
// are the 128-bit 5^j significands shared with the parser (_pow5.ts),
// plus one, with the exact 192-bit product; the precision argument is
// redone for that in `shortestDigits` and checked by test/dtoa.test.ts. Layout (plain, "0.000ddd" or exponential) follows the spec
// step by step; the window thresholds are the named constants below.
//
// Two shortcuts come first, each exact by its own argument (formatDouble):
// integers below 2^53, and short decimals (at most 14 significant digits),
// whose digits one correctly rounded division confirms.
//
// Allocation-free: writes bytes at a caller pointer; static tables only.
// The integer digits themselves are digits.ts's (the core's one printer).
// Cost (release, V8, test/wasm/dtoa.ts formatMany): ~40 ns per random
// double, ~25 ns per short decimal, ~11 ns per integer.

import { pow5Entry } from "./_pow5";
import { umulh } from "./_u128";
import { decimalLength, write2, writeDigits } from "./digits";
import { POW10_EXACT_MAX, POW10_F64 } from "./_pow10";

/** ECMA-262 Number::toString: with value 0.d1..dk × 10^n, plain notation is
 *  used while n ≤ 21 ("100000000000000000000", but 1e21 → "1e+21"). */
const PLAIN_MAX_N: i32 = 21;
/** …and while n > −6 for small values ("0.000001", but 1e-7 → "1e-7"). */
const PLAIN_MIN_N_EXCLUSIVE: i32 = -6;

/** Fraction digits the short-decimal path gives |x| in [1, 10) (one fewer per decade above, one more
 *  per decade below): y = |x|·10^k stays below 10^15 even where ⌊log10 |x|⌋ is one more than its
 *  estimate from the binary exponent (formatDouble). */
const SHORT_FRACTION: i32 = 13;

const FRAC_BITS: i32 = 52;
const FRAC_MASK: u64 = (1 << 52) - 1;
const HIDDEN_BIT: u64 = 1 << 52;
/** x = c·2^q with q = biased exponent − 1075 (1023 bias + 52 fraction bits). */
const Q_BIAS: i32 = 1075;
/** q of subnormals and of the smallest normal binade. */
const Q_MIN: i32 = -1074;

/** The sticky bit of a scaled bound is set when any of the top 69 fraction
 *  bits of the 192-bit product is set. The 59 low bits ignored hold the
 *  table's error: see `shortestDigits`. */
const STICKY_SHIFT: u64 = 59;

const CHAR_0: u32 = 0x30;
const CHAR_MINUS: u32 = 0x2d;
const CHAR_PLUS: u32 = 0x2b;
const CHAR_DOT: u32 = 0x2e;
const CHAR_E: u32 = 0x65;
/** "Infinity" as a little-endian u64. */
const ASCII_INFINITY: u64 = 0x7974696e69666e49;
/** "Na" as a little-endian u16; the final "N" follows. */
const ASCII_NA: u16 = 0x614e;
const CHAR_N: u32 = 0x4e;

// ---------------------------------------------------------------------------
// Logarithm approximations. Each is exact only on the range stated, which
// test/dtoa.test.ts checks against BigInt for every integer in it (the
// bound given is the largest symmetric range found exact; dtoa uses less).
// The multipliers are log10(2)·2^20, log10(3/4)·2^20 and log2(10)·2^19,
// rounded to nearest.

/** floor(log10(2^q)); exact for |q| < 2621. Used for q in [-1074, 971]. */
// @ts-ignore: decorator
@inline export function floorLog10Pow2(q: i32): i32 {
  return (q * 315653) >> 20;
}

/** floor(log10(3/4 · 2^q)); exact for |q| < 1335. Used for q in [-1073, 971]. */
// @ts-ignore: decorator
@inline export function floorLog10ThreeQuartersPow2(q: i32): i32 {
  return (q * 315653 - 131008) >> 20;
}

/** floor(log2(10^j)); exact for |j| < 1234. Used for j in [-292, 324]. */
// @ts-ignore: decorator
@inline export function floorLog2Pow10(j: i32): i32 {
  return (j * 1741647) >> 19;
}

// ---------------------------------------------------------------------------
// Shortest digits (Schubfach).

/** Second return value of `shortestDigits`: the decimal exponent e with
 *  x = digits · 10^e. Valid until the next call. */
let dtoa_e10: i32 = 0;

/** Shortest, closest digits of x = c·2^q (c > 0); the exponent goes to
 *  `dtoa_e10`. `symmetric` is false only when c = 2^52 and q > Q_MIN, where
 *  the gap to the lower neighbour is half the gap to the upper one. The
 *  result may carry trailing zeros only if it came from step A.
 *
 *  Rounding interval R (parsing rounds half to even, so its ends belong to
 *  R exactly when c is even): [c − 1/2, c + 1/2]·2^q, or [c − 1/4, c + 1/2]·2^q
 *  in the asymmetric case. With k = floor(log10 of 2^q, resp. 3/4·2^q),
 *  10^k ≤ width(R) < 10^(k+1). In units of 10^k/4 the three points
 *    X = 4c·2^q/10^k,  XL = (4c − 2 or 4c − 1)·2^q/10^k,  XR = (4c + 2)·2^q/10^k
 *  satisfy 4 ≤ XR − XL < 40, so R holds at most one multiple of 10^(k+1)
 *  (step A) and at least one multiple of 10^k (step B).
 *
 *  Arithmetic. 10^j (j = −k) = T_j·2^(floorLog2Pow10(j) − 127) up to the
 *  table's truncation, T_j = the entry pow5Entry(j) ∈ [2^127, 2^128). With
 *  g = T_j + 1 (so 0 < g − G ≤ 1 for the exact real G = 10^j·2^(127 −
 *  floorLog2Pow10(j))) and h = q + floorLog2Pow10(j) + 1 ∈ [1, 4],
 *    N·2^q·10^−k = N·2^h·G / 2^128   for N in {4c − 2, 4c − 1, 4c, 4c + 2}.
 *  The 192-bit product N·2^h·g exceeds N·2^h·G by less than N·2^h < 2^59
 *  (N < 2^55), i.e. by less than 2^−69 in units. For every q and both
 *  choices of k and every N in [1, 2^55], the distance of N·2^q·10^−k to
 *  the nearest integer is 0 or at least 2^−65.44 (continued-fraction bound,
 *  checked in test/dtoa.test.ts; the worst case is q = 664). So the integer
 *  part of the product is exact, and the top 69 fraction bits are all zero
 *  exactly when the scaled value is an integer: OR-ing that into bit 0
 *  gives round-to-odd, which compares with any even integer as the exact
 *  value does. All comparisons below are against even integers. */
function shortestDigits(c: u64, q: i32, symmetric: bool): u64 {
  const k = symmetric ? floorLog10Pow2(q) : floorLog10ThreeQuartersPow2(q);
  const j = -k;
  const h = q + floorLog2Pow10(j) + 1;
  assert(h >= 1 && h <= 4);
  const entry = pow5Entry(j);
  // T_j + 1 never carries out of 128 bits (no entry is 2^128 − 1; tested).
  const gLo = load<u64>(entry, 8) + 1;
  const gHi = load<u64>(entry) + u64(gLo == 0);

  // P = g·cp, cp = 4c·2^h < 2^59: three 64-bit words p2:p1:p0.
  const cp = c << (<u64>h + 2);
  const a1 = umulh(gLo, cp);
  const p0 = gLo * cp;
  const p1 = gHi * cp + a1;
  const p2 = umulh(gHi, cp) + u64(p1 < a1);
  const vb = p2 | u64((p1 | (p0 >> STICKY_SHIFT)) != 0);

  // The bounds differ from cp by 2·2^h (or 2^h below in the asymmetric
  // case): add or subtract g shifted left by that exponent, exactly.
  const sr = <u64>h + 1;
  const sl = symmetric ? sr : <u64>h;
  let d0 = gLo << sr, d1 = (gHi << sr) | (gLo >> (64 - sr)), d2 = gHi >> (64 - sr);
  const r0 = p0 + d0;
  const r1a = p1 + d1;
  const r1 = r1a + u64(r0 < d0);
  const r2 = p2 + d2 + u64(r1a < d1) + u64(r1 < r1a);
  const vbr = r2 | u64((r1 | (r0 >> STICKY_SHIFT)) != 0);

  d0 = gLo << sl; d1 = (gHi << sl) | (gLo >> (64 - sl)); d2 = gHi >> (64 - sl);
  const l0 = p0 - d0;
  const l1a = p1 - d1;
  const l1 = l1a - u64(p0 < d0);
  const l2 = p2 - d2 - u64(p1 < d1) - u64(l1a < l1);
  const vbl = l2 | u64((l1 | (l0 >> STICKY_SHIFT)) != 0);

  // Ends of R are inside only for even c: "XL ≤ 4u" becomes "vbl + 1 ≤ 4u"
  // for odd c, likewise on the right.
  const open = c & 1;
  const s = vb >> 2; // floor(x / 10^k)

  // Step A: the one multiple of 10^(k+1) in R, if any, is the answer. Any
  // other member of R ends at 10^k or finer, hence is longer, unless both
  // are single digits around a power of ten; below the normal range that
  // only happens for c = 2 at Q_MIN, where 1e-323 is also the closest.
  const s10 = s / 10;
  const down10 = s10 * 40;
  const upIn = vbl + open <= down10;
  const overIn = down10 + 40 + open <= vbr;
  if (upIn | overIn) {
    dtoa_e10 = k + 1;
    return s10 + u64(!upIn);
  }

  // Step B: the multiples of 10^k in R (no power of ten lies between
  // them, else step A would have found it) all have the same length; the
  // closest to x is s or s + 1.
  dtoa_e10 = k;
  const t = s + 1;
  const sIn = vbl + open <= s << 2;
  const tIn = (t << 2) + open <= vbr;
  if (sIn != tIn) return sIn ? s : t;
  const mid = (s << 2) + 2;
  return vb < mid || (vb == mid && (s & 1) == 0) ? s : t;
}

// ---------------------------------------------------------------------------
// Output.

/** Lays out digits·10^e10 at p per Number::toString steps 6–10 (k digits,
 *  n = k + e10); returns the end pointer. `digits` (≥ 1) has no trailing
 *  zeros. */
function layout(p: usize, digits: u64, e10: i32): usize {
  const k = decimalLength(digits);
  const n = k + e10;
  if (n <= PLAIN_MAX_N) {
    if (n >= k) {
      // Step 6: the digits, then n − k zeros.
      writeDigits(digits, p + k);
      memory.fill(p + k, <u8>CHAR_0, n - k);
      return p + n;
    }
    if (n > 0) {
      // Step 7: the point after n digits. Digits go one byte right; the
      // first n move back over the gap.
      writeDigits(digits, p + k + 1);
      memory.copy(p, p + 1, n);
      store<u8>(p + n, CHAR_DOT);
      return p + k + 1;
    }
    if (n > PLAIN_MIN_N_EXCLUSIVE) {
      // Step 8: "0.", −n zeros, the digits.
      store<u16>(p, CHAR_0 | (CHAR_DOT << 8));
      memory.fill(p + 2, <u8>CHAR_0, -n);
      const end = p + 2 - n + k;
      writeDigits(digits, end);
      return end;
    }
  }
  // Steps 9–10: d1[.d2…dk]e±(n−1).
  let end: usize;
  if (k == 1) {
    store<u8>(p, CHAR_0 + <u32>digits);
    end = p + 1;
  } else {
    writeDigits(digits, p + k + 1);
    store<u8>(p, load<u8>(p + 1));
    store<u8>(p + 1, CHAR_DOT);
    end = p + k + 1;
  }
  let e = n - 1;
  store<u8>(end, CHAR_E);
  store<u8>(end + 1, e < 0 ? CHAR_MINUS : CHAR_PLUS);
  end += 2;
  if (e < 0) e = -e;
  // |e| ≤ 324.
  if (e >= 100) {
    const hi = <u32>e / 100;
    store<u8>(end, CHAR_0 + hi);
    write2(end + 1, <u32>e - hi * 100);
    return end + 3;
  }
  if (e >= 10) {
    write2(end, <u32>e);
    return end + 2;
  }
  store<u8>(end, CHAR_0 + <u32>e);
  return end + 1;
}

/** Writes the Number::toString text of ±digits·10^e10 when `digits` are
 *  already the shortest (num/decimal.ts); 0 writes "0". Returns byte length. */
export function formatDecimal(digits: u64, e10: i32, neg: bool, out: usize): i32 {
  if (digits == 0) {
    store<u8>(out, CHAR_0);
    return 1;
  }
  let p = out;
  if (neg) store<u8>(p++, CHAR_MINUS);
  return <i32>(layout(p, digits, e10) - out);
}

/** Writes ECMAScript Number::toString(value) as ASCII at `out`; returns byte length.
 *  Caller guarantees 32 writable bytes. -0 writes "0". NaN → "NaN", ±Infinity → "Infinity"/"-Infinity".
 *  Example: formatDouble(0.1 + 0.2, p) writes "0.30000000000000004", returns 19.
 *  (The longest output is 25 bytes, e.g. "-0.0000012345678901234567".) */
export function formatDouble(value: f64, out: usize): i32 {
  const bits = reinterpret<u64>(value);
  const biased = <i32>(bits >> FRAC_BITS) & 0x7ff;
  const frac = bits & FRAC_MASK;
  let p = out;
  if (biased == 0x7ff) {
    if (frac != 0) {
      store<u16>(p, ASCII_NA);
      store<u8>(p, CHAR_N, 2);
      return 3;
    }
    if (bits >> 63) store<u8>(p++, CHAR_MINUS);
    store<u64>(p, ASCII_INFINITY);
    return <i32>(p + 8 - out);
  }
  if ((bits << 1) == 0) {
    store<u8>(p, CHAR_0); // ±0 → "0"
    return 1;
  }
  if (bits >> 63) store<u8>(p++, CHAR_MINUS);

  let c: u64, q: i32;
  if (biased != 0) {
    c = frac | HIDDEN_BIT;
    q = biased - Q_BIAS;
  } else {
    c = frac;
    q = Q_MIN;
  }

  // Integers below 2^53 print as themselves: their rounding interval lies
  // within ±1/2, so the only integer in it is x and every non-integer in it
  // has more digits. Skips the 128-bit scaling for the commonest numbers
  // (counts, ids, small ints): measured ~20 ns instead of ~67 ns each
  // (release build, V8, formatMany over 500k values below 10^5).
  const sh = -q;
  if (<u32>sh <= <u32>FRAC_BITS && (c & ((<u64>1 << sh) - 1)) == 0) {
    const f = c >> sh;
    const end = p + decimalLength(f);
    writeDigits(f, end);
    return <i32>(end - out);
  }

  // Short decimals (prices, coordinates, rates), by one division: with
  // k = SHORT_FRACTION − ⌊log10 2^(q+52)⌋, y = round(|x|·10^k) < 10^15. When
  // y / 10^k == |x|, the decimal y·10^−k reads back as x (y and 10^k are exact
  // doubles, so the division is its correctly rounded value: Clinger), and no
  // other decimal of at most 15 significant digits does (DBL_DIG: their
  // spacing exceeds 4 ulps), so y without its trailing zeros is the shortest
  // and the only one of its length. y ≥ 10^13 (|x| ≥ 10^fe), and |x|·10^k
  // is within 1/4 of an integer when one fits, so rounding finds it.
  // Otherwise the general path decides (16–17 digits, or out of range).
  // (k in range implies a normal x.)
  let digits: u64 = 0, e10: i32 = 0;
  const k = SHORT_FRACTION - floorLog10Pow2(biased - 1023);
  if (<u32>k <= <u32>POW10_EXACT_MAX) {
    const ax = abs(value), scale = load<f64>(POW10_F64 + (<usize>k << 3));
    const y = nearest(ax * scale);
    if (y / scale == ax) { digits = <u64>y; e10 = -k; }
  }
  if (digits == 0) {
    digits = shortestDigits(c, q, frac != 0 || biased <= 1);
    e10 = dtoa_e10;
  }
  // Only step A and short decimals leave trailing zeros; digits < 10^16, so at most 15.
  if (digits % 100000000 == 0) { digits /= 100000000; e10 += 8; }
  if (digits % 10000 == 0) { digits /= 10000; e10 += 4; }
  if (digits % 100 == 0) { digits /= 100; e10 += 2; }
  if (digits % 10 == 0) { digits /= 10; e10 += 1; }
  return <i32>(layout(p, digits, e10) - out);
}
