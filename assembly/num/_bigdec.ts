// Internal to assembly/num/: the exact last stage of decimal -> double
// (num/strtod.ts). Decides round-half-to-even by comparing the decimal v with
// the midpoints between adjacent doubles in exact big-integer arithmetic, as
// in Clinger's "How to Read Floating Point Numbers Accurately" (1990) and the
// big-decimal comparison Lemire (2021, §11) falls back to. Rarely reached:
// exact ties and near-ties, and long literals whose first 19 digits bracket a
// rounding boundary. Scratch lives in static `memory.data`; nothing allocates.
//
// Digit bound. A midpoint is h = H·2^F with H odd, H < 2^54 and F >= -1075
// (this covers 0|least subnormal and DBL_MAX|2^1024 too). For F < 0,
// h = (H·5^-F)·10^F and H·5^-F < 2^54·5^1075 < 10^768; for F >= 0, h is an
// integer below 2^1024 < 10^309. So h has at most 768 significant digits and
// is a multiple of 10^(L - 767), L = floor(log10 h). Keep the first
// MAX_DIGITS = 800 significant digits D of v (leading digit at 10^p) and, when
// a later digit is nonzero, append a sticky digit 1. Then v and the kept value
// v' both lie strictly inside (D·10^t, (D+1)·10^t), t = p - 799, or are both
// equal to D·10^t. Every midpoint compared below is h >= v/2 when v is normal
// (candidates start at most two doubles below the answer and only step up),
// and h >= 2^-1075 > 10^-325 otherwise (then p <= -308): L >= p - 18 either
// way, so h is a multiple of 10^(L - 767), hence of 10^t, and is never
// strictly inside that interval: sign(v - h) = sign(v' - h). With L >= p - 1,
// 769 digits would do; 800 covers L >= p - 31.
//
// Sizes (32-bit limbs). v' = A·10^E with A < 10^801 < 2^2661 (84 limbs).
// p >= -324 (smaller p rounds to 0 earlier), so E >= -324 - 800 = -1124 and
// H·5^-E < 2^54·5^1124 < 2^2664 (84 limbs). For E >= 0, p <= 308 bounds
// A·5^E by 10^309 < 2^1027. Powers of two are never materialized: the
// comparison shifts limbs on the fly.

const MAX_DIGITS: i32 = 800;
const CAP: i32 = 88;
const INF_BITS: u64 = 0x7FF0000000000000;
/** 5^13, the largest power of five below 2^32. */
const POW5_13: u32 = 1220703125;

const POW10_U32: usize = memory.data<u32>([
  1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000,
]);
const POW5_U32: usize = memory.data<u32>([
  1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125, 9765625,
  48828125, 244140625,
]);

// Little-endian u32 limbs. A: decimal significand (times 5^E when E >= 0);
// S: 5^-E when E < 0; B: the midpoint's odd part H (times S when E < 0).
const BIG_A: usize = memory.data(CAP << 2, 8);
const BIG_S: usize = memory.data(CAP << 2, 8);
const BIG_B: usize = memory.data(CAP << 2, 8);
let lenA: i32 = 0;
let lenS: i32 = 0;
let lenB: i32 = 0;
/** Decimal exponent E of the kept value v' = A·10^E (before A absorbs 5^E). */
let decExp: i32 = 0;

/** buf[0..n) = buf·m + a; returns the new length (top limb nonzero if n > 0). Also _pow5.ts's. */
export function mulAdd(buf: usize, n: i32, m: u32, a: u32): i32 {
  let carry = u64(a);
  for (let i = 0; i < n; i++) {
    const p = buf + (usize(i) << 2);
    // (2^32-1)^2 + (2^32-1) < 2^64
    const t = u64(load<u32>(p)) * m + carry;
    store<u32>(p, u32(t));
    carry = t >> 32;
  }
  if (carry != 0) {
    assert(n < CAP);
    store<u32>(buf + (usize(n) << 2), u32(carry));
    n++;
  }
  return n;
}

/** buf = buf · 5^k. */
function mulPow5(buf: usize, n: i32, k: i32): i32 {
  for (; k >= 13; k -= 13) n = mulAdd(buf, n, POW5_13, 0);
  if (k > 0) n = mulAdd(buf, n, load<u32>(POW5_U32 + (usize(k) << 2)), 0);
  return n;
}

/** dst = src · h (h < 2^64), as two one-limb passes; returns the trimmed length. */
function mulU64(dst: usize, src: usize, n: i32, h: u64): i32 {
  assert(n + 2 <= CAP);
  const h0 = h & 0xFFFFFFFF, h1 = h >> 32;
  let carry: u64 = 0;
  for (let i = 0; i < n; i++) {
    const t = u64(load<u32>(src + (usize(i) << 2))) * h0 + carry;
    store<u32>(dst + (usize(i) << 2), u32(t));
    carry = t >> 32;
  }
  store<u32>(dst + (usize(n) << 2), u32(carry));
  carry = 0;
  for (let i = 0; i < n; i++) {
    const p = dst + (usize(i + 1) << 2);
    // (2^32-1)^2 + 2·(2^32-1) = 2^64 - 1
    const t = u64(load<u32>(src + (usize(i) << 2))) * h1 + u64(load<u32>(p)) + carry;
    store<u32>(p, u32(t));
    carry = t >> 32;
  }
  store<u32>(dst + (usize(n + 1) << 2), u32(carry));
  let len = n + 2;
  while (len > 0 && load<u32>(dst + (usize(len - 1) << 2)) == 0) len--;
  return len;
}

// @ts-ignore: decorator
@inline export function bitLength(buf: usize, n: i32): i32 {
  return n == 0 ? 0 : (n << 5) - i32(clz(load<u32>(buf + (usize(n - 1) << 2))));
}

// @ts-ignore: decorator
@inline function limbAt(buf: usize, n: i32, j: i32): u32 {
  return j >= 0 && j < n ? load<u32>(buf + (usize(j) << 2)) : 0;
}

/** Limb i of buf·2^s. */
// @ts-ignore: decorator
@inline function shiftedLimb(buf: usize, n: i32, s: i32, i: i32): u32 {
  const j = i - (s >> 5), b = s & 31;
  const top = limbAt(buf, n, j) << b;
  return b == 0 ? top : top | (limbAt(buf, n, j - 1) >> (32 - b));
}

/** sign(x·2^sx - y·2^sy) for nonzero x, y. */
function cmpShifted(x: usize, xn: i32, sx: i32, y: usize, yn: i32, sy: i32): i32 {
  const bx = bitLength(x, xn) + sx, by = bitLength(y, yn) + sy;
  if (bx != by) return bx > by ? 1 : -1;
  for (let i = (bx + 31) >> 5; i-- > 0;) {
    const a = shiftedLimb(x, xn, sx, i), b = shiftedLimb(y, yn, sy, i);
    if (a != b) return a > b ? 1 : -1;
  }
  return 0;
}

/** sign(v' - midpoint between the doubles with bits k and k + 1), k < INF_BITS. */
function cmpMid(k: u64): i32 {
  const ef = i32(k >> 52);
  const frac = k & 0xFFFFFFFFFFFFF;
  const m = ef == 0 ? frac : frac | (u64(1) << 52);
  // k = m·2^e with e = max(ef, 1) - 1075; midpoint (2m + 1)·2^(e - 1).
  const f = (ef == 0 ? -1074 : ef - 1075) - 1;
  const h = (m << 1) | 1;
  if (decExp >= 0) {
    store<u32>(BIG_B, u32(h));
    store<u32>(BIG_B, u32(h >> 32), 4);
    lenB = h >> 32 != 0 ? 2 : 1;
  } else {
    lenB = mulU64(BIG_B, BIG_S, lenS, h);
  }
  // v' = A·2^E (A already holds 5^E or B holds 5^-E) against B·2^f.
  const diff = decExp - f;
  return diff >= 0
    ? cmpShifted(BIG_A, lenA, diff, BIG_B, lenB, 0)
    : cmpShifted(BIG_A, lenA, 0, BIG_B, lenB, -diff);
}

/** Bits of the double nearest (ties to even) to the positive decimal literal
 *  at ptr[0..len) (RFC 8259 grammar, sign ignored), whose leading significant
 *  digit has weight 10^p, p in [-324, 308]. `cand` is the bits of a finite
 *  double at or at most two doubles below the answer; the search steps from
 *  it one double at a time. */
export function nearestByComparison(ptr: usize, len: i32, p: i32, cand: u64): u64 {
  assert(p >= -324 && p <= 308 && cand < INF_BITS);
  let i = 0;
  let c = u32(load<u8>(ptr));
  while (c == 0x2D || c == 0x30 || c == 0x2E) c = u32(load<u8>(ptr + ++i));
  lenA = 0;
  let taken = 0, accN = 0;
  let acc: u32 = 0;
  let sticky = false;
  for (; i < len; i++) {
    c = u32(load<u8>(ptr + i));
    if (c == 0x2E) continue;
    if ((c | 0x20) == 0x65) break; // 'e' or 'E'
    if (taken < MAX_DIGITS) {
      acc = acc * 10 + (c - 0x30);
      taken++;
      if (++accN == 9) {
        lenA = mulAdd(BIG_A, lenA, 1000000000, acc);
        acc = 0;
        accN = 0;
      }
    } else if (c != 0x30) {
      sticky = true;
      break;
    }
  }
  if (accN != 0) lenA = mulAdd(BIG_A, lenA, load<u32>(POW10_U32 + (usize(accN) << 2)), acc);
  if (sticky) {
    lenA = mulAdd(BIG_A, lenA, 10, 1);
    taken++;
  }
  decExp = p - taken + 1;
  if (decExp >= 0) {
    lenA = mulPow5(BIG_A, lenA, decExp);
  } else {
    store<u32>(BIG_S, 1);
    lenS = mulPow5(BIG_S, 1, -decExp);
  }

  // Answer: the k with mid(k-1) < v < mid(k), or on a tie the even neighbour.
  // Correct from any candidate; strtod's candidates are lower bounds at most
  // two doubles below the answer (asserted, so a regression traps in tests
  // instead of walking).
  let k = cand;
  let movedUp = false;
  while (k < INF_BITS) {
    const s = cmpMid(k);
    if (s == 0) return k + (k & 1);
    if (s < 0) break;
    k++;
    movedUp = true;
    assert(k - cand <= 2);
  }
  if (!movedUp) {
    while (k > 0) {
      const s = cmpMid(k - 1);
      if (s == 0) return k - 1 + ((k - 1) & 1);
      if (s > 0) break;
      k--;
      assert(false); // unreachable with strtod's candidates
    }
  }
  return k;
}
