/**
 * The fingerprint module and the one-call ABI (assembly/entry/fingerprint.ts):
 * request bytes into linear memory, one `run`, digest or text out, on an
 * instance of its pool (src/_instance.ts). Internal.
 * @module
 */
import {
  F_DIGEST, F_PATH, F_PREIMAGE, F_STRING_INPUT, F_TEXT, F_VALUES, HEADER_BYTES,
} from "./_abi.gen.js";
import { FingerprintError, setWorder } from "./errors.js";
import { type CoreLimits, NONE, setLimitChecker } from "./_limits.js";
import { Instance, OVER, Pool } from "./_instance.js";

export { retainBytes, setRetain } from "./_instance.js";

/** Set by entries that can compile synchronously (embedded bytes). */
let syncSource: (() => BufferSource) | undefined;

const pool = new Pool("fingerprint", () => {
  if (!syncSource) {
    throw new FingerprintError("not-initialized",
      "the fingerprint module is not initialized: await init() first (browser/edge entries compile asynchronously)");
  }
  return new WebAssembly.Module(syncSource());
});

export function setSyncSource(src: () => BufferSource): void {
  syncSource = src;
}

/** fn on an instance of the fingerprint module held for it (a spare when a call re-entered from user code finds it busy). */
export function withFingerprint<T>(fn: (i: Instance) => T): T {
  return pool.with(fn);
}

export function isReady(): boolean {
  return pool.primary !== undefined;
}

/** Uses this instance (and, given, its module for every later one: spares, after a trap or retirement). */
export function useInstance(instance: WebAssembly.Instance, module?: WebAssembly.Module): void {
  pool.use(module, new Instance(instance, "fingerprint"));
}

// The literal last written in each header slot, as bytes: calls in a row mostly name the same tool,
// kind and key lists (a copy, no encoding).
const lastLiteral = ["", "", "", "", ""];
const lastLiteralBytes = lastLiteral.map(() => new Uint8Array(0));

function putLiteral(i: Instance, mem: Uint8Array, at: number, s: string, slot: number): number {
  if (s.length === 0) return 0;
  if (s !== lastLiteral[slot]) {
    const n = i.put(at, s);
    if (n <= 256) {
      lastLiteral[slot] = s;
      lastLiteralBytes[slot] = mem.slice(at, at + n);
    }
    return n;
  }
  const b = lastLiteralBytes[slot];
  const n = b.length;
  if (n > 32) mem.set(b, at);
  else for (let k = 0; k < n; k++) mem[at + k] = b[k];
  return n;
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
// whole preimage in memory (~0.9× the input less at the peak), for
// ~5 ms more per MB of hashing (bench/memory.mjs, bench/PROFILE.md).
const HOST_HASH_MAX_BYTES = 16 * 1024 * 1024;
let callsBeforeProbe = 0;
let hostHash: HostHash | null | undefined;
let hostHashEnabled = true;

function probeHostHash(): HostHash | null {
  try {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const c = proc?.getBuiltinModule?.("node:crypto") as NodeCrypto | undefined;
    const h = c?.hash;
    if (h) return (d) => h("sha256", d, "hex");
    if (c?.createHash) return (d) => c.createHash!("sha256").update(d).digest("hex");
  } catch { /* no host hashing */ }
  return null;
}

type NodeCrypto = {
  hash?: (alg: string, data: Uint8Array, enc: string) => string;
  createHash?: (alg: string) => { update(d: Uint8Array): { digest(enc: string): string } };
};

/** Whether this runtime offers node:crypto for large preimages. Internal. */
export function hostHashAvailable(): boolean {
  return (hostHash ??= probeHostHash()) !== null;
}

/** Test hook: force the wasm SHA-256 (false) or allow host hashing (true). Internal. */
export function setHostHashing(enabled: boolean): void {
  hostHashEnabled = enabled;
}

/** node:crypto for a preimage of len bytes, probed for after the first calls or at once for a large one. */
function hostHasher(len: number): HostHash | null {
  if (!hostHashEnabled || len > HOST_HASH_MAX_BYTES) return null;
  if (hostHash === undefined && (++callsBeforeProbe > HOST_HASH_AFTER_CALLS || len >= HOST_HASH_AT_ONCE_BYTES)) {
    hostHash = probeHostHash();
  }
  return hostHash ?? null;
}

/**
 * One core call on JSON text. `kind`, `name`, `matchOn`, `ignoreArgs` are
 * JSON texts (string literal / array of strings, "" when absent). Returns the
 * digest (F_DIGEST) or the text; throws FingerprintError for every core failure.
 * The text and value paths are two functions so that each keeps its own
 * (monomorphic) type feedback: an app calling both ran the value path at
 * ~0.8x its speed through one shared function (measured in V8).
 */
export function callText(flags: number, kind: string, name: string, matchOn: string, ignoreArgs: string,
  text: string | Uint8Array, limits: CoreLimits = NONE): string {
  const i = pool.acquire();
  try {
    const maxBytes = i.limits(limits);
    // Longer than the byte limit: only its first limit + 1 units go in, which
    // the core refuses by their length (a UTF-16 unit is one UTF-8 byte or more).
    if (text.length > maxBytes) text = typeof text === "string" ? text.slice(0, maxBytes + 1) : text.subarray(0, maxBytes + 1);
    const string = typeof text === "string";
    const at = putLiterals(i, kind, name, matchOn, ignoreArgs, string ? 3 * text.length : text.length);
    const len = i.put(at, text);
    return runRequest(i, string ? flags | F_STRING_INPUT : flags, len, at + len);
  } finally {
    pool.release(i);
  }
}

/**
 * One core call on a host value, written as the core's value stream
 * (src/values.ts) straight into linear memory (flags: F_DIGEST or F_TEXT).
 * Throws FingerprintError for every core failure (with the path for values
 * D15 rejects), and a user getter's or toJSON's own exception unchanged. A
 * call made from inside such a getter finds this instance busy and runs on a
 * spare (src/_instance.ts).
 */
export function callValue(flags: number, kind: string, name: string, value: unknown, limits: CoreLimits = NONE): string {
  const i = pool.acquire();
  try {
    const maxBytes = i.limits(limits);
    const start = putLiterals(i, kind, name, "", "", 0);
    let end: number;
    try {
      // The writer asks room for 3 bytes per UTF-16 unit of a string, which it
      // may not use: a stream is written up to 3 × the limit + 64 bytes (an ask
      // past that means more than the limit is written), and the core judges its length.
      end = i.putValue(value, start, start + 3 * maxBytes + 64);
    } catch (err) {
      if (err !== OVER) throw err;
      // Certainly over the byte limit: the request goes in with a length of
      // limit + 1 and the core refuses it by that length before reading a byte.
      end = start + maxBytes + 1;
    }
    return runRequest(i, flags | F_VALUES, end - start, end);
  } finally {
    pool.release(i);
  }
}

/**
 * Makes room and writes kind, name and key lists (and their lengths in the header); returns where args go.
 * The common request (a name, nothing else) finds them in place when the instance's last one had the same
 * name (Instance.head): the core never writes into a request, so only the args, flags and length change
 * (~3–5% of a small call).
 */
function putLiterals(i: Instance, kind: string, name: string, matchOn: string, ignoreArgs: string, argsBound: number): number {
  const plain = kind === "" && matchOn === "" && ignoreArgs === "";
  if (plain && i.head === name) {
    i.reserve(i.headEnd - i.inPtr + argsBound + 64);
    return i.headEnd;
  }
  const mem = i.reserve(HEADER_BYTES + 3 * (kind.length + name.length + matchOn.length + ignoreArgs.length) + argsBound + 64);
  // Written now, before a value walk may grow memory (which keeps what is written).
  const h = i.hdr;
  let at = i.inPtr + HEADER_BYTES;
  at += h[1] = putLiteral(i, mem, at, kind, 1);
  at += h[2] = putLiteral(i, mem, at, name, 2);
  at += h[3] = putLiteral(i, mem, at, matchOn, 3);
  at += h[4] = putLiteral(i, mem, at, ignoreArgs, 4);
  i.head = plain ? name : null;
  i.headEnd = at;
  return at;
}

/** Fills the header's flags and args length, runs the core once; the digest (F_DIGEST) or the text. */
function runRequest(i: Instance, flags: number, argsLen: number, end: number): string {
  const h = (i.view(), i.hdr); // a value walk may have grown memory: the header's view anew
  const len = end - i.inPtr;
  // Host hashing needs the preimage as the returned text, so not when the caller wants the canonical text.
  const host = flags & F_DIGEST && !(flags & F_TEXT) ? hostHasher(len) : null;
  h[0] = host ? (flags & ~F_DIGEST) | F_PREIMAGE : flags;
  h[5] = argsLen;
  if (i.run(len) !== 0) throw i.error();
  if (host) return host(i.textBytes());
  return flags & F_DIGEST ? i.digest() : i.text();
}

/** The message of an error this host raises itself, from the core (Instance.word: safe mid-request). */
function word(id: number, params: readonly string[]): string {
  const p = pool.primary;
  try {
    return p !== undefined && !p.dead ? p.word(id, params) : pool.with((i) => i.word(id, params));
  } catch (err) {
    if (err instanceof FingerprintError) throw err; // not initialized: the caller learns that first
    return `error ${id}: ${params.join("; ")}`; // the module failed to load: no words to ask for
  }
}
setWorder(word, (at) => callText(F_PATH | F_TEXT, "", "", "", "", at));

/**
 * A limits argument, checked by the core (abi.ts F_LIMITS): [which were
 * given, bytes, depth, members]. Not under the limits themselves, so it
 * skips call's cut at the byte limit.
 */
function limitArgs(members: string): readonly number[] {
  return pool.with((i) => Object.values(i.request("limits", { args: members }, F_STRING_INPUT)));
}
setLimitChecker(limitArgs);

// ---- Batches (src/_batch.ts): this module as a batch target.

/** What a batch runs on: an instance of this module or of the engine (src/_instance.ts). */
export type BatchTarget = Instance;

/**
 * Runs `work` as one core call on this module, the limits sent to the
 * instance (from inside a toJSON or getter of a call in progress it gets a
 * spare instance, as a nested call does).
 */
export function asBatch<T>(limits: CoreLimits, work: (t: BatchTarget) => T): T {
  return pool.with((i) => {
    i.limits(limits);
    return work(i);
  });
}

/**
 * node:crypto's one-shot SHA-256 for batches (src/_batch.ts), or null where
 * there is none or the tests turned host hashing off: the core then hashes.
 */
export function batchHostHash(): HostHash | null {
  return hostHashEnabled ? (hostHash ??= probeHostHash()) : null;
}
