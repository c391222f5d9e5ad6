/**
 * The SDK's one error type. Every bad input — malformed JSON text, a value
 * the contract cannot fingerprint (D15), a bad kind or name (D17) — raises a
 * FingerprintError with a stable `code` and, where it applies, the byte
 * `offset` into the JSON text or the `path` of the offending value (D19).
 * @module
 */
import { CORE_ERRORS, PARTS } from "./_abi.gen.js";

/**
 * Stable machine-readable reasons: the core's (messages in assembly/abi.ts,
 * generated into src/_abi.gen.ts as CORE_ERRORS: the JSON text errors,
 * `bad-call`, `no-calls`, `partial-call` for a piece of a streamed response,
 * `bad-tools`, `declaration-conflict`, `limit-exceeded`, …) and the host's own.
 */
export type FingerprintErrorCode =
  | (typeof CORE_ERRORS)[number][0]
  | "unsupported-value" | "circular-value" | "too-deep" | "invalid-argument"
  | "not-initialized" | "internal-error" | "limit-exceeded" | "no-calls";

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
 * The FingerprintError for a failed core request (result block: status,
 * offset, part; detail from the text fields, "" when none). Codes and
 * reasons come from assembly/abi.ts (generated: src/_abi.gen.ts).
 */
export function errorFromCore(status: number, offset: number, partIndex: number, detail: string): FingerprintError {
  const [code, reason] = CORE_ERRORS[status - 1] ?? (["bad-request", `core status ${status}`] as const);
  const part = PARTS[partIndex] ?? "args";
  if (detail !== "") return new FingerprintError(code, detail, offset >= 0 ? { offset } : {});
  if ((part === "args" || part === "call" || part === "argsJSON") && offset >= 0) {
    const where = part === "argsJSON" ? "argsJSON: " : "";
    return new FingerprintError(code, `${where}invalid JSON: ${reason} at byte ${offset}`, { offset });
  }
  if (part === "tools" && offset >= 0) {
    return new FingerprintError(code, `tools: invalid JSON: ${reason} at byte ${offset}`, { offset });
  }
  if (part === "selection") return new FingerprintError(code, `invalid matchOn/ignoreArgs: ${reason}`);
  if (part === "kind" || part === "name") return new FingerprintError(code, `invalid ${part}: ${reason}`);
  return new FingerprintError(code, reason);
}

// On the prototype, not each instance: errors stay plain to inspect and to JSON.
Object.defineProperty(FingerprintError.prototype, BRAND, { value: true });
