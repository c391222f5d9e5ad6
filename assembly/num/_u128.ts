// Internal to assembly/num/: the high half of a 64 x 64 -> 128-bit unsigned
// multiplication (the low half is i64.mul's own result).
//
// WebAssembly has no widening multiply (i64.mul keeps the low 64 bits), so
// the product is built from 32-bit halves by schoolbook arithmetic:
//   a = a1·2^32 + a0,  b = b1·2^32 + b0
//   a·b = a1b1·2^64 + (a1b0 + a0b1)·2^32 + a0b0
// Each partial product is < 2^64. The middle column sums
//   (a0b0 >> 32) + low32(a0b1) + low32(a1b0) < 3·2^32,
// which cannot overflow a u64; its high part carries into the top word.
// Used by the Eisel–Lemire parser (num/strtod.ts) and the shortest-digit
// formatter (num/dtoa.ts).

/** High 64 bits of the 128-bit product a·b. */
// @ts-ignore: decorator
@inline export function umulh(a: u64, b: u64): u64 {
  const a0 = a & 0xFFFFFFFF, a1 = a >> 32;
  const b0 = b & 0xFFFFFFFF, b1 = b >> 32;
  const p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0;
  const mid = (p00 >> 32) + (p01 & 0xFFFFFFFF) + (p10 & 0xFFFFFFFF);
  return a1 * b1 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}
