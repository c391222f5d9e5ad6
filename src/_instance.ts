/**
 * One instance of a wasm module (the fingerprint module or the engine) and
 * the host's side of the request ABI (assembly/abi.ts), for both modules: the
 * input region, views of linear memory re-taken after it grows, the request
 * header, the result block, a trap turned into FingerprintError (the instance
 * is then not trusted again, D19), and a pool per module whose one rule for
 * re-entrancy is: a call that finds the instance busy (re-entered from a
 * getter, toJSON or Proxy read during a value walk) gets a spare instance.
 * Python's twin is `_instance.py`. Internal.
 * @module
 */
import {
  ABI_ID, FINGERPRINT_VERSION, HEADER_BYTES, HEADER_WORDS, INPUT_RESERVE_BYTES, REQUESTS, RESULT_DIGEST, RESULT_OFFSET,
  RESULT_BYTES, RESULT_STATUS, RESULT_TEXT_LEN, RESULT_TEXT_PTR, RETAIN_BYTES, W_NO_ROOM, W_TRAP, WORD_OUT,
} from "./_abi.gen.js";
import { FingerprintError, errorFromCore, hostError } from "./errors.js";
import { type CoreLimits, NO_LIMIT, NONE, configured } from "./_limits.js";
import { encodeInto, isWellFormed, writeWtf8 } from "./_wtf8.js";
import { detachValues, retarget, writeValue } from "./values.js";
import { isModule } from "./_is_module.js";

/** The exports both modules share (assembly/entry/dispatch.ts). */
export interface Exports {
  memory: WebAssembly.Memory;
  reserve(n: number): number;
  run(len: number): number;
  result(): number;
  version(): number;
  /** The configured limits and the call's own (u32, 0xFFFFFFFF none); returns the byte limit in force (assembly/base/limits.ts). */
  limits(bytes: number, depth: number, members: number, ownBytes: number, ownDepth: number, ownMembers: number): number;
  abiId?(): number;
  /** The word buffer, and the message of an error a host raises (assembly/base/words.ts). */
  wordBuf(): number;
  word(id: number, len: number): number;
  /** Items from..count-1 of the batch at the input region (assembly/ops/batch.ts); returns where it stopped. */
  runBatch(from: number, out: number): number;
}

const encoder = new TextEncoder();
// ignoreBOM: a leading U+FEFF (a kind may start with one) is text, not a byte order mark.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
const hexDecoder = new TextDecoder("latin1");
const EMPTY = new Uint8Array(0);

/** The request parts in header order (abi.ts HEADER_WORDS). */
const PART_NAMES = ["kind", "name", "matchOn", "ignoreArgs", "args"] as const;
type RequestKind = keyof typeof REQUESTS;
/** A part as the host made it: text, bytes, a host value (the value stream), or a u32 part's fields by their table names. */
export type RequestParts = Partial<Record<(typeof PART_NAMES)[number], string | Uint8Array | object>>;

/** Thrown by a value walk's growth past the bound putValue was given (the caller decides). */
export const OVER = { over: true };

export class Instance {
  readonly e: Exports;
  /** Linear memory; empty after memory.grow detached it (view() re-takes it). */
  u8: Uint8Array = EMPTY;
  /** Its buffer: a view made with `new Uint8Array(buf, at, n)` costs half a subarray (V8 inlines the constructor). */
  private buf = EMPTY.buffer as ArrayBuffer;
  /** The request header at inPtr and the result block at resPtr (views refreshed with u8). */
  hdr: Uint32Array = new Uint32Array(0);
  res: Int32Array = new Int32Array(0);
  readonly inPtr: number;
  inCap: number = INPUT_RESERVE_BYTES;
  readonly resPtr: number;
  /** What this instance was last told of the limits, and the byte limit it answered. */
  private toldConf: CoreLimits | null = null;
  private toldOwn: CoreLimits | null = null;
  private bytes = Infinity;
  /** A request is between its write and the read of its result. */
  busy = false;
  /** It trapped: its state is not trusted (D19); its pool makes another. */
  dead = false;
  /** putValue's growth bound (absolute address; Infinity none). */
  private most = Infinity;
  /**
   * The name literal of the request header at inPtr when kind and key lists are empty (src/core.ts
   * putLiterals wrote it), and where that request's args began; null when anything else wrote there
   * since. Every other writer of the input region (request(), batches) clears it first.
   */
  head: string | null = null;
  headEnd = 0;

  constructor(source: WebAssembly.Module | WebAssembly.Instance, readonly what: string) {
    const inst = isModule(source) ? new WebAssembly.Instance(source, {}) : source; // a module from another realm too (the Edge Runtime)
    const e = this.e = inst.exports as unknown as Exports;
    // The module must be this contract's and speak the ABI these constants were generated from (style anchors §5).
    const id = typeof e.abiId === "function" ? e.abiId() : -1;
    if (e.version() !== FINGERPRINT_VERSION || id !== ABI_ID) {
      throw new FingerprintError("invalid-argument", `${what} has version ${e.version()} / ABI ${id.toString(16)}, ` +
        `this SDK was generated for ${FINGERPRINT_VERSION} / ${ABI_ID.toString(16)} (rebuild or reinstall)`);
    }
    this.resPtr = e.result();
    this.inPtr = e.reserve(INPUT_RESERVE_BYTES);
    this.view();
  }

  /** The current view of linear memory (memory.grow detaches the old buffer, which empties every view on it). */
  view(): Uint8Array {
    // Checking the length avoids the memory.buffer getter on the hot path (length: V8 inlines it, byteLength it calls).
    if (this.u8.length !== 0) return this.u8;
    const buf = this.buf = this.e.memory.buffer;
    this.hdr = new Uint32Array(buf, this.inPtr, HEADER_WORDS);
    this.res = new Int32Array(buf, this.resPtr, RESULT_BYTES >> 2);
    return (this.u8 = new Uint8Array(buf));
  }

  /** Makes the input region hold n bytes (same address, more room); the current view. */
  reserve(n: number): Uint8Array {
    if (n > this.inCap) {
      if (this.e.reserve(n) === 0) throw hostError(W_NO_ROOM, [n]);
      this.inCap = n;
    }
    return this.view();
  }

  /**
   * Tells the instance the configured limits and the call's own when they are not what it was
   * last told; the byte limit in force for the call (a host stops copying a longer input after
   * that many bytes + 1: the core refuses it by its length, assembly/base/limits.ts); Infinity for none.
   */
  limits(own: CoreLimits = NONE): number {
    const c = configured;
    if (this.toldConf !== c || this.toldOwn !== own) {
      const b = this.e.limits(c[0], c[1], c[2], own[0], own[1], own[2]) >>> 0;
      this.bytes = b === NO_LIMIT ? Infinity : b;
      this.toldConf = c;
      this.toldOwn = own;
    }
    return this.bytes;
  }

  /** Writes text (UTF-8, WTF-8 for lone surrogates) or bytes at `at`; their length. Room for 3 bytes per unit must be reserved. */
  put(at: number, s: string | Uint8Array): number {
    const mem = this.view();
    if (typeof s !== "string") { mem.set(s, at); return s.length; }
    if (s.length === 0) return 0;
    if (!isWellFormed(s)) return writeWtf8(s, 0, mem, at) - at;
    return encodeInto(s, mem, at, at + s.length * 3);
  }

  /**
   * Writes `value` as the core's value stream (src/values.ts) at `start`,
   * growing the input region as it goes; past `most` (an absolute address)
   * it throws OVER. Returns its end. `path`: how error paths start (D15).
   */
  putValue(value: unknown, start: number, most = Infinity, path = "args"): number {
    this.most = most;
    return writeValue(value, this.view(), start, Math.min(this.inPtr + this.inCap, most), this.grow, path);
  }

  private grow = (need: number): void => {
    const most = this.most;
    if (need > most) throw OVER;
    const p = this.inPtr;
    const want = Math.min(Math.max(2 * (need - p), need - p + 1024), most - p + 1024);
    if (this.e.reserve(want) === 0) throw hostError(W_NO_ROOM, [want]);
    this.inCap = want;
    retarget(this.view(), Math.min(p + want, most));
  };

  /** Runs the request of len bytes at inPtr: its status. A trap marks the instance dead and throws. */
  run(len: number): number {
    try {
      return this.e.run(len);
    } catch (err) {
      throw this.trapped(err);
    }
  }

  /** The instance after a trap (a core bug, never the caller's): not reused (D19); the error to throw. */
  trapped(err?: unknown): FingerprintError {
    this.dead = true;
    return hostError(W_TRAP, [this.what, (err as Error)?.message ?? String(err)]);
  }

  /** The result block's status. */
  status(): number {
    return (this.view(), this.res[RESULT_STATUS >> 2]);
  }

  /** The result's text bytes (a view: copy before the next request). */
  textBytes(): Uint8Array {
    this.view();
    // Text pointer and length are u32 in the block: read them unsigned.
    const r = this.res;
    return new Uint8Array(this.buf, r[RESULT_TEXT_PTR >> 2] >>> 0, r[RESULT_TEXT_LEN >> 2] >>> 0);
  }

  text(): string {
    return decoder.decode(this.textBytes());
  }

  /** The 64 hex digits at RESULT_DIGEST. */
  digest(): string {
    this.view();
    return hexDecoder.decode(new Uint8Array(this.buf, this.resPtr + RESULT_DIGEST, 64));
  }

  /**
   * The message of an error a host raises itself, from the core's `word` export, which touches only
   * its own buffer: safe in the middle of a request being written. Parameters past the buffer's room are cut.
   */
  word(id: number, params: readonly string[]): string {
    const b = encoder.encode(params.join("\0")).subarray(0, WORD_OUT), at = this.e.wordBuf();
    new Uint8Array(this.e.memory.buffer).set(b, at);
    return decoder.decode(new Uint8Array(this.e.memory.buffer, at + WORD_OUT, this.e.word(id, b.length)));
  }

  /** The failed request's FingerprintError (code, offset from the result block; its message the core's, whole). */
  error(): FingerprintError {
    const r = (this.view(), this.res);
    return errorFromCore(r[RESULT_STATUS >> 2], r[RESULT_OFFSET >> 2], this.text());
  }

  /**
   * Runs request `kind` of the generated table (abi.ts "request:" lines) with `flags` among its
   * optional ones: a u32 part given by its fields' table names is packed (its fixed fields filled
   * in), the rest go as send() writes them; the result's words by their table names (the text: textBytes()).
   */
  request(kind: RequestKind, parts: RequestParts, flags = 0, path = ""): Record<string, number> {
    this.head = null; // its own header goes where putLiterals' was
    const r = REQUESTS[kind], u32 = r.u32 as Record<string, readonly (string | number)[]>;
    for (const p of PART_NAMES) {
      const x = parts[p], fields = u32[p];
      if (!fields || x instanceof Uint8Array) continue;
      const v = new DataView(new ArrayBuffer(4 * fields.length));
      fields.forEach((f, k) => v.setUint32(4 * k, typeof f === "number" ? f : (x as Record<string, number>)[f], true));
      parts = { ...parts, [p]: new Uint8Array(v.buffer) };
    }
    this.send(r.flags | flags, parts, path);
    const w = new DataView(this.view().buffer, this.resPtr + RESULT_DIGEST);
    return Object.fromEntries(r.words.map((name, k) => [name, w.getUint32(4 * k, true)]));
  }

  /**
   * Writes the header and the parts in header order (text, bytes, or a host value as the value
   * stream, its error paths starting with `path`, D15) and runs the request; throws the core's error.
   */
  send(flags: number, parts: RequestParts, path = ""): void {
    let at = this.inPtr + HEADER_BYTES;
    const lens = PART_NAMES.map((p) => {
      const x = parts[p] ?? "", start = at;
      if (typeof x === "string" || x instanceof Uint8Array) {
        this.reserve(at - this.inPtr + (typeof x === "string" ? 3 * x.length : x.length));
        at += this.put(at, x);
      } else {
        this.reserve(at - this.inPtr + 1024);
        at = this.putValue(x, at, Infinity, path);
      }
      return at - start;
    });
    const h = (this.view(), this.hdr); // the header: flags, then the five parts' lengths
    h[0] = flags;
    h.set(lens, 1);
    if (this.run(at - this.inPtr) !== 0) throw this.error();
  }

  /** Drops every view of this instance's memory, so a retired instance becomes garbage. */
  detach(): void {
    this.u8 = EMPTY;
    this.buf = EMPTY.buffer as ArrayBuffer;
    this.hdr = new Uint32Array(0);
    this.res = new Int32Array(0);
    detachValues();
  }
}

/**
 * One module's instances: `primary` for calls, spares for calls re-entered
 * while it is busy, a new one after a trap, and (retire) retirement after a
 * call left memory above `retain` (wasm memory cannot shrink: a fresh
 * instance is how a large request gives it back).
 */
export class Pool {
  primary: Instance | undefined;
  private spares: Instance[] = [];
  private module: WebAssembly.Module | undefined;

  /** retire: whether a call may leave a fresh instance behind (not the engine's: the CLI's plan lives in its instance). */
  constructor(readonly what: string, private readonly source: () => WebAssembly.Module, private readonly retire = true) {}

  /** Uses this module from now on (init, or an entry's own bytes); `first`: an instance of it already made. */
  use(module: WebAssembly.Module | undefined, first?: Instance): void {
    this.module = module;
    this.primary = first;
    this.spares.length = 0;
  }

  /** The compiled module in use (compiled now if it was not yet). */
  compiled(): WebAssembly.Module {
    return this.module ??= this.source();
  }

  /** A new instance of the module in use, outside the pool (a recording keeps its index in its own). */
  fresh(): Instance {
    return new Instance(this.compiled(), this.what);
  }

  /** An idle instance, marked busy: the primary, or a spare when the primary is busy. */
  acquire(): Instance {
    let i = this.primary;
    if (i === undefined || i.dead) i = this.primary = this.fresh();
    if (i.busy) {
      i = this.spares.find((s) => !s.busy && !s.dead) ?? this.fresh();
      if (!this.spares.includes(i)) this.spares.push(i);
    }
    i.busy = true;
    return i;
  }

  /** Gives the instance back; drops it if it trapped or holds more than `retain` bytes of memory. */
  release(i: Instance): void {
    i.busy = false;
    // view(): the core's own growth during the call detaches the host's last view (length 0).
    if (!i.dead && !(this.retire && i.view().length > retainBytes)) return;
    if (!i.dead) i.detach();
    if (i === this.primary) this.primary = undefined;
    else this.spares = this.spares.filter((s) => s !== i);
  }

  /** fn on an acquired instance. */
  with<T>(fn: (i: Instance) => T): T {
    const i = this.acquire();
    try {
      return fn(i);
    } finally {
      this.release(i);
    }
  }
}

/** The memory retention of every pool (configure() in the API sets it). */
export let retainBytes = RETAIN_BYTES;

export function setRetain(retain: number): void {
  retainBytes = retain;
}
