// Streaming SHA-256 (FIPS 180-4): one message at a time, state in static
// memory, no allocation. Internal to the core: the canonical writer feeds its
// output buffer through sha256Update as it fills, then finalizes once.
//
// Padding and length encoding follow FIPS 180-4 §5.1.1; the compression
// function (§6.2.2) is generated: see scripts/gen-sha256-rounds.mjs.
//
// Usage: sha256Reset(); sha256Update(p, n)…; sha256Final(out) or
// sha256FinalHex(out). Call sha256Reset before the first message: STATE starts
// zeroed (no start function). Finalizing also resets, so a later message may
// start without one.

import { SHA256_IV, sha256CompressBlocks } from "./_sha256_rounds.gen";
import { hexDigit } from "../text/hex";

/** H0..H7 as native u32 words; 32 bytes. */
const STATE: usize = memory.data(32, 16);
/** Partial block; only BUF[0, bufLen) is meaningful between calls. */
const BUF: usize = memory.data(64, 16);
/** Bytes held in BUF, always < 64 between calls. */
let bufLen: usize = 0;
/** Message length in bytes so far (FIPS 180-4 limits messages to < 2^64 bits). */
let totalLen: u64 = 0;

/** Starts a new message. */
export function sha256Reset(): void {
  memory.copy(STATE, SHA256_IV, 32);
  bufLen = 0;
  totalLen = 0;
}

/** Appends len bytes at ptr to the message; any len, 0 included. */
export function sha256Update(ptr: usize, len: usize): void {
  totalLen += <u64>len;
  let used = bufLen;
  if (used != 0) {
    const take = min<usize>(64 - used, len);
    memory.copy(BUF + used, ptr, take);
    used += take;
    ptr += take;
    len -= take;
    if (used < 64) {
      bufLen = used;
      return;
    }
    sha256CompressBlocks(STATE, BUF, 1);
  }
  // Whole blocks straight from the caller's memory: no copy on the hot path.
  const whole = len >> 6;
  if (whole != 0) sha256CompressBlocks(STATE, ptr, whole);
  const rest = len & 63;
  if (rest != 0) memory.copy(BUF, ptr + (whole << 6), rest);
  bufLen = rest;
}

/**
 * Appends nBlocks whole 64-byte blocks at ptr. Fast path for a writer that
 * keeps its output block-aligned: when nothing is buffered (every earlier
 * update summed to a multiple of 64) the blocks are compressed in place;
 * otherwise it is exactly sha256Update(ptr, nBlocks * 64).
 */
export function sha256Blocks(ptr: usize, nBlocks: usize): void {
  if (bufLen != 0) {
    sha256Update(ptr, nBlocks << 6);
    return;
  }
  totalLen += <u64>nBlocks << 6;
  sha256CompressBlocks(STATE, ptr, nBlocks);
}

/** Pads (FIPS 180-4 §5.1.1) and compresses the last one or two blocks. */
function finish(): void {
  let used = bufLen;
  store<u8>(BUF + used, 0x80);
  used++;
  if (used > 56) {
    // No room for the 8-byte length: it goes in one more block.
    memory.fill(BUF + used, 0, 64 - used);
    sha256CompressBlocks(STATE, BUF, 1);
    used = 0;
  }
  memory.fill(BUF + used, 0, 56 - used);
  store<u64>(BUF, bswap<u64>(totalLen << 3), 56);
  sha256CompressBlocks(STATE, BUF, 1);
}

/** Finishes; writes the 32-byte digest at out, then resets. */
export function sha256Final(out: usize): void {
  finish();
  for (let i: usize = 0; i < 32; i += 4) {
    store<u32>(out + i, bswap<u32>(load<u32>(STATE + i)));
  }
  sha256Reset();
}


/** Finishes; writes the 64 lowercase hex digits at out (64 bytes), then resets. */
export function sha256FinalHex(out: usize): void {
  finish();
  for (let i: usize = 0; i < 32; i += 4) {
    const w = load<u32>(STATE + i); // most significant byte first in the digest
    for (let s: i32 = 24; s >= 0; s -= 8) {
      const byte = (w >>> s) & 0xff;
      store<u16>(out, <u16>(hexDigit(byte >>> 4) | (hexDigit(byte & 15) << 8)));
      out += 2;
    }
  }
  sha256Reset();
}

/** The 64 hex digits of SHA-256 over [p, p + n), at out: the one-shot form (a fresh state). */
export function sha256Hex(p: usize, n: usize, out: usize): void {
  sha256Reset();
  sha256Update(p, n);
  sha256FinalHex(out);
}
