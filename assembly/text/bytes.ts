// Byte scans shared by the readers of lines, batch columns and names: the
// word-at-a-time test once (SWAR, both modules), and its 16-byte form (wasm
// SIMD: the engine module only, the one built with SIMD, build-wasm.mjs).

/** The high bit of each byte of x that equals b, exactly (no borrow crosses bytes in this form). */
@inline export function byteMask(x: u64, b: u8): u64 {
  const y = x ^ (<u64>b * 0x0101_0101_0101_0101);
  const low7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
  return ~(((y & low7) + low7) | y) & 0x8080_8080_8080_8080;
}

/** The first byte b at or after p, or end: eight bytes a step. */
export function findByte(p: usize, end: usize, b: u8): usize {
  for (; p + 8 <= end; p += 8) {
    const m = byteMask(load<u64>(p), b);
    if (m != 0) return p + <usize>(ctz<u64>(m) >> 3);
  }
  while (p < end && load<u8>(p) != b) p++;
  return p;
}

/** findByte sixteen bytes a step (SIMD: engine module only). */
export function findByte16(p: usize, end: usize, b: u8): usize {
  const v = i8x16.splat(<i8>b);
  for (; p + 16 <= end; p += 16) {
    const m = i8x16.bitmask(i8x16.eq(v128.load(p), v));
    if (m != 0) return p + <usize>ctz(m);
  }
  return findByte(p, end, b);
}

/** How many bytes b lie in [p, end), sixteen a step (SIMD: engine module only). */
export function countByte16(p: usize, end: usize, b: u8): usize {
  const v = i8x16.splat(<i8>b);
  let n: usize = 0;
  for (; p + 16 <= end; p += 16) n += <usize>popcnt<i32>(i8x16.bitmask(i8x16.eq(v128.load(p), v)));
  for (; p < end; p++) if (load<u8>(p) == b) n++;
  return n;
}
