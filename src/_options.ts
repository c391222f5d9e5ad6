/**
 * A call's options read once, as the core takes them (shared by the single-call, explain and batch
 * APIs). Internal.
 * @module
 */
import { F_IGNORE, F_MATCH_ON, W_OBJECT, W_STRING, W_STRINGS, W_STRINGS_HOLDING } from "./_abi.gen.js";
import { type CoreLimits, NONE, readLimits } from "./_limits.js";
import { hostError, typeWord } from "./errors.js";
import type { FingerprintOptions } from "./api.js";

/**
 * Options as the core takes them: kind as a JSON literal ("": none) and as given (batches: raw
 * text), key lists as given (copied) and as JSON texts ("": none).
 */
export interface Parts {
  flags: number; kind: string; rawKind: string | undefined; limits: CoreLimits;
  matchOn: string[] | undefined; ignoreArgs: string[] | undefined; match: string; ignore: string;
}
const NO_OPTIONS: Parts = {
  flags: 0, kind: "", rawKind: undefined, limits: NONE, matchOn: undefined, ignoreArgs: undefined, match: "", ignore: "",
};

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * An option of a plain options object is its own property: a key planted on
 * Object.prototype (prototype pollution) must not select for every call.
 * Other objects (class instances, Object.create(defaults)) are read as is.
 */
export function option(options: object, plain: boolean, k: string): unknown {
  return !plain || hasOwn.call(options, k) ? (options as Record<string, unknown>)[k] : undefined;
}

/**
 * A key list copied once: its length and each element are read exactly once
 * (a getter or Proxy behind them runs once per call).
 */
function readList(list: unknown, what: string): string[] | undefined {
  if (list === undefined || list === null) return undefined;
  if (!Array.isArray(list)) throw hostError(W_STRINGS, [what, typeWord(list)]);
  const n = list.length;
  const out: string[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const k: unknown = list[i];
    if (typeof k !== "string") throw hostError(W_STRINGS_HOLDING, [what, typeWord(k)]);
    out[i] = k;
  }
  return out;
}

/** Reads each option exactly once; the copies are what selection and the core see (batches too). */
export function optionParts(options: FingerprintOptions | undefined): Parts {
  if (options === undefined) return NO_OPTIONS;
  if (typeof options !== "object" || options === null) throw hostError(W_OBJECT, ["options", typeWord(options)]);
  const plain = Object.getPrototypeOf(options) === Object.prototype;
  const kind = option(options, plain, "kind");
  if (kind !== undefined && typeof kind !== "string") throw hostError(W_STRING, ["kind", typeWord(kind)]);
  const matchOn = readList(option(options, plain, "matchOn"), "matchOn");
  const ignoreArgs = readList(option(options, plain, "ignoreArgs"), "ignoreArgs");
  return {
    flags: (matchOn ? F_MATCH_ON : 0) | (ignoreArgs ? F_IGNORE : 0), kind: kind === undefined ? "" : JSON.stringify(kind),
    rawKind: kind, limits: readLimits(option(options, plain, "limits")), matchOn, ignoreArgs,
    match: matchOn ? JSON.stringify(matchOn) : "", ignore: ignoreArgs ? JSON.stringify(ignoreArgs) : "",
  };
}
