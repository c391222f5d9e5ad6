/**
 * The public API, shared by every runtime entry. Fingerprint contract v1:
 * sha256(kind "\n" name "\n" canonicalJSON(select(args))), lowercase hex.
 * @module
 */
import { F_DIGEST, F_TEXT, W_NON_NEGATIVE, W_OBJECT, W_STRING, W_TEXT } from "./_abi.gen.js";
import { callText, callValue, retainBytes, setRetain } from "./core.js";
import { NONE, configured, readLimits, setConfigured } from "./_limits.js";
import { applyMask, keepMask, selectableKeys } from "./select.js";
import { hostError, typeWord } from "./errors.js";
import { optionParts } from "./_options.js";

/** The contract version these fingerprints follow (D18). */
export { FINGERPRINT_VERSION } from "./_abi.gen.js";

// The option records: declared once for every host (interface/records.json).
export type { FingerprintOptions, Settings } from "./_records.gen.js";
import type { FingerprintOptions, Settings } from "./_records.gen.js";

export type { Limits } from "./_limits.js";


/**
 * Process-wide settings, for servers: limits every call gets (a request over
 * a limit fails with FingerprintError "limit-exceeded" before the memory is
 * taken) and how much core memory is kept between calls. Defaults: no limits,
 * 64 MiB retained.
 * @example configure({ limits: { maxInputBytes: 1 << 20, maxDepth: 64, maxMembers: 1000 } })
 */
export function configure(settings: Settings): void {
  if (typeof settings !== "object" || settings === null) throw hostError(W_OBJECT, ["settings", typeWord(settings)]);
  const { limits, retainMemoryBytes } = settings;
  const retain = retainMemoryBytes === undefined ? retainBytes : retainMemoryBytes;
  if (typeof retain !== "number" || !(retain >= 0)) throw hostError(W_NON_NEGATIVE, ["retainMemoryBytes", String(retain)]);
  const l = readLimits(limits, configured); // checked before anything changes
  setRetain(retain);
  setConfigured(l);
}

// The last name's literal: agents call a handful of tools, often the same one repeatedly.
let lastName = "";
let lastNameLiteral = '""';

function checkName(name: unknown): string {
  if (typeof name !== "string") throw hostError(W_STRING, ["name", typeWord(name)]);
  if (name !== lastName) {
    lastNameLiteral = JSON.stringify(name);
    lastName = name;
  }
  return lastNameLiteral;
}

/**
 * Fingerprint of a tool call given as a JavaScript value.
 * @throws FingerprintError for values D15 rejects (with `path`), or a bad kind/name.
 * @example fingerprint("search", { q: " cats " }) // 64 hex digits
 */
export function fingerprint(name: string, args: unknown, options?: FingerprintOptions): string {
  const nameLit = checkName(name);
  if (options === undefined) return callValue(F_DIGEST, "", nameLit, args, NONE);
  const o = optionParts(options);
  // Selected before any toJSON runs (D9, D10): the core says which keys to
  // walk, and gets only those; it must not select again, or a toJSON's
  // result would be selected from too.
  const keys = o.flags ? selectableKeys(args) : null;
  if (keys !== null) {
    const mask = keepMask(o.flags, o.match, o.ignore, keys);
    args = applyMask(args as Record<string, unknown>, keys, mask);
  }
  return callValue(F_DIGEST, o.kind, nameLit, args, o.limits);
}

/**
 * Fingerprint of a tool call whose args are JSON text, e.g. the `arguments`
 * string an LLM returns. No JSON.parse on the host: the core reads the text.
 * @throws FingerprintError for malformed JSON (with the byte `offset`).
 */
export function fingerprintJSON(name: string, argsJSON: string | Uint8Array, options?: FingerprintOptions): string {
  const nameLit = checkName(name);
  const o = optionParts(options);
  return callText(o.flags | F_DIGEST, o.kind, nameLit, o.match, o.ignore, checkText(argsJSON), o.limits);
}

/** Canonical JSON text of a value (no selection). @throws FingerprintError as for fingerprint(). */
export function canonicalJSON(value: unknown): string {
  return callValue(F_TEXT, "", "", value);
}

/** Canonical JSON text of JSON text (no selection). @throws FingerprintError with the byte `offset`. */
export function canonicalizeJSON(text: string | Uint8Array): string {
  return callText(F_TEXT, "", "", "", "", checkText(text));
}

function checkText(t: unknown): string | Uint8Array {
  if (typeof t === "string" || t instanceof Uint8Array) return t;
  throw hostError(W_TEXT, [typeWord(t)]);
}

export { init, initDiagnostics } from "./init.js";
export { FingerprintError } from "./errors.js";
export type { FingerprintErrorCode, FingerprintErrorDetails } from "./errors.js";
export { fingerprintBatch, fingerprintBatchJSON } from "./batch.js";
export type { BatchOptions, TextColumn } from "./batch.js";
export { diff, explain, explainCall, explainCalls, explainJSON, fingerprintCall, nearest } from "./explain.js";
export { Recording } from "./replay.js";
export type { BadLine, RecordedCall, RecordingOptions, ReplayAnswer, ReplayHit, ReplayMiss, UnusedCall } from "./replay.js";
export type { CallOptions, ToolDeclaration, ToolDeclarations } from "./tools.js";
export type { Call, Change, ChangeKind, Diff, Explanation, NearestMatch, ProviderCall, Selection } from "./explain.js";
