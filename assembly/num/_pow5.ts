// Internal to assembly/num/: the 128-bit normalized significands of 5^q
// (equivalently of 10^q), q in [POW5_MIN, POW5_MAX], truncated: entry q is
// T = floor(5^q · 2^(127 − floor(log2 5^q))), two u64 (high, low), so
// T ∈ [2^127, 2^128). Entries with 0 ≤ q ≤ POW5_EXACT_MAX are exact; every
// other true value lies in (T, T + 1).
//
// Range: parsing needs q in [−342, 308] (10^−342·(2^64 − 1) < 2^−1075, and
// anything above 10^308 overflows); the shortest-digit formatter scales
// every binary exponent of a double, subnormals included, with q in
// [−292, 326].
//
// The table is computed, not stored: 10.7 KB of data would be a fifth of the
// fingerprint module, and only a call with a non-integer number needs it.
// It is filled on first use, exactly, with one big integer of u32 limbs:
//   q ≥ 0: P = 5^q, multiplied by 5 per step; T = its top 128 bits (5^q
//          has at most 128 bits while q ≤ 55: then shifted up, exact).
//   q < 0: R = floor(2^E / 5^−q), divided by 5 per step — floor(floor(a/5)/5)
//          = floor(a/25), so every step is exact — and T = R's top 128 bits
//          = floor(2^(E−s) / 5^−q) with s = bitlen(R) − 128 ≥ 0, which is the
//          definition above. E = 928 ≥ bitlen(5^342) + 127 keeps s ≥ 0.
// test/dtoa.test.ts checks every entry against exact rational bounds.

import { bitLength, mulAdd } from "./_bigdec";

export const POW5_MIN: i32 = -342;
export const POW5_MAX: i32 = 326;
/** Largest q whose 5^q fits in 128 bits, so its entry is exact. */
export const POW5_EXACT_MAX: i32 = 55;

const ENTRIES: i32 = POW5_MAX - POW5_MIN + 1;
const TABLE: usize = memory.data(ENTRIES << 4, 16);
/** 2^E as the start of the negative powers: E = 32·(LIMBS − 1). */
const LIMBS: i32 = 30;
const BIG: usize = memory.data(LIMBS << 2, 16);
let filled = false;

/** Entry q's address (high u64 at +0, low at +8); fills the table on first use. */
// @ts-ignore: decorator
@inline export function pow5Entry(q: i32): usize {
  if (!filled) fill();
  return TABLE + (<usize>(q - POW5_MIN) << 4);
}

// @ts-ignore: decorator
@inline function limb(i: i32, n: i32): u64 {
  return i >= 0 && i < n ? <u64>load<u32>(BIG + (<usize>i << 2)) : 0;
}

/** 64 bits of the n-limb number in BIG starting at bit `pos` (bits below 0 read as zeros). */
function bitsAt(pos: i32, n: i32): u64 {
  const i = pos >> 5, o = <u64>(pos & 31);
  const w = limb(i, n) | (limb(i + 1, n) << 32);
  return o == 0 ? w : (w >> o) | (limb(i + 2, n) << (64 - o));
}

/** Stores the top 128 bits of the n-limb number in BIG (top limb non-zero) as entry q. */
function storeTop(q: i32, n: i32): void {
  const bits = bitLength(BIG, n);
  const entry = TABLE + (<usize>(q - POW5_MIN) << 4);
  store<u64>(entry, bitsAt(bits - 64, n));
  store<u64>(entry, bitsAt(bits - 128, n), 8);
}

// @ts-ignore: decorator
@noinline function fill(): void {
  // q ≥ 0: 5^0 = 1, then ×5.
  store<u32>(BIG, 1);
  let n = 1;
  for (let q = 0; q <= POW5_MAX; q++) {
    if (q > 0) n = mulAdd(BIG, n, 5, 0);
    storeTop(q, n);
  }
  // q < 0: 2^E, then ÷5, most significant limb first.
  memory.fill(BIG, 0, <usize>(LIMBS << 2));
  store<u32>(BIG + (<usize>(LIMBS - 1) << 2), 1);
  n = LIMBS;
  for (let q = -1; q >= POW5_MIN; q--) {
    let rem: u64 = 0;
    for (let i = n - 1; i >= 0; i--) {
      const p = BIG + (<usize>i << 2);
      const v = (rem << 32) | <u64>load<u32>(p);
      store<u32>(p, <u32>(v / 5));
      rem = v % 5;
    }
    if (load<u32>(BIG + (<usize>(n - 1) << 2)) == 0) n--;
    storeTop(q, n);
  }
  filled = true;
}
