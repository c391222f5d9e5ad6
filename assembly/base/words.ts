// Every message the SDKs show, written here (the hosts build their error
// from a code, this text, an offset and a path, and never add words):
// - a core error's whole message (failureMessage, on the way out of a
//   request): its status's reason in the frame of the part it concerns,
//   "invalid JSON: <reason> at byte N" and the like (abi.ts W_JSON_AT…);
// - the errors a host raises itself (an argument of the wrong type, a value
//   D15/D16 rejects, its path), worded on request: the `word` export takes a
//   word id and its parameters (the argument's name, the host's word for a
//   type, a path) and writes the message. It touches only its own buffer,
//   never the input region or the arena, so a host may ask in the middle of
//   writing a request (a value walk that finds a cycle) without harm.
// The texts are one block of static data generated from abi.ts
// (_words.gen.ts): ASCII, [length][bytes] each, {k} a parameter, shared
// phrases written once. Internal.
import {
  PART_ARGS, PART_ARGS_JSON, PART_CALL, PART_KIND, PART_NAME, PART_SELECTION, PART_TOOLS, W_ARGS_JSON_AT, W_JSON_AT,
  W_KIND, W_NAME, W_SELECTION, W_TOOLS_AT, WORD_BUF_BYTES, WORD_OUT,
} from "../abi";
import { PHRASE_COUNT, STATUS_COUNT, WORD_COUNT, wordBlock } from "../_words.gen";
import { fail, setErrorDetail } from "./errors";

const BUF: usize = memory.data(WORD_BUF_BYTES);
// A core error's message and the digits of its offset (never the word buffer: a host may hold words there).
const FAILURE: usize = memory.data(512);
const DIGITS: usize = memory.data(12);
const REASON: usize = memory.data(256);

// The parameters of the message being written: up to five [pointer, length) pieces, two u32 each.
const PARAMS: usize = memory.data(40);
@inline function param(k: u32, p: usize, n: usize): void {
  store<u32>(PARAMS + 8 * <usize>(k - 1), <u32>p);
  store<u32>(PARAMS + 8 * <usize>(k - 1), <u32>n, 4);
}

/** Entry k of the block after its phrases (a status's reason at status - 1, word id w at STATUS_COUNT + w - 1); phrase j at j - PHRASE_COUNT. */
function entry(k: i32): usize {
  let p = wordBlock();
  for (let i = 0; i < k + PHRASE_COUNT; i++) p += 1 + <usize>load<u8>(p);
  return p;
}

/** Writes entry k at out, each parameter byte replaced by its piece; returns the end. */
function write(out: usize, k: i32): usize {
  const t = entry(k), n = <usize>load<u8>(t);
  for (let i: usize = 1; i <= n; i++) {
    const c = <u32>load<u8>(t + i);
    if (c >= 0x80) { // a phrase: plain text
      const ph = entry(<i32>c - 0x80 - PHRASE_COUNT), m = <usize>load<u8>(ph);
      memory.copy(out, ph + 1, m);
      out += m;
      continue;
    }
    if (c > 5) { store<u8>(out++, <u8>c); continue; }
    const at = PARAMS + 8 * <usize>(c - 1), m = <usize>load<u32>(at, 4);
    memory.copy(out, <usize>load<u32>(at), m);
    out += m;
  }
  return out;
}

/** The host's word buffer: parameters at [0, WORD_OUT), the message from WORD_OUT. */
export function wordBuf(): usize {
  return BUF;
}

/**
 * Words the error `id` (abi.ts W_*) with the parameters at the word buffer's
 * [0, len), separated by NUL bytes; the message goes to wordBuf() + WORD_OUT.
 * Returns its length (0 for an unknown id).
 */
export function word(id: u32, len: u32): u32 {
  if (id == 0 || id > <u32>WORD_COUNT || len > WORD_OUT) return 0;
  const end = BUF + <usize>len;
  let q = BUF;
  for (let k: u32 = 1; k <= 5; k++) {
    let r = q;
    while (r < end && load<u8>(r) != 0) r++;
    param(k, q, r - q);
    q = r < end ? r + 1 : r;
  }
  return <u32>(write(BUF + WORD_OUT, STATUS_COUNT + <i32>id - 1) - (BUF + WORD_OUT));
}

/**
 * The whole message of a failure that has none yet (a limit's and the call
 * readers' are written where they happen), as the failure's detail: the
 * status's reason, framed by the part it concerns.
 */
export function failureMessage(code: i32, offset: i32, part: i32): void {
  if (code <= 0 || code > STATUS_COUNT) return;
  param(1, REASON, write(REASON, code - 1) - REASON); // the reason, its phrases written out
  let v = <u32>offset, d = DIGITS + 12;
  do { store<u8>(--d, <u8>(0x30 + v % 10)); v /= 10; } while (v != 0);
  param(2, d, DIGITS + 12 - d);
  let frame: u32 = 0;
  if (offset >= 0 && (part == PART_ARGS || part == PART_CALL)) frame = W_JSON_AT;
  else if (offset >= 0 && part == PART_ARGS_JSON) frame = W_ARGS_JSON_AT;
  else if (offset >= 0 && part == PART_TOOLS) frame = W_TOOLS_AT;
  else if (part == PART_SELECTION) frame = W_SELECTION;
  else if (part == PART_KIND) frame = W_KIND;
  else if (part == PART_NAME) frame = W_NAME;
  const end = frame == 0 ? write(FAILURE, code - 1) : write(FAILURE, STATUS_COUNT + <i32>frame - 1);
  setErrorDetail(FAILURE, end - FAILURE);
}

/** Word `id`'s entry: its length byte, then its bytes (a list of names the core matches, abi.ts W_LIMIT_NAMES). */
export function wordText(id: u32): usize {
  return entry(STATUS_COUNT + <i32>id - 1);
}

/**
 * Records a failure with code `code` whose message is word `id` with two
 * parameters (at most 200 bytes together: the message buffer's room).
 * Returns the code, so callers can `return failWorded(...)`.
 */
export function failWorded(code: i32, id: u32, a: usize, an: usize, b: usize, bn: usize): i32 {
  fail(code, -1);
  param(1, a, an);
  param(2, b, bn);
  const end = write(FAILURE, STATUS_COUNT + <i32>id - 1);
  setErrorDetail(FAILURE, end - FAILURE);
  return code;
}
