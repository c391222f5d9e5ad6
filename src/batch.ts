/**
 * Batch API: many calls in, fingerprints out, one crossing into the core per
 * chunk of items (src/_batch.ts, assembly/ops/batch.ts) instead of one per
 * call. Public API, re-exported by api.ts.
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
  BATCH_CHUNK_BYTES, BATCH_CHUNK_ITEMS, BATCH_ITEM_NOT_NAME, BATCH_ITEM_NOT_TEXT, DEFAULT_KIND, F_CALL, F_DIGEST, F_RAW_NAMES,
  F_STRING_INPUT, F_VALUES, W_CHOICE, W_COLUMN, W_COLUMN_ORDER, W_ITERABLE, W_ITERABLE_OR_COLUMN, W_LENGTHS,
} from "./_abi.gen.js";
import { type Column, SHARED_EMPTY, runChunk } from "./_batch.js";
import { option, optionParts } from "./_options.js";
import { asBatch, type BatchTarget, batchHostHash } from "./core.js";
import { engine, hasEngineSource } from "./_engine.js";
import { hostError, typeWord } from "./errors.js";
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
  limits?: import("./_limits.js").Limits | null;
  /** "throw" (default): the first bad item throws FingerprintError with its `index`. "null": its fingerprint is null. */
  onError?: "throw" | "null";
}

type ThrowOptions = BatchOptions & { onError?: "throw" };
type NullOptions = BatchOptions & { onError: "null" };
type Text = string | Uint8Array;

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
  const o = optionParts(options), throws = onError(options);
  // Batch columns are raw text (F_RAW_NAMES), where "" is an error: the default kind is sent (D17).
  const shared = (text: string): Column => ({ kind: "shared", text });
  const kind = shared(o.rawKind ?? DEFAULT_KIND), match = shared(o.match), ignore = shared(o.ignore);
  // The limits are sent before each chunk: an iterable's own code between chunks may run calls with other limits.
  const run = (t: BatchTarget) => {
    const out: (string | null)[] = [];
    const a = source(names, "names"), b = source(argsJSON, "argsJSON");
    if (!("it" in a) && !("it" in b)) {
      // Both columns: a range of items, their bytes copied as they are (a column's text is a string's).
      const count = Math.min(a.offsets.length, b.offsets.length) - 1;
      for (let at = 0, n = 0; at < count; at += n) {
        const most = Math.min(count - at, BATCH_CHUNK_ITEMS), bo = b.offsets; // take()'s rule over the args column
        for (n = 1; n < most && bo[at + n + 1] - bo[at] <= BATCH_CHUNK_BYTES;) n++;
        t.limits(o.limits);
        const cols = [kind, slice(a, at, n), match, ignore, slice(b, at, n)];
        runChunk(t, F_DIGEST | F_RAW_NAMES | F_STRING_INPUT, n, cols, out, at, throws);
      }
      if (a.offsets.length !== b.offsets.length) throw hostError(W_LENGTHS, ["names", "argsJSON"]);
      return out;
    }
    const sides = [items(a), items(b)];
    for (let base = 0, n = 0; ; base += n) {
      const [ns, xs] = take(sides);
      n = ns.length;
      if (n === 0) {
        if (sides[0].next.done !== sides[1].next.done) throw hostError(W_LENGTHS, ["names", "argsJSON"]);
        return out;
      }
      // Each item's sort of input; a name or text of the wrong type goes as its type's word, for the core to fail in its turn.
      const sorts = new Uint32Array(n);
      for (let i = 0; i < n; i++) {
        const x = xs[i], name = ns[i];
        if (typeof x === "string" || !("it" in b)) sorts[i] = F_STRING_INPUT; // a column's text is a string's
        else if (!(x instanceof Uint8Array)) { sorts[i] = BATCH_ITEM_NOT_TEXT; xs[i] = typeWord(x); }
        if (typeof name !== "string" && !(name instanceof Uint8Array)) { sorts[i] |= BATCH_ITEM_NOT_NAME; ns[i] = typeWord(name); }
      }
      t.limits(o.limits);
      runChunk(t, F_DIGEST | F_RAW_NAMES, n, [kind, { kind: "items", items: ns }, match, ignore, { kind: "items", items: xs }],
        out, base, throws, sorts);
    }
  };
  // Without node:crypto the SIMD module, where it loads synchronously, hashes four items at a time.
  return batchHostHash() !== null || !hasEngineSource() ? asBatch(o.limits, run) : engine.with(run);
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
  const limits = optionParts(options).limits, throws = onError(options);
  const iterable = calls !== null && typeof (calls as Iterable<unknown>)?.[Symbol.iterator] === "function";
  if (!iterable) throw hostError(W_ITERABLE, ["calls", typeWord(calls)]);
  const out: (string | null)[] = [];
  // The whole batch holds the instance: a getter or iterator that calls back into the engine meanwhile
  // gets a spare (src/_instance.ts), never this batch's half-written chunk.
  return engine.with((t) => {
    const s = [items(calls)];
    for (let base = 0, xs = take(s)[0]; xs.length > 0; base += xs.length, xs = take(s)[0]) {
      // Call objects, recording lines as strings or bytes, each with its sort.
      const sorts = new Uint32Array(xs.length);
      xs.forEach((x, i) => { sorts[i] = typeof x === "string" ? F_STRING_INPUT : x instanceof Uint8Array ? 0 : F_VALUES; });
      t.limits(limits); // before each chunk, as fingerprintBatchJSON sends them
      runChunk(t, F_CALL | F_DIGEST, xs.length, [SHARED_EMPTY, SHARED_EMPTY, SHARED_EMPTY, SHARED_EMPTY, { kind: "items", items: xs }],
        out, base, throws, sorts);
    }
    return out;
  });
}

/** onError, read once: whether the first bad item throws. */
function onError(options: object | undefined): boolean {
  const v = options && option(options, Object.getPrototypeOf(options) === Object.prototype, "onError");
  if (v !== undefined && v !== "throw" && v !== "null") throw hostError(W_CHOICE, ["onError", "throw", String(v)]);
  return v !== "null";
}

/** A side of a batch read in order: its iterator and the item it holds next. */
interface Items { it: Iterator<unknown>; next: IteratorResult<unknown> }

/** A side as a checked column (every offset inside data, in order: the core reads data + offsets[i]), or an iterable's items. */
function source(x: unknown, what: string): Items | { offsets: Uint32Array; data: Uint8Array } {
  if (x !== null && typeof x === "object" && "offsets" in x && "data" in x) {
    const { offsets, data } = x as TextColumn;
    if (!(offsets instanceof Uint32Array || offsets instanceof Int32Array) || !(data instanceof Uint8Array) || offsets.length < 1) {
      throw hostError(W_COLUMN, [what]);
    }
    const u = new Uint32Array(offsets.buffer, offsets.byteOffset, offsets.length);
    for (let i = 0; i < u.length; i++) {
      if (offsets[i] < 0 || u[i] > data.length || (i > 0 && u[i] < u[i - 1])) throw hostError(W_COLUMN_ORDER, [what, i]);
    }
    return { offsets: u, data };
  }
  if (x === null || typeof (x as Iterable<unknown>)?.[Symbol.iterator] !== "function" || typeof x === "string") {
    throw hostError(W_ITERABLE_OR_COLUMN, [what]);
  }
  return items(x as Iterable<unknown>);
}

/** An iterable's items, or a column's (next to an iterable) as views of its bytes. */
function items(x: Iterable<unknown> | Items | { offsets: Uint32Array; data: Uint8Array }): Items {
  if ("it" in x) return x;
  let it: Iterator<unknown>;
  if ("offsets" in x) {
    const { offsets: o, data } = x;
    it = (function* () { for (let i = 0; i + 1 < o.length; i++) yield data.subarray(o[i], o[i + 1]); })();
  } else it = x[Symbol.iterator]();
  return { it, next: it.next() };
}

/** The next chunk's items of every side, by the rule of abi.ts (BATCH_CHUNK_*): the last side's bytes count (args). */
function take(sides: Items[]): unknown[][] {
  const k = sides.length, out: unknown[][] = sides.map(() => []), last = sides[k - 1];
  for (let n = 0, bytes = 0; n < BATCH_CHUNK_ITEMS; n++) {
    for (let j = 0; j < k; j++) if (sides[j].next.done) return out;
    const x = last.next.value;
    bytes += typeof x === "string" ? 3 * x.length : x instanceof Uint8Array ? x.length : 256; // a host value's: a guess
    if (n > 0 && bytes > BATCH_CHUNK_BYTES) break;
    for (let j = 0; j < k; j++) { out[j].push(sides[j].next.value); sides[j].next = sides[j].it.next(); }
  }
  return out;
}

/** A column's items at..at+n, rebased to their own bytes. */
function slice({ offsets, data }: { offsets: Uint32Array; data: Uint8Array }, at: number, n: number): Column {
  const o0 = offsets[at], offs = offsets.slice(at, at + n + 1);
  if (o0 !== 0) for (let i = 0; i <= n; i++) offs[i] -= o0;
  return { kind: "arrow", offsets: offs, data: data.subarray(o0, offsets[at + n]) };
}
