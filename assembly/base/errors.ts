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

// The first failure of a call wins; run() resets these.
export let errCode: i32 = OK;
export let errOffset: i32 = -1;
export let errPart: i32 = PART_ARGS;
// An optional detail of the failure (UTF-8 bytes, e.g. the misspelt key);
// returned in the result block's text fields.
export let errDetailPtr: usize = 0;
export let errDetailLen: usize = 0;

export function setErrorDetail(p: usize, n: usize): void {
  errDetailPtr = p;
  errDetailLen = n;
}

/** Records a failure (first one wins) and returns its code, so callers can `return fail(...)`. */
export function fail(code: i32, offset: i32): i32 {
  if (errCode == OK) {
    errCode = code;
    errOffset = offset;
  }
  return code;
}

export function resetErrors(part: i32): void {
  errCode = OK;
  errOffset = -1;
  errPart = part;
  errDetailPtr = 0;
  errDetailLen = 0;
}

export function setPart(part: i32): void {
  errPart = part;
}

// The text an argsJSON / arguments error offset points into (diagnostics
// module only): the CLI engine shows the line, column and character there.
export let errTextPtr: usize = 0;
export let errTextLen: usize = 0;

export function setTextPart(part: i32, p: usize, n: usize): void {
  errPart = part;
  errTextPtr = p;
  errTextLen = n;
}
