/**
 * The wasm instance and the one-call ABI (assembly/entry/fingerprint.ts): request bytes
 * into linear memory, one `run`, digest or text out. Internal.
 * @module
 */
import {
  ABI_ID, FINGERPRINT_VERSION, F_DIGEST, F_KEEP_MASK, F_LIMITS, F_PREIMAGE, F_STRING_INPUT, F_TEXT, F_VALUES, HEADER_BYTES, HEADER_WORDS, RESULT_DIGEST, RESULT_OFFSET, RESULT_TEXT_LEN, RESULT_TEXT_PTR, RETAIN_BYTES, WORD_OUT, W_NO_ROOM, W_TRAP,
} from "./_abi.gen.js";
import { FingerprintError, errorFromCore, setWorder, hostError } from "./errors.js";
import { detachValues, retarget, writeValue } from "./values.js";
import { isWellFormed, writeWtf8 } from "./_wtf8.js";
import { type CoreLimits, NO_LIMIT, NONE, type Told, newTold, setLimitChecker, tell } from "./_limits.js";

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

// The ABI's numbers come from assembly/abi.ts through scripts/gen-abi.mjs.
export { F_DIGEST, F_IGNORE, F_MATCH_ON, F_PREIMAGE, F_STRING_INPUT, F_TEXT, F_VALUES } from "./_abi.gen.js";
const HEADER = HEADER_BYTES;

let exp: Exports | undefined;
let u8: Uint8Array = new Uint8Array(0);
let inPtr = 0;
let inCap = 0;
let resPtr = 0;
/** Set by entries that can compile synchronously (embedded bytes). */
let syncSource: (() => BufferSource) | undefined;

const encoder = new TextEncoder();
// ignoreBOM: a leading U+FEFF (a kind may start with one) is text, not a byte order mark.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

export function setSyncSource(src: () => BufferSource): void {
  syncSource = src;
}

export function isReady(): boolean {
  return exp !== undefined;
}

/** Rebuilds the instance after a trap (a core bug): a fresh one from the same module. */
let rebuild: (() => WebAssembly.Instance) | undefined;

export function useInstance(instance: WebAssembly.Instance, module?: WebAssembly.Module): void {
  if (module) {
    rebuild = () => new WebAssembly.Instance(module, {});
    spares.length = 0; // spares come from the module in use
  }
  const e = instance.exports as unknown as Exports;
  if (e.version() !== FINGERPRINT_VERSION) {
    throw new FingerprintError("invalid-argument", `wasm module has version ${e.version()}, expected ${FINGERPRINT_VERSION}`);
  }
  // The module must speak the ABI these constants were generated from (style anchors §5).
  const id = typeof e.abiId === "function" ? e.abiId() : -1;
  if (id !== ABI_ID) {
    throw new FingerprintError("invalid-argument",
      `wasm module has ABI ${id.toString(16)}, this SDK was generated for ${ABI_ID.toString(16)} (rebuild or reinstall)`);
  }
  exp = e;
  told = newTold(); // a new instance has been told nothing
  resPtr = e.result();
  inPtr = e.reserve(64 * 1024);
  inCap = 64 * 1024;
  u8 = new Uint8Array(0);
  view(e);
}

function ready(): Exports {
  if (exp) return exp;
  if (rebuild) {
    // A retired instance (its memory grew past retainBytes): a fresh one from the kept module.
    useInstance(rebuild());
    return exp!;
  }
  if (!syncSource) {
    throw new FingerprintError("not-initialized",
      "the fingerprint module is not initialized: await init() first (browser/edge entries compile asynchronously)");
  }
  const module = new WebAssembly.Module(syncSource());
  useInstance(new WebAssembly.Instance(module, {}), module);
  return exp!;
}

let hdr: Uint32Array = new Uint32Array(0); // request header at inPtr
let res: Int32Array = new Int32Array(0);  // result block at resPtr
const hexDecoder = new TextDecoder("latin1");

/** The current views of linear memory (memory.grow detaches the old buffer). */
function view(e: Exports): Uint8Array {
  // memory.grow detaches the old ArrayBuffer, which empties every view on it:
  // checking the length avoids the memory.buffer getter on the hot path.
  if (u8.byteLength !== 0) return u8;
  const buf = e.memory.buffer;
  u8 = new Uint8Array(buf);
  hdr = new Uint32Array(buf, inPtr, HEADER_WORDS);
  res = new Int32Array(buf, resPtr, RESULT_DIGEST >> 2);
  return u8;
}

/**
 * Encoded kind/name/key-list literals, by text: tool names repeat, and
 * copying cached bytes is cheaper than encoding each call. Bounded.
 */
const literalCache = new Map<string, Uint8Array>();
const LITERAL_CACHE_MAX = 1024;
const LITERAL_MAX_CHARS = 256;

function wtf8Bytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length * 3);
  return out.slice(0, writeWtf8(s, 0, out, 0));
}

// The literal last copied: calls in a row mostly name the same tool (no Map lookup then).
let lastLiteral = "";
let lastLiteralBytes: Uint8Array = new Uint8Array(0);

function putLiteral(mem: Uint8Array, at: number, s: string): number {
  if (s.length === 0) return 0;
  if (s.length > LITERAL_MAX_CHARS) return put(mem, at, s);
  let b: Uint8Array | undefined;
  if (s === lastLiteral) b = lastLiteralBytes;
  else {
    b = literalCache.get(s);
    if (b === undefined) {
      b = isWellFormed(s) ? encoder.encode(s) : wtf8Bytes(s);
      if (literalCache.size >= LITERAL_CACHE_MAX) literalCache.clear();
      literalCache.set(s, b);
    }
    lastLiteral = s;
    lastLiteralBytes = b;
  }
  const n = b.length;
  if (n <= 32) for (let i = 0; i < n; i++) mem[at + i] = b[i];
  else mem.set(b, at);
  return n;
}

/** Writes s at mem[at..]; returns the byte count. Room for 3 bytes per UTF-16 unit is reserved. */
function put(mem: Uint8Array, at: number, s: string): number {
  if (s.length === 0) return 0;
  if (!isWellFormed(s)) return writeWtf8(s, 0, mem, at) - at;
  return encoder.encodeInto(s, mem.subarray(at, at + s.length * 3)).written;
}

/**
 * Where node:crypto exists (found at run time through
 * process.getBuiltinModule — never imported, so bundles stay free of node:*),
 * preimages are hashed there: same SHA-256, ~6x the wasm's speed on SHA-NI
 * machines. The core still writes every byte of the preimage (flag
 * PREIMAGE); only the hashing moves. Elsewhere (browsers, edge) the core's
 * own SHA-256 streams as it writes. Measured (bench/PROFILE.md): one-shot
 * crypto.hash beats the wasm SHA-256 from 64 B up (772 vs 941 ns), so on
 * Node every digest is hashed there.
 */
type HostHash = (data: Uint8Array) => string;
// Loading node:crypto costs ~5 ms (measured in the runtime matrix's cold
// start): the first calls hash in wasm, unless a preimage is large enough to
// repay the load at once.
const HOST_HASH_AFTER_CALLS = 32;
const HOST_HASH_AT_ONCE_BYTES = 64 * 1024;
// Above this request size the core's own SHA-256 streams as it writes: no
// whole preimage in memory (~0.9× the input less at the peak, issue 15), for
// ~5 ms more per MB of hashing (bench/memory.mjs, bench/PROFILE.md).
const HOST_HASH_MAX_BYTES = 16 * 1024 * 1024;
let callsBeforeProbe = 0;
let hostHash: HostHash | null | undefined;
let hostHashEnabled = true;

function probeHostHash(): HostHash | null {
  try {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const crypto = proc?.getBuiltinModule?.("node:crypto") as
      | { hash?: (alg: string, data: Uint8Array, enc: string) => string; createHash?: (alg: string) => { update(d: Uint8Array): { digest(enc: string): string } } }
      | undefined;
    if (crypto?.hash) { const h = crypto.hash; return (d) => h("sha256", d, "hex"); }
    if (crypto?.createHash) { const c = crypto.createHash; return (d) => c("sha256").update(d).digest("hex"); }
  } catch { /* no host hashing */ }
  return null;
}

/** Whether this runtime offers node:crypto for large preimages. Internal. */
export function hostHashAvailable(): boolean {
  if (hostHash === undefined) hostHash = probeHostHash();
  return hostHash !== null;
}

/** Test hook: force the wasm SHA-256 (false) or allow host hashing (true). Internal. */
export function setHostHashing(enabled: boolean): void {
  hostHashEnabled = enabled;
}

export interface Outcome {
  digest: string;
  text: string;
}

export type { Limits } from "./_limits.js";

/** The byte limit of the call in progress, as the instance answered (assembly/base/limits.ts). */
let maxBytes = Infinity;
/** What the current instance was last told (_limits.ts tell). */
let told: Told = newTold();

/**
 * After a call leaves the instance's memory larger than this, the instance
 * is retired and the next call gets a fresh one from the kept module: wasm
 * memory cannot shrink, so this is how a large request gives it back.
 */
let retainBytes = RETAIN_BYTES;

/** Sets the memory retention (configure() in the API). */
export function setRetain(retain: number): void {
  retainBytes = retain;
}

/** Tells the instance the limits for the call starting (own: the call's, which only tighten). */
function useLimits(e: Exports, own: CoreLimits): void {
  const b = tell(e, own, told);
  maxBytes = b >= NO_LIMIT ? Infinity : b;
}

/**
 * Thrown by growInput when a value's stream is certainly over the byte limit:
 * the request then goes in with a length of limit + 1 and the core refuses it
 * by that length before reading a byte (its one message, assembly/base/limits.ts).
 * The writer asks room for 3 bytes per UTF-16 unit of a string, which it may
 * not use: a stream is written up to 3 × the limit + 64 bytes (an ask past
 * that means more than the limit is written), and the core judges its length.
 */
const OVER = { over: true };

/** Where the stream of a value starting at `start` may end at most (valueCap). */
function valueCap(start: number): number {
  return start + 3 * maxBytes + 64;
}

/**
 * One core call. `kind`, `name`, `matchOn`, `ignoreArgs` are JSON texts
 * (string literal / array of strings, "" when absent); args is JSON text.
 * Throws FingerprintError for every core failure.
 */
export function call(flags: number, kind: string, name: string, matchOn: string, ignoreArgs: string,
  args: string | Uint8Array, limits: CoreLimits = NONE): Outcome {
  if (level !== 0) return nested(() => callText(flags, kind, name, matchOn, ignoreArgs, args, limits));
  level = 1;
  try {
    return callText(flags, kind, name, matchOn, ignoreArgs, args, limits);
  } finally {
    level = 0;
  }
}

function callText(flags: number, kind: string, name: string, matchOn: string, ignoreArgs: string,
  args: string | Uint8Array, limits: CoreLimits): Outcome {
  const e = ready();
  useLimits(e, limits);
  // Longer than the byte limit: only its first limit + 1 units go in, which
  // the core refuses by their length (a UTF-16 unit is one UTF-8 byte or more).
  if (args.length > maxBytes) args = typeof args === "string" ? args.slice(0, maxBytes + 1) : args.subarray(0, maxBytes + 1);
  const argsBound = typeof args === "string" ? args.length * 3 : args.length;
  let at = putLiterals(e, kind, name, matchOn, ignoreArgs, argsBound);
  const mem = u8;
  let argsLen: number;
  if (typeof args === "string") {
    argsLen = put(mem, at, args);
    flags |= F_STRING_INPUT;
  } else {
    mem.set(args, at);
    argsLen = args.length;
  }
  at += argsLen;
  return runRequest(e, flags, argsLen, at);
}

/**
 * One core call with a host value, written as the core's value stream
 * (src/values.ts) straight into linear memory. Throws FingerprintError (with
 * the path) for values D15 rejects, and a user getter's or toJSON's own
 * exception unchanged.
 */
export function callValue(flags: number, kind: string, name: string, matchOn: string, ignoreArgs: string,
  value: unknown, limits: CoreLimits = NONE): Outcome {
  if (level !== 0) return nested(() => callWithValue(flags, kind, name, matchOn, ignoreArgs, value, limits));
  level = 1;
  try {
    return callWithValue(flags, kind, name, matchOn, ignoreArgs, value, limits);
  } finally {
    level = 0;
  }
}

function callWithValue(flags: number, kind: string, name: string, matchOn: string, ignoreArgs: string,
  value: unknown, limits: CoreLimits): Outcome {
  const e = ready();
  useLimits(e, limits);
  if (flags & F_KEEP_MASK) maxBytes = Infinity; // the core checks no limit on a keep-mask's keys (src/select.ts)
  const start = putLiterals(e, kind, name, matchOn, ignoreArgs, 0);
  valueStart = start;
  let end: number;
  try {
    end = writeValue(value, u8, start, Math.min(inPtr + inCap, valueCap(start)), growInput, level > 1);
  } catch (err) {
    if (err !== OVER) throw err;
    end = start + maxBytes + 1;
  }
  return runRequest(e, flags | F_VALUES, end - start, end);
}

/**
 * Core calls in progress: 1 for an ordinary call, more while a toJSON or a
 * getter of a call in progress calls back in (issue 10). A nested call runs
 * on its own instance (one spare per level), so it cannot overwrite the
 * outer call's request, and the outer call's state is restored after it.
 */
let level = 0;
interface Slot {
  exp: Exports | undefined; u8: Uint8Array; hdr: Uint32Array; res: Int32Array; inPtr: number; inCap: number; resPtr: number;
  kindLen: number; nameLen: number; matchLen: number; ignoreLen: number;
  told: Told; valueStart: number; maxBytes: number;
}
const spares: Slot[] = [];

function saveSlot(): Slot {
  return { exp, u8, hdr, res, inPtr, inCap, resPtr, kindLen, nameLen, matchLen, ignoreLen, told, valueStart, maxBytes };
}

function loadSlot(s: Slot): void {
  ({ exp, u8, hdr, res, inPtr, inCap, resPtr, kindLen, nameLen, matchLen, ignoreLen, told, valueStart, maxBytes } = s);
}

function nested<T>(run: () => T): T {
  ready(); // the module of the outer call exists, so rebuild does too
  const outer = saveSlot();
  const l = level++;
  let slot = spares[l - 1];
  try {
    if (slot === undefined || slot.exp === undefined) {
      exp = undefined;
      useInstance(rebuild!());
    } else {
      loadSlot(slot);
    }
    return run();
  } finally {
    slot = saveSlot(); // keeps grown memory, or the rebuilt instance after a trap
    spares[l - 1] = slot;
    level = l;
    loadSlot(outer);
  }
}

/** Where the value stream of the call in progress starts (its byte limit counts from here). */
let valueStart = 0;

/**
 * Runs `walk` as a value walk of its own, for another module's requests (the
 * diagnostics module, src/_diagnostics_wasm.ts): a fingerprint call made from
 * inside its toJSON or getters nests as in callValue. `walk` receives the
 * `nested` argument for writeValue.
 */
export function asValueWalk<T>(walk: (nested: boolean) => T): T {
  const outer = level;
  level = outer + 1;
  try {
    return walk(outer !== 0);
  } finally {
    level = outer;
  }
}

/** Makes the input region hold `need` (an absolute address) while a value is being written. */
function growInput(need: number): void {
  const e = exp!;
  const most = valueCap(valueStart);
  if (need > most) throw OVER;
  const want = Math.min(Math.max(2 * (need - inPtr), need - inPtr + 1024), most - inPtr + 1024);
  if (e.reserve(want) === 0) throw hostError(W_NO_ROOM, [want]);
  inCap = want;
  retarget(view(e), Math.min(inPtr + inCap, most));
}

// Lengths of the literal parts of the request being built (set by putLiterals).
let kindLen = 0, nameLen = 0, matchLen = 0, ignoreLen = 0;

/** Makes room and writes kind, name and key lists after the header; returns where args go. */
function putLiterals(e: Exports, kind: string, name: string, matchOn: string, ignoreArgs: string, argsBound: number): number {
  const bound = HEADER + 3 * (kind.length + name.length + matchOn.length + ignoreArgs.length) + argsBound + 64;
  if (bound > inCap) {
    const p = e.reserve(bound);
    if (p === 0) throw hostError(W_NO_ROOM, [bound]);
    inCap = bound;
  }
  const mem = view(e);
  let at = inPtr + HEADER;
  kindLen = putLiteral(mem, at, kind); at += kindLen;
  nameLen = putLiteral(mem, at, name); at += nameLen;
  matchLen = putLiteral(mem, at, matchOn); at += matchLen;
  ignoreLen = putLiteral(mem, at, ignoreArgs); at += ignoreLen;
  return at;
}

/** Fills the header, runs the core once, and turns the result block into an Outcome. */
function runRequest(e: Exports, flags: number, argsLen: number, end: number): Outcome {
  const h = hdr;
  h[0] = flags; h[1] = kindLen; h[2] = nameLen; h[3] = matchLen; h[4] = ignoreLen; h[5] = argsLen;
  let host: HostHash | null = null;
  // Host hashing needs the preimage as the returned text, so not when the caller wants the canonical text.
  if ((flags & F_DIGEST) && !(flags & F_TEXT) && hostHashEnabled && end - inPtr <= HOST_HASH_MAX_BYTES) {
    if (hostHash === undefined && (++callsBeforeProbe > HOST_HASH_AFTER_CALLS || end - inPtr >= HOST_HASH_AT_ONCE_BYTES)) {
      hostHash = probeHostHash();
    }
    if (hostHash) {
      host = hostHash;
      h[0] = (flags & ~F_DIGEST) | F_PREIMAGE;
    }
  }
  let status: number;
  try {
    status = e.run(end - inPtr);
  } catch (err) {
    // A trap is a core bug, never the caller's: report it as ours, and do
    // not reuse an instance whose state is now unknown (D19).
    exp = undefined;
    if (rebuild) useInstance(rebuild());
    throw hostError(W_TRAP, ["fingerprint", (err as Error)?.message ?? String(err)]);
  }
  const out = view(e);
  if (status !== 0) {
    const err = coreError(out, status);
    retireIfLarge(out);
    throw err;
  }
  let digest = "";
  // Text pointer and length are u32 in the block: read them unsigned.
  if (host) {
    const p = res[RESULT_TEXT_PTR >> 2] >>> 0;
    digest = host(out.subarray(p, p + (res[RESULT_TEXT_LEN >> 2] >>> 0)));
  } else if (flags & F_DIGEST) {
    digest = hexDecoder.decode(out.subarray(resPtr + RESULT_DIGEST, resPtr + RESULT_DIGEST + 64));
  }
  let text = "";
  if (flags & (F_TEXT | F_PREIMAGE)) {
    const p = res[RESULT_TEXT_PTR >> 2] >>> 0;
    text = decoder.decode(out.subarray(p, p + (res[RESULT_TEXT_LEN >> 2] >>> 0)));
  }
  retireIfLarge(out);
  return { digest, text };
}

/** Retires the instance when the call left its memory above retainBytes (the next call gets a fresh one). */
function retireIfLarge(mem: Uint8Array): void {
  if (mem.byteLength > retainBytes && rebuild) {
    // Drop every view of the old memory too, or it stays reachable.
    exp = undefined;
    u8 = new Uint8Array(0);
    hdr = new Uint32Array(0);
    res = new Int32Array(0);
    detachValues();
  }
}

/** Linear memory of the current instance, in bytes (0 when none is live). Internal (tests, benchmarks). */
export function memoryBytes(): number {
  return exp ? exp.memory.buffer.byteLength : 0;
}

/**
 * The message of an error this host raises itself, from the core (its
 * `word` export, which touches only its own buffer: safe in the middle of a
 * request being written). Parameters past the buffer's room are cut.
 */
function word(id: number, params: readonly string[]): string {
  let e: Exports;
  try { e = exp ?? ready(); } catch (err) {
    if (err instanceof FingerprintError) throw err; // not initialized: the caller learns that first
    return `error ${id}: ${params.join("; ")}`; // the module failed to load: no words to ask for
  }
  const b = encoder.encode(params.join("\0")).subarray(0, WORD_OUT), at = e.wordBuf();
  new Uint8Array(e.memory.buffer).set(b, at);
  return decoder.decode(new Uint8Array(e.memory.buffer, at + WORD_OUT, e.word(id, b.length)));
}
setWorder(word);

/**
 * A limits argument, checked by the core (abi.ts F_LIMITS): [which were
 * given, bytes, depth, members]. Not under the limits themselves, so it
 * skips callText's cut at the byte limit.
 */
function limitArgs(members: string): readonly number[] {
  const go = (): readonly number[] => {
    const e = ready();
    const at = putLiterals(e, "", "", "", "", members.length * 3);
    const n = put(u8, at, members);
    runRequest(e, F_LIMITS | F_STRING_INPUT, n, at + n);
    return [...new Uint32Array(e.memory.buffer, resPtr + RESULT_DIGEST, 4)];
  };
  if (level !== 0) return nested(go);
  level = 1;
  try {
    return go();
  } finally {
    level = 0;
  }
}
setLimitChecker(limitArgs);

/** The failed request's FingerprintError, its message the core's, whole (assembly/base/words.ts). */
function coreError(mem: Uint8Array, status: number): FingerprintError {
  const r = res;
  const p = r[RESULT_TEXT_PTR >> 2] >>> 0, n = r[RESULT_TEXT_LEN >> 2] >>> 0;
  return errorFromCore(status, r[RESULT_OFFSET >> 2], decoder.decode(mem.subarray(p, p + n)));
}

// ---- Batches (issue 13, src/_batch.ts): this module as a batch target.

/** What a batch needs of a module instance (this one, or the diagnostics module's). */
export interface BatchTarget {
  e: Exports;
  inPtr: number;
  /** Makes the input region hold n bytes; the current view of memory. */
  reserve(n: number): Uint8Array;
  view(): Uint8Array;
  /** Writes `value` as a value stream at `start` (one item); returns its end. */
  putValue(value: unknown, start: number): number;
  /** The FingerprintError in the result block (a failed item). */
  error(): FingerprintError;
  /** The result block's status (0 after a batch stopped for room, abi.ts). */
  status(): number;
  /** Drops the instance after a trap (its state is not trusted, D19). */
  trapped(): void;
}

/**
 * Runs `work` as one core call on this module, the limits sent to the
 * instance (from inside a toJSON or getter of a call in progress it gets an
 * instance of its own, as a nested call does).
 */
export function asBatch<T>(limits: CoreLimits, work: (t: BatchTarget) => T): T {
  const go = (): T => {
    const e = ready();
    useLimits(e, limits);
    try {
      return work(target);
    } finally {
      if (exp) retireIfLarge(view(exp));
    }
  };
  if (level !== 0) return nested(go);
  level = 1;
  try {
    return go();
  } finally {
    level = 0;
  }
}

const target: BatchTarget = {
  get e() { return exp!; },
  get inPtr() { return inPtr; },
  reserve(n: number): Uint8Array {
    const e = exp!;
    if (n > inCap) {
      if (e.reserve(n) === 0) throw hostError(W_NO_ROOM, [n]);
      inCap = n;
    }
    return view(e);
  },
  view: () => view(exp!),
  putValue(value: unknown, start: number): number {
    valueStart = start;
    const saved = maxBytes;
    maxBytes = Infinity; // a batch item goes in whole: the core refuses one over the limit by its length
    try {
      return writeValue(value, view(exp!), start, inPtr + inCap, growInput, level > 1);
    } finally {
      maxBytes = saved;
    }
  },
  error: () => coreError(view(exp!), res[0]),
  status: () => (view(exp!), res[0]),
  trapped() {
    exp = undefined;
    if (rebuild) useInstance(rebuild());
  },
};

/**
 * node:crypto's one-shot SHA-256 for batches (src/_batch.ts), or null where
 * there is none or the tests turned host hashing off: the core then hashes.
 */
export function batchHostHash(): HostHash | null {
  if (!hostHashEnabled) return null;
  if (hostHash === undefined) hostHash = probeHostHash();
  return hostHash;
}
