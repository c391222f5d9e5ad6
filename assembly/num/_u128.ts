// Internal to assembly/num/: 64 x 64 -> 128-bit unsigned multiplication.
//
// WebAssembly has no widening multiply (i64.mul keeps the low 64 bits), so
// the product is built from 32-bit halves by schoolbook arithmetic:
//   a = a1·2^32 + a0,  b = b1·2^32 + b0
//   a·b = a1b1·2^64 + (a1b0 + a0b1)·2^32 + a0b0
// Each partial product is < 2^64. The middle column sums
//   (a0b0 >> 32) + low32(a0b1) + low32(a1b0) < 3·2^32,
// which cannot overflow a u64; its high part carries into the top word.
// Used by the Eisel–Lemire parser (num/strtod.ts) and shared with the
// shortest-digit formatter. Add functions here; never change existing ones.

/** Second return value of `umul128`: the high 64 bits of the last product.
 *  Valid only until the next call. */
export let u128_hi: u64 = 0;

/** Returns the low 64 bits of a·b (full 128-bit product) and stores the high
 *  64 bits in `u128_hi`. Example: umul128(2^63, 4) == 0, u128_hi == 2. */
// @ts-ignore: decorator
@inline export function umul128(a: u64, b: u64): u64 {
  const a0 = a & 0xFFFFFFFF, a1 = a >> 32;
  const b0 = b & 0xFFFFFFFF, b1 = b >> 32;
  const p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  const mid = (p00 >> 32) + (p01 & 0xFFFFFFFF) + (p10 & 0xFFFFFFFF);
  u128_hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
  return (mid << 32) | (p00 & 0xFFFFFFFF);
}

/** High 64 bits of the 128-bit product a·b. */
// @ts-ignore: decorator
@inline export function umulh(a: u64, b: u64): u64 {
  const a0 = a & 0xFFFFFFFF, a1 = a >> 32;
  const b0 = b & 0xFFFFFFFF, b1 = b >> 32;
  const p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0;
  const mid = (p00 >> 32) + (p01 & 0xFFFFFFFF) + (p10 & 0xFFFFFFFF);
  return a1 * b1 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}
