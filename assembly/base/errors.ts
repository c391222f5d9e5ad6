// The one place that records a failure. Internal. The core never traps on
// bad input (D19): every failure is a code plus the byte offset into the part
// of the request it concerns. Codes and their messages are defined in abi.ts;
// the hosts' tables are generated from it (scripts/gen-abi.mjs).

import { OK, PART_ARGS } from "../abi";

// The codes themselves (E_*, PART_*) are defined once in abi.ts, with their
// messages; re-exported here so the core's modules import one place.
export {
  E_BAD_ESCAPE, E_BAD_KIND, E_BAD_NAME, E_BAD_NUMBER, E_BAD_REQUEST, E_BAD_SELECTION,
  E_CONTROL_CHAR, E_EMPTY, E_INVALID_UTF8, E_LIMIT_BYTES, E_LIMIT_DEPTH, E_LIMIT_MEMBERS, E_OUT_OF_MEMORY, E_TRAILING, E_UNEXPECTED_CHAR,
  E_UNEXPECTED_END, OK, PART_ARGS, PART_KIND, PART_NAME, PART_SELECTION,
} from "../abi";

// The current call's failure, owned by this file: only its functions below
// write it (the first failure of a call wins; startRequest() resets it), the
// rest of the core reads it through the accessors. Module globals rather than
// a record in memory: fail() is inlined at every failure site, and a field
// store costs 6 bytes where global.set costs 2 (a record measured +350-400 B
// of fingerprint.wasm, past its ceiling).
let code: i32 = OK;
let offset: i32 = -1;
let part: i32 = PART_ARGS;
// An optional detail (UTF-8 bytes, e.g. a limit's whole message), returned in the result block's text fields.
let detailPtr: usize = 0;
let detailLen: usize = 0;
// The text an argsJSON / arguments offset points into (engine only): the CLI shows the line and column there.
let textPtr: usize = 0;
let textLen: usize = 0;

/** OK, or the first failure's code (E_*). */
export function failCode(): i32 { return code; }
/** Byte offset into the part the failure concerns; -1 none. */
export function failOffset(): i32 { return offset; }
/** PART_* the offset refers to. */
export function failPart(): i32 { return part; }
export function failDetailPtr(): usize { return detailPtr; }
export function failDetailLen(): usize { return detailLen; }
export function failTextPtr(): usize { return textPtr; }
export function failTextLen(): usize { return textLen; }

export function setErrorDetail(p: usize, n: usize): void {
  detailPtr = p;
  detailLen = n;
}

/** Records a failure (first one wins) and returns its code, so callers can `return fail(...)`. */
export function fail(c: i32, at: i32): i32 {
  if (code == OK) {
    code = c;
    offset = at;
  }
  return c;
}

export function resetErrors(p: i32): void {
  code = OK;
  offset = -1;
  part = p;
  detailPtr = 0;
  detailLen = 0;
}

export function setPart(p: i32): void {
  part = p;
}

export function setTextPart(p: i32, at: usize, n: usize): void {
  part = p;
  textPtr = at;
  textLen = n;
}
