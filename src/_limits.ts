/**
 * Limits as the core takes them (assembly/base/limits.ts decides and words
 * everything): the configured ones (configure()) and a call's own, read from
 * the caller's objects and passed on to each module instance before it runs.
 * Python's twin is `_limits.py`. Internal.
 * @module
 */
import { W_OBJECT } from "./_abi.gen.js";
import { hostError, typeWord } from "./errors.js";

/** What a server caps per input (README "Servers: limits and memory"); undefined/null = no change. */
export interface Limits {
  /** Largest input in bytes as the core reads it: JSON text (UTF-8), or the value stream a host value becomes. */
  maxInputBytes?: number | null;
  /** Deepest nesting of objects and arrays (1 = flat). */
  maxDepth?: number | null;
  /** Most members of one object (duplicate keys count). */
  maxMembers?: number | null;
}

/** [maxInputBytes, maxDepth, maxMembers] as u32, NO_LIMIT for none. */
export type CoreLimits = readonly [number, number, number];

export const NO_LIMIT = 0xffff_ffff;
export const NONE: CoreLimits = [NO_LIMIT, NO_LIMIT, NO_LIMIT];

/** The configured limits (configure()), told to each instance before a call (_instance.ts limits). */
export let configured: CoreLimits = NONE;

/** Checks a limits argument in the core (core.ts: abi.ts F_LIMITS): [given mask, bytes, depth, members]. */
let checker: ((members: string) => readonly number[]) | undefined;

export function setLimitChecker(c: (members: string) => readonly number[]): void {
  checker = c;
}

/**
 * Reads a Limits object over `base`: the core decides each field (a field
 * left out or null keeps base's, Infinity is none, a non-negative integer
 * is the limit, an unknown key is an error) and words its errors. A call's
 * own limits are read over none (the core takes the smaller of them and the
 * configured ones); configure()'s over the configured ones (Infinity removes one).
 */
export function readLimits(l: unknown, base: CoreLimits = NONE): CoreLimits {
  if (l === undefined || l === null) return base;
  if (typeof l !== "object" || Array.isArray(l)) throw hostError(W_OBJECT, ["limits", typeWord(l)]);
  const o = l as Record<string, unknown>;
  const text = JSON.stringify(Object.fromEntries(Object.keys(o).map((k) => [k, member(o[k])])));
  // The same limits call after call (a constant object): the core's answer again, without asking.
  if (text !== lastText) { lastAnswer = checker!(text); lastText = text; }
  const [given, ...v] = lastAnswer;
  return base.map((b, i) => (given & (1 << i) ? v[i] : b)) as unknown as CoreLimits;
}

let lastText = "";
let lastAnswer: readonly number[] = [];

/** A member as the core takes it (abi.ts F_LIMITS): null, a number as printed, anything else as shown. */
function member(x: unknown): string | [string] | null {
  if (x === undefined || x === null) return null;
  let shown: string;
  try { shown = String(x); } catch { shown = typeof x; } // an object without toString
  return typeof x === "number" ? shown : [shown];
}

export function setConfigured(l: CoreLimits): void {
  configured = l;
}
