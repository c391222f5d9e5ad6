// SHA-256 of up to four independent messages at once: one message
// per i32x4 lane (_sha256x4_rounds.gen.ts, wasm SIMD), for the CLI engine,
// which queues its lines' preimages and hashes them four at a time
// (cli/digests.ts). Diagnostics module only: the fingerprint module has no SIMD.
//
// Padding (FIPS 180-4 §5.1.1) is laid out per lane in TAIL(): the message's
// whole blocks are read where they are, its last bytes, 0x80, zeros and the
// bit length from TAIL(). Lanes may have different block counts: a lane's
// state is taken when its last block is done, the others go on; when one
// lane is left it finishes with the scalar compression (a lone lane in a
// v128 is slower than a scalar block).
//
// Usage: sha256x4Set(j, p, n, out) for j < count, then sha256x4Hex(count).
import { SHA256_IV, sha256CompressBlocks } from "./_sha256_rounds.gen";
import { sha256x4Compress } from "./_sha256x4_rounds.gen";
import { sha256Hex } from "./sha256";

/**
 * Longest message the callers queue for a lane (cli/digests.ts, batch.ts); a
 * longer one is hashed alone at once, its lane would run alone for most blocks.
 */
export const LANE_MAX: usize = 4096;

/** Static scratch, through a function: a module that never hashes four at once gets none of it. */
function scratch(): usize { return memory.data(752, 16); }

/** The four states: word i of lane j at ST() + 16 i + 4 j. */
@inline function ST(): usize { return scratch() + 0; }
/** Each lane's last one or two blocks, padded: 128 bytes per lane. */
@inline function TAIL(): usize { return scratch() + 128; }
/** One lane's state as eight native words, for the scalar finish. */
@inline function ONE(): usize { return scratch() + 640; }
/** Per lane: message pointer, length, hex output pointer, whole blocks, total blocks. */
@inline function MSG(): usize { return scratch() + 672; }
@inline function LEN(): usize { return scratch() + 688; }
@inline function OUT(): usize { return scratch() + 704; }
@inline function WHOLE(): usize { return scratch() + 720; }
@inline function BLOCKS(): usize { return scratch() + 736; }

/** Lane j (< 4) will hash [p, p + n) and write its 64 hex digits at out. */
export function sha256x4Set(j: u32, p: usize, n: usize, out: usize): void {
  const o = <usize>j << 2;
  store<u32>(MSG() + o, <u32>p); store<u32>(LEN() + o, <u32>n); store<u32>(OUT() + o, <u32>out);
}

/** Hashes lanes 0..count-1 (count <= 4) as set; each lane's hex goes to its out. */
export function sha256x4Hex(count: u32): void {
  if (count == 0) return;
  if (count == 1) {
    // Nothing to pair it with: the streaming scalar path.
    sha256Hex(<usize>load<u32>(MSG()), <usize>load<u32>(LEN()), <usize>load<u32>(OUT()));
    return;
  }
  let most: u32 = 0;
  for (let j: u32 = 0; j < 4; j++) {
    const o = <usize>j << 2;
    if (j >= count) { store<u32>(BLOCKS() + o, 0); store<u32>(WHOLE() + o, 0); continue; }
    const blocks = pad(j);
    if (blocks > most) most = blocks;
  }
  for (let i: usize = 0; i < 8; i++) v128.store(ST() + (i << 4), v128.splat<u32>(load<u32>(SHA256_IV + (i << 2))));
  let b: u32 = 0;
  while (b < most) {
    let live: u32 = 0;
    for (let j: usize = 0; j < 4; j++) if (load<u32>(BLOCKS() + (j << 2)) > b) live++;
    if (live < 2) break;
    sha256x4Compress(ST(), block(0, b), block(1, b), block(2, b), block(3, b));
    b++;
    for (let j: u32 = 0; j < 4; j++) if (load<u32>(BLOCKS() + (<usize>j << 2)) == b) laneHex(j, ST() + (<usize>j << 2), 16);
  }
  if (b == most) return;
  // One lane left: its state out of the vectors, the rest of its blocks scalar.
  let j: u32 = 0;
  while (load<u32>(BLOCKS() + (<usize>j << 2)) <= b) j++;
  for (let i: usize = 0; i < 8; i++) store<u32>(ONE() + (i << 2), load<u32>(ST() + (i << 4) + (<usize>j << 2)));
  const o = <usize>j << 2;
  const whole = load<u32>(WHOLE() + o), blocks = load<u32>(BLOCKS() + o);
  if (b < whole) sha256CompressBlocks(ONE(), <usize>load<u32>(MSG() + o) + (<usize>b << 6), <usize>(whole - b));
  const from = b > whole ? b : whole;
  sha256CompressBlocks(ONE(), TAIL() + (<usize>j << 7) + (<usize>(from - whole) << 6), <usize>(blocks - from));
  laneHex(j, ONE(), 4);
}

/** Lays out lane j's padded tail; records and returns its block count. */
function pad(j: u32): u32 {
  const o = <usize>j << 2;
  const p = <usize>load<u32>(MSG() + o), n = <usize>load<u32>(LEN() + o);
  const whole = n >> 6, rest = n & 63;
  const tail = TAIL() + (<usize>j << 7);
  // 0x80 and the 8-byte length need rest + 9 bytes: one block, or two.
  const tailBytes: usize = rest + 9 <= 64 ? 64 : 128;
  memory.copy(tail, p + (whole << 6), rest);
  store<u8>(tail + rest, 0x80);
  memory.fill(tail + rest + 1, 0, tailBytes - 8 - rest - 1);
  store<u64>(tail + tailBytes - 8, bswap<u64>(<u64>n << 3));
  const blocks = <u32>(whole + (tailBytes >> 6));
  store<u32>(WHOLE() + o, <u32>whole);
  store<u32>(BLOCKS() + o, blocks);
  return blocks;
}

/** Lane j's block b: in the message, or in its tail (any readable block once the lane is done). */
@inline function block(j: usize, b: u32): usize {
  const o = j << 2;
  const whole = load<u32>(WHOLE() + o);
  if (b < whole) return <usize>load<u32>(MSG() + o) + (<usize>b << 6);
  const t = b - whole;
  return TAIL() + (j << 7) + (t < 2 ? <usize>t << 6 : 0);
}

/** Lane j's digest, eight native words at st, st + stride, …, as hex at its out. */
function laneHex(j: u32, st: usize, stride: usize): void {
  const out = <usize>load<u32>(OUT() + (<usize>j << 2));
  let lo = i32x4.splat(<i32>load<u32>(st));
  lo = i32x4.replace_lane(lo, 1, <i32>load<u32>(st + stride));
  lo = i32x4.replace_lane(lo, 2, <i32>load<u32>(st + 2 * stride));
  lo = i32x4.replace_lane(lo, 3, <i32>load<u32>(st + 3 * stride));
  let hi = i32x4.splat(<i32>load<u32>(st + 4 * stride));
  hi = i32x4.replace_lane(hi, 1, <i32>load<u32>(st + 5 * stride));
  hi = i32x4.replace_lane(hi, 2, <i32>load<u32>(st + 6 * stride));
  hi = i32x4.replace_lane(hi, 3, <i32>load<u32>(st + 7 * stride));
  hex16(lo, out);
  hex16(hi, out + 32);
}

/** Four native words, most significant byte first, as 32 lowercase hex digits at out. */
@inline function hex16(words: v128, out: usize): void {
  const digits = i8x16(0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66);
  const b = i8x16.shuffle(words, words, 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
  const high = i8x16.shr_u(b, 4), low = v128.and(b, i8x16.splat(15));
  v128.store(out, i8x16.swizzle(digits, i8x16.shuffle(high, low, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23)));
  v128.store(out, i8x16.swizzle(digits, i8x16.shuffle(high, low, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31)), 16);
}
