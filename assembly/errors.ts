// Error codes of the core ABI and the one place that records a failure.
// Internal. The core never traps on bad input (D19): every failure is a code
// plus the byte offset into the part of the request it concerns. The host
// SDKs map codes to messages (src/errors.ts, python/.../_errors.py); keep the
// three tables in the same order.

export const OK: i32 = 0;
export const E_UNEXPECTED_END: i32 = 1;      // text ends inside a value
export const E_UNEXPECTED_CHAR: i32 = 2;     // a byte that cannot start/continue a token here
export const E_INVALID_UTF8: i32 = 3;        // ill-formed or overlong UTF-8 (surrogates are allowed, D14)
export const E_BAD_ESCAPE: i32 = 4;          // backslash not followed by a JSON escape
export const E_CONTROL_CHAR: i32 = 5;        // raw U+0000–U+001F inside a string
export const E_BAD_NUMBER: i32 = 6;          // number not in RFC 8259 grammar (leading zero, "1.", "-")
export const E_TRAILING: i32 = 7;            // content after the top-level value
export const E_EMPTY: i32 = 8;               // no value at all
export const E_OUT_OF_MEMORY: i32 = 9;       // linear memory could not grow
export const E_BAD_KIND: i32 = 10;           // kind empty, contains "\n", or has a lone surrogate (D17)
export const E_BAD_NAME: i32 = 11;           // name empty or has a lone surrogate (D17)
export const E_BAD_SELECTION: i32 = 12;      // key list is not a JSON array of strings
export const E_BAD_REQUEST: i32 = 13;        // malformed request header (a host bug)
// 14 is taken by bad-call (the call reader, issue 9).
export const E_LIMIT_DEPTH: i32 = 15;        // nesting deeper than the maxDepth limit (limits.ts)
export const E_LIMIT_MEMBERS: i32 = 16;      // an object with more members than the maxMembers limit

/** Which part of the request an error offset refers to. */
export const PART_ARGS: i32 = 0;
export const PART_KIND: i32 = 1;
export const PART_NAME: i32 = 2;
export const PART_SELECTION: i32 = 3;

// The first failure of a call wins; run() resets these.
export let errCode: i32 = OK;
export let errOffset: i32 = -1;
export let errPart: i32 = PART_ARGS;

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
}

export function setPart(part: i32): void {
  errPart = part;
}
