// Strict RFC 8259 reader over UTF-8 bytes in linear memory, producing the
// tape (json/tape.ts). Internal.
//
// Contract rules applied while reading: D11 (numbers → nearest double; a
// non-finite result is null), D12 (strict grammar; a leading BOM in byte
// input and the bare tokens NaN/Infinity/-Infinity read as null), D13 (all
// duplicates are kept here; the writer keeps the last), D14 (lone
// surrogates stay lone; a high surrogate followed by a low one, escaped or
// WTF-8 encoded, joins into one code point).
// Iterative: nesting depth is bounded only by memory, never by the wasm
// stack (D19). Errors record a code and the byte offset from the text start.
import { alloc, grow } from "../base/arena";
import { depthAllowed, membersAllowed } from "../base/limits";
import {
  E_BAD_ESCAPE, E_BAD_NUMBER, E_CONTROL_CHAR, E_EMPTY, E_INVALID_UTF8,
  E_TRAILING, E_UNEXPECTED_CHAR, E_UNEXPECTED_END, fail,
} from "../base/errors";
import { parseDouble } from "../num/strtod";
import { SHORT_MAX_DIGITS, readShortDecimal } from "../num/decimal";
import { encodeWtf8, sequenceLength, surrogateAt } from "../text/utf8";
import {
  NUM_DECIMAL, NUM_LITERAL, NUM_NEGATIVE, STR_CLEAN, T_ARR, T_FALSE, T_NULL, T_NUM, T_OBJ, T_STR, T_TRUE,
  nodeA, nodeType, setNodeA, setNodeB, tapeLength, tapePush,
} from "./tape";

/** Small integer literals (<= 15 digits, exact in a double) are printed as written. */
const LITERAL_MAX_DIGITS: i32 = 15;

let textBase: usize = 0; // offsets in errors are relative to this
let textEnd: usize = 0;

// Result of scanString (module globals used as extra return values).
let strPtr: usize = 0;
let strLen: usize = 0;
let strClean: bool = false;

@inline function failAt(code: i32, p: usize): usize {
  fail(code, <i32>(p - textBase));
  return 0;
}

/** RFC 8259 whitespace: space, \t, \n, \r. Bits 32, 9, 10 and 13 of the mask;
 *  one compare settles every byte above space (most of what skipWs sees). */
@inline function isWs(c: u32): bool {
  return c <= 0x20 && ((<u64>0x100002600 >> <u64>c) & 1) != 0;
}

@inline function skipWs(p: usize): usize {
  const end = textEnd;
  // Separators are mostly followed by nothing or by one space (", " and ": "
  // of json.dumps and JSON.stringify(x, null, 1)): settled without the loop.
  if (p + 1 < end) {
    const c = <u32>load<u8>(p);
    if (c > 0x20) return p;
    if (c == 0x20 && <u32>load<u8>(p + 1) > 0x20) return p + 1;
  }
  while (p < end && isWs(load<u8>(p))) p++;
  return p;
}

@inline function isDigit(c: u32): bool {
  return c - 0x30 < 10;
}

/**
 * The position after the run of ASCII digits that starts at p, at most end.
 * Eight bytes per step (SWAR): per byte, its high nibble and the high nibble
 * of byte + 6 are both 3 exactly for '0'..'9', so x has a zero byte exactly
 * at each digit. A carry out of a byte >= 0xFA only disturbs later bytes,
 * and that byte is already a non-digit. Reads up to 7 bytes past end: memory
 * extends 16 bytes past every range handed out (arena.ts, SLACK).
 * Measured (wasmtime, medium payload): the fraction loop of a 17-digit double
 * one byte at a time was a fifth of parseText.
 */
@inline function skipDigits(p: usize, end: usize): usize {
  while (p < end) {
    const v = load<u64>(p);
    const x = ((v & 0xF0F0F0F0F0F0F0F0) | (((v + 0x0606060606060606) & 0xF0F0F0F0F0F0F0F0) >> 4)) ^ 0x3333333333333333;
    if (x != 0) {
      p += <usize>(ctz<u64>(x) >> 3);
      break;
    }
    p += 8;
  }
  return p < end ? p : end;
}

/**
 * Mask with the high bit set in each byte of v that is '"', '\\', < 0x20 or
 * >= 0x80 ("special"), using the SWAR "has a byte less than n" / "has a zero
 * byte" tests. Bits above the lowest set one may be false positives (borrow
 * propagation), but the lowest set bit is always a real special byte.
 */
@inline export function specialMask(v: u64): u64 {
  const ones: u64 = 0x0101010101010101;
  const q = v ^ 0x2222222222222222; // zero byte where '"'
  const b = v ^ 0x5C5C5C5C5C5C5C5C; // zero byte where '\\'
  const lt = (v - ones * 0x20) & ~v;
  const zq = (q - ones) & ~q;
  const zb = (b - ones) & ~b;
  return (lt | zq | zb | v) & 0x8080808080808080;
}

@inline function hexVal(c: u32): i32 {
  if (c - 0x30 < 10) return <i32>(c - 0x30);
  const l = c | 0x20;
  if (l - 0x61 < 6) return <i32>(l - 0x61 + 10);
  return -1;
}

/** Four hex digits at p → code unit, or -1. Precondition: p + 4 <= textEnd. */
function hex4(p: usize): i32 {
  const a = hexVal(load<u8>(p)), b = hexVal(load<u8>(p + 1));
  const c = hexVal(load<u8>(p + 2)), d = hexVal(load<u8>(p + 3));
  if ((a | b | c | d) < 0) return -1;
  return (a << 12) | (b << 8) | (c << 4) | d;
}

/**
 * Scans the string whose opening quote is at p; sets strPtr/strLen/strClean
 * to its decoded WTF-8 bytes. Returns the position after the closing quote,
 * or 0 on error. Clean strings (no escapes, no surrogates) are a slice of
 * the input; the others are decoded into the arena.
 */
@inline export function scanString(p: usize): usize {
  // The common string: plain bytes up to its closing quote, settled here
  // without a call (a call per key and per string value).
  let q = p + 1;
  const end = textEnd; // a local: read once, not per word
  while (q + 8 <= end) {
    const m = specialMask(load<u64>(q));
    if (m != 0) {
      q += <usize>(ctz<u64>(m) >> 3);
      if (load<u8>(q) != 0x22) break;
      strPtr = p + 1;
      strLen = q - p - 1;
      strClean = true;
      return q + 1;
    }
    q += 8;
  }
  return scanStringFrom(p, q);
}

/** scanString from q, where a byte at q may need a look (p: the opening quote). */
function scanStringFrom(p: usize, q: usize): usize {
  let clean = true;
  while (true) {
    // Skip plain bytes 8 at a time; land exactly on the first special byte.
    while (q + 8 <= textEnd) {
      const m = specialMask(load<u64>(q));
      if (m != 0) {
        q += <usize>(ctz<u64>(m) >> 3);
        break;
      }
      q += 8;
    }
    if (q >= textEnd) return failAt(E_UNEXPECTED_END, q);
    const c = <u32>load<u8>(q);
    if (c == 0x22) break;
    if (c == 0x5C) {
      clean = false;
      if (q + 1 >= textEnd) return failAt(E_UNEXPECTED_END, q + 1);
      const e = <u32>load<u8>(q + 1);
      if (e == 0x75) {
        if (q + 6 > textEnd) return failAt(E_UNEXPECTED_END, textEnd);
        if (hex4(q + 2) < 0) return failAt(E_BAD_ESCAPE, q);
        q += 6;
      } else if (e == 0x22 || e == 0x5C || e == 0x2F || e == 0x62 || e == 0x66 || e == 0x6E || e == 0x72 || e == 0x74) {
        q += 2;
      } else {
        return failAt(E_BAD_ESCAPE, q);
      }
      continue;
    }
    if (c < 0x20) return failAt(E_CONTROL_CHAR, q);
    if (c < 0x80) {
      q++;
      continue;
    }
    const n = sequenceLength(q, textEnd);
    if (n == 0) return failAt(E_INVALID_UTF8, q);
    if (c == 0xED && load<u8>(q + 1) >= 0xA0) clean = false; // WTF-8 surrogate: decode to join pairs
    q += n;
  }
  const start = p + 1;
  if (clean) {
    strPtr = start;
    strLen = q - start;
    strClean = true;
    return q + 1;
  }
  // Decoded text is never longer than its source: \uXXXX (6) → ≤ 3 bytes,
  // an escaped pair (12) → 4, an encoded pair (6) → 4.
  const buf = alloc(q - start);
  if (buf == 0) return 0;
  let o = buf;
  let r = start;
  while (r < q) {
    const c = <u32>load<u8>(r);
    if (c == 0x5C) {
      const e = <u32>load<u8>(r + 1);
      if (e == 0x75) {
        o = emitUnit(<u32>hex4(r + 2), buf, o);
        r += 6;
        continue;
      }
      let ch: u32 = e; // '"', '\\', '/'
      if (e == 0x62) ch = 0x08;
      else if (e == 0x66) ch = 0x0C;
      else if (e == 0x6E) ch = 0x0A;
      else if (e == 0x72) ch = 0x0D;
      else if (e == 0x74) ch = 0x09;
      store<u8>(o++, <u8>ch);
      r += 2;
    } else if (c == 0xED && load<u8>(r + 1) >= 0xA0) {
      o = emitUnit(surrogateAt(r), buf, o);
      r += 3;
    } else {
      store<u8>(o++, <u8>c);
      r++;
    }
  }
  strPtr = buf;
  strLen = o - buf;
  strClean = false;
  return q + 1;
}

/** Appends UTF-16 code unit cu; a low surrogate right after a high one joins it (D14). */
function emitUnit(cu: u32, buf: usize, o: usize): usize {
  if (cu - 0xDC00 < 0x400 && o - buf >= 3 && load<u8>(o - 3) == 0xED && (load<u8>(o - 2) & 0xF0) == 0xA0) {
    const hi = surrogateAt(o - 3);
    const cp = 0x10000 + ((hi - 0xD800) << 10) + (cu - 0xDC00);
    o -= 3;
    return o + encodeWtf8(cp, o);
  }
  return o + encodeWtf8(cu, o);
}

/** Matches the ASCII word w (length n) at p. */
function matchWord(p: usize, w: string, n: i32): bool {
  if (p + <usize>n > textEnd) return false;
  for (let i = 0; i < n; i++) {
    if (<u32>load<u8>(p + i) != <u32>w.charCodeAt(i)) return false;
  }
  return true;
}

/** Reads the number or number-like token at p; returns the position after it, or 0.
 *  Not inlined: inside parseText its digit loops ran with p and the memory base spilled to the stack. */
// @ts-ignore: decorator
@noinline function readNumber(p: usize): usize {
  const s = p;
  const end = textEnd; // a local: the digit loops below are hot, a global is reloaded per byte
  let neg = false;
  if (load<u8>(p) == 0x2D) {
    neg = true;
    p++;
    if (p < end && load<u8>(p) == 0x49) { // -Infinity (D12)
      if (!matchWord(p, "Infinity", 8)) return failAt(E_UNEXPECTED_CHAR, p);
      return tapePush(T_NULL, 0, 0, 0) < 0 ? 0 : p + 8;
    }
  }
  if (p >= end) return failAt(E_UNEXPECTED_END, p);
  const first = <u32>load<u8>(p);
  const digits0 = p;
  if (first == 0x30) {
    p++;
    if (p < end && isDigit(load<u8>(p))) return failAt(E_BAD_NUMBER, p); // leading zero
  } else if (isDigit(first)) {
    p = skipDigits(p + 1, end);
  } else {
    return failAt(E_BAD_NUMBER, p);
  }
  const intDigits = <i32>(p - digits0);
  // Digits from the first nonzero one on (trailing zeros included): an upper
  // bound of the significant digits, enough to skip readShortDecimal's scan
  // when it must fail (> 15); either path gives the same text (decimal.ts).
  let sigDigits = first == 0x30 ? 0 : intDigits;
  let literal = true;
  if (p < end && load<u8>(p) == 0x2E) {
    literal = false;
    p++;
    if (p >= end || !isDigit(load<u8>(p))) return failAt(p >= end ? E_UNEXPECTED_END : E_BAD_NUMBER, p);
    if (sigDigits == 0) {
      while (p < end && load<u8>(p) == 0x30) p++; // "0.000ddd": leading zeros are not significant
    }
    const lead = p;
    p = skipDigits(p, end);
    sigDigits += <i32>(p - lead);
  }
  if (p < end && (load<u8>(p) | 0x20) == 0x65) {
    literal = false;
    p++;
    if (p < end && (load<u8>(p) == 0x2B || load<u8>(p) == 0x2D)) p++;
    if (p >= end || !isDigit(load<u8>(p))) return failAt(p >= end ? E_UNEXPECTED_END : E_BAD_NUMBER, p);
    while (p < end && isDigit(load<u8>(p))) p++;
  }
  // "-0" is not a literal: it must print as "0" (D7).
  if (literal && intDigits <= LITERAL_MAX_DIGITS && !(neg && first == 0x30)) {
    return tapePush(T_NUM, NUM_LITERAL, <u32>(p - s), <u64>s) < 0 ? 0 : p;
  }
  // Fractions and exponents of at most 15 digits print from their own digits.
  const short = sigDigits <= SHORT_MAX_DIGITS ? readShortDecimal(s, <i32>(p - s)) : null;
  if (short) {
    const flags = neg && short.digits != 0 ? NUM_DECIMAL | NUM_NEGATIVE : NUM_DECIMAL;
    return tapePush(T_NUM, flags, <u32>short.e10, short.digits) < 0 ? 0 : p;
  }
  const v = parseDouble(s, <i32>(p - s));
  const ok = v - v == 0; // finite; D1: ±Infinity becomes null
  const r = ok ? tapePush(T_NUM, 0, 0, reinterpret<u64>(v)) : tapePush(T_NULL, 0, 0, 0);
  return r < 0 ? 0 : p;
}

/** Reads a scalar (string, number, literal) at p; returns the position after it, or 0. */
function readScalar(p: usize): usize {
  const c = <u32>load<u8>(p);
  if (c == 0x22) {
    const q = scanString(p);
    if (q == 0) return 0;
    return tapePush(T_STR, strClean ? STR_CLEAN : 0, <u32>strLen, <u64>strPtr) < 0 ? 0 : q;
  }
  if (c == 0x2D || isDigit(c)) return readNumber(p);
  let type: u8 = T_NULL;
  let n: i32 = 0;
  if (c == 0x74 && matchWord(p, "true", 4)) { type = T_TRUE; n = 4; }
  else if (c == 0x66 && matchWord(p, "false", 5)) { type = T_FALSE; n = 5; }
  else if (c == 0x6E && matchWord(p, "null", 4)) { n = 4; }
  else if (c == 0x4E && matchWord(p, "NaN", 3)) { n = 3; }           // D12
  else if (c == 0x49 && matchWord(p, "Infinity", 8)) { n = 8; }      // D12
  else return failAt(E_UNEXPECTED_CHAR, p);
  return tapePush(type, 0, 0, 0) < 0 ? 0 : p + <usize>n;
}

// Stack of open container node indices.
let stackBase: usize = 0;
let stackCap: u32 = 0;
let depth: u32 = 0;

function pushOpen(node: u32): bool {
  if (depth == stackCap) {
    const cap = stackCap * 2;
    const p = grow(stackBase, <usize>stackCap << 2, <usize>cap << 2);
    if (p == 0) return false;
    stackBase = p;
    stackCap = cap;
  }
  store<u32>(stackBase + (<usize>depth << 2), node);
  depth++;
  return true;
}

@inline function topOpen(): u32 {
  return load<u32>(stackBase + (<usize>(depth - 1) << 2));
}

/** Reads `"key" :` at p (after whitespace); returns position of the value (whitespace skipped), or 0. */
function readKey(p: usize): usize {
  if (p >= textEnd) return failAt(E_UNEXPECTED_END, p);
  if (load<u8>(p) != 0x22) return failAt(E_UNEXPECTED_CHAR, p);
  const q = scanString(p);
  if (q == 0) return 0;
  if (tapePush(T_STR, strClean ? STR_CLEAN : 0, <u32>strLen, <u64>strPtr) < 0) return 0;
  p = skipWs(q);
  if (p >= textEnd) return failAt(E_UNEXPECTED_END, p);
  if (load<u8>(p) != 0x3A) return failAt(E_UNEXPECTED_CHAR, p);
  return skipWs(p + 1);
}

/** Containers open around the text being parsed (a value stream's V_JSON item): they count toward maxDepth. */
let outerDepth: u32 = 0;

/** parseText for JSON text inside a value stream, `outer` containers deep (json/values.ts). */
export function parseInside(start: usize, len: usize, outer: u32): i32 {
  outerDepth = outer;
  const root = parseText(start, len, false);
  outerDepth = 0;
  return root;
}

/**
 * Parses the JSON text at [start, start + len), appending to the tape (see
 * tapeInit); returns the root's node index, or -1 on error.
 * allowBom: the text came as bytes, so a leading UTF-8 BOM is skipped (D12).
 */
export function parseText(start: usize, len: usize, allowBom: bool): i32 {
  textBase = start;
  textEnd = start + len;
  const end = textEnd; // a local for the loop's own checks (readKey and skipWs read the global)
  let p = start;
  if (allowBom && len >= 3 && load<u8>(p) == 0xEF && load<u8>(p + 1) == 0xBB && load<u8>(p + 2) == 0xBF) p += 3;
  const root = tapeLength();
  stackCap = 32;
  stackBase = alloc(<usize>stackCap << 2);
  if (stackBase == 0) return -1;
  depth = 0;
  p = skipWs(p);
  if (p >= end) {
    fail(E_EMPTY, <i32>(p - textBase));
    return -1;
  }
  while (true) {
    // p is at the first byte of a value (whitespace skipped).
    if (p >= end) { failAt(E_UNEXPECTED_END, p); return -1; }
    const c = <u32>load<u8>(p);
    if (c == 0x7B || c == 0x5B) {
      const node = tapePush(c == 0x7B ? T_OBJ : T_ARR, 0, 0, 0);
      if (node < 0 || !pushOpen(<u32>node)) return -1;
      if (!depthAllowed(depth + outerDepth, <i32>(p - textBase))) return -1;
      p = skipWs(p + 1);
      if (p >= end) { failAt(E_UNEXPECTED_END, p); return -1; }
      const d = <u32>load<u8>(p);
      if (d != c + 2) { // not an immediately closed {} / []
        setNodeA(<u32>node, 1);
        if (c == 0x7B && !membersAllowed(1, <i32>(p - textBase))) return -1;
        if (c == 0x7B) {
          p = readKey(p);
          if (p == 0) return -1;
        }
        continue;
      }
      // Empty container: fall through to the close handling below.
    } else {
      p = readScalar(p);
      if (p == 0) return -1;
      p = skipWs(p);
    }
    // After a value (or at an empty container's closer): close containers
    // until a comma asks for the next value.
    let next = false;
    while (depth > 0) {
      if (p >= end) { failAt(E_UNEXPECTED_END, p); return -1; }
      const top = topOpen();
      const d = <u32>load<u8>(p);
      const isObj = nodeType(top) == T_OBJ;
      if (d == 0x2C) {
        const count = nodeA(top) + 1;
        if (isObj && !membersAllowed(count, <i32>(p - textBase))) return -1;
        setNodeA(top, count);
        p = skipWs(p + 1);
        if (isObj) {
          p = readKey(p);
          if (p == 0) return -1;
        }
        next = true;
        break;
      }
      if (d == (isObj ? <u32>0x7D : <u32>0x5D)) {
        setNodeB(top, <u64>tapeLength());
        depth--;
        p = skipWs(p + 1);
        continue;
      }
      failAt(E_UNEXPECTED_CHAR, p);
      return -1;
    }
    if (next) continue;
    if (p != end) { failAt(E_TRAILING, p); return -1; }
    return <i32>root;
  }
  return -1; // unreachable
}

/** For the request header: decodes one JSON string literal spanning exactly [start, start+len). */
export function readStringLiteral(start: usize, len: usize): bool {
  textBase = start;
  textEnd = start + len;
  if (len < 2 || load<u8>(start) != 0x22) { failAt(E_UNEXPECTED_CHAR, start); return false; }
  const q = scanStringFrom(start, start + 1);
  if (q == 0) return false;
  if (q != textEnd) { failAt(E_TRAILING, q); return false; }
  return true;
}

export function lastStrPtr(): usize { return strPtr; }
export function lastStrLen(): usize { return strLen; }
