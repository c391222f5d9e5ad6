/**
 * Batch API (issue 13): many calls in, fingerprints out, one crossing into
 * the core per chunk of items (src/_batch.ts, assembly/ops/batch.ts) instead of
 * one per call. Public API, re-exported by api.ts.
 *
 * - `fingerprintBatchJSON(names, argsJSON, options)`: names plus JSON texts,
 *   with shared options; arrays, any iterables, or Arrow-style columns
 *   (`{ offsets, data }`: UTF-8 bytes, item i = data[offsets[i]..offsets[i+1]]).
 * - `fingerprintBatch(calls)`: calls in the one call model
 *   (`{name, args | argsJSON, kind?, matchOn?, ignoreArgs?}`, or a recording
 *   line's JSON text), read by the core's call reader (engine module).
 *
 * Errors: a bad item is never skipped silently. By default the first one
 * throws a FingerprintError whose `index` names it (message `item 3: …`);
 * with `onError: "null"` its fingerprint is null and the others are computed.
 * @module
 */
import {
  W_CHOICE, W_COLUMN, W_COLUMN_ORDER, W_ITERABLE, W_ITERABLE_OR_COLUMN, W_LENGTHS, W_OBJECT, W_STRING, W_STRINGS, W_TEXT,
} from "./_abi.gen.js";
import { BATCH_CHUNK_BYTES, BATCH_CHUNK_ITEMS, DEFAULT_KIND, F_CALL, F_DIGEST, F_RAW_NAMES, F_STRING_INPUT, F_VALUES } from "./_abi.gen.js";
import { type Column, SHARED_EMPTY, runChunk, utf8, withIndex } from "./_batch.js";
import { asBatch, type BatchTarget, batchHostHash } from "./core.js";
import { type CoreLimits, type Limits, callLimits } from "./_limits.js";
import { hasEngineSource, withEngine } from "./_engine.js";
import { FingerprintError, hostError, typeWord } from "./errors.js";
import type { Call, ProviderCall } from "./explain.js";

/** UTF-8 texts in Arrow's layout: item i is data[offsets[i] .. offsets[i + 1]]; offsets has one entry more than items. */
export interface TextColumn {
  offsets: Uint32Array | Int32Array;
  data: Uint8Array;
}

export interface BatchOptions {
  /** For every item (fingerprintBatchJSON). Defaults to "tool_call" (D17). */
  kind?: string;
  /** For every item (fingerprintBatchJSON): keep only these top-level keys (D9). */
  matchOn?: readonly string[] | null;
  /** For every item (fingerprintBatchJSON): drop these top-level keys (D9). */
  ignoreArgs?: readonly string[] | null;
  /** Limits for each item; they can only tighten the configured ones (maxInputBytes counts one item, as the core reads it). */
  limits?: Limits | null;
  /** "throw" (default): the first bad item throws FingerprintError with its `index`. "null": its fingerprint is null. */
  onError?: "throw" | "null";
}

type ThrowOptions = BatchOptions & { onError?: "throw" };
type NullOptions = BatchOptions & { onError: "null" };
type Text = string | Uint8Array;

const DEFAULT_KIND_BYTES = utf8(DEFAULT_KIND); // D17, from assembly/abi.ts: batch columns are raw text, where "" is an error

/**
 * Fingerprints of calls given as names plus JSON texts, one per pair, in order.
 * @throws FingerprintError naming the item's `index` (unless `onError: "null"`), or for mismatched lengths.
 * @example fingerprintBatchJSON(["search", "search"], ['{"q":"a"}', '{"q":"b"}']) // two digests
 */
export function fingerprintBatchJSON(names: Iterable<string> | TextColumn, argsJSON: Iterable<Text> | TextColumn,
  options?: ThrowOptions): string[];
export function fingerprintBatchJSON(names: Iterable<string> | TextColumn, argsJSON: Iterable<Text> | TextColumn,
  options: NullOptions): (string | null)[];
export function fingerprintBatchJSON(names: Iterable<string> | TextColumn, argsJSON: Iterable<Text> | TextColumn,
  options?: BatchOptions): (string | null)[] {
  const o = batchOptions(options);
  const kind: Column = { kind: "shared", bytes: o.kind };
  const match: Column = { kind: "shared", bytes: o.matchOn };
  const ignore: Column = { kind: "shared", bytes: o.ignoreArgs };
  const out: (string | null)[] = [];
  const run = (t: BatchTarget, beforeChunk?: () => void) => {
    const a = source(names, "names"), b = source(argsJSON, "argsJSON");
    let base = 0;
    for (;;) {
      const [nc, ac, n, sorts] = nextChunk(a, b, base, o.throws);
      if (n === 0) break;
      beforeChunk?.();
      runChunk(t, F_DIGEST | F_RAW_NAMES | (sorts ? 0 : F_STRING_INPUT), n, [kind, nc, match, ignore, ac], out, base, o.throws, sorts);
      base += n;
    }
    return out;
  };
  // Without node:crypto the SIMD module, where it loads synchronously, hashes four items at a time.
  if (batchHostHash() !== null || !hasEngineSource()) return asBatch(o.limits, (t) => run(t));
  return onDiagnostics(o.limits, (t, sendLimits) => run(t, sendLimits));
}

/**
 * Runs `work` on the engine module; `work` calls `sendLimits` before
 * each chunk (an iterable's own code between chunks may run other calls on
 * the instance, with other limits): the configured limits and the batch's own.
 */
function onDiagnostics<T>(limits: CoreLimits, work: (t: BatchTarget, sendLimits: () => void) => T): T {
  // The whole batch holds the instance: a getter or iterator that calls back into the engine meanwhile
  // gets a spare (src/_instance.ts), never this batch's half-written chunk.
  return withEngine((t) => work(t, () => { t.limits(limits); }));
}

/**
 * Fingerprints of calls in the one call model, in order: objects
 * `{name, args | argsJSON, kind?, matchOn?, ignoreArgs?}` (a near miss of a
 * key, like `match_on`, is an error naming the right one), or recording
 * lines (JSON text of such an object). Read by the core's call reader.
 * @throws FingerprintError naming the item's `index` (unless `onError: "null"`).
 * @example fingerprintBatch([{ name: "search", args: { q: "a" } }, '{"name":"search","argsJSON":"{}"}'])
 */
export function fingerprintBatch(calls: Iterable<Call | ProviderCall | Text>, options?: Pick<BatchOptions, "limits"> & { onError?: "throw" }): string[];
export function fingerprintBatch(calls: Iterable<Call | ProviderCall | Text>, options: Pick<BatchOptions, "limits"> & { onError: "null" }): (string | null)[];
export function fingerprintBatch(calls: Iterable<Call | ProviderCall | Text>, options?: Pick<BatchOptions, "limits" | "onError">): (string | null)[] {
  const o = batchOptions(options);
  if (calls === null || typeof (calls as Iterable<unknown>)?.[Symbol.iterator] !== "function") {
    throw hostError(W_ITERABLE, ["calls", typeWord(calls)]);
  }
  const out: (string | null)[] = [];
  return onDiagnostics(o.limits, (t, sendLimits) => {
    const it = (calls as Iterable<unknown>)[Symbol.iterator]();
    let held: IteratorResult<unknown> = it.next();
    let base = 0;
    while (!held.done) {
      // One chunk, up to the bounds: call objects, recording lines as strings or bytes, each with its sort.
      const items: unknown[] = [], sorts: number[] = [];
      let bytes = 0;
      while (!held.done && items.length < BATCH_CHUNK_ITEMS && bytes < BATCH_CHUNK_BYTES) {
        const x = held.value;
        items.push(x);
        sorts.push(typeof x === "string" ? F_STRING_INPUT : x instanceof Uint8Array ? 0 : F_VALUES);
        bytes += typeof x === "string" ? 3 * x.length : x instanceof Uint8Array ? x.length : 256;
        held = it.next();
      }
      sendLimits();
      runChunk(t, F_CALL | F_DIGEST, items.length, [SHARED_EMPTY, SHARED_EMPTY, SHARED_EMPTY, SHARED_EMPTY, { kind: "values", items }],
        out, base, o.throws, Uint32Array.from(sorts));
      base += items.length;
    }
    return out;
  });
}

interface ReadOptions {
  kind: Uint8Array; matchOn: Uint8Array; ignoreArgs: Uint8Array;
  limits: CoreLimits; throws: boolean;
}

/** Reads each option once. Key lists go to the core as JSON array texts (it checks them, D9). */
function batchOptions(options: BatchOptions | undefined): ReadOptions {
  if (options === undefined) return { kind: DEFAULT_KIND_BYTES, matchOn: new Uint8Array(0), ignoreArgs: new Uint8Array(0), limits: callLimits(null), throws: true };
  if (typeof options !== "object" || options === null) throw hostError(W_OBJECT, ["options", typeWord(options)]);
  const { kind, matchOn, ignoreArgs, limits, onError } = options;
  if (kind !== undefined && typeof kind !== "string") throw hostError(W_STRING, ["kind", typeWord(kind)]);
  if (onError !== undefined && onError !== "throw" && onError !== "null") {
    throw hostError(W_CHOICE, ["onError", "throw", String(onError)]);
  }
  return {
    kind: kind === undefined ? DEFAULT_KIND_BYTES : utf8(kind),
    matchOn: keyList(matchOn, "matchOn"), ignoreArgs: keyList(ignoreArgs, "ignoreArgs"),
    limits: callLimits(limits),
    throws: onError !== "null",
  };
}

function keyList(list: unknown, what: string): Uint8Array {
  if (list === undefined || list === null) return new Uint8Array(0);
  if (!Array.isArray(list) || !list.every((k) => typeof k === "string")) {
    throw hostError(W_STRINGS, [what, typeWord(list)]);
  }
  return utf8(JSON.stringify(list));
}

/** A side of fingerprintBatchJSON: an iterator, or a column read by index. */
type Source =
  | { col: null; it: Iterator<unknown>; held: IteratorResult<unknown>; what: string }
  | { col: { offsets: Uint32Array; data: Uint8Array }; at: number; n: number; what: string };

function source(x: unknown, what: string): Source {
  if (x !== null && typeof x === "object" && "offsets" in x && "data" in x) {
    const { offsets, data } = x as TextColumn;
    if (!(offsets instanceof Uint32Array || offsets instanceof Int32Array) || !(data instanceof Uint8Array) || offsets.length < 1) {
      throw hostError(W_COLUMN, [what]);
    }
    // The core reads data + offsets[i]: every offset must be inside data, in order.
    const u = new Uint32Array(offsets.buffer, offsets.byteOffset, offsets.length);
    for (let i = 0; i < u.length; i++) {
      if (offsets[i] < 0 || u[i] > data.length || (i > 0 && u[i] < u[i - 1])) {
        throw hostError(W_COLUMN_ORDER, [what, i]);
      }
    }
    return { col: { offsets: u, data }, at: 0, n: u.length - 1, what };
  }
  if (x === null || typeof (x as Iterable<unknown>)?.[Symbol.iterator] !== "function" || typeof x === "string") {
    throw hostError(W_ITERABLE_OR_COLUMN, [what]);
  }
  const it = (x as Iterable<unknown>)[Symbol.iterator]();
  return { col: null, it, held: it.next(), what };
}

function done(s: Source): boolean {
  return s.col ? s.at >= s.n : s.held.done === true;
}

/**
 * The next chunk of both sides: their columns, the item count, and each
 * item's sort of text (null: all strings, which have no BOM; bytes may, D12).
 * A name or text of the wrong type throws, or (onError "null") is sent
 * empty: the core refuses an empty name and an empty text, so that item is
 * null like any other bad one (Python: None).
 */
function nextChunk(a: Source, b: Source, base: number, throws: boolean): [Column, Column, number, Uint32Array | null] {
  if (done(a) || done(b)) {
    if (done(a) !== done(b)) throw hostError(W_LENGTHS, ["names", "argsJSON"]);
    return [SHARED_EMPTY, SHARED_EMPTY, 0, null];
  }
  if (a.col && b.col) {
    // Both columns: a range of items, their bytes copied as they are.
    let n = Math.min(BATCH_CHUNK_ITEMS, a.n - a.at, b.n - b.at);
    const ao = a.col.offsets, bo = b.col.offsets;
    while (n > 1 && ao[a.at + n] - ao[a.at] + bo[b.at + n] - bo[b.at] > BATCH_CHUNK_BYTES) n >>= 1;
    const ca = slice(a.col.offsets, a.col.data, a.at, n), cb = slice(b.col.offsets, b.col.data, b.at, n);
    a.at += n; b.at += n;
    return [ca, cb, n, null];
  }
  const names: Text[] = [], texts: Text[] = [], sorts: number[] = [];
  let bytes = 0, allStr = true;
  while (!done(a) && !done(b) && names.length < BATCH_CHUNK_ITEMS && bytes < BATCH_CHUNK_BYTES) {
    const raw = peek(b);
    const textOk = typeof raw === "string" || raw instanceof Uint8Array;
    if (!textOk && throws) {
      throw withIndex(hostError(W_TEXT, [typeWord(raw)]), base + names.length);
    }
    const t: Text = textOk ? raw : "";
    const isStr = typeof t === "string" || b.col !== null; // a column's text is a string's
    allStr &&= isStr;
    const name = peek(a);
    const nameOk = typeof name === "string" || name instanceof Uint8Array;
    if (!nameOk && throws) {
      throw withIndex(hostError(W_STRING, ["name", typeWord(name)]), base + names.length);
    }
    names.push(nameOk ? name : ""); texts.push(t); sorts.push(isStr ? F_STRING_INPUT : 0);
    bytes += typeof t === "string" ? 3 * t.length : t.length;
    advance(a); advance(b);
  }
  return [{ kind: "texts", items: names }, { kind: "texts", items: texts }, names.length, allStr ? null : Uint32Array.from(sorts)];
}

function peek(s: Source): unknown {
  if (s.col) {
    const o = s.col.offsets;
    return s.col.data.subarray(o[s.at], o[s.at + 1]);
  }
  return (s.held as IteratorYieldResult<unknown>).value;
}

function advance(s: Source): void {
  if (s.col) s.at++;
  else s.held = s.it.next();
}

/** Items at..at+n-1 of a column, rebased to their own bytes. */
function slice(offsets: Uint32Array, data: Uint8Array, at: number, n: number): Column {
  const o0 = offsets[at];
  const offs = offsets.slice(at, at + n + 1);
  if (o0 !== 0) for (let i = 0; i <= n; i++) offs[i] -= o0;
  return { kind: "arrow", offsets: offs, data: data.subarray(o0, offsets[at + n]) };
}
