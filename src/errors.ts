/**
 * The SDK's one error type. Every bad input — malformed JSON text, a value
 * the contract cannot fingerprint (D15), a bad kind or name (D17) — raises a
 * FingerprintError with a stable `code` and, where it applies, the byte
 * `offset` into the JSON text or the `path` of the offending value (D19).
 * @module
 */

/** Stable machine-readable reasons. Core codes keep the order of assembly/errors.ts. */
export type FingerprintErrorCode =
  | "unexpected-end" | "unexpected-character" | "invalid-utf8" | "bad-escape"
  | "control-character" | "bad-number" | "trailing-content" | "empty-input"
  | "out-of-memory" | "bad-kind" | "bad-name" | "bad-selection" | "bad-request"
  | "unsupported-value" | "circular-value" | "too-deep" | "invalid-argument"
  | "not-initialized" | "internal-error" | "limit-exceeded" | "bad-call";

/** Core status codes 1..13 → code and a plain-words reason (assembly/errors.ts). */
export const CORE_ERRORS: ReadonlyArray<readonly [FingerprintErrorCode, string]> = [
  ["unexpected-end", "the text ends inside a value"],
  ["unexpected-character", "unexpected character"],
  ["invalid-utf8", "invalid UTF-8"],
  ["bad-escape", "invalid escape sequence"],
  ["control-character", "unescaped control character in a string"],
  ["bad-number", "invalid number"],
  ["trailing-content", "unexpected content after the JSON value"],
  ["empty-input", "no JSON value (empty text)"],
  ["out-of-memory", "out of memory"],
  ["bad-kind", "kind must be a non-empty string without line feeds or lone surrogates"],
  ["bad-name", "name must be a non-empty string without lone surrogates"],
  ["bad-selection", "matchOn/ignoreArgs must be arrays of strings"],
  ["bad-request", "malformed request to the core (an SDK bug)"],
  ["bad-call", "a call is a JSON object"],
  ["limit-exceeded", "nesting deeper than the maxDepth limit"],
  ["limit-exceeded", "an object with more members than the maxMembers limit"],
];

export interface FingerprintErrorDetails {
  /** Byte offset into the UTF-8 JSON text (text input). */
  offset?: number;
  /** Path of the offending value, e.g. `args.items[3].when` (value input). */
  path?: string;
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

  constructor(code: FingerprintErrorCode, message: string, details: FingerprintErrorDetails = {}) {
    super(message, details.cause !== undefined ? { cause: details.cause } : undefined);
    this.name = "FingerprintError";
    this.code = code;
    if (details.offset !== undefined) this.offset = details.offset;
    if (details.path !== undefined) this.path = details.path;
  }

  /** True for a FingerprintError from any copy of this package (ESM, CJS, a bundle). */
  static [Symbol.hasInstance](x: unknown): boolean {
    // A subclass keeps the ordinary prototype-chain check.
    if (this !== FingerprintError) return Function.prototype[Symbol.hasInstance].call(this, x);
    return typeof x === "object" && x !== null && (x as Record<symbol, unknown>)[BRAND] === true;
  }
}

// On the prototype, not each instance: errors stay plain to inspect and to JSON.
Object.defineProperty(FingerprintError.prototype, BRAND, { value: true });
