/**
 * The diagnostics module (build/diagnostics.wasm, entry assembly/diagnostics.ts):
 * the fingerprint module's ABI plus calls (F_CALL, assembly/call.ts) and
 * explanation records (F_EXPLAIN, assembly/explain.ts). Transport only: a
 * call goes in as a recording line's JSON text or as a host object through
 * the value stream (src/values.ts); the core's record and digest come out.
 * Two canonical texts go in for their diff (F_DIFF, assembly/diff.ts).
 * Compiled on first use from the embedded bytes, so the fingerprint path
 * never pays for it (README, "How it is built"). Internal.
 * @module
 */
import {
  ABI_ID, F_CALL, F_CLI, F_DIFF, F_DIGEST, F_EXPLAIN, F_NTH_CALL, F_STRING_INPUT, F_VALUES, FINGERPRINT_VERSION, HEADER_BYTES, HEADER_WORDS,
  RESULT_DIGEST, RESULT_OFFSET, RESULT_PART, RESULT_STATUS, RESULT_TEXT_LEN, RESULT_TEXT_PTR,
} from "./_abi.gen.js";
import { isWellFormed, writeWtf8 } from "./_wtf8.js";
import { FingerprintError, errorFromCore } from "./errors.js";
import { asValueWalk, type BatchTarget, type Exports as CoreExports } from "./core.js";
import { retarget, writeValue } from "./values.js";

type Exports = CoreExports & { abiId(): number };

/** The core's explanation record (assembly/explain.ts). */
export interface CallRecord {
  kind: string;
  name: string;
  matchOn?: string[];
  ignoreArgs?: string[];
  /** The call's own "fingerprint" member, when it has one. */
  recorded?: string;
  selected: { kept: string[]; dropped: string[]; missing: string[] };
  canonical: string;
  preimage: string;
}

export interface Explained {
  record: CallRecord;
  digest: string;
  /** With F_NTH_CALL: how many calls the message holds. */
  count?: number;
}

let source: (() => BufferSource | WebAssembly.Module) | undefined;
let exp: Exports | undefined;
let inPtr = 0;
let inCap = 0;

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** Set by the entries: where the diagnostics module's bytes (or module) come from. */
export function setDiagnosticsSource(src: () => BufferSource | WebAssembly.Module): void {
  source = src;
  exp = undefined;
}

function ready(): Exports {
  if (exp) return exp;
  if (!source) {
    throw new FingerprintError("not-initialized",
      "the diagnostics module (diagnostics.wasm) is not available in this entry");
  }
  const src = source();
  const module = src instanceof WebAssembly.Module ? src : new WebAssembly.Module(src);
  const e = new WebAssembly.Instance(module, {}).exports as unknown as Exports;
  if (e.version() !== FINGERPRINT_VERSION || e.abiId() !== ABI_ID) {
    throw new FingerprintError("invalid-argument",
      `diagnostics.wasm has version ${e.version()} / ABI ${e.abiId().toString(16)}, expected ${FINGERPRINT_VERSION} / ${ABI_ID.toString(16)}`);
  }
  inCap = 64 * 1024;
  inPtr = e.reserve(inCap);
  exp = e;
  return e;
}

function room(e: Exports, n: number): void {
  if (n <= inCap) return;
  if (e.reserve(n) === 0) throw new FingerprintError("out-of-memory", `a call of ${n} bytes does not fit in wasm memory`);
  inCap = n;
}

/** Explains a call given as JSON text (a recording line); the core reads it (no JSON.parse here). */
export function explainCallText(text: string | Uint8Array, index = -1): Explained {
  const e = ready();
  const flags = F_CALL | F_EXPLAIN | F_DIGEST | writeCallText(e, text, 0);
  return runCall(e, flags, new Uint32Array(e.memory.buffer, inPtr, HEADER_WORDS)[5], index);
}

/**
 * The bytes a CLI prints for one recording line (assembly/cli/line.ts):
 * `formatter` ("fingerprint", "fingerprint-json") of the call the core reads
 * from `text`, found at `file`:`line`. Throws FingerprintError for a bad line.
 */
export function cliLine(formatter: string, file: string, line: number, text: string): string {
  const e = ready();
  const enc = new TextEncoder();
  const head = [formatter, file, String(line)].map((s) => enc.encode(s));
  const headLen = head.reduce((n, p) => n + p.length, 0);
  const flags = F_CALL | F_CLI | F_DIGEST | writeCallText(e, text, headLen);
  const mem = new Uint8Array(e.memory.buffer);
  let at = inPtr + HEADER_BYTES;
  for (const p of head) { mem.set(p, at); at += p.length; }
  const words = new Uint32Array(e.memory.buffer, inPtr, HEADER_WORDS);
  words.set([flags, head[0].length, head[1].length, head[2].length, 0]);
  return runText(e, HEADER_BYTES + headLen + words[5]);
}

/**
 * Writes a call's JSON text after the header and `skip` bytes of parts; sets
 * header word 5 (its length). Returns F_STRING_INPUT for a string.
 */
function writeCallText(e: Exports, text: string | Uint8Array, skip: number): number {
  let n: number;
  let flags = 0;
  if (typeof text === "string") {
    room(e, HEADER_BYTES + skip + text.length * 3);
    const mem = new Uint8Array(e.memory.buffer);
    const at = inPtr + HEADER_BYTES + skip;
    n = isWellFormed(text)
      ? new TextEncoder().encodeInto(text, mem.subarray(at, at + text.length * 3)).written
      : writeWtf8(text, 0, mem, at) - at;
    flags |= F_STRING_INPUT;
  } else {
    room(e, HEADER_BYTES + skip + text.length);
    new Uint8Array(e.memory.buffer).set(text, inPtr + HEADER_BYTES + skip);
    n = text.length;
  }
  new Uint32Array(e.memory.buffer, inPtr, HEADER_WORDS)[5] = n;
  return flags;
}

/** Explains a call given as a host object, written as the core's value stream (src/values.ts). */
export function explainCallValue(call: object, index = -1): Explained {
  const e = ready();
  const start = inPtr + HEADER_BYTES;
  const grow = (need: number) => {
    room(e, Math.max(2 * (need - inPtr), need - inPtr + 1024));
    retarget(new Uint8Array(e.memory.buffer), inPtr + inCap);
  };
  const end = asValueWalk((nested) => writeValue(call, new Uint8Array(e.memory.buffer), start, inPtr + inCap, grow, nested));
  return runCall(e, F_CALL | F_EXPLAIN | F_DIGEST | F_VALUES, end - start, index);
}

/**
 * Every call of a message holding several (a Chat Completions message or
 * response, an Anthropic message, a Responses output; a single call is one),
 * in order: the core picks call number i (F_NTH_CALL) and says how many
 * there are. A message with no calls gives [].
 */
export function explainCalls(message: string | Uint8Array | object): Explained[] {
  const one = (i: number) => (typeof message === "string" || message instanceof Uint8Array
    ? explainCallText(message, i) : explainCallValue(message, i));
  const out: Explained[] = [];
  for (let i = 0, count = 1; i < count; i++) {
    let x: Explained;
    try {
      x = one(i);
    } catch (err) {
      if (err instanceof FingerprintError && err.code === "no-calls" && i === 0) return out;
      throw err;
    }
    count = x.count ?? 1;
    out.push(x);
  }
  return out;
}

function runCall(e: Exports, flags: number, argsLen: number, index: number): Explained {
  const nth = index >= 0;
  // F_NTH_CALL: the kind part is 4 bytes, the index; the call follows it.
  if (nth) {
    room(e, HEADER_BYTES + 4 + argsLen);
    const mem = new Uint8Array(e.memory.buffer);
    mem.copyWithin(inPtr + HEADER_BYTES + 4, inPtr + HEADER_BYTES, inPtr + HEADER_BYTES + argsLen);
    new DataView(e.memory.buffer).setUint32(inPtr + HEADER_BYTES, index, true);
  }
  new Uint32Array(e.memory.buffer, inPtr, HEADER_WORDS).set([nth ? flags | F_NTH_CALL : flags, nth ? 4 : 0, 0, 0, 0, argsLen]);
  const text = runText(e, HEADER_BYTES + (nth ? 4 : 0) + argsLen);
  const digest = decoder.decode(new Uint8Array(e.memory.buffer, e.result() + RESULT_DIGEST, 64));
  const out: Explained = { record: JSON.parse(text) as CallRecord, digest };
  if (nth) out.count = new Int32Array(e.memory.buffer, e.result() + RESULT_OFFSET, 1)[0];
  return out;
}

/** One change of a diff (assembly/diff.ts). */
export interface CoreChange {
  path: string;
  kind: "added" | "removed" | "changed";
  before: string | null;
  after: string | null;
}

/** The core's diff of two canonical texts (linear at any depth). */
export function diffTexts(a: string, b: string): CoreChange[] {
  const e = ready();
  room(e, HEADER_BYTES + 3 * (a.length + b.length));
  const mem = new Uint8Array(e.memory.buffer);
  const enc = new TextEncoder();
  let at = inPtr + HEADER_BYTES;
  // Canonical texts are well-formed (lone surrogates are escaped, D6).
  const na = enc.encodeInto(a, mem.subarray(at, at + 3 * a.length)).written;
  at += na;
  const nb = enc.encodeInto(b, mem.subarray(at, at + 3 * b.length)).written;
  new Uint32Array(e.memory.buffer, inPtr, HEADER_WORDS).set([F_DIFF, na, nb, 0, 0, 0]);
  return JSON.parse(runText(e, HEADER_BYTES + na + nb)) as CoreChange[];
}

/**
 * The bytes a CLI prints, made by the core's formatter (assembly/cli/out.ts):
 * `formatter` ("help", "version"), its operand, the program name and package
 * version. Throws FingerprintError "bad-request" for an unknown formatter or topic.
 */
export function cliText(formatter: string, operand: string, prog: string, pkg: string): string {
  const e = ready();
  const parts = [formatter, operand, prog, pkg].map((s) => new TextEncoder().encode(s));
  const len = parts.reduce((n, p) => n + p.length, 0);
  room(e, HEADER_BYTES + len);
  const mem = new Uint8Array(e.memory.buffer);
  let at = inPtr + HEADER_BYTES;
  for (const p of parts) { mem.set(p, at); at += p.length; }
  new Uint32Array(e.memory.buffer, inPtr, HEADER_WORDS).set([F_CLI, ...parts.map((p) => p.length), 0]);
  return runText(e, HEADER_BYTES + len);
}

function runText(e: Exports, len: number): string {
  let status: number;
  try {
    status = e.run(len);
  } catch (err) {
    exp = undefined;
    throw new FingerprintError("internal-error", `the diagnostics core failed: ${(err as Error)?.message ?? String(err)}`);
  }
  const buf = e.memory.buffer;
  const res = new Int32Array(buf, e.result(), RESULT_DIGEST >> 2);
  const text = decoder.decode(new Uint8Array(buf, res[RESULT_TEXT_PTR >> 2] >>> 0, res[RESULT_TEXT_LEN >> 2] >>> 0));
  if (status !== 0) throw errorFromCore(res[RESULT_STATUS >> 2], res[RESULT_OFFSET >> 2], res[RESULT_PART >> 2], text);
  return text;
}

/**
 * The diagnostics module as a batch target (src/_batch.ts, issue 13): whole
 * calls go through its runBatch, so the call model is read by the core.
 */
export function diagnosticsBatchTarget(): BatchTarget {
  const e = ready();
  const view = () => new Uint8Array(e.memory.buffer);
  return {
    e, inPtr,
    reserve(n: number) { room(e, n); return view(); },
    view,
    putValue(value: unknown, start: number) {
      const grow = (need: number) => {
        room(e, Math.max(2 * (need - inPtr), need - inPtr + 1024));
        retarget(view(), inPtr + inCap);
      };
      return asValueWalk((nested) => writeValue(value, view(), start, inPtr + inCap, grow, nested));
    },
    error() {
      const buf = e.memory.buffer;
      const res = new Int32Array(buf, e.result(), RESULT_DIGEST >> 2);
      const text = decoder.decode(new Uint8Array(buf, res[RESULT_TEXT_PTR >> 2] >>> 0, res[RESULT_TEXT_LEN >> 2] >>> 0));
      return errorFromCore(res[RESULT_STATUS >> 2], res[RESULT_OFFSET >> 2], res[RESULT_PART >> 2], text);
    },
    status: () => new Int32Array(e.memory.buffer, e.result(), 1)[0],
    trapped() { exp = undefined; },
  };
}
