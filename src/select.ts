/**
 * Selection (D9, D10) on a host value, decided by the core: the host sends
 * the top-level keys of a plain object (never their values) and the core
 * answers which to walk (abi.ts F_KEEP_MASK, assembly/pipeline/select.ts).
 * Only the kept values are read, so a value selection leaves out runs no
 * getter, toJSON or D15 check. Internal.
 * @module
 */
import { F_KEEP_MASK, F_TEXT, W_KEEP_MASK } from "./_abi.gen.js";
import { hostError } from "./errors.js";

const objectProto = Object.prototype;
const getPrototypeOf = Object.getPrototypeOf;
const objectKeys = Object.keys;
const ONE = 49; // "1": walk this member

/** A plain object's own enumerable keys (as JSON.stringify reads them); null for anything else, which passes untouched (D10). */
export function selectableKeys(args: unknown): string[] | null {
  if (typeof args !== "object" || args === null || Array.isArray(args)) return null;
  const p = getPrototypeOf(args);
  return p === objectProto || p === null ? objectKeys(args) : null;
}

/** The keys as the keep-mask request's args: an object whose values are never looked at. */
export function keysObject(keys: readonly string[]): Record<string, boolean> {
  const o = Object.create(null) as Record<string, boolean>;
  for (const k of keys) o[k] = true;
  return o;
}

/**
 * The args with only the members the core's mask keeps (each read once);
 * `left`: what stands for a member left out (undefined: nothing). Null
 * prototype: a "__proto__" key stays an ordinary key.
 */
export function applyMask(src: Record<string, unknown>, keys: readonly string[], mask: string,
  left?: (v: unknown) => unknown): Record<string, unknown> {
  if (mask.length !== keys.length + 1) {
    throw hostError(W_KEEP_MASK, [mask.length - 1, keys.length]);
  }
  const out = Object.create(null) as Record<string, unknown>;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    if (mask.charCodeAt(i + 1) === ONE) out[k] = src[k];
    else if (left) out[k] = left(src[k]);
  }
  return out;
}

/** The flags of a keep-mask request (the caller adds its selection flags). */
export const KEEP_MASK = F_KEEP_MASK | F_TEXT;

/**
 * The core's answers by request: a tool's calls repeat their keys and lists,
 * and a lookup costs less than a core call. The answer depends on nothing
 * else (the core checks no limit on a keep-mask). Bounded.
 */
const masks = new Map<string, string>();
const MASKS_MAX = 256;
const MASK_KEYS_MAX = 64; // larger objects ask: building their id would cost what a request costs

/** The keep-mask for `keys` under the lists (JSON texts: no raw NUL in them), from `ask` the first time. */
export function keepMask(flags: number, match: string, ignore: string, keys: readonly string[], ask: () => string): string {
  if (keys.length > MASK_KEYS_MAX) return ask();
  let id = `${flags}\u0000${match}\u0000${ignore}\u0000`;
  for (const k of keys) id += `${k.length}:${k}`;
  let mask = masks.get(id);
  if (mask === undefined) {
    mask = ask();
    if (masks.size >= MASKS_MAX) masks.clear();
    masks.set(id, mask);
  }
  return mask;
}
