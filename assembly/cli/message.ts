// The message of a failed call, written by the core: the
// same words as the SDKs' FingerprintError (src/errors.ts, _errors.py), and
// for an error in JSON text its byte offset, line, column and the character
// there, escaped when it is invisible ("U+0000"). Internal.
import { PART_ARGS_JSON, PART_CALL, PART_KIND, PART_NAME, PART_SELECTION } from "../abi";
import { failCode, failDetailLen, failDetailPtr, failOffset, failPart, failTextLen, failTextPtr } from "../base/errors";
import { ensure, putByte } from "../json/sink";
import { writeJsonString } from "../pipeline/canonical";
import { sequenceLength } from "../text/utf8";
import { errorCode, errorReason } from "./_errors.gen";
import { bytes, decimal, lit } from "../json/emit";

/** The code word of the last failure ("unexpected-character"). */
export function codeWord(): string {
  return errorCode(failCode());
}

/** The last failure's message into the sink; [lineP, lineP+lineN) is the call's JSON text. */
export function writeMessage(lineP: usize, lineN: usize): bool {
  if (failDetailLen() > 0) return bytes(failDetailPtr(), failDetailLen());
  const part = failPart();
  if ((part == PART_CALL || part == PART_ARGS_JSON) && failOffset() >= 0) {
    if (part == PART_ARGS_JSON && !lit("argsJSON: ")) return false;
    if (!lit("invalid JSON: ") || !lit(errorReason(failCode()))) return false;
    return part == PART_CALL ? position(lineP, lineN, <usize>failOffset()) : position(failTextPtr(), failTextLen(), <usize>failOffset());
  }
  if (part == PART_SELECTION) return lit("invalid matchOn/ignoreArgs: ") && lit(errorReason(failCode()));
  if (part == PART_KIND) return lit("invalid kind: ") && lit(errorReason(failCode()));
  if (part == PART_NAME) return lit("invalid name: ") && lit(errorReason(failCode()));
  return lit(errorReason(failCode()));
}

/** " at byte N (line L, column C, X)": X the character at N, "end of text", or "byte 0xFF". */
export function position(p: usize, n: usize, off: usize): bool {
  if (off > n) off = n;
  let line: u32 = 1, col: u32 = 1;
  for (let i: usize = 0; i < off; i++) {
    const c = <u32>load<u8>(p + i);
    if (c == 0x0A) { line++; col = 1; } else if ((c & 0xC0) != 0x80) col++;
  }
  if (!lit(" at byte ") || !decimal(off) || !lit(" (line ") || !decimal(line) || !lit(", column ") || !decimal(col) || !lit(", ")) {
    return false;
  }
  if (off == n) return lit("end of text)");
  const c = <u32>load<u8>(p + off);
  let k: usize = 1, cp = c;
  if (c >= 0x80) {
    k = <usize>sequenceLength(p + off, p + n);
    if (k == 0) return lit("byte 0x") && hex(c, 2) && lit(")");
    cp = k == 2 ? (c & 0x1F) << 6 | (load<u8>(p + off + 1) & 0x3F)
      : k == 3 ? (c & 0x0F) << 12 | (<u32>(load<u8>(p + off + 1) & 0x3F) << 6) | (load<u8>(p + off + 2) & 0x3F)
      : (c & 0x07) << 18 | (<u32>(load<u8>(p + off + 1) & 0x3F) << 12) | (<u32>(load<u8>(p + off + 2) & 0x3F) << 6)
        | (load<u8>(p + off + 3) & 0x3F);
  }
  if (invisible(cp)) return lit("U+") && hex(cp, cp > 0xFFFF ? 5 : 4) && lit(")");
  return writeJsonString(p + off, k, false) && lit(")");
}

/** Characters a reader cannot see or tell apart: controls, spaces, format characters, surrogates. */
function invisible(cp: u32): bool {
  return cp <= 0x20 || (cp >= 0x7F && cp <= 0xA0) || cp == 0xAD || (cp >= 0x2000 && cp <= 0x200F)
    || (cp >= 0x2028 && cp <= 0x202F) || (cp >= 0x205F && cp <= 0x206F) || cp == 0x3000
    || (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFEFF || cp == 0x1680;
}

function hex(v: u32, digits: i32): bool {
  if (!ensure(<usize>digits)) return false;
  for (let i = digits - 1; i >= 0; i--) {
    const d = (v >> (<u32>i * 4)) & 15;
    putByte(d < 10 ? 0x30 + d : 0x41 + d - 10);
  }
  return true;
}
