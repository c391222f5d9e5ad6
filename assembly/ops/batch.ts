// A batch of fingerprints in one call across the boundary: the columns
// described in abi.ts (BATCH_*), Arrow's offsets layout, one request per item
// through the same `process` as `run`. Internal; exported as runBatch(from,
// out) by both entries. The core decides what a host would otherwise port:
// digests or preimages (a host's native SHA-256 vs four lanes), what to do
// with a preimage that does not fit, and the words of a failing item's error.
// In the engine module (wasm SIMD) F_DIGEST items are hashed four at a
// time (sha256x4.ts): the per-item hashing of hosts was a third of a batch.
import {
  BATCH_BASE, BATCH_COLUMNS, BATCH_ITEM_FLAGS, BATCH_ITEM_NOT_NAME, BATCH_ITEM_NOT_TEXT, E_BAD_ARGUMENT, W_STRING, W_TEXT, BATCH_COUNT, BATCH_END_DIGEST, BATCH_HOST_HASH_FROM, BATCH_NUL_IN_ITEM, BATCH_FLAGS, BATCH_LINES,
  BATCH_OUT_BYTES, BATCH_SEPARATED, DIGEST_BYTES, E_OUT_OF_MEMORY, F_CALL, F_DIGEST, F_IGNORE, F_MARSHAL, F_MATCH_ON, F_PREIMAGE, F_STRING_INPUT, F_VALUES, OK,
  RESULT_DIGEST, RESULT_TEXT_LEN, RESULT_TEXT_PTR,
} from "../abi";
import { alloc, reserveInput } from "../base/arena";
import { fail } from "../base/errors";
import { failWorded } from "../base/words";
import { FingerprintOnly, finish, forgetCheckedKind, process, startRequest } from "../pipeline/process";
import { result } from "../base/result";
import { sinkPreset } from "../json/sink";
import { writeDecimal } from "../num/digits";
import { countByte16, findByte16 } from "../text/bytes";
import { sha256Hex } from "../hash/sha256";
import { LANE_MAX, sha256x4Hex, sha256x4Set } from "../hash/sha256x4";

/**
 * Runs items from..count-1 of the batch at the input region; item i's digest
 * goes to out + DIGEST_BYTES * i (F_PREIMAGE: its preimage, abi.ts). Returns
 * the index of the first item that fails (its error, "item N: ...", is in the
 * result block, as after `run`) or, with preimages, does not fit in what is
 * left of the room (status OK: call again from there); else count.
 */
export function runBatch<V>(from: u32, out: usize): u32 {
  const d = reserveInput(0);
  forgetCheckedKind();
  const count = load<u32>(d, BATCH_COUNT << 2);
  // A call from 0 starts a chunk; one after a failed item resumes it (the cursors and the pick stand).
  if (from == 0) {
    if (sizeof<V>() == 8) {
      for (let c: usize = 0; c < 5; c++) store<i32>(SEP() + (c << 3), -1);
      if (!separatorsCount(d, count)) return BATCH_NUL_IN_ITEM;
    }
    pickOutput<V>(d, count);
  }
  const flags = load<u32>(d, BATCH_FLAGS << 2) & ~(F_MATCH_ON | F_IGNORE);
  const pre = (flags & F_PREIMAGE) != 0;
  let stride: usize = DIGEST_BYTES;
  // Digest lines: each digest is followed by a newline (a failed item's slot is the host's).
  if (sizeof<V>() == 8) if (!pre && load<u32>(d, BATCH_LINES << 2) == 1) stride = DIGEST_BYTES + 1;
  // Four lanes: each item's preimage is queued, its digest written when four are (same bytes).
  let four = false;
  if (sizeof<V>() == 8) four = !pre;
  const itemFlags = four ? (flags & ~F_DIGEST) | F_PREIMAGE : flags;
  const calls = (flags & F_CALL) != 0;
  const room = <usize>load<u32>(d, BATCH_OUT_BYTES << 2);
  // Items of several sorts of input in one chunk: each one's own flags (only those).
  const sorts = <usize>load<u32>(d, BATCH_ITEM_FLAGS << 2);
  const bytes = out + (<usize>count << 2);
  let at: usize = 0;
  for (let i = from; i < count; i++) {
    startRequest();
    // kind, name, matchOn, ignoreArgs, args: [ptr, len] per column.
    const kp = column<V>(d, 0, i), kl = colLen, np = column<V>(d, 1, i), nl = colLen;
    const mp = column<V>(d, 2, i), ml = colLen, ip = column<V>(d, 3, i), il = colLen, ap = column<V>(d, 4, i);
    let f = itemFlags | (ml != 0 ? F_MATCH_ON : 0) | (il != 0 ? F_IGNORE : 0);
    if (sorts != 0) f |= load<u32>(sorts + (<usize>i << 2)) & (F_STRING_INPUT | F_MARSHAL | F_VALUES | NOT_TEXT);
    if (sizeof<V>() == 8) if (four) sinkPreset(laneBuf(lanes), LANE_MAX); // the preimage is written where it is hashed
    // Items that are not calls take the fingerprint module's own variant of process (no call reader, and
    // compiled apart from the CLI engine: ~3% faster per small item in wasmtime, measured).
    let status = f & NOT_TEXT ? notText(f, np, nl, ap, colLen) : sizeof<V>() == 8 && !calls
      ? process<FingerprintOnly>(f, kp, kl, np, nl, mp, ml, ip, il, ap, colLen)
      : process<V>(f, kp, kl, np, nl, mp, ml, ip, il, ap, colLen);
    if (sizeof<V>() == 8) sinkPreset(0, 0);
    if (status == OK && pre) {
      finish<V>(status);
      const n = <usize>load<u32>(result() + RESULT_TEXT_LEN);
      if (at + n <= room) {
        memory.copy(bytes + at, <usize>load<u32>(result() + RESULT_TEXT_PTR), n);
        at += n;
        store<u32>(out + (<usize>i << 2), <u32>at);
        continue;
      }
      // The room is full: the host takes what is there and calls again from i (status OK).
      if (at > 0) return i;
      // A preimage larger than all the room leaves the item's digest in its place (the host reads the mark).
      if (DIGEST_BYTES <= room) {
        sha256Hex(<usize>load<u32>(result() + RESULT_TEXT_PTR), n, bytes);
        at = DIGEST_BYTES;
        store<u32>(out + (<usize>i << 2), <u32>at | BATCH_END_DIGEST);
        continue;
      }
      status = fail(E_OUT_OF_MEMORY, -1); // a host that gave less room than a digest an item
    }
    if (status != OK || four) finish<V>(status);
    if (status != OK) {
      if (sizeof<V>() == 8) laneFlush();
      nameItem(load<u32>(d, BATCH_BASE << 2) + i);
      return i;
    }
    if (sizeof<V>() == 8) {
      if (four) {
        const hex = out + stride * <usize>i;
        if (stride > DIGEST_BYTES) store<u8>(hex + DIGEST_BYTES, 0x0A);
        laneQueue(hex);
        continue;
      }
    }
    memory.copy(out + stride * <usize>i, result() + RESULT_DIGEST, DIGEST_BYTES);
  }
  if (sizeof<V>() == 8) laneFlush();
  return count;
}

/**
 * With F_DIGEST | F_PREIMAGE, writes the chunk's pick back into BATCH_FLAGS:
 * preimages where the host hashes faster (no four lanes here, or items of
 * BATCH_HOST_HASH_FROM input bytes and more on average), else digests.
 */
function pickOutput<V>(d: usize, count: u32): void {
  const flags = load<u32>(d, BATCH_FLAGS << 2);
  if ((flags & (F_DIGEST | F_PREIMAGE)) != (F_DIGEST | F_PREIMAGE)) return;
  let host = true;
  if (sizeof<V>() == 8) {
    let size: u64 = 0;
    for (let c: u32 = 0; c < 5; c++) {
      const w = d + ((BATCH_COLUMNS + 3 * c) << 2);
      const offsets = <usize>load<u32>(w);
      size += offsets == 0 || offsets == <usize>BATCH_SEPARATED ? <u64>load<u32>(w, 8)
        : <u64>(load<u32>(offsets + (<usize>count << 2)) - load<u32>(offsets));
    }
    host = size >= <u64>BATCH_HOST_HASH_FROM * <u64>count;
  }
  store<u32>(d, host ? flags & ~F_DIGEST : flags & ~F_PREIMAGE, BATCH_FLAGS << 2);
}

const NOT_TEXT = BATCH_ITEM_NOT_TEXT | BATCH_ITEM_NOT_NAME;

/** An item the host could not send as text: its error, worded with the host's word for its type (abi.ts BATCH_ITEM_NOT_*). */
function notText(f: u32, np: usize, nl: usize, ap: usize, al: usize): i32 {
  if (f & BATCH_ITEM_NOT_TEXT) return failWorded(E_BAD_ARGUMENT, W_TEXT, ap, wordLen(al), 0, 0);
  return failWorded(E_BAD_ARGUMENT, W_STRING, memory.data<u8>([0x6E, 0x61, 0x6D, 0x65]), 4, np, wordLen(nl)); // "name"
}

/** A type word within the message buffer's room (failWorded), else none: a class name of 160 bytes and more is left out. */
@inline function wordLen(n: usize): usize {
  return n < 160 ? n : 0;
}

/** The failed item's message as the host shows it: "item N: " before the core's own. */
function nameItem(index: u32): void {
  const r = result(), n = <usize>load<u32>(r + RESULT_TEXT_LEN);
  if (n == 0) return; // no message of the core's to name (the host words it from the status)
  const p = alloc(n + 16);
  if (p == 0) return;
  store<u32>(p, 0x6D657469); // "item"
  store<u8>(p, 0x20, 4);
  const q = p + 5 + writeDecimal(<u64>index, p + 5);
  store<u16>(q, 0x203A); // ": "
  memory.copy(q + 2, <usize>load<u32>(r + RESULT_TEXT_PTR), n);
  store<u32>(r + RESULT_TEXT_PTR, <u32>p);
  store<u32>(r + RESULT_TEXT_LEN, <u32>(q + 2 + n - p));
}

let lanes: u32 = 0;
function laneBuf(j: u32): usize { return memory.data(4 * <i32>LANE_MAX, 16) + (<usize>j) * LANE_MAX; }

/** Queues the finished item's preimage, written in its lane's buffer (copied there if it outgrew it); hex digits go to hex. */
function laneQueue(hex: usize): void {
  const r = result(), p = <usize>load<u32>(r + RESULT_TEXT_PTR), n = <usize>load<u32>(r + RESULT_TEXT_LEN);
  if (n > LANE_MAX) {
    sha256Hex(p, n, hex);
    return;
  }
  if (p != laneBuf(lanes)) memory.copy(laneBuf(lanes), p, n); // it outgrew the lane's buffer while written
  sha256x4Set(lanes, laneBuf(lanes), n, hex);
  if (++lanes == 4) laneFlush();
}

/** Hashes what is queued (before the batch returns: every digest before `from` is written). */
function laneFlush(): void {
  sha256x4Hex(lanes);
  lanes = 0;
}

/** column()'s second result: the item's length in that column. */
let colLen: usize = 0;

/** Address of item i in column c (its length in colLen): Arrow offsets, NUL-separated, or one value shared by all. */
function column<V>(d: usize, c: u32, i: u32): usize {
  const w = d + ((BATCH_COLUMNS + 3 * c) << 2);
  const offsets = <usize>load<u32>(w), data = <usize>load<u32>(w, 4);
  if (offsets == 0) { colLen = <usize>load<u32>(w, 8); return data; }
  if (sizeof<V>() == 8) {
    if (offsets == <usize>BATCH_SEPARATED) return separated(c, i, data, data + <usize>load<u32>(w, 8));
  }
  const a = <usize>load<u32>(offsets + (<usize>i << 2));
  colLen = <usize>load<u32>(offsets + (<usize>i << 2), 4) - a;
  return data + a;
}

/** Per column c, at SEP() + 8c: the index of its next item (-1: none read in this chunk), at + 4 where it starts (a function: no static data elsewhere). */
function SEP(): usize { return memory.data(40, 8); }

/** Item i of a NUL-separated column [data, end): the cursor holds the next item's index and start (items come in order). */
function separated(c: u32, i: u32, data: usize, end: usize): usize {
  const cur = SEP() + (<usize>c << 3);
  let k = load<i32>(cur), at = <usize>load<u32>(cur, 4);
  if (k < 0 || <u32>k > i) { k = 0; at = data; }
  for (; <u32>k < i; k++) at = findByte16(at, end, 0) + 1;
  if (at > end) at = end; // fewer items than count (a host's mistake): empty ones, never past the column
  const e = findByte16(at, end, 0);
  store<i32>(cur, <i32>i + 1); store<u32>(cur, <u32>(e + 1), 4);
  colLen = e - at;
  return at;
}

/**
 * Whether every NUL-separated column of the chunk has exactly count - 1 NULs:
 * one more means an item holds a NUL, which would shift every later item
 * (a wrong fingerprint); the host then sends that chunk with offsets.
 */
function separatorsCount(d: usize, count: u32): bool {
  if (count == 0) return true;
  for (let c: u32 = 0; c < 5; c++) {
    const w = d + ((BATCH_COLUMNS + 3 * c) << 2);
    if (load<u32>(w) != BATCH_SEPARATED) continue;
    const data = <usize>load<u32>(w, 4);
    if (countByte16(data, data + <usize>load<u32>(w, 8), 0) != <usize>count - 1) return false;
  }
  return true;
}

