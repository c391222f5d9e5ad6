// Short decimal literals printed without a double round trip (D11, D7).
//
// Invariant (15-digit round trip, Matula 1968; Goldberg 1991 §"Binary to
// Decimal Conversion"): a decimal with at most 15 significant digits whose
// value lies in the normal double range converts to a double that converts
// back, at 15 digits, to the same decimal. So no other decimal of at most 15
// digits rounds to that double, and Number::toString's shortest digits s
// (ECMA-262 §6.1.6.1.20, step 5) are the literal's own digits without
// trailing zeros. Printing them with the same layout as dtoa.ts gives the
// same text as parseDouble + formatDouble, without either.
//
// Scope: n = k + e10 (the decimal point's place) in [-300, 300] keeps the
// value between 1e-301 and 1e300, inside the normal range (2.2e-308 ..
// 1.8e308) with room; anything else takes the exact path.

export const SHORT_MAX_DIGITS: i32 = 15;
const N_MIN: i32 = -300;
const N_MAX: i32 = 300;
const EXP_CAP: i32 = 10000; // exponents beyond this fail the N range anyway

/** A short decimal literal's value: digits · 10^e10 (the sign is the caller's). */
@unmanaged export class ShortDecimal {
  /** The significant digits without trailing zeros (0 for a zero value). */
  digits: u64;
  /** The power of ten. */
  e10: i32;
}

/** readShortDecimal's result: one fixed record, valid until its next call. */
const SHORT: ShortDecimal = changetype<ShortDecimal>(memory.data(offsetof<ShortDecimal>(), 8));

/**
 * Reads a JSON number literal already validated by the reader (grammar of
 * RFC 8259) at ptr[0..len), sign included. Its value when it has at most 15
 * significant digits and lies in the scope above; null: use parseDouble.
 * Example: "-1200.50e-1" → digits 12005, e10 −2 (the sign is the caller's).
 */
export function readShortDecimal(ptr: usize, len: i32): ShortDecimal | null {
  let i: i32 = load<u8>(ptr) == 0x2D ? 1 : 0;
  let m: u64 = 0;
  let k: i32 = 0; // digits in m
  let zeros: i32 = 0; // zeros seen after m's last digit, not yet in m
  let e10: i32 = 0;
  let frac = false;
  let c: u32 = 0;
  for (; i < len; i++) {
    c = <u32>load<u8>(ptr + i);
    if (c == 0x2E) { frac = true; continue; }
    if (c - 0x30 >= 10) break;
    if (frac) e10--;
    if (c == 0x30) {
      if (m != 0) zeros++;
      continue;
    }
    // A nonzero digit: the zeros before it become digits of m.
    k += zeros + 1;
    if (k > SHORT_MAX_DIGITS) return null;
    for (let z = 0; z < zeros; z++) m *= 10;
    m = m * 10 + (c - 0x30);
    zeros = 0;
  }
  // Trailing zeros: of the integer part they scale m up; of the fraction,
  // e10 already counted them, so give those steps back.
  if (m != 0) e10 += zeros;
  if (i < len) { // 'e' or 'E', sign, digits
    i++;
    const neg = load<u8>(ptr + i) == 0x2D;
    if (neg || load<u8>(ptr + i) == 0x2B) i++;
    let x: i32 = 0;
    for (; i < len; i++) {
      x = x * 10 + <i32>(load<u8>(ptr + i) - 0x30);
      if (x > EXP_CAP) return null;
    }
    e10 += neg ? -x : x;
  }
  SHORT.digits = m;
  SHORT.e10 = e10;
  if (m == 0) return SHORT; // every digit zero: "0" whatever the sign (D7)
  const n = k + e10;
  return n >= N_MIN && n <= N_MAX ? SHORT : null;
}
