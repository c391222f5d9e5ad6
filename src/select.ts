/**
 * Selection (D9, D10) on a host value, decided by the core: the host sends
 * the top-level keys of a plain object (never their values) and the core
 * answers which to walk (the generated "keepMask" and "callKeepMask"
 * requests, abi.ts F_KEEP_MASK, assembly/pipeline/select.ts). Only the kept
 * values are read, so a value selection leaves out runs no getter, toJSON or
 * D15 check. Internal.
 * @module
 */
import { F_VALUES, W_KEEP_MASK } from "./_abi.gen.js";
import { withFingerprint } from "./core.js";
import { hostError } from "./errors.js";

/** A plain object's own enumerable keys (as JSON.stringify reads them); null for anything else, which passes untouched (D10). */
export function selectableKeys(args: unknown): string[] | null {
  if (typeof args !== "object" || args === null || Array.isArray(args)) return null;
  const p = Object.getPrototypeOf(args);
  return p === Object.prototype || p === null ? Object.keys(args) : null;
}

/** The keys as a keep-mask request's args: an object whose values are never looked at (own data properties: "__proto__" too). */
export const keysObject = (keys: readonly string[]): Record<string, boolean> => Object.fromEntries(keys.map((k) => [k, true]));

/**
 * The args with only the members the core's mask keeps (each read once);
 * `left`: what stands for a member left out (undefined: nothing). Null
 * prototype: a "__proto__" key stays an ordinary key.
 */
export function applyMask(src: Record<string, unknown>, keys: readonly string[], mask: string,
  left?: (v: unknown) => unknown): Record<string, unknown> {
  if (mask.length !== keys.length + 1) throw hostError(W_KEEP_MASK, [mask.length - 1, keys.length]);
  const out = Object.create(null) as Record<string, unknown>;
  keys.forEach((k, i) => {
    if (mask[i + 1] === "1") out[k] = src[k]; // "1": walk this member
    else if (left) out[k] = left(src[k]);
  });
  return out;
}

/**
 * The core's answers by request: a tool's calls repeat their keys and lists,
 * and a lookup costs less than a core call. The answer depends on nothing
 * else (the core checks no limit on a keep-mask). Bounded; larger objects
 * ask (building their id would cost what a request costs).
 */
const masks = new Map<string, string>();

/** The keep-mask for `keys` under the lists (JSON texts: no raw NUL in them; flags F_MATCH_ON / F_IGNORE). */
export function keepMask(flags: number, matchOn: string, ignoreArgs: string, keys: readonly string[]): string {
  const ask = () => withFingerprint((i) => {
    i.limits();
    i.request("keepMask", { matchOn, ignoreArgs, args: keysObject(keys) }, flags | F_VALUES);
    return i.text();
  });
  if (keys.length > 64) return ask();
  let id = `${flags}\u0000${matchOn}\u0000${ignoreArgs}\u0000`;
  for (const k of keys) id += `${k.length}:${k}`;
  if (masks.size >= 256) masks.clear();
  let mask = masks.get(id);
  if (mask === undefined) masks.set(id, (mask = ask()));
  return mask;
}
