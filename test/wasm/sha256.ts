// Test-only entry over assembly/hash/sha256.ts (FIPS 180-4 streaming SHA-256):
// an input region the test fills, and drivers that hash it one-shot, in a
// given cycle of chunk sizes, or through the sha256Blocks fast path.
// Never shipped; bench/sha256-core.mjs compiles it too.

import {
  sha256Reset, sha256Update, sha256Final, sha256FinalHex, sha256Blocks,
} from "../../assembly/hash/sha256";

/** 64 bytes of hex / 32 bytes of digest. */
const OUT: usize = memory.data(64, 16);
/** Up to 256 u32 chunk sizes for hashChunked. */
const SIZES: usize = memory.data(1024, 16);

/** Start of the input region: page-aligned, past static data. */
// @ts-ignore: __heap_base is a compiler builtin
const INPUT: usize = (__heap_base + 0xffff) & ~<usize>0xffff;

export function outPtr(): usize { return OUT; }
export function sizesPtr(): usize { return SIZES; }

/** Returns the input pointer after growing memory so len bytes fit there. */
export function inputPtr(len: usize): usize {
  const needPages = <i32>((INPUT + len + 0xffff) >>> 16);
  const have = memory.size();
  if (needPages > have && memory.grow(needPages - have) < 0) unreachable();
  return INPUT;
}

/** Hex of SHA-256(input[0, len)) via one update; returns OUT. */
export function hashOneShot(len: usize): usize {
  sha256Reset();
  sha256Update(INPUT, len);
  sha256FinalHex(OUT);
  return OUT;
}

/** Raw 32-byte digest of input[0, len); returns OUT. */
export function hashRaw(len: usize): usize {
  sha256Reset();
  sha256Update(INPUT, len);
  sha256Final(OUT);
  return OUT;
}

/**
 * Hex of input[0, len) fed as updates whose sizes cycle through the nSizes
 * u32 values at SIZES (0 allowed; the last chunk is clipped). At least one
 * size must be non-zero.
 */
export function hashChunked(len: usize, nSizes: u32): usize {
  sha256Reset();
  let off: usize = 0, k: u32 = 0;
  while (off < len) {
    const n = min<usize>(<usize>load<u32>(SIZES + (<usize>k << 2)), len - off);
    sha256Update(INPUT + off, n);
    off += n;
    k = k + 1 == nSizes ? 0 : k + 1;
  }
  sha256Update(INPUT + len, 0);
  sha256FinalHex(OUT);
  return OUT;
}

/**
 * Hex of input[0, len) as: update(head bytes), then sha256Blocks over as many
 * whole blocks as follow, then update(rest). With head % 64 != 0 this takes
 * sha256Blocks' buffered fallback.
 */
export function hashViaBlocks(len: usize, head: usize): usize {
  sha256Reset();
  sha256Update(INPUT, head);
  const nb = (len - head) >> 6;
  sha256Blocks(INPUT + head, nb);
  const done = head + (nb << 6);
  sha256Update(INPUT + done, len - done);
  sha256FinalHex(OUT);
  return OUT;
}

/** Hashes input[0, len) reps times (for the benchmark); returns OUT. */
export function hashRepeat(len: usize, reps: u32): usize {
  for (let i: u32 = 0; i < reps; i++) {
    sha256Reset();
    sha256Update(INPUT, len);
    sha256Final(OUT);
  }
  return OUT;
}
