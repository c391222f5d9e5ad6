// The core's ABI: the only exports of build/fingerprint.wasm. One call per
// fingerprint, pointer/length over linear memory, no imports.
//
//   reserve(n) -> ptr   input region with room for n bytes (0: out of memory).
//                       The address is fixed for the instance's lifetime; the
//                       memory buffer itself may move when memory grows.
//   run(len)  -> status 0, or an error code (errors.ts). Reads the request
//                       at ptr[0..len), fills the result block.
//   result()  -> ptr    the result block (fixed address).
//   limits(depth, members)  caps for the calls that follow (limits.ts).
//   version() -> 1, FINGERPRINT_VERSION = 1 (D18).
//
// Request (little-endian u32 header, then the parts back to back):
//   flags     bit0 DIGEST: hash kind "\n" name "\n" canonical (D17)
//             bit1 TEXT: return the canonical text
//             bit2 MATCH_ON present   bit3 IGNORE_ARGS present (D9: matchOn wins)
//             bit4 STRING_INPUT: args came from a host string, so no BOM (D12)
//             bit6 VALUES: args is a host-value stream (json/values.ts), not JSON text
//             bit10 MARSHAL: args is CPython marshal (version 4) of a plain value (json/marshal.ts)
//             bit5 PREIMAGE: return kind "\n" name "\n" canonical as the text,
//                  for hosts that hash large texts faster themselves (node:crypto)
//   kindLen   kind as a JSON string literal ("" = default "tool_call")
//   nameLen   name as a JSON string literal
//   matchLen  matchOn keys as a JSON array of strings
//   ignoreLen ignoreArgs keys as a JSON array of strings
//   argsLen   the args as JSON text (UTF-8 / WTF-8)
// Result block: +0 status, +4 error offset (bytes into that part, -1 none),
//   +8 part (0 args, 1 kind, 2 name, 3 selection), +12 text ptr, +16 text len,
//   +20 64 lowercase hex digest bytes.
import { arenaReset, reserveInput } from "./arena";
import { setLimits } from "./limits";
import {
  E_BAD_KIND, E_BAD_NAME, E_BAD_REQUEST, E_BAD_SELECTION, E_OUT_OF_MEMORY, OK, PART_ARGS,
  PART_KIND, PART_NAME, PART_SELECTION, errCode, errOffset, errPart, fail,
  resetErrors, setPart,
} from "./errors";
import { lastStrLen, lastStrPtr, parseText, readStringLiteral } from "./json/reader";
import { ensure, outBase, outPos, putBytes, sinkFinish, sinkInit } from "./json/sink";
import { T_ARR, nodeType, tapeInit } from "./json/tape";
import { readMarshal } from "./json/marshal";
import { readValues } from "./json/values";
import { writeCanonical } from "./json/writer";
import { SELECT_IGNORE, SELECT_MATCH_ON, SELECT_NONE, isKeyList, setSelection } from "./select";
import { sha256FinalHex, sha256Reset } from "./sha256";
import { hasSurrogate } from "./utf8";

export const FINGERPRINT_VERSION: i32 = 1;

const F_DIGEST: u32 = 1;
const F_TEXT: u32 = 2;
const F_MATCH_ON: u32 = 4;
const F_IGNORE: u32 = 8;
const F_STRING_INPUT: u32 = 16;
const F_PREIMAGE: u32 = 32;
const F_VALUES: u32 = 64;
const F_MARSHAL: u32 = 1024; // 128-512 are taken by issue #9's flags
const HEADER: usize = 24;

const RESULT: usize = memory.data(96);
const DEFAULT_KIND: usize = memory.data<u8>([0x74, 0x6F, 0x6F, 0x6C, 0x5F, 0x63, 0x61, 0x6C, 0x6C]); // "tool_call"
const DEFAULT_KIND_LEN: usize = 9;
const NEWLINE: usize = memory.data<u8>([0x0A]);

export function version(): i32 {
  return FINGERPRINT_VERSION;
}

export function reserve(n: usize): usize {
  return reserveInput(n);
}

export function result(): usize {
  return RESULT;
}

/** Sets the depth and member limits for the calls that follow (limits.ts; 0xFFFFFFFF = none). */
export function limits(depth: u32, members: u32): void {
  setLimits(depth, members);
}

export function run(len: usize): i32 {
  arenaReset();
  resetErrors(PART_ARGS);
  const status = process(reserveInput(0), len);
  store<i32>(RESULT, status);
  store<i32>(RESULT, status == OK ? -1 : errOffset, 4);
  store<i32>(RESULT, errPart, 8);
  store<u32>(RESULT, status == OK ? <u32>(outBase + textStart) : 0, 12);
  store<u32>(RESULT, status == OK ? <u32>(outPos - textStart) : 0, 16);
  return status;
}

function process(req: usize, len: usize): i32 {
  if (len < HEADER) return fail(E_BAD_REQUEST, -1);
  const flags = load<u32>(req);
  const kindLen = <usize>load<u32>(req, 4);
  const nameLen = <usize>load<u32>(req, 8);
  const matchLen = <usize>load<u32>(req, 12);
  const ignoreLen = <usize>load<u32>(req, 16);
  const argsLen = <usize>load<u32>(req, 20);
  // Sum in u64 so hostile lengths cannot wrap around.
  if (<u64>HEADER + <u64>kindLen + <u64>nameLen + <u64>matchLen + <u64>ignoreLen + <u64>argsLen != <u64>len) {
    return fail(E_BAD_REQUEST, -1);
  }
  const kindPtr = req + HEADER;
  const namePtr = kindPtr + kindLen;
  const matchPtr = namePtr + nameLen;
  const ignorePtr = matchPtr + matchLen;
  const argsPtr = ignorePtr + ignoreLen;
  const digest = (flags & F_DIGEST) != 0;
  const preimage = (flags & F_PREIMAGE) != 0;
  if (!sinkInit((flags & F_TEXT) != 0 || preimage, digest, kindLen + nameLen + argsLen + 16)) return failed();
  if (digest) sha256Reset();

  // D17: the prefix goes through the sink, so it is hashed (DIGEST) or
  // returned (PREIMAGE) exactly like the canonical text that follows.
  if (digest || preimage) {
    setPart(PART_KIND);
    if (kindLen == 0) {
      if (!emit(DEFAULT_KIND, DEFAULT_KIND_LEN)) return failed();
    } else {
      if (!readStringLiteral(kindPtr, kindLen)) return failed();
      const p = lastStrPtr(), n = lastStrLen();
      if (n == 0 || hasSurrogate(p, p + n) || hasNewline(p, n)) return fail(E_BAD_KIND, 0);
      if (!emit(p, n)) return failed();
    }
    if (!emit(NEWLINE, 1)) return failed();
    setPart(PART_NAME);
    if (!readStringLiteral(namePtr, nameLen)) return failed();
    const p = lastStrPtr(), n = lastStrLen();
    if (n == 0 || hasSurrogate(p, p + n)) return fail(E_BAD_NAME, 0);
    if (!emit(p, n)) return failed();
    if (!emit(NEWLINE, 1)) return failed();
  }
  textStart = preimage ? 0 : outPos;

  setPart(PART_ARGS);
  if (!tapeInit(argsLen)) return failed();
  const root = (flags & F_VALUES) != 0
    ? readValues(argsPtr, argsLen)
    : (flags & F_MARSHAL) != 0
    ? readMarshal(argsPtr, argsLen)
    : parseText(argsPtr, argsLen, (flags & F_STRING_INPUT) == 0);
  if (root < 0) return failed();

  let mode = SELECT_NONE;
  let listPtr = matchPtr, listLen = matchLen;
  if (flags & F_MATCH_ON) mode = SELECT_MATCH_ON;
  else if (flags & F_IGNORE) { mode = SELECT_IGNORE; listPtr = ignorePtr; listLen = ignoreLen; }
  if (mode != SELECT_NONE) {
    setPart(PART_SELECTION);
    const list = parseText(listPtr, listLen, false);
    if (list < 0) return failed();
    if (nodeType(<u32>list) != T_ARR || !isKeyList(<u32>list)) return fail(E_BAD_SELECTION, 0);
    if (!setSelection(mode, <u32>list)) return failed();
  } else {
    setSelection(SELECT_NONE, 0);
  }

  setPart(PART_ARGS);
  if (!writeCanonical(<u32>root)) return failed();
  sinkFinish();
  if (digest) sha256FinalHex(RESULT + 20);
  return OK;
}

/**
 * The recorded failure; a step that reports failure without recording one
 * (a size that cannot be represented) counts as out of memory, so a failed
 * call can never look successful.
 */
function failed(): i32 {
  return errCode != OK ? errCode : fail(E_OUT_OF_MEMORY, -1);
}

/** Offset of the returned text in the sink: after the prefix, unless PREIMAGE. */
let textStart: usize = 0;

@inline function emit(p: usize, n: usize): bool {
  if (!ensure(n)) return false;
  putBytes(p, n);
  return true;
}

function hasNewline(p: usize, n: usize): bool {
  for (let i: usize = 0; i < n; i++) if (load<u8>(p + i) == 0x0A) return true;
  return false;
}
