/**
 * The SDK's one error type. Every bad input — malformed JSON text, a value
 * the contract cannot fingerprint (D15), a bad kind or name (D17) — raises a
 * FingerprintError with a stable `code` and, where it applies, the byte
 * `offset` into the JSON text or the `path` of the offending value (D19).
 * @module
 */
import { CORE_ERRORS, WORD_CODES } from "./_abi.gen.js";

/**
 * Stable machine-readable reasons, declared in assembly/abi.ts (generated
 * into src/_abi.gen.ts): the core's statuses (CORE_ERRORS: the JSON text
 * errors, `bad-call`, `no-calls`, `partial-call` for a piece of a streamed
 * response, `bad-tools`, `declaration-conflict`, `limit-exceeded`, …), the
 * errors a host raises and the core words (WORD_CODES: `invalid-argument`,
 * `unsupported-value`, `circular-value`, `too-deep`, …), and
 * `not-initialized` (no module to word it yet).
 */
export type FingerprintErrorCode =
  | (typeof CORE_ERRORS)[number][0]
  | Exclude<(typeof WORD_CODES)[number], "-">
  | "not-initialized" | "internal-error";

export interface FingerprintErrorDetails {
  /** Byte offset into the UTF-8 JSON text (text input). */
  offset?: number;
  /** Path of the offending value, e.g. `args.items[3].when` (value input). */
  path?: string;
  /** Position of the failing item in a batch (fingerprintBatch, fingerprintBatchJSON). */
  index?: number;
  /** The exception behind this error (e.g. from a revoked Proxy), as the standard `Error.cause`. */
  cause?: unknown;
}

/**
 * A brand in the global symbol registry: the ESM and CJS builds (and any
 * other copy of the package in one process) each define their own class, so
 * `instanceof` checks the brand rather than the prototype chain.
 */
const BRAND = Symbol.for("overturn.fingerprint.FingerprintError");

export class FingerprintError extends Error {
  readonly code: FingerprintErrorCode;
  readonly offset?: number;
  readonly path?: string;
  readonly index?: number;

  constructor(code: FingerprintErrorCode, message: string, details: FingerprintErrorDetails = {}) {
    super(message, details.cause !== undefined ? { cause: details.cause } : undefined);
    this.name = "FingerprintError";
    this.code = code;
    if (details.offset !== undefined) this.offset = details.offset;
    if (details.path !== undefined) this.path = details.path;
    if (details.index !== undefined) this.index = details.index;
  }

  /** True for a FingerprintError from any copy of this package (ESM, CJS, a bundle). */
  static [Symbol.hasInstance](x: unknown): boolean {
    // A subclass keeps the ordinary prototype-chain check.
    if (this !== FingerprintError) return Function.prototype[Symbol.hasInstance].call(this, x);
    return typeof x === "object" && x !== null && (x as Record<symbol, unknown>)[BRAND] === true;
  }
}

/**
 * The FingerprintError for a failed core request: the core wrote its whole
 * message (assembly/base/words.ts); its code comes from the status.
 */
export function errorFromCore(status: number, offset: number, message: string): FingerprintError {
  const code = CORE_ERRORS[status - 1]?.[0] ?? "bad-request";
  return new FingerprintError(code, message, offset >= 0 ? { offset } : {});
}

/** Words an error (assembly/abi.ts W_*): the fingerprint module's `word` export, set by core.ts. */
let worder: ((id: number, params: readonly string[]) => string) | undefined;
/** Writes a value's path (assembly/abi.ts F_PATH) from the JSON array of its keys and indices, set by core.ts. */
let pather: ((at: string) => string) | undefined;

export function setWorder(w: (id: number, params: readonly string[]) => string, p: (at: string) => string): void {
  worder = w;
  pather = p;
}

/**
 * An error this host raises itself, worded by the core: word id `id`
 * (assembly/abi.ts W_*, its code from there) and its parameters.
 */
export function hostError(id: number, params: readonly (string | number)[], details: FingerprintErrorDetails = {}): FingerprintError {
  const code = WORD_CODES[id - 1] as FingerprintErrorCode;
  return new FingerprintError(code, worder!(id, params.map(String)), details);
}

/**
 * A value this host refuses (D15), where `at` says: the keys and indices
 * from the args (or from the whole call, `call`) down to it. The core writes
 * the path (assembly/abi.ts F_PATH) and the message, whose last parameter it is.
 */
export function pathError(id: number, at: readonly (string | number)[], call: boolean,
  params: readonly (string | number)[], cause?: unknown): FingerprintError {
  const path = pather!(JSON.stringify(call ? [null, ...at] : at));
  return hostError(id, [...params, path], { path, cause });
}

/** The host's word for a value's type in a message: `typeof`, with null and arrays named. */
export function typeWord(x: unknown): string {
  return x === null ? "null" : Array.isArray(x) ? "array" : x instanceof Uint8Array ? "Uint8Array" : typeof x;
}

// On the prototype, not each instance: errors stay plain to inspect and to JSON.
Object.defineProperty(FingerprintError.prototype, BRAND, { value: true });
