// UTF-8 / WTF-8 helpers over bytes in linear memory. Internal.
//
// Strings inside the core are WTF-8: well-formed UTF-8 extended so a lone
// surrogate U+D800–U+DFFF is the 3-byte sequence ED A0..BF xx (D14). Byte
// order of WTF-8 equals code-point order, lone surrogates included (D5), so
// keys compare with a plain byte compare.

/**
 * Length of the well-formed sequence starting at p (RFC 3629 table 3-7,
 * except that ED A0..BF xx — a surrogate — is accepted, D14), or 0 if the
 * bytes at p (with `end` as limit) are ill-formed, overlong or truncated.
 * Precondition: load<u8>(p) >= 0x80.
 */
export function sequenceLength(p: usize, end: usize): i32 {
  const b0 = <u32>load<u8>(p);
  if (b0 < 0xC2) return 0; // continuation byte, or overlong C0/C1
  if (b0 < 0xE0) {
    if (p + 2 > end) return 0;
    return isCont(load<u8>(p + 1)) ? 2 : 0;
  }
  if (b0 < 0xF0) {
    if (p + 3 > end) return 0;
    const b1 = <u32>load<u8>(p + 1);
    if (!isCont(load<u8>(p + 2))) return 0;
    if (b0 == 0xE0) return b1 >= 0xA0 && b1 <= 0xBF ? 3 : 0; // no overlong
    return isCont(<u8>b1) ? 3 : 0;
  }
  if (b0 < 0xF5) {
    if (p + 4 > end) return 0;
    const b1 = <u32>load<u8>(p + 1);
    if (!isCont(load<u8>(p + 2)) || !isCont(load<u8>(p + 3))) return 0;
    if (b0 == 0xF0) return b1 >= 0x90 && b1 <= 0xBF ? 4 : 0; // no overlong
    if (b0 == 0xF4) return b1 >= 0x80 && b1 <= 0x8F ? 4 : 0; // <= U+10FFFF
    return isCont(<u8>b1) ? 4 : 0;
  }
  return 0;
}

@inline export function isCont(b: u8): bool {
  return (b & 0xC0) == 0x80;
}

/** Appends code point (or lone surrogate) cp as WTF-8 at out; returns bytes written. */
export function encodeWtf8(cp: u32, out: usize): usize {
  if (cp < 0x80) {
    store<u8>(out, <u8>cp);
    return 1;
  }
  if (cp < 0x800) {
    store<u8>(out, <u8>(0xC0 | (cp >> 6)));
    store<u8>(out + 1, <u8>(0x80 | (cp & 0x3F)));
    return 2;
  }
  if (cp < 0x10000) {
    store<u8>(out, <u8>(0xE0 | (cp >> 12)));
    store<u8>(out + 1, <u8>(0x80 | ((cp >> 6) & 0x3F)));
    store<u8>(out + 2, <u8>(0x80 | (cp & 0x3F)));
    return 3;
  }
  store<u8>(out, <u8>(0xF0 | (cp >> 18)));
  store<u8>(out + 1, <u8>(0x80 | ((cp >> 12) & 0x3F)));
  store<u8>(out + 2, <u8>(0x80 | ((cp >> 6) & 0x3F)));
  store<u8>(out + 3, <u8>(0x80 | (cp & 0x3F)));
  return 4;
}

/** Decodes the 3-byte WTF-8 surrogate at p to its code unit. */
@inline export function surrogateAt(p: usize): u32 {
  return (<u32>(load<u8>(p) & 0x0F) << 12) | (<u32>(load<u8>(p + 1) & 0x3F) << 6) | <u32>(load<u8>(p + 2) & 0x3F);
}

/**
 * The first byte at or after p that is not ASCII (>= 0x80), or end: eight
 * bytes a step. Names and kinds are mostly ASCII, and every check of them
 * below is settled for ASCII bytes. Reads up to 7 bytes past end:
 * memory extends 16 bytes past every range handed out (arena.ts, SLACK).
 */
export function asciiEnd(p: usize, end: usize): usize {
  for (; p < end; p += 8) {
    const m = load<u64>(p) & 0x8080_8080_8080_8080;
    if (m != 0) {
      const q = p + <usize>(ctz<u64>(m) >> 3);
      return q < end ? q : end;
    }
  }
  return end;
}

/** True when [p, end) contains a surrogate (high or low) sequence. Precondition: valid WTF-8. */
export function hasSurrogate(p: usize, end: usize): bool {
  p = asciiEnd(p, end);
  while (p < end) {
    const b = load<u8>(p);
    if (b == 0xED && p + 1 < end && load<u8>(p + 1) >= 0xA0) return true;
    p++;
  }
  return false;
}

// ---- D4: the trim set is exactly ECMAScript's WhiteSpace + LineTerminator:
// U+0009–000D, U+0020, U+00A0, U+1680, U+2000–200A, U+2028, U+2029, U+202F,
// U+205F, U+3000, U+FEFF. (Not U+001C–001F, not U+0085, not U+200B.)

/** Byte length of a trim-set character starting at p (< end), else 0. */
export function trimLengthAt(p: usize, end: usize): i32 {
  const b0 = load<u8>(p);
  if (b0 < 0x80) return b0 == 0x20 || (b0 >= 0x09 && b0 <= 0x0D) ? 1 : 0;
  if (b0 == 0xC2) return p + 1 < end && load<u8>(p + 1) == 0xA0 ? 2 : 0;
  if (p + 2 >= end) return 0;
  const b1 = load<u8>(p + 1), b2 = load<u8>(p + 2);
  return isTrim3(b0, b1, b2) ? 3 : 0;
}

/** Byte length of a trim-set character ending just before end (> start), else 0. */
export function trimLengthBefore(start: usize, end: usize): i32 {
  const last = load<u8>(end - 1);
  if (last < 0x80) return last == 0x20 || (last >= 0x09 && last <= 0x0D) ? 1 : 0;
  if (end - start >= 2 && last == 0xA0 && load<u8>(end - 2) == 0xC2) return 2;
  if (end - start < 3) return 0;
  return isTrim3(load<u8>(end - 3), load<u8>(end - 2), last) ? 3 : 0;
}

@inline function isTrim3(b0: u8, b1: u8, b2: u8): bool {
  if (b0 == 0xE2) {
    if (b1 == 0x80) return b2 <= 0x8A || b2 == 0xA8 || b2 == 0xA9 || b2 == 0xAF; // U+2000–200A, 2028, 2029, 202F
    return b1 == 0x81 && b2 == 0x9F; // U+205F
  }
  if (b0 == 0xE1) return b1 == 0x9A && b2 == 0x80; // U+1680
  if (b0 == 0xE3) return b1 == 0x80 && b2 == 0x80; // U+3000
  if (b0 == 0xEF) return b1 == 0xBB && b2 == 0xBF; // U+FEFF
  return false;
}
