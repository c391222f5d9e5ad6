/**
 * Batch transport: items laid out as the core's batch columns
 * (assembly/abi.ts BATCH_*, Arrow's offsets layout) in the input region, one
 * runBatch per chunk, digests read back in one decode. Chunks are bounded
 * (BATCH_CHUNK_ITEMS items, ~BATCH_CHUNK_BYTES of input), so memory does not
 * follow the batch's length. No rule lives here: names, kinds, lists, calls
 * and args are read by the core, which also picks digests or preimages and
 * words a failing item's error. Internal.
 * @module
 */
import {
  BATCH_BASE, BATCH_COLUMNS, BATCH_COUNT, BATCH_END_DIGEST, BATCH_FLAGS, BATCH_ITEM_FLAGS, BATCH_OUT_BYTES, BATCH_WORDS,
  DIGEST_BYTES, F_CALL, F_DIGEST, F_PREIMAGE,
  W_ITEM,
} from "./_abi.gen.js";
import { type BatchTarget, batchHostHash } from "./core.js";
import { FingerprintError, hostError } from "./errors.js";

/**
 * One column of a chunk: one value for every item, items (strings and bytes
 * as text, other values as value streams: the chunk's sorts say which), or
 * Arrow-style bytes.
 */
export type Column =
  | { kind: "shared"; text: string }
  | { kind: "items"; items: unknown[] }
  | { kind: "arrow"; offsets: Uint32Array; data: Uint8Array };

const DESCRIPTOR = ((BATCH_WORDS * 4 + 15) >> 4) << 4;

const encoder = new TextEncoder();
const latin1 = new TextDecoder("latin1");
export const SHARED_EMPTY: Column = { kind: "shared", text: "" };

/**
 * Runs one chunk of `count` items (columns: kind, name, matchOn, ignoreArgs,
 * args; `sorts`: each item's sort of input, abi.ts BATCH_ITEM_FLAGS, or
 * null) and stores digests at out[base..base+count). The first failing
 * item, in order, throws a FingerprintError naming its index (onError
 * "throw"), or gets null; one the host failed (a value D15 rejects) is sent
 * empty, which the core fails too, and takes the host's error.
 */
export function runChunk(t: BatchTarget, flags: number, count: number, cols: Column[],
  out: (string | null)[], base: number, throwOnError: boolean, sorts: Uint32Array | null = null): void {
  const inPtr = t.inPtr, desc = new Uint32Array(BATCH_WORDS);
  t.head = null; // the descriptor goes where a request's header was (src/core.ts putLiterals)
  let at = inPtr + DESCRIPTOR;
  /** Room for n more bytes at `at` (a text: 3 per UTF-16 unit at most). */
  const room = (n: number) => t.reserve(at - inPtr + n);
  const errors = new Map<number, FingerprintError>();
  const pending: [number, Uint32Array][] = [];
  if (sorts) {
    desc[BATCH_ITEM_FLAGS] = at;
    pending.push([at, sorts]);
    at += 4 * count;
  }
  const texts = !(flags & F_CALL); // names and JSON texts, where ASCII blocks are (calls are mostly objects)
  cols.forEach((c, ci) => {
    const w = BATCH_COLUMNS + 3 * ci;
    if (c.kind === "shared") {
      room(3 * c.text.length);
      desc[w + 1] = at;
      at += desc[w + 2] = t.put(at, c.text);
      return;
    }
    at = (at + 3) & ~3;
    const offPtr = at, offs = c.kind === "arrow" ? c.offsets : new Uint32Array(count + 1);
    pending.push([offPtr, offs]);
    const data = at += 4 * (count + 1);
    desc[w] = offPtr; desc[w + 1] = data;
    if (c.kind === "arrow") {
      room(c.data.length).set(c.data, data);
      at += c.data.length;
      return;
    }
    for (let i = 0; i < count; i++) {
      // Texts go a block at a time when the block is ASCII (one encode), else item by item.
      if (texts && i % ASCII_BLOCK === 0) {
        const n = asciiBlock(c.items, i, Math.min(count, i + ASCII_BLOCK), t, at, offs);
        if (n >= 0) {
          at += n;
          i += Math.min(ASCII_BLOCK, count - i) - 1;
          continue;
        }
      }
      const x = c.items[i];
      try {
        if (typeof x === "string" || x instanceof Uint8Array) {
          room((typeof x === "string" ? 3 : 1) * x.length);
          at += t.put(at, x);
        } else at = t.putValue(x, at, Infinity, texts ? "args" : ""); // a value stream (a whole call's paths start at it, D15)
      } catch (err) {
        if (!(err instanceof FingerprintError)) throw err; // a user's toJSON or getter: unchanged
        errors.set(i, err);
        at = data + offs[i]; // the item is left empty: the core fails on it too
      }
      offs[i + 1] = at - data;
    }
  });
  // Where node:crypto exists the core writes preimages and they are hashed
  // here (~2x the wasm SHA-256 at 150 B, ~6x from a few KB: bench/PROFILE.md;
  // faster in V8 than the SIMD module's four lanes too, measured): after the
  // input, ends[count], then room for about twice its size and a digest each.
  const hash = flags & F_DIGEST ? batchHostHash() : null;
  const outPtr = (at + 3) & ~3, preimages = hash ? 2 * (at - inPtr) + DIGEST_BYTES * count : 0;
  let mem = t.reserve(outPtr - inPtr + (hash ? 4 * count + preimages : DIGEST_BYTES * count));
  desc[BATCH_FLAGS] = hash ? (flags & ~F_DIGEST) | F_PREIMAGE : flags;
  desc[BATCH_COUNT] = count;
  desc[BATCH_OUT_BYTES] = preimages;
  desc[BATCH_BASE] = base;
  for (const [p, offs] of pending) new Uint32Array(mem.buffer, p, offs.length).set(offs);
  new Uint32Array(mem.buffer, inPtr, BATCH_WORDS).set(desc);

  // Runs from `from` to where the core stops (count, a failed item, or a full room), collects, goes on.
  for (let from = 0, stop = 0; from < count;) {
    try {
      stop = t.e.runBatch(from, outPtr) >>> 0;
    } catch (err) {
      throw t.trapped(err);
    }
    mem = t.view();
    if (hash) {
      const ends = new Uint32Array(mem.buffer, outPtr, count);
      const bytes = outPtr + 4 * count;
      for (let i = from, s = 0; i < stop; i++) {
        const e = ends[i] & ~BATCH_END_DIGEST;
        const slot = mem.subarray(bytes + s, bytes + e);
        out[base + i] = errors.has(i) ? null : ends[i] & BATCH_END_DIGEST ? latin1.decode(slot) : hash!(slot);
        s = e;
      }
    } else if (stop > from) {
      const hex = latin1.decode(mem.subarray(outPtr + DIGEST_BYTES * from, outPtr + DIGEST_BYTES * stop));
      for (let i = from; i < stop; i++) {
        out[base + i] = errors.has(i) ? null : hex.slice(DIGEST_BYTES * (i - from), DIGEST_BYTES * (i - from + 1));
      }
    }
    if (stop >= count) break;
    from = stop;
    if (hash && t.status() === 0) continue; // the room was full
    if (throwOnError) {
      // The error with the item's `index`; one found here (a value D15 rejects) is named as the core
      // names its own ("item 3: …", abi.ts W_ITEM).
      const host = errors.get(stop), err = host ?? t.error(), index = base + stop;
      throw new FingerprintError(err.code, host ? hostError(W_ITEM, [index, ""]).message + err.message : err.message,
        { index, offset: err.offset, path: err.path, cause: err.cause });
    }
    out[base + stop] = null;
    from++;
  }
}

/** Items per ASCII block (asciiBlock): small enough that a block holding a non-ASCII text wastes little. */
const ASCII_BLOCK = 32;
/** Mean characters per item up to which a block is joined (asciiBlock). */
const ASCII_ITEM_MAX = 256;

/**
 * Texts [from, to) encoded in one call when all of them are ASCII strings
 * (then each item's bytes are its length): the
 * common batch, without an encodeInto per item (~0.06 µs a small item).
 * Written at `at`, offsets set; returns the bytes written, or -1 (nothing
 * decided: the caller encodes the block item by item, over the same room).
 * The block's first item is tried alone first, so a column of non-ASCII
 * texts costs one extra small encode per block, not a block's.
 */
function asciiBlock(items: unknown[], from: number, to: number, t: BatchTarget, at: number, offs: Uint32Array): number {
  let total = 0;
  for (let i = from; i < to; i++) {
    const x = items[i];
    if (typeof x !== "string") return -1;
    total += x.length;
  }
  // Longer texts: the join's copy costs more than the encodes it saves (measured at ~750 B: +3%).
  if (total > ASCII_ITEM_MAX * (to - from)) return -1;
  // Each non-ASCII character (or lone surrogate) takes 2-3 bytes: as many bytes as units means ASCII.
  const first = items[from] as string, mem = t.reserve(at - t.inPtr + 3 * total);
  if (encoder.encodeInto(first, mem.subarray(at, at + 3 * first.length)).written !== first.length) return -1;
  const block = to - from === 1 ? first : (items.slice(from, to) as string[]).join("");
  if (encoder.encodeInto(block, mem.subarray(at, at + 3 * total)).written !== total) return -1;
  for (let i = from, o = offs[from]; i < to; i++) offs[i + 1] = o += (items[i] as string).length;
  return total;
}
