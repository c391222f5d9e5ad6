/**
 * The engine module (build/engine.wasm, entry assembly/entry/engine.ts):
 * the fingerprint module's ABI plus calls (F_CALL, assembly/pipeline/call.ts),
 * Explanations (F_EXPLAIN, assembly/pipeline/explain.ts), diffs and the
 * nearest recorded call (F_DIFF, assembly/ops/compare.ts), the CLI engine
 * (F_CLI) and batches.
 * Transport only, on instances of its pool (src/_instance.ts): a call goes in
 * as JSON text or as a host object through the value stream (src/values.ts);
 * the core's text and digest come out. Compiled on first use, so the
 * fingerprint path never pays for it (README, "How it is built"). Internal.
 * @module
 */
import { D_DIFF, D_NEAR_START, D_NEAR_STEP, F_STRING_INPUT, F_TOOLS, F_VALUES, NEAR_NAME_ONLY } from "./_abi.gen.js";
import { FingerprintError } from "./errors.js";
import { Instance, Pool } from "./_instance.js";
import { isModule } from "./_is_module.js";
import { type CoreLimits, NONE } from "./_limits.js";
import type { Explanation } from "./explain.js";

let source: (() => BufferSource | WebAssembly.Module) | undefined;

/** The engine's instances: `engine.with(fn)` holds one for fn (a spare when a call re-entered from user code finds it busy). */
export const engine = new Pool("engine", () => {
  if (!source) {
    throw new FingerprintError("not-initialized",
      "the engine module is not loaded in this entry: `await initDiagnostics()` first " +
      "(it fetches engine.wasm beside the entry, or takes the module or bytes)");
  }
  const src = source();
  return isModule(src) ? src : new WebAssembly.Module(src);
}, false);

/** Set by the entries (or initDiagnostics): where the engine's bytes (or module) come from. */
export function setEngineSource(src: (() => BufferSource | WebAssembly.Module) | undefined): void {
  source = src;
  engine.use(undefined);
}

/** Whether explain/diff/nearest can run synchronously now (a source is set). */
export function hasEngineSource(): boolean {
  return source !== undefined;
}

/** A fresh instance of the engine outside its pool (a recording keeps its index in its own: src/replay.ts). */
export function newEngineInstance(): Instance {
  return engine.fresh();
}

/**
 * The Explanation of one call, or (all, ALL_CALLS) those of every call of a message in order, from
 * one request: given as JSON text (a recording line, read by the core: no JSON.parse here) or a host
 * object (the value stream). tools: declarations' JSON text (UTF-8), applied by tool name
 * (assembly/pipeline/tools.ts).
 */
export function explainIn(call: Side, all: boolean, tools?: Uint8Array, own: CoreLimits = NONE): Explanation[] {
  const text = engine.with((i) => {
    i.limits(own); // the core checks the call against the limits (assembly/base/limits.ts)
    i.request(all ? "explainAll" : "explain", { ignoreArgs: tools, args: call }, sideFlags(call) | (tools ? F_TOOLS : 0));
    return i.text();
  });
  return all ? JSON.parse(text) as Explanation[] : [JSON.parse(text) as Explanation];
}

/**
 * The core's keep-mask for a call given as a host object whose args are an
 * object of its keys (src/select.ts): the call's own selection or its tool's
 * declaration decides, as in the explanation that follows.
 */
export function callKeepMask(call: object, tools: Uint8Array | undefined, own: CoreLimits): string {
  return engine.with((i) => {
    i.limits(own);
    i.request("callKeepMask", { ignoreArgs: tools, args: call }, F_VALUES | (tools ? F_TOOLS : 0));
    return i.text();
  });
}

/** How a part is sent (flags of its request, or of the diff's kind part): a string as UTF-8, a host value as its stream. */
export function sideFlags(x: Side): number {
  return typeof x === "string" ? F_STRING_INPUT : x instanceof Uint8Array ? 0 : F_VALUES;
}

// ---- diff and nearest (assembly/ops/compare.ts): sides in, the core's answer out ----

/** A side as the caller gave it: a call's JSON text, or a host value (a call or an Explanation). */
export type Side = string | Uint8Array | object;

const EMPTY = new Uint8Array(0);
const decoder = new TextDecoder();

/** D_DIFF: the Diff of a to b, as the core's JSON text. */
export function diffSides(a: Side, b: Side): string {
  return engine.with((i) => decoder.decode(compare(i, D_DIFF, 0, a, b)));
}

/** One step of a nearest search: [step, the match's JSON text or ""]. */
export type NearStep = (rec: Side, nameOnly: boolean) => [number, string];

/**
 * A nearest search (D_NEAR_START, then D_NEAR_STEP per recorded call) on one
 * instance held for it: the core keeps the target and the best so far there.
 */
export function nearSearch<T>(target: Side, fn: (step: NearStep) => T): T {
  return engine.with((i) => {
    compare(i, D_NEAR_START, 0, EMPTY, target);
    return fn((rec, nameOnly) => {
      const out = compare(i, D_NEAR_STEP, nameOnly ? NEAR_NAME_ONLY : 0, nameOnly ? rec : EMPTY, nameOnly ? EMPTY : rec);
      return [new DataView(out.buffer).getUint32(0, true), decoder.decode(out.subarray(4))];
    });
  });
}

/**
 * One F_DIFF request: the kind part (op, argument, how the name part's and
 * the args' values are sent), then the name and args parts; a side goes as
 * JSON text or as the value stream. The answer's bytes (a copy).
 */
function compare(i: Instance, op: number, arg: number, name: Side, args: Side): Uint8Array {
  i.limits();
  i.request("diff", { kind: new Uint8Array(new Uint32Array([op, arg, sideFlags(name), sideFlags(args)]).buffer), name, args });
  return i.textBytes().slice();
}

/** What one step of the core's CLI engine returns (assembly/cli/run.ts, RESULT_CLI_*). */
export interface CliResult {
  out: Uint8Array;
  err: Uint8Array;
  /** Bytes to hand back unread with the next step (why's state, a plan, a worker's counts). */
  state: Uint8Array;
  lines: number;
  code: number;
  /** The CLI driver's action (CLI_*, assembly/cli/drive.ts), its payload and second number. */
  op: number;
  data: Uint8Array;
  arg: number;
}

/**
 * One step of the CLI engine (assembly/cli/steps.ts lists the steps and their
 * parts): the core parses, reads, fingerprints and formats; this moves bytes.
 * out, err and state are copies; data (a chunk for a worker) is a view of the
 * instance's memory, valid until its next request: one copy less per chunk.
 */
export function cliStep(step: string, name: string | Uint8Array = "", match: string | Uint8Array = "",
  ignore: string | Uint8Array = "", args: Uint8Array = new Uint8Array(0)): CliResult {
  return engine.with((i) => {
    i.limits(); // the configured limits; a CLI run's --max-* options tighten them in the core (cli/args.ts)
    const w = i.request("cli", { kind: step, name, matchOn: match, ignoreArgs: ignore, args });
    const o = w.out, r = o + w.err, s = r + w.state, text = i.textBytes(), head = text.slice(0, s);
    return {
      out: head.subarray(0, o), err: head.subarray(o, r), state: head.subarray(r, s), data: text.subarray(s, s + w.data),
      lines: w.lines, code: w.code | 0, op: w.op, arg: w.arg,
    };
  });
}
