// Independent oracle for fingerprint contract v1 (test-only, internal).
//
// Follows the contract page (../shared/seed/000_19313c6811672cb5.txt) and
// its binding resolutions D1–D19 (../shared/contract-decisions.md), and
// nothing else: it shares no code with assembly/ or src/. V8 is the authority
// for every hard part — String(x) is ECMA-262 Number::toString (D7),
// String.prototype.trim is the D4 trim set, JSON.stringify(str) is ES2019
// well-formed escaping (D6), JSON.parse is strict RFC 8259 with nearest-double
// numbers and last-duplicate-wins (D11–D13), node:crypto is FIPS 180-4 (D18).
// Written to be obviously correct; speed does not matter here.
//
// Decisions this file makes where the contract is silent (the shared vectors
// pin each one, so every implementation follows the same choice):
// - A U+FEFF character at the start of *string* input is an error: RFC 8259
//   whitespace is only space, tab, LF and CR, and D12's BOM tolerance speaks
//   of byte input only. A leading EF BB BF in *byte* input is skipped.
// - A high surrogate followed by a low one forms one code point however each
//   half arrived (escape, three-byte encoding, or one of each): D14 says "as
//   in UTF-16", and in UTF-16 adjacency is all that matters.
// - Selection (D9/D10) applies to plain objects only (prototype
//   Object.prototype or null) and looks at own enumerable string keys, the
//   keys canonicalization would see. A matchOn/ignoreArgs of undefined or
//   null counts as "not declared".

import { createHash } from "node:crypto";

export const FINGERPRINT_VERSION = 1;
export const DEFAULT_KIND = "tool_call";

/** Every error this oracle raises on bad input. */
export class OracleError extends Error {
  constructor(message) {
    super(message);
    this.name = "OracleError";
  }
}

// ---------------------------------------------------------------------------
// Key order (D5): compare by Unicode code point. Array.from(string) iterates
// code points; a lone surrogate comes out alone and codePointAt gives its own
// value, which is exactly "sorts by its own value as if it were a code point".

/** Negative, zero or positive as `a` sorts before, with, or after `b` (D5). */
export function compareCodePoints(a, b) {
  const ca = Array.from(a, (c) => c.codePointAt(0));
  const cb = Array.from(b, (c) => c.codePointAt(0));
  const n = Math.min(ca.length, cb.length);
  for (let i = 0; i < n; i++) {
    if (ca[i] !== cb[i]) return ca[i] - cb[i];
  }
  return ca.length - cb.length;
}

// ---------------------------------------------------------------------------
// Host values (D1–D8, D15).

/** A JS path segment in the notation of D15: `.name` or `[3]` or `["a b"]`. */
function memberPath(path, key) {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function isDate(value) {
  try {
    Date.prototype.getTime.call(value); // throws unless value has [[DateValue]]
    return true;
  } catch {
    return false;
  }
}

function isPlainObject(value) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function describe(value) {
  if (typeof value === "bigint") return "BigInt";
  const tag = Object.prototype.toString.call(value).slice(8, -1);
  const ctor = value?.constructor?.name;
  return ctor && ctor !== tag ? `${tag} (${ctor})` : tag;
}

const DROP = Symbol("drop");

/**
 * Canonical text of one value, or DROP when the contract drops it (null,
 * undefined, NaN, ±Infinity, functions, symbols: D1, D2). `holderKey` is the
 * key handed to toJSON, as JSON.stringify does; `stack` holds the objects
 * on the current path for cycle detection.
 */
function canon(value, holderKey, path, stack, toJSONApplied) {
  switch (typeof value) {
    case "undefined":
    case "function":
    case "symbol":
      return DROP;
    case "boolean":
      return value ? "true" : "false";
    case "number":
      // D1: non-finite is null; D7: String(x) is Number::toString, and
      // String(-0) is "0".
      return Number.isFinite(value) ? String(value) : DROP;
    case "string":
      // D3/D4 trim, then D6 escaping.
      return JSON.stringify(value.trim());
    case "bigint":
      throw new OracleError(`unsupported value BigInt at ${path}`);
  }
  if (value === null) return DROP;
  // From here value is an object (typeof "object").
  if (isDate(value)) {
    const t = Date.prototype.getTime.call(value);
    return Number.isFinite(t) ? JSON.stringify(Date.prototype.toISOString.call(value)) : DROP;
  }
  if (!toJSONApplied && typeof value.toJSON === "function") {
    // D15: the result is used, as JSON.stringify does (applied once per value).
    return canon(value.toJSON(holderKey), holderKey, path, stack, true);
  }
  if (stack.includes(value)) throw new OracleError(`circular reference at ${path}`);
  if (Array.isArray(value)) {
    stack.push(value);
    const parts = [];
    for (let i = 0; i < value.length; i++) {
      const t = canon(value[i], String(i), `${path}[${i}]`, stack, false);
      if (t !== DROP) parts.push(t);
    }
    stack.pop();
    return `[${parts.join(",")}]`;
  }
  if (isPlainObject(value)) {
    stack.push(value);
    const keys = Object.keys(value).sort(compareCodePoints);
    const parts = [];
    for (const k of keys) {
      const t = canon(value[k], k, memberPath(path, k), stack, false);
      if (t !== DROP) parts.push(`${JSON.stringify(k)}:${t}`);
    }
    stack.pop();
    return `{${parts.join(",")}}`;
  }
  throw new OracleError(`unsupported value ${describe(value)} at ${path}`);
}

/**
 * Canonical JSON text of a JS value (contract "Canonical JSON", D1–D8, D15).
 * A dropped top-level value prints `null` (D2). Throws OracleError naming the
 * path (`args.items[3].when`) for values D15 rejects.
 */
export function canonicalValue(value, rootPath = "args") {
  const t = canon(value, "", rootPath, [], false);
  return t === DROP ? "null" : t;
}

// ---------------------------------------------------------------------------
// Selection (D9, D10).

function checkKeyList(list, what) {
  if (!Array.isArray(list) || !list.every((k) => typeof k === "string")) {
    throw new OracleError(`${what} must be an array of strings`);
  }
}

/**
 * select(args) of the contract: matchOn (when declared, even empty) keeps
 * only the listed top-level keys; else ignoreArgs drops the listed ones; else
 * args as is. Non-objects pass through untouched (D10). Unselected values are
 * never read (D9).
 */
export function select(args, { matchOn, ignoreArgs } = {}) {
  const hasMatchOn = matchOn !== undefined && matchOn !== null;
  const hasIgnore = ignoreArgs !== undefined && ignoreArgs !== null;
  if (hasMatchOn) checkKeyList(matchOn, "matchOn");
  if (hasIgnore) checkKeyList(ignoreArgs, "ignoreArgs");
  if (!isPlainObject(args)) return args;
  const out = Object.create(null);
  const put = (k) => Object.defineProperty(out, k, { value: args[k], enumerable: true, writable: true, configurable: true });
  const present = (k) => Object.prototype.propertyIsEnumerable.call(args, k);
  if (hasMatchOn) {
    for (const k of matchOn) if (present(k)) put(k);
    return out;
  }
  if (hasIgnore) {
    const drop = new Set(ignoreArgs);
    for (const k of Object.keys(args)) if (!drop.has(k)) put(k);
    return out;
  }
  return args;
}

// ---------------------------------------------------------------------------
// JSON text input (D11–D14).

/**
 * Decodes bytes as UTF-8 generalised to carry surrogates (D14): the ranges of
 * RFC 3629 §4, except that ED may be followed by A0–BF (an encoded surrogate,
 * as Python's "surrogatepass" writes). Overlong forms, C0/C1/F5–FF, lone or
 * missing continuation bytes and code points above U+10FFFF are errors. The
 * result is a JS string of UTF-16 code units, so an encoded high surrogate
 * followed by an encoded low one is one code point. A leading EF BB BF is
 * skipped (D12, byte input only).
 */
export function decodeWtf8(bytes) {
  const units = [];
  let i = 0;
  const n = bytes.length;
  if (n >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
  while (i < n) {
    const b0 = bytes[i];
    let len, lo, hi, cp;
    if (b0 < 0x80) {
      units.push(b0);
      i++;
      continue;
    } else if (b0 >= 0xc2 && b0 <= 0xdf) {
      [len, lo, hi, cp] = [2, 0x80, 0xbf, b0 & 0x1f];
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
      // E0: A0–BF (no overlong); E1–EF: 80–BF (ED included: surrogates allowed).
      [len, lo, hi, cp] = [3, b0 === 0xe0 ? 0xa0 : 0x80, 0xbf, b0 & 0x0f];
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      // F0: 90–BF (no overlong); F4: 80–8F (nothing above U+10FFFF).
      [len, lo, hi, cp] = [4, b0 === 0xf0 ? 0x90 : 0x80, b0 === 0xf4 ? 0x8f : 0xbf, b0 & 0x07];
    } else {
      throw new OracleError(`invalid UTF-8 lead byte 0x${b0.toString(16)} at byte ${i}`);
    }
    for (let k = 1; k < len; k++) {
      const b = bytes[i + k];
      const [l, h] = k === 1 ? [lo, hi] : [0x80, 0xbf];
      if (b === undefined) throw new OracleError(`truncated UTF-8 sequence at byte ${i}`);
      if (b < l || b > h) throw new OracleError(`invalid UTF-8 continuation 0x${b.toString(16)} at byte ${i + k}`);
      cp = (cp << 6) | (b & 0x3f);
    }
    if (cp >= 0x10000) {
      units.push(0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff));
    } else {
      units.push(cp);
    }
    i += len;
  }
  let s = "";
  for (let j = 0; j < units.length; j += 4096) s += String.fromCharCode(...units.slice(j, j + 4096));
  return s;
}

/**
 * Replaces the bare tokens NaN, Infinity and -Infinity outside strings by
 * `null` (D12 tolerance). Knows string boundaries and escapes, so `"NaN"` and
 * `"a\"NaN"` are left alone. Replacing by another literal keeps every
 * malformed neighbourhood malformed (`NaN1` → `null1`, `-NaN` → `-null`).
 */
export function replaceNonFiniteTokens(text) {
  let out = "";
  let i = 0;
  let inString = false;
  while (i < text.length) {
    const c = text[i];
    if (inString) {
      if (c === "\\") {
        out += text.slice(i, i + 2);
        i += 2;
        continue;
      }
      if (c === '"') inString = false;
      out += c;
      i++;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
      i++;
      continue;
    }
    const token = ["-Infinity", "Infinity", "NaN"].find((t) => text.startsWith(t, i));
    if (token) {
      out += "null";
      i += token.length;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

/**
 * Parses args given as JSON text (D11–D14): a string, or bytes (Uint8Array)
 * decoded by decodeWtf8. Throws OracleError on anything D12 rejects.
 * A string is taken as is: a leading U+FEFF *character* is not skipped and,
 * not being RFC 8259 whitespace, is an error (the BOM tolerance of D12 is for
 * byte input only). Lone surrogates in a string are kept, like escaped ones.
 */
export function parseJSONText(input) {
  let text;
  if (typeof input === "string") text = input;
  else if (input instanceof Uint8Array) text = decodeWtf8(input);
  else throw new OracleError("JSON text must be a string or a Uint8Array");
  if (text.length === 0) throw new OracleError("empty JSON text");
  try {
    return JSON.parse(replaceNonFiniteTokens(text));
  } catch (e) {
    throw new OracleError(`invalid JSON text: ${e.message}`);
  }
}

// ---------------------------------------------------------------------------
// The digest (D17, D18).

export function sha256Hex(text) {
  if (!text.isWellFormed()) throw new OracleError("preimage is not well-formed UTF-16");
  return createHash("sha256").update(Buffer.from(text, "utf8")).digest("hex");
}

function checkLabel(value, what) {
  if (typeof value !== "string" || value.length === 0) throw new OracleError(`${what} must be a non-empty string`);
  if (!value.isWellFormed()) throw new OracleError(`${what} contains a lone surrogate`);
}

function digest(kind, name, selected) {
  checkLabel(kind, "kind");
  if (kind.includes("\n")) throw new OracleError("kind must not contain a newline");
  checkLabel(name, "name");
  const canonical = canonicalValue(selected);
  return { canonical, fingerprint: sha256Hex(`${kind}\n${name}\n${canonical}`) };
}

/** Fingerprint of a call with host-value args. Returns {canonical, fingerprint}. */
export function fingerprintOf({ kind = DEFAULT_KIND, name, args, matchOn, ignoreArgs }) {
  return digest(kind, name, select(args, { matchOn, ignoreArgs }));
}

/** Fingerprint of a call whose args arrive as JSON text (string or bytes). */
export function fingerprintOfText({ kind = DEFAULT_KIND, name, argsJSON, matchOn, ignoreArgs }) {
  // Validate the labels first so a bad name is reported even with bad text.
  checkLabel(kind, "kind");
  checkLabel(name, "name");
  return digest(kind, name, select(parseJSONText(argsJSON), { matchOn, ignoreArgs }));
}
