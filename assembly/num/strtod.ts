// Decimal -> double, correctly rounded (round half to even), for JSON number
// literals (contract D11: a number in text becomes the nearest double, as
// JSON.parse does). Three stages, each allowed to say "undecided":
//   1. Clinger (1990): significand <= 2^53 and |power of ten| <= 22 (both
//      exact doubles) -> one IEEE multiply/divide, correctly rounded by wasm.
//   2. Eisel–Lemire (Lemire, "Number Parsing at a Gigabyte per Second",
//      2021): the first 19 significant digits times a 128-bit truncated 5^q
//      from _pow5.ts, with a proven error bound; it reports "undecided"
//      out of band (a negative i64) when the bound straddles a rounding
//      boundary. Mushtak & Lemire ("Fast number parsing without fallback",
//      2023) prove no 19-digit input lands within the 128-bit product's
//      error of a midpoint unless it is one, so "undecided" means an exact
//      tie whose table entry is truncated (q in [-4, -1], e.g.
//      "9007199254740993.0"; ties with q >= 0 are settled exactly), or a
//      > 19-digit literal whose bracket [w, w+1]·10^q straddles a boundary.
//   3. Exact fallback (_bigdec.ts): big-integer comparison of the decimal
//      against midpoints between adjacent doubles.
// No heuristic decides a result. AssemblyScript's parseFloat is not correctly
// rounded and is not used. Internal: the ABI lives in assembly/entry/fingerprint.ts.

import { POW5_MIN, POW5_MAX, POW5_EXACT_MAX, pow5Entry } from "./_pow5";
import { umulh } from "./_u128";
import { nearestByComparison } from "./_bigdec";
// floor(log2(10^q)), shared with the formatter: exact for |q| < 1234
// (test/dtoa.test.ts), and callers here use q in [POW5_MIN, POW5_MAX].
import { floorLog2Pow10 } from "./dtoa";
import { POW10_F64 } from "./_pow10";

const INF_BITS: u64 = 0x7FF0000000000000;
const DBL_MAX_BITS: u64 = 0x7FEFFFFFFFFFFFFF;
/** Significant digits a u64 always holds: 10^19 - 1 < 2^64 - 1, so w + 1 fits too. */
const MAX_W_DIGITS: i32 = 19;
/** An explicit exponent is accumulated only up to this (saturating): a literal
 *  has < 2^31 digits, so |q| > 2^40 - 2^31 still lies far outside [-343, 309]. */
const EXP_SATURATE: i64 = 1 << 40;

// Test-only instrumentation. Every use sits under `if (!ASC_NO_ASSERT)`, so a
// release build (noAssert) folds it away and the record is never laid out.
@unmanaged export class StrtodStats {
  /** Calls settled by Clinger, by Eisel–Lemire, by the exact fallback. */
  clinger: i32;
  el: i32;
  fallback: i32;
  /** 1: skip Clinger; 2: also ignore Eisel–Lemire's decisions (fallback only). */
  force: i32;
}

/** The parser's counters and force switch (asserts-on builds only: test/wasm/strtod.ts). */
export function strtodStats(): StrtodStats {
  return changetype<StrtodStats>(memory.data(offsetof<StrtodStats>(), 4));
}

/** Parses a JSON number literal already validated against RFC 8259's grammar
 *  (-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?) at ptr[0..len) and returns the
 *  nearest double (ties to even), signed (so "-0" → -0.0, "1e400" → Infinity,
 *  "1e-400" → 0). Any number of digits (thousands) and any exponent magnitude
 *  (e.g. "1e99999999999999999999") must work without overflow or hang. */
export function parseDouble(ptr: usize, len: i32): f64 {
  let i: i32 = 0;
  const neg = load<u8>(ptr) == 0x2D;
  if (neg) i = 1;
  // Value = (w + tail) · 10^q, w = first <= 19 significant digits; `tail` is
  // in [0, 1) and nonzero iff a nonzero digit was dropped.
  let w: u64 = 0;
  let nw: i32 = 0;
  let q: i64 = 0;
  let tail = false;
  let c: u32 = 0;
  while (i < len) {
    if (w != 0 && nw <= MAX_W_DIGITS - 8 && i + 8 <= len) {
      const x = eightDigits(ptr + i);
      if (x >= 0) { w = w * 100000000 + u64(x); nw += 8; i += 8; continue; }
    }
    if ((c = u32(load<u8>(ptr + i)) - 0x30) >= 10) break;
    if (nw < MAX_W_DIGITS) {
      if ((w | c) != 0) { w = w * 10 + c; nw++; }
    } else {
      q++;
      if (c != 0) tail = true;
    }
    i++;
  }
  if (i < len && load<u8>(ptr + i) == 0x2E) {
    i++;
    while (i < len) {
      if (w != 0 && nw <= MAX_W_DIGITS - 8 && i + 8 <= len) {
        const x = eightDigits(ptr + i);
        if (x >= 0) { w = w * 100000000 + u64(x); nw += 8; q -= 8; i += 8; continue; }
      }
      if ((c = u32(load<u8>(ptr + i)) - 0x30) >= 10) break;
      if (nw < MAX_W_DIGITS) {
        // Leading fraction zeros are not significant but still scale by 10^-1.
        if ((w | c) != 0) { w = w * 10 + c; nw++; }
        q--;
      } else if (c != 0) {
        tail = true;
      }
      i++;
    }
  }
  if (i < len) { // 'e' or 'E'
    i++;
    const expNeg = load<u8>(ptr + i) == 0x2D;
    if (expNeg || load<u8>(ptr + i) == 0x2B) i++;
    let x: i64 = 0;
    while (i < len) {
      if (x < EXP_SATURATE) x = x * 10 + i64(load<u8>(ptr + i) - 0x30);
      i++;
    }
    q += expNeg ? -x : x;
  }
  const sign: f64 = neg ? -1.0 : 1.0;
  if (w == 0) return sign * 0.0; // every digit was zero
  // v lies in [10^p, 10^(p+1)). v >= 10^309 overflows; v < 10^-324 is below
  // 2^-1075 (half the least subnormal, 2.47e-324) and rounds to zero.
  const p = q + nw - 1;
  if (p > 308) return sign * Infinity;
  if (p < -324) return sign * 0.0;
  const e10 = i32(q); // in [-342, 308] because 1 <= nw <= 19

  if (!tail && w <= (u64(1) << 53) && (ASC_NO_ASSERT || strtodStats().force < 1)) {
    const fw = f64(w);
    if (e10 >= 0 && e10 <= 22) {
      if (!ASC_NO_ASSERT) strtodStats().clinger++;
      return sign * (fw * load<f64>(POW10_F64 + (usize(e10) << 3)));
    }
    if (e10 < 0 && e10 >= -22) {
      if (!ASC_NO_ASSERT) strtodStats().clinger++;
      return sign * (fw / load<f64>(POW10_F64 + (usize(-e10) << 3)));
    }
    if (e10 > 22 && e10 <= 22 + 15) {
      // w·10^(e10-22) < 2^53 is an exact integer (the rounded product is
      // below 2^53 only if the true one is), leaving one rounding step.
      const t = fw * load<f64>(POW10_F64 + (usize(e10 - 22) << 3));
      if (t < 9007199254740992.0) {
        if (!ASC_NO_ASSERT) strtodStats().clinger++;
        return sign * (t * 1e22);
      }
    }
  }

  let r = eiselLemire(w, e10);
  if (tail && r >= 0) {
    // (w + tail)·10^q lies in [w·10^q, (w+1)·10^q]; rounding is monotonic,
    // so equal results at both ends settle it.
    const r1 = eiselLemire(w + 1, e10);
    if (r1 != r) r = ~r;
  }
  if (r >= 0 && (ASC_NO_ASSERT || strtodStats().force < 2)) {
    if (!ASC_NO_ASSERT) strtodStats().el++;
    return sign * reinterpret<f64>(r);
  }
  if (!ASC_NO_ASSERT) strtodStats().fallback++;
  // The fallback steps from a finite candidate (INF only when forced in tests).
  const cand = min(r >= 0 ? u64(r) : u64(~r), DBL_MAX_BITS);
  return sign * reinterpret<f64>(nearestByComparison(ptr, len, i32(p), cand));
}

/** Eisel–Lemire for v = w·10^q, w in [1, 2^64), q in [POW5_MIN, 308].
 *  Returns the bits of the nearest double to w·10^q (>= 0), or, when the error
 *  bound straddles a rounding boundary, ~candidate (< 0) where candidate is
 *  the finite double K (X rounded down at bit d): the answer is K or K + 1.
 *
 *  Derivation. Normalize w' = w·2^lz in [2^63, 2^64). The table gives
 *  T in [2^127, 2^128) with 5^q = Tt · 2^(floor(q·log2 5) - 127), Tt in [T, T+1)
 *  (Tt = T exactly iff 0 <= q <= 55). Since floor(q·log2 5) + q =
 *  floor(q·log2 10) = g:  v = Pt · 2^(g - 127 - lz), Pt = w'·Tt in [2^190, 2^192).
 *  Let Xt = Pt/2^64 in [2^126, 2^128); v = Xt · 2^(g - 63 - lz). Keeping the
 *  53 bits of Xt above bit d (d = 74 + u, u = bit 127 of Xt) gives the biased
 *  exponent ef = g + 1086 + u - lz; if ef <= 0 the result is subnormal and
 *  d = lz - g - 1011 (the same formula with ef forced to 0, independent of u).
 *  With X the computed approximation and X <= Xt < X + w' (in both phases,
 *  see below), the rounding of Xt at bit d is decided from X unless
 *  X mod 2^d lies in (half - w', half] (half = 2^(d-1)):
 *    r > half  -> up (Xt >= X; a carry past 2^d still rounds to K + 1),
 *    r + w' <= half -> down.
 *  The result is encoded additively, bits = ((ef-1) << 52) + K (+1), so a
 *  carry into 2^53 (or into 2^52 for subnormals) bumps the exponent, and into
 *  INF_BITS for overflow. */
export function eiselLemire(w: u64, q: i32): i64 {
  assert(w != 0 && q >= POW5_MIN && q <= 308 && q <= POW5_MAX);
  const lz = i32(clz(w));
  const wn = w << lz;
  const entry = pow5Entry(q);
  const tHi = load<u64>(entry);
  // Phase 1: X = wn·tHi. Xt - X = (wn·tLo + wn·(Tt - T)) / 2^64 < wn.
  let lo = wn * tHi;
  let hi = umulh(wn, tHi);
  const g = floorLog2Pow10(q);
  let u = i32(hi >> 63);
  let ef = g + 1086 + u - lz;
  if (ef >= 2047) return i64(INF_BITS);
  let d = ef > 0 ? 74 + u : lz - g - 1011;
  if (d > 128) return 0; // Xt / 2^d < 2^128 / 2^129 = 1/2
  assert(d >= 74);
  let sh = d - 64; // in [10, 64]
  let mask = u64(-1) >> (64 - sh);
  let hh = u64(1) << (sh - 1);
  let hr = hi & mask;
  let up = false;
  let phase2 = false;
  if (hr > hh || (hr == hh && lo != 0)) up = true;
  else if (hr == hh || (hr == hh - 1 && lo + wn < lo)) phase2 = true;

  let undecided = false;
  if (phase2) {
    // Phase 2: the full 192-bit P = wn·T; Pt in [P, P + wn), equal iff exact.
    const tLo = load<u64>(entry, 8);
    const low = wn * tLo;
    const mid = lo + umulh(wn, tLo);
    hi += u64(mid < lo);
    lo = mid;
    // The carry may have set bit 127: recompute the exponent and d.
    u = i32(hi >> 63);
    ef = g + 1086 + u - lz;
    if (ef >= 2047) return i64(INF_BITS);
    d = ef > 0 ? 74 + u : lz - g - 1011;
    sh = d - 64;
    mask = u64(-1) >> (64 - sh);
    hh = u64(1) << (sh - 1);
    hr = hi & mask;
    if (q >= 0 && q <= POW5_EXACT_MAX) {
      // Pt = P: plain round half to even on the remainder hr:lo:low.
      if (hr > hh || (hr == hh && (lo | low) != 0)) up = true;
      else if (hr == hh) up = (shiftRight(hi, sh) & 1) != 0;
    } else if (hr >= hh) {
      up = true; // Pt > P, so the remainder exceeds half
    } else if (hr == hh - 1 && lo == u64(-1) && low + wn < low) {
      undecided = true; // Pt - P < wn might reach half
    }
  }
  const k = shiftRight(hi, sh);
  const base: u64 = ef > 0 ? u64(ef - 1) << 52 : 0;
  let bits = base + k;
  if (undecided) return ~i64(min(bits, DBL_MAX_BITS));
  if (up) bits++;
  return i64(min(bits, INF_BITS));
}

/** The value of the eight ASCII digits at p (first digit most significant),
 *  or -1 if any of the eight bytes is not a digit. SWAR, little-endian lanes:
 *  a byte is a digit iff its high nibble is 3 and stays 3 after adding 6
 *  (0x39 + 6 = 0x3F; 0x3A + 6 = 0x40); a carry out of a byte only happens for
 *  bytes >= 0xFA, which already fail their own nibble test. Then pairs, quads
 *  and octets are merged: each step multiplies the lower-address (more
 *  significant) lane by 10, 100, 10^4 and adds its neighbour shifted down,
 *  masking to the wider lanes (99, 9999, 99999999 fit their lanes). */
// @ts-ignore: decorator
@inline function eightDigits(p: usize): i64 {
  let v = load<u64>(p);
  const hiNibbles = (v & 0xF0F0F0F0F0F0F0F0) | (((v + 0x0606060606060606) & 0xF0F0F0F0F0F0F0F0) >> 4);
  if (hiNibbles != 0x3333333333333333) return -1;
  v -= 0x3030303030303030;
  v = (v * 10 + (v >> 8)) & 0x00FF00FF00FF00FF;
  v = (v * 100 + (v >> 16)) & 0x0000FFFF0000FFFF;
  v = (v * 10000 + (v >> 32)) & 0xFFFFFFFF;
  return i64(v);
}

/** x >> s for s in [10, 64] (wasm shifts count mod 64, so 64 needs a case). */
// @ts-ignore: decorator
@inline function shiftRight(x: u64, s: i32): u64 {
  return s < 64 ? x >> s : 0;
}
