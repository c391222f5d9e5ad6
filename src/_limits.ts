/**
 * Limits as the core takes them (assembly/base/limits.ts decides and words
 * everything): the configured ones (configure()) and a call's own, read from
 * the caller's objects and passed on to each module instance before it runs.
 * Python's twin is `_limits.py`. Internal.
 * @module
 */
import { FingerprintError } from "./errors.js";

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
const FIELDS = ["maxInputBytes", "maxDepth", "maxMembers"] as const;

let configured: CoreLimits = NONE;

/**
 * Reads a Limits object over `base`: a field left out, undefined or null
 * keeps base's; Infinity is none; a non-negative integer is the limit. An
 * unknown field (a misspelling such as `maxdepth`) is an error, never ignored.
 */
function read(l: unknown, base: CoreLimits): CoreLimits {
  if (l === undefined || l === null) return base;
  if (typeof l !== "object" || Array.isArray(l)) throw new FingerprintError("invalid-argument", "limits must be an object");
  const unknown = Object.keys(l).filter((k) => !(FIELDS as readonly string[]).includes(k)).sort();
  if (unknown.length > 0) {
    throw new FingerprintError("invalid-argument", `unknown limits ${unknown.join(", ")}: allowed are ${FIELDS.join(", ")}`);
  }
  const out = [...base];
  FIELDS.forEach((f, i) => {
    const x = (l as Record<string, unknown>)[f];
    if (x === undefined || x === null) return;
    if (typeof x !== "number" || !(x >= 0) || (x !== Infinity && !Number.isInteger(x))) {
      throw new FingerprintError("invalid-argument", `${f} must be a non-negative integer, Infinity or null, got ${String(x)}`);
    }
    out[i] = x >= NO_LIMIT ? NO_LIMIT : x;
  });
  return out as unknown as CoreLimits;
}

/** configure(): the limits laid over the configured ones (Infinity removes one). */
export function configureLimits(l: unknown): CoreLimits {
  return read(l, configured);
}

export function setConfigured(l: CoreLimits): void {
  configured = l;
}

/** A call's own limits (none when absent): they can only tighten the configured ones (the core takes the smaller). */
export function callLimits(l: unknown): CoreLimits {
  return l === undefined || l === null ? NONE : read(l, NONE);
}

/** What one instance was last told, and the byte limit it answered. */
export interface Told { conf: CoreLimits | null; own: CoreLimits | null; bytes: number }

export function newTold(): Told {
  return { conf: null, own: null, bytes: NO_LIMIT };
}

const told = new WeakMap<object, Told>();

/**
 * Tells instance `e` the configured limits and the call's own when they are
 * not what it was last told; returns the byte limit in force for the call (a
 * host stops copying a longer input after that many bytes + 1: the core
 * refuses it by its length). `t`: the instance's record (default: kept here).
 */
export function tell(e: { limits(b: number, d: number, m: number, ob: number, od: number, om: number): number },
  own: CoreLimits = NONE, t?: Told): number {
  let s = t ?? told.get(e);
  if (s === undefined) told.set(e, s = newTold());
  const c = configured;
  if (s.conf !== c || s.own !== own) {
    s.bytes = e.limits(c[0], c[1], c[2], own[0], own[1], own[2]) >>> 0;
    s.conf = c;
    s.own = own;
  }
  return s.bytes;
}
