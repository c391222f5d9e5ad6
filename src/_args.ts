/**
 * Arguments read the same way by every entry point that takes them. Internal.
 * @module
 */
import { W_STRINGS } from "./_abi.gen.js";
import { hostError, typeWord } from "./errors.js";

/**
 * A key list copied once: its length and each element are read exactly once
 * (a getter or Proxy behind them runs once per call).
 */
export function readList(list: unknown, what: string): string[] | null {
  if (list === undefined || list === null) return null;
  if (!Array.isArray(list)) throw hostError(W_STRINGS, [what, typeWord(list)]);
  const n = list.length;
  const out: string[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const k: unknown = list[i];
    if (typeof k !== "string") throw hostError(W_STRINGS, [what, `an array holding ${typeWord(k)}`]);
    out[i] = k;
  }
  return out;
}
