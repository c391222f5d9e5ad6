/**
 * The SDK's one error type. Every bad input — malformed JSON text, a value
 * the contract cannot fingerprint (D15), a bad kind or name (D17) — raises a
 * FingerprintError with a stable `code` and, where it applies, the byte
 * `offset` into the JSON text or the `path` of the offending value (D19).
 * @module
 */
import type { CORE_ERRORS } from "./_abi.gen.js";

/**
 * Stable machine-readable reasons: the core's (messages in assembly/abi.ts,
 * generated into src/_abi.gen.ts as CORE_ERRORS) and the host's own.
 */
export type FingerprintErrorCode =
  | (typeof CORE_ERRORS)[number][0]
  | "unsupported-value" | "circular-value" | "too-deep" | "invalid-argument"
  | "not-initialized" | "internal-error";

export interface FingerprintErrorDetails {
  /** Byte offset into the UTF-8 JSON text (text input). */
  offset?: number;
  /** Path of the offending value, e.g. `args.items[3].when` (value input). */
  path?: string;
}

export class FingerprintError extends Error {
  readonly code: FingerprintErrorCode;
  readonly offset?: number;
  readonly path?: string;

  constructor(code: FingerprintErrorCode, message: string, details: FingerprintErrorDetails = {}) {
    super(message);
    this.name = "FingerprintError";
    this.code = code;
    if (details.offset !== undefined) this.offset = details.offset;
    if (details.path !== undefined) this.path = details.path;
  }
}
