/**
 * The diagnostics module (build/diagnostics.wasm, entry assembly/entry/engine.ts):
 * the fingerprint module's ABI plus calls (F_CALL, assembly/pipeline/call.ts) and
 * explanation records (F_EXPLAIN, assembly/pipeline/explain.ts). Transport only: a
 * call goes in as a recording line's JSON text or as a host object through
 * the value stream (src/values.ts); the core's record and digest come out.
 * Two calls or Explanations go in for their diff, a recording's calls one by
 * one for the nearest (F_DIFF, assembly/ops/compare.ts).
 * Compiled on first use from the embedded bytes, so the fingerprint path
 * never pays for it (README, "How it is built"). Internal.
 * @module
 */
import {
  ABI_ID, ALL_CALLS, D_DIFF, D_NEAR_START, D_NEAR_STEP, DIFF_KIND_BYTES, NEAR_COUNTER_BYTES, NEAR_NAME_ONLY, F_CALL, F_CLI, F_DIFF, F_DIGEST, F_EXPLAIN, F_NTH_CALL, F_STRING_INPUT, F_TOOLS, F_VALUES, FINGERPRINT_VERSION, HEADER_BYTES, HEADER_WORDS,
  RESULT_BYTES, RESULT_CLI_CODE, RESULT_CLI_ERR, RESULT_CLI_LINES, RESULT_CLI_OUT, RESULT_CLI_STATE,
  RESULT_DIGEST, RESULT_OFFSET, RESULT_STATUS, RESULT_TEXT_LEN, RESULT_TEXT_PTR, W_NO_ROOM, W_TRAP,
} from "./_abi.gen.js";
import { isWellFormed, writeWtf8 } from "./_wtf8.js";
import { FingerprintError, errorFromCore, hostError } from "./errors.js";
import { asValueWalk, type BatchTarget, type Exports as CoreExports } from "./core.js";
import { retarget, writeValue } from "./values.js";
import { isModule } from "./_is_module.js";
import { type CoreLimits, NONE, tell } from "./_limits.js";
import { KEEP_MASK } from "./select.js";
import type { Explanation } from "./diagnostics.js";

export type Exports = CoreExports & { abiId(): number };

/** A call's Explanation as the core writes it (assembly/pipeline/explain.ts), and its digest. */
export interface Explained {
  record: Explanation;
  digest: string;
}

let source: (() => BufferSource | WebAssembly.Module) | undefined;
let compiled: WebAssembly.Module | undefined;
let exp: Exports | undefined;
let inPtr = 0;
let inCap = 0;

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** A call holds the shared instance (between writing its request and reading its result). */
let busy = false;

/**
 * Runs fn on the shared instance; called back from user code while another
 * call holds it (a getter, toJSON or Proxy read during a value walk), on a
 * temporary instance of its own, so that a nested call never writes over the
 * request, or reads the result, of the call it interrupted (Python: _acquire).
 */
export function exclusive<T>(fn: () => T): T {
  if (!busy) {
    busy = true;
    try {
      return fn();
    } finally {
      busy = false;
    }
  }
  const saved = { e: exp, ptr: inPtr, cap: inCap };
  exp = undefined; // ready() instantiates the compiled module afresh
  try {
    return fn();
  } finally {
    exp = saved.e;
    inPtr = saved.ptr;
    inCap = saved.cap;
  }
}

/** Set by the entries (or initDiagnostics): where the diagnostics module's bytes (or module) come from. */
export function setDiagnosticsSource(src: (() => BufferSource | WebAssembly.Module) | undefined): void {
  source = src;
  compiled = undefined;
  exp = undefined;
}

/** Whether explain/diff/nearest can run synchronously now (a source is set). */
export function hasDiagnosticsSource(): boolean {
  return source !== undefined;
}

/**
 * Instantiates the module now and reads one call with it, so a wrong source
 * (e.g. fingerprint.wasm, which shares the ABI but reads no calls) fails in
 * initDiagnostics() rather than in a later explain().
 */
export function loadDiagnostics(): void {
  try {
    explainCallText('{"name":"probe","args":{}}');
  } catch (err) {
    exp = undefined;
    throw err instanceof FingerprintError && err.code !== "invalid-argument"
      ? new FingerprintError("invalid-argument", `this module is not diagnostics.wasm (it answered: ${err.message})`)
      : err;
  }
}

/** A fresh instance of the diagnostics module (a recording keeps its index in its own: src/_replay_wasm.ts). */
export function newDiagnosticsInstance(): Exports {
  if (!source) {
    throw new FingerprintError("not-initialized",
      "the diagnostics module is not loaded in this entry: `await initDiagnostics()` first " +
      "(it fetches diagnostics.wasm beside the entry, or takes the module or bytes)");
  }
  if (!compiled) {
    const src = source();
    compiled = isModule(src) ? src : new WebAssembly.Module(src);
  }
  const e = new WebAssembly.Instance(compiled, {}).exports as unknown as Exports;
  if (e.version() !== FINGERPRINT_VERSION || e.abiId() !== ABI_ID) {
    throw new FingerprintError("invalid-argument",
      `diagnostics.wasm has version ${e.version()} / ABI ${e.abiId().toString(16)}, expected ${FINGERPRINT_VERSION} / ${ABI_ID.toString(16)}`);
  }
  return e;
}

function ready(): Exports {
  if (exp) return exp;
  const e = newDiagnosticsInstance();
  inCap = 64 * 1024;
  inPtr = e.reserve(inCap);
  exp = e;
  return e;
}

function room(e: Exports, n: number): void {
  if (n <= inCap) return;
  if (e.reserve(n) === 0) throw hostError(W_NO_ROOM, [n]);
  inCap = n;
}

/**
 * Explains a call given as JSON text (a recording line); the core reads it
 * (no JSON.parse here). tools: declarations' JSON text (UTF-8), applied by
 * tool name (assembly/pipeline/tools.ts).
 */
export function explainCallText(text: string | Uint8Array, tools?: Uint8Array, own: CoreLimits = NONE): Explained {
  return explainText(text, false, tools, own)[0];
}

/** One call, or (all) every call of a message (ALL_CALLS), of a JSON text. */
function explainText(text: string | Uint8Array, all: boolean, tools: Uint8Array | undefined, own: CoreLimits): Explained[] {
  return exclusive(() => {
    const e = ready();
    const pre = (all ? 4 : 0) + (tools?.length ?? 0);
    const flags = F_CALL | F_EXPLAIN | F_DIGEST | writeCallText(e, text, pre);
    return runCall(e, flags, new Uint32Array(e.memory.buffer, inPtr, HEADER_WORDS)[5], all, tools, own);
  });
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
export function explainCallValue(call: object, tools?: Uint8Array, own: CoreLimits = NONE): Explained {
  return exclusive(() => explainValue(call, false, tools, own))[0];
}

function explainValue(call: object, all: boolean, tools: Uint8Array | undefined, own: CoreLimits): Explained[] {
  const e = ready();
  return runCall(e, F_CALL | F_EXPLAIN | F_DIGEST | F_VALUES, writeCallValue(e, call, all, tools), all, tools, own);
}

/**
 * The core's keep-mask for a call given as a host object whose args are an
 * object of its keys (src/select.ts): the call's own selection or its tool's
 * declaration decides, as in the explanation that follows.
 */
export function callKeepMask(call: object, tools: Uint8Array | undefined, own: CoreLimits): string {
  return exclusive(() => {
    const e = ready();
    return runCallText(e, F_CALL | F_VALUES | KEEP_MASK, writeCallValue(e, call, false, tools), false, tools, own);
  });
}

/** Writes a call as the value stream after its parts; returns its length. */
function writeCallValue(e: Exports, call: object, all: boolean, tools: Uint8Array | undefined): number {
  room(e, HEADER_BYTES + 4 + (tools?.length ?? 0) + 1024);
  const start = inPtr + HEADER_BYTES + (all ? 4 : 0) + (tools?.length ?? 0);
  const grow = (need: number) => {
    room(e, Math.max(2 * (need - inPtr), need - inPtr + 1024));
    retarget(new Uint8Array(e.memory.buffer), inPtr + inCap);
  };
  // Paths from the call itself: its args member's values are `args…` (D15).
  const end = asValueWalk((nested) => writeValue(call, new Uint8Array(e.memory.buffer), start, inPtr + inCap, grow, nested, ""));
  return end - start;
}

/**
 * Every call of a message holding several (a single call is one), in order,
 * from one request (ALL_CALLS): the core parses the message once and writes
 * the JSON array of their Explanations. A message with no calls gives [].
 */
export function explainCalls(message: string | Uint8Array | object, tools?: Uint8Array): Explained[] {
  return typeof message === "string" || message instanceof Uint8Array
    ? explainText(message, true, tools, NONE) : exclusive(() => explainValue(message, true, tools, NONE));
}

/**
 * The call is already written after its parts: with all, F_NTH_CALL's kind
 * part (4 bytes, ALL_CALLS), and F_TOOLS' ignoreArgs part (the declarations).
 * The text is the call's Explanation, or (all) a JSON array of every call's.
 */
function runCall(e: Exports, flags: number, argsLen: number, all: boolean, tools: Uint8Array | undefined,
  own: CoreLimits): Explained[] {
  const parsed = JSON.parse(runCallText(e, flags, argsLen, all, tools, own)) as Explanation | Explanation[];
  return (all ? parsed as Explanation[] : [parsed as Explanation]).map((record) => ({ record, digest: record.fingerprint }));
}

function runCallText(e: Exports, flags: number, argsLen: number, all: boolean, tools: Uint8Array | undefined,
  own: CoreLimits): string {
  tell(e, own); // the core checks the call against the limits (assembly/base/limits.ts)
  const toolsLen = tools?.length ?? 0;
  if (all) new DataView(e.memory.buffer).setUint32(inPtr + HEADER_BYTES, ALL_CALLS, true);
  if (tools) new Uint8Array(e.memory.buffer).set(tools, inPtr + HEADER_BYTES + (all ? 4 : 0));
  if (all) flags |= F_NTH_CALL;
  if (tools) flags |= F_TOOLS;
  new Uint32Array(e.memory.buffer, inPtr, HEADER_WORDS).set([flags, all ? 4 : 0, 0, 0, toolsLen, argsLen]);
  return runText(e, HEADER_BYTES + (all ? 4 : 0) + toolsLen + argsLen);
}

// ---- diff and nearest (assembly/ops/compare.ts): sides in, the core's answer out ----

/** A side as the caller gave it: a call's JSON text, or a host value (a call or an Explanation). */
export type Side = string | Uint8Array | object;

/** D_DIFF: the Diff of a to b, as the core's JSON text. */
export function diffSides(a: Side, b: Side): string {
  return exclusive(() => decoder.decode(compare(D_DIFF, 0, [a, new Uint8Array(0), new Uint8Array(0), b])));
}

/** D_NEAR_START: the target, bytes handed back unread with each step. */
export function nearStart(call: Side): Uint8Array {
  return exclusive(() => compare(D_NEAR_START, 0, [new Uint8Array(0), new Uint8Array(0), new Uint8Array(0), call]));
}

/** D_NEAR_STEP for a recorded call (or, nameOnly, its name): [step, counters, the match's JSON text or ""]. */
export function nearStep(target: Uint8Array, counters: Uint8Array, rec: Side, nameOnly: boolean): [number, Uint8Array, string] {
  return exclusive(() => {
    const empty = new Uint8Array(0);
    const out = compare(D_NEAR_STEP, nameOnly ? NEAR_NAME_ONLY : 0, nameOnly ? [rec, counters, target, empty] : [empty, counters, target, rec]);
    const cut = 4 + NEAR_COUNTER_BYTES;
    return [new DataView(out.buffer).getUint32(0, true), out.subarray(4, cut), decoder.decode(out.subarray(cut))];
  });
}

/**
 * One F_DIFF request: the kind part (op, argument, how the name part's and the args' values are sent),
 * then the name, matchOn, ignoreArgs and args parts; a side (the name part or
 * the args) goes as JSON text or as the value stream. The answer's bytes (a copy).
 */
function compare(op: number, arg: number, parts: Side[]): Uint8Array {
  const e = ready();
  const valueFlags = [0, 0]; // how the name part's and the args' values are sent
  let at = inPtr + HEADER_BYTES + DIFF_KIND_BYTES;
  const lens: number[] = [];
  for (let i = 0; i < 4; i++) {
    const end = putPart(e, parts[i], at);
    if (i === 0 || i === 3) valueFlags[i === 0 ? 0 : 1] = end[1];
    lens.push(end[0] - at);
    at = end[0];
  }
  new Uint32Array(e.memory.buffer, inPtr, HEADER_WORDS).set([F_DIFF, DIFF_KIND_BYTES, ...lens]);
  new Uint32Array(e.memory.buffer, inPtr + HEADER_BYTES, 4).set([op, arg, ...valueFlags]);
  tell(e);
  const [ptr, len] = runRaw(e, at - inPtr);
  return new Uint8Array(e.memory.buffer, ptr, len).slice();
}

/** Writes a part at `at`: bytes as they are, a string as UTF-8 (F_STRING_INPUT), a host value as its stream (F_VALUES). */
function putPart(e: Exports, x: Side, at: number): [number, number] {
  if (x instanceof Uint8Array) {
    room(e, at - inPtr + x.length);
    new Uint8Array(e.memory.buffer).set(x, at);
    return [at + x.length, 0];
  }
  if (typeof x === "string") {
    room(e, at - inPtr + x.length * 3);
    const mem = new Uint8Array(e.memory.buffer);
    const end = isWellFormed(x) ? at + new TextEncoder().encodeInto(x, mem.subarray(at, at + x.length * 3)).written : writeWtf8(x, 0, mem, at);
    return [end, F_STRING_INPUT];
  }
  room(e, at - inPtr + 1024);
  const grow = (need: number) => {
    room(e, Math.max(2 * (need - inPtr), need - inPtr + 1024));
    retarget(new Uint8Array(e.memory.buffer), inPtr + inCap);
  };
  // Paths from the call itself, as explain's (writeCallValue).
  return [asValueWalk((nested) => writeValue(x, new Uint8Array(e.memory.buffer), at, inPtr + inCap, grow, nested, "")), F_VALUES];
}

/** What one step of the core's CLI engine returns (assembly/cli/run.ts, RESULT_CLI_*). */
export interface CliResult {
  out: Uint8Array;
  err: Uint8Array;
  /** Bytes to hand back unread with the next step (why's state, a plan, a worker's counts). */
  state: Uint8Array;
  lines: number;
  code: number;
}

const enc = new TextEncoder();
const asBytes = (p: string | Uint8Array) => (typeof p === "string" ? enc.encode(p) : p);

/**
 * One step of the CLI engine (assembly/cli/steps.ts lists the steps and their
 * parts): the core parses, reads, fingerprints and formats; this moves bytes.
 */
export function cliStep(step: string, name: string | Uint8Array = "", match: string | Uint8Array = "",
  ignore: string | Uint8Array = "", args: Uint8Array = new Uint8Array(0)): CliResult {
  return exclusive(() => step_(step, name, match, ignore, args));
}

function step_(step: string, name: string | Uint8Array, match: string | Uint8Array, ignore: string | Uint8Array,
  args: Uint8Array): CliResult {
  const e = ready();
  const parts = [step, name, match, ignore].map(asBytes);
  parts.push(args);
  const len = parts.reduce((n, p) => n + p.length, 0);
  room(e, HEADER_BYTES + len);
  const mem = new Uint8Array(e.memory.buffer);
  let at = inPtr + HEADER_BYTES;
  for (const p of parts) { mem.set(p, at); at += p.length; }
  new Uint32Array(e.memory.buffer, inPtr, HEADER_WORDS).set([F_CLI, ...parts.map((p) => p.length)]);
  tell(e); // the configured limits; a CLI run's --max-* options tighten them in the core (cli/args.ts)
  let status: number;
  try {
    status = e.run(HEADER_BYTES + len);
  } catch (err) {
    exp = undefined;
    throw hostError(W_TRAP, ["diagnostics", (err as Error)?.message ?? String(err)]);
  }
  const buf = e.memory.buffer;
  const res = new Int32Array(buf, e.result(), RESULT_BYTES >> 2);
  const w = (o: number) => res[o >> 2] >>> 0;
  if (status !== 0) {
    throw errorFromCore(status, res[RESULT_OFFSET >> 2],
      decoder.decode(new Uint8Array(buf, w(RESULT_TEXT_PTR), w(RESULT_TEXT_LEN))));
  }
  const text = new Uint8Array(buf, w(RESULT_TEXT_PTR), w(RESULT_TEXT_LEN)).slice();
  const o = w(RESULT_CLI_OUT), r = w(RESULT_CLI_ERR);
  return {
    out: text.subarray(0, o), err: text.subarray(o, o + r), state: text.subarray(o + r, o + r + w(RESULT_CLI_STATE)),
    lines: w(RESULT_CLI_LINES), code: res[RESULT_CLI_CODE >> 2],
  };
}

function runText(e: Exports, len: number): string {
  const [ptr, n] = runRaw(e, len);
  return decoder.decode(new Uint8Array(e.memory.buffer, ptr, n));
}

/** Runs the request; where its answer is, or the core's error. */
function runRaw(e: Exports, len: number): [number, number] {
  let status: number;
  try {
    status = e.run(len);
  } catch (err) {
    exp = undefined;
    throw hostError(W_TRAP, ["diagnostics", (err as Error)?.message ?? String(err)]);
  }
  const buf = e.memory.buffer;
  const res = new Int32Array(buf, e.result(), RESULT_DIGEST >> 2);
  const ptr = res[RESULT_TEXT_PTR >> 2] >>> 0, n = res[RESULT_TEXT_LEN >> 2] >>> 0;
  if (status !== 0) throw errorFromCore(res[RESULT_STATUS >> 2], res[RESULT_OFFSET >> 2], decoder.decode(new Uint8Array(buf, ptr, n)));
  return [ptr, n];
}

/**
 * " at byte N (line L, column C, X)" for an error at `offset` in a JSON text
 * (the core's one wording, assembly/cli/message.ts; X the character there,
 * `U+0001` when invisible): for an SDK's error path, which is cold.
 */
export function jsonErrorAt(text: string | Uint8Array, offset: number): string {
  return new TextDecoder().decode(cliStep("position", text, "", String(offset)).out);
}

/**
 * The diagnostics module as a batch target (src/_batch.ts, issue 13): whole
 * calls go through its runBatch, so the call model is read by the core.
 */
export function diagnosticsBatchTarget(): BatchTarget {
  const e = ready();
  // One view until memory grows (which detaches it: length 0), not one per item (as core.ts's view()).
  let u8 = new Uint8Array(0);
  const view = () => (u8.byteLength !== 0 ? u8 : (u8 = new Uint8Array(e.memory.buffer)));
  const grow = (need: number) => {
    room(e, Math.max(2 * (need - inPtr), need - inPtr + 1024));
    retarget(view(), inPtr + inCap);
  };
  return {
    e, inPtr,
    reserve(n: number) { room(e, n); return view(); },
    view,
    putValue(value: unknown, start: number) {
      return asValueWalk((nested) => writeValue(value, view(), start, inPtr + inCap, grow, nested));
    },
    error() {
      const buf = e.memory.buffer;
      const res = new Int32Array(buf, e.result(), RESULT_DIGEST >> 2);
      const text = decoder.decode(new Uint8Array(buf, res[RESULT_TEXT_PTR >> 2] >>> 0, res[RESULT_TEXT_LEN >> 2] >>> 0));
      return errorFromCore(res[RESULT_STATUS >> 2], res[RESULT_OFFSET >> 2], text);
    },
    status: () => new Int32Array(e.memory.buffer, e.result(), 1)[0],
    trapped() { exp = undefined; },
  };
}
