/**
 * The public API, shared by every runtime entry. Fingerprint contract v1:
 * sha256(kind "\n" name "\n" canonicalJSON(select(args))), lowercase hex.
 * @module
 */
import { F_DIGEST, F_IGNORE, F_MATCH_ON, F_TEXT, call } from "./core.js";
import { selectValue, valueCall } from "./encode.js";
import { FingerprintError } from "./errors.js";

/** The contract version these fingerprints follow (D18). */
export { FINGERPRINT_VERSION } from "./_abi.gen.js";

export interface FingerprintOptions {
  /** Defaults to "tool_call". Non-empty, no line feed, no lone surrogate (D17). */
  kind?: string;
  /** Keep only these top-level keys (D9). Wins over ignoreArgs, even when empty. null = not set. */
  matchOn?: readonly string[] | null;
  /** Drop these top-level keys (D9). null = not set. */
  ignoreArgs?: readonly string[] | null;
}

// The last name's literal: agents call a handful of tools, often the same one repeatedly.
let lastName = "";
let lastNameLiteral = '""';

function checkName(name: unknown): string {
  if (typeof name !== "string") throw new FingerprintError("invalid-argument", `name must be a string, got ${typeof name}`);
  if (name !== lastName) {
    lastNameLiteral = JSON.stringify(name);
    lastName = name;
  }
  return lastNameLiteral;
}

function checkList(list: unknown, what: string): string {
  if (list === undefined || list === null) return "";
  if (!Array.isArray(list) || !list.every((k) => typeof k === "string")) {
    throw new FingerprintError("invalid-argument", `${what} must be an array of strings`);
  }
  return JSON.stringify(list);
}

const NO_OPTIONS: [number, string, string, string] = [0, "", "", ""];

function optionParts(options: FingerprintOptions | undefined): [number, string, string, string] {
  if (options === undefined) return NO_OPTIONS;
  if (typeof options !== "object" || options === null) throw new FingerprintError("invalid-argument", "options must be an object");
  const { kind, matchOn, ignoreArgs } = options;
  if (kind !== undefined && typeof kind !== "string") throw new FingerprintError("invalid-argument", "kind must be a string");
  const m = checkList(matchOn, "matchOn");
  const g = checkList(ignoreArgs, "ignoreArgs");
  const flags = (matchOn ? F_MATCH_ON : 0) | (ignoreArgs ? F_IGNORE : 0);
  return [flags, kind === undefined ? "" : JSON.stringify(kind), m, g];
}

/**
 * Fingerprint of a tool call given as a JavaScript value.
 * @throws FingerprintError for values D15 rejects (with `path`), or a bad kind/name.
 * @example fingerprint("search", { q: " cats " }) // 64 hex digits
 */
export function fingerprint(name: string, args: unknown, options?: FingerprintOptions): string {
  const nameLit = checkName(name);
  const [flags, kind, m, g] = optionParts(options);
  const selected = flags ? selectValue(args, options?.matchOn, options?.ignoreArgs) : args;
  return valueCall(flags | F_DIGEST, kind, nameLit, m, g, selected).digest;
}

/**
 * Fingerprint of a tool call whose args are JSON text, e.g. the `arguments`
 * string an LLM returns. No JSON.parse on the host: the core reads the text.
 * @throws FingerprintError for malformed JSON (with the byte `offset`).
 */
export function fingerprintJSON(name: string, argsJSON: string | Uint8Array, options?: FingerprintOptions): string {
  const nameLit = checkName(name);
  const [flags, kind, m, g] = optionParts(options);
  return call(flags | F_DIGEST, kind, nameLit, m, g, checkText(argsJSON)).digest;
}

/** Canonical JSON text of a value (no selection). @throws FingerprintError as for fingerprint(). */
export function canonicalJSON(value: unknown): string {
  return valueCall(F_TEXT, "", "", "", "", value).text;
}

/** Canonical JSON text of JSON text (no selection). @throws FingerprintError with the byte `offset`. */
export function canonicalizeJSON(text: string | Uint8Array): string {
  return call(F_TEXT, "", "", "", "", checkText(text)).text;
}

function checkText(t: unknown): string | Uint8Array {
  if (typeof t === "string" || t instanceof Uint8Array) return t;
  throw new FingerprintError("invalid-argument", `JSON text must be a string or Uint8Array, got ${t === null ? "null" : typeof t}`);
}

export { FingerprintError } from "./errors.js";
export type { FingerprintErrorCode, FingerprintErrorDetails } from "./errors.js";
export { diff, explain, explainCall, explainJSON, nearest } from "./diagnostics.js";
export type { Call, Change, ChangeKind, Diff, Explanation, NearestMatch, Selection } from "./diagnostics.js";
