// Lowercase hex digits, for the digest (sha256.ts) and \u escapes (D6,
// pipeline/canonical.ts). Internal.

/** ASCII code of the lowercase hex digit for nibble n (0..15). */
// @ts-ignore: decorator
@inline export function hexDigit(n: u32): u32 {
  // Branchless n < 10 ? 48 + n : 87 + n: ((9 - n) >> 31) is all ones iff n > 9,
  // and 'a' - 10 - '0' = 39.
  return n + 48 + (<u32>(<i32>(9 - n) >> 31) & 39);
}
