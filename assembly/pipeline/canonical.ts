// The canonical writer: the one place the canonical JSON rules live. Internal.
//
//   D1  null (and NaN/±Infinity, already null on the tape) is dropped from
//       objects and arrays;                      D2  a null top level is "null"
//   D3  string values are trimmed at every depth, keys never;
//   D4  with exactly the ECMAScript trim set (utf8.ts);
//   D5  keys in code-point order (= WTF-8 byte order, json/sort.ts);
//   D6  JSON.stringify escaping: \" \\ \b \t \n \f \r, other C0 as \u00xx,
//       lone surrogates as \udxxx (lowercase), everything else raw;
//   D7  numbers as ECMAScript Number::toString (num/dtoa.ts), -0 → 0;
//   D8  empty containers stay; D13 the last duplicate key wins.
// No whitespace anywhere. Iterative, with an explicit frame stack (D19).
import { alloc, grow, releaseFrom } from "../base/arena";
import { hexDigit } from "../text/hex";
import { formatDecimal, formatDouble } from "../num/dtoa";
import { keepMember, selecting } from "./select";
import { trimLengthAt, trimLengthBefore } from "../text/utf8";
import { ensure, putAt, putByte, putBytes, sinkAdvance, sinkBase, sinkEnd } from "../json/sink";
import { entryNode, setEntry, sortMembers } from "../json/sort";
import {
  NUM_DECIMAL, NUM_LITERAL, NUM_NEGATIVE, STR_CLEAN, T_ARR, T_FALSE, T_NULL, T_NUM, T_OBJ, T_STR, T_TRUE,
  nodeA, nodeB, nodeF64, nodeFlags, nodeType, subtreeEnd,
} from "../json/tape";

/** Longest Number::toString output is 24 bytes ("-1.7976931348623157e+308"); 32 is dtoa's contract. */
const NUMBER_ROOM: usize = 32;

// Frame stack: per open container, 16 bytes:
//   +0 u32 type | (first ? 0x100 : 0)   +4 u32 cursor (ARR: next child; OBJ: index into list)
//   +8 u32 remaining                    +12 u32 list pointer (OBJ)
let frames: usize = 0;
let frameCap: u32 = 0;
let depth: u32 = 0;

/** Writes the canonical text of the tape value at root; false on OOM. */
export function writeCanonical(root: u32): bool {
  frameCap = 32;
  frames = alloc(<usize>frameCap << 4);
  if (frames == 0) return false;
  depth = 0;
  if (nodeType(root) == T_NULL) { // D2
    if (!ensure(4)) return false;
    putByte(0x6E); putByte(0x75); putByte(0x6C); putByte(0x6C);
    return true;
  }
  if (!openValue(root, true)) return false;
  while (depth > 0) {
    const f = frames + (<usize>(depth - 1) << 4);
    const remaining = load<u32>(f, 8);
    const type = load<u32>(f) & 0xFF;
    if (remaining == 0) {
      if (!ensure(1)) return false;
      putByte(type == T_OBJ ? 0x7D : 0x5D);
      depth--;
      if (type == T_OBJ) releaseList(<usize>load<u32>(f, 12));
      continue;
    }
    store<u32>(f, remaining - 1, 8);
    const cursor = load<u32>(f, 4);
    let child: u32;
    let key: u32 = 0;
    if (type == T_ARR) {
      child = cursor;
      store<u32>(f, subtreeEnd(child), 4);
    } else {
      key = entryNode(<usize>load<u32>(f, 12), cursor);
      child = key + 1;
      store<u32>(f, cursor + 1, 4);
    }
    if (nodeType(child) == T_NULL) continue; // D1
    const head = load<u32>(f);
    const comma: usize = (head & 0x100) == 0 ? 1 : 0;
    if (comma == 0) store<u32>(f, head & 0xFF);
    if (type == T_OBJ && (nodeFlags(key) & STR_CLEAN) != 0) {
      // The common key: `,"key":` in one step (no escapes, never trimmed).
      const kp = <usize>nodeB(key), kn = <usize>nodeA(key);
      if (!ensure(kn + 4)) return false;
      const o = sinkEnd();
      store<u8>(o, 0x2C);
      store<u8>(o + comma, 0x22);
      putAt(o + comma + 1, kp, kn);
      store<u16>(o + comma + 1 + kn, 0x3A22); // '"', ':'
      sinkAdvance(comma + kn + 3);
    } else {
      if (!ensure(1)) return false;
      if (comma != 0) putByte(0x2C);
      if (type == T_OBJ) {
        if (!writeString(<usize>nodeB(key), <usize>nodeA(key), false, false)) return false;
        if (!ensure(1)) return false;
        putByte(0x3A);
      }
    }
    if (!openValue(child, false)) return false;
  }
  return true;
}

/**
 * A closed object's sort entries (and the merge buffer after them) are dead;
 * inner objects closed before it, so they sit last in the arena unless the
 * frame stack or the kept output grew after them (then they stay until the
 * call ends). Keeps a document's scratch proportional to its depth.
 */
function releaseList(list: usize): void {
  if (list != 0 && frames < list && sinkBase() < list) releaseFrom(list);
}

/** Writes a scalar, or the opener of a container and pushes its frame. */
function openValue(i: u32, top: bool): bool {
  const t = nodeType(i);
  if (t == T_STR) return writeString(<usize>nodeB(i), <usize>nodeA(i), (nodeFlags(i) & STR_CLEAN) != 0, true);
  if (t == T_NUM) {
    if (!ensure(NUMBER_ROOM)) return false;
    const f = nodeFlags(i);
    if (f & NUM_LITERAL) putBytes(<usize>nodeB(i), <usize>nodeA(i));
    else if (f & NUM_DECIMAL) sinkAdvance(<usize>formatDecimal(nodeB(i), <i32>nodeA(i), (f & NUM_NEGATIVE) != 0, sinkEnd()));
    else sinkAdvance(<usize>formatDouble(nodeF64(i), sinkEnd()));
    return true;
  }
  if (t == T_TRUE || t == T_FALSE) {
    if (!ensure(5)) return false;
    if (t == T_TRUE) { putByte(0x74); putByte(0x72); putByte(0x75); putByte(0x65); }
    else { putByte(0x66); putByte(0x61); putByte(0x6C); putByte(0x73); putByte(0x65); }
    return true;
  }
  // Container.
  let cursor: u32 = i + 1;
  let count = nodeA(i);
  let list: usize = 0;
  if (t == T_OBJ) {
    list = alloc(<usize>count << 4);
    if (count > 0 && list == 0) return false;
    let n: u32 = 0;
    let k = i + 1;
    const select = top && selecting(); // selection applies to the top level only (D9)
    for (let m: u32 = 0; m < count; m++) {
      if (!select || keepMember(k)) {
        setEntry(list + (<usize>n << 4), k);
        n++;
      }
      k = subtreeEnd(k + 1);
    }
    const kept = sortMembers(list, n);
    if (kept < 0) return false;
    count = <u32>kept;
    cursor = 0;
  }
  if (!ensure(1)) return false;
  putByte(t == T_OBJ ? 0x7B : 0x5B);
  if (depth == frameCap) {
    const cap = frameCap << 1;
    const p = grow(frames, <usize>frameCap << 4, <usize>cap << 4);
    if (p == 0) return false;
    frames = p;
    frameCap = cap;
  }
  const f = frames + (<usize>depth << 4);
  store<u32>(f, <u32>t | 0x100);
  store<u32>(f, cursor, 4);
  store<u32>(f, count, 8);
  store<u32>(f, <u32>list, 12);
  depth++;
  return true;
}

/**
 * Writes the WTF-8 bytes [p, p + n) as a JSON string literal with the D6
 * escaping, untrimmed (for records about a call: explain.ts). The bytes
 * must not lie in the sink's buffer unless room for n * 6 + 2 was ensured.
 */
export function writeJsonString(p: usize, n: usize, clean: bool): bool {
  return writeStringSlow(p, n, clean, false);
}

/** Writes a JSON string (D6), trimming first when it is a value (D3, D4). */
@inline function writeString(p: usize, n: usize, clean: bool, trim: bool): bool {
  // Fast path: a clean string (no escapes, quotes, controls or surrogates)
  // that needs no trimming is copied as it is.
  if (clean && (!trim || n == 0 || (isVisibleAscii(load<u8>(p)) && isVisibleAscii(load<u8>(p + n - 1))))) {
    if (!ensure(n + 2)) return false;
    putByte(0x22);
    putBytes(p, n);
    putByte(0x22);
    return true;
  }
  return writeStringSlow(p, n, clean, trim);
}

function writeStringSlow(p: usize, n: usize, clean: bool, trim: bool): bool {
  // Most values start and end with a visible ASCII byte: nothing to trim.
  if (trim && n > 0 && !(isVisibleAscii(load<u8>(p)) && isVisibleAscii(load<u8>(p + n - 1)))) {
    let k: i32;
    while (n > 0 && (k = trimLengthAt(p, p + n)) > 0) { p += <usize>k; n -= <usize>k; }
    while (n > 0 && (k = trimLengthBefore(p, p + n)) > 0) n -= <usize>k;
  }
  if (clean) { // no escapes, quotes, controls or surrogates: bytes as they are
    if (!ensure(n + 2)) return false;
    putByte(0x22);
    putBytes(p, n);
    putByte(0x22);
    return true;
  }
  // Worst case: every byte a control character → 6 bytes each.
  if (n > 0x2000_0000 || !ensure(n * 6 + 2)) return false;
  const start = sinkEnd();
  let o = start;
  store<u8>(o++, 0x22);
  const end = p + n;
  while (p < end) {
    const c = <u32>load<u8>(p);
    if (c >= 0x20 && c != 0x22 && c != 0x5C && c != 0xED) {
      store<u8>(o++, <u8>c);
      p++;
      continue;
    }
    if (c == 0xED) {
      if (load<u8>(p + 1) >= 0xA0) { // lone surrogate (pairs were joined by the reader, D14)
        const cu = (<u32>(load<u8>(p + 1) & 0x3F) << 6) | <u32>(load<u8>(p + 2) & 0x3F) | 0xD000;
        o = putEscapeU(o, cu);
        p += 3;
      } else {
        store<u8>(o++, 0xED);
        p++;
      }
      continue;
    }
    store<u8>(o++, 0x5C);
    if (c == 0x22 || c == 0x5C) store<u8>(o++, <u8>c);
    else if (c == 0x08) store<u8>(o++, 0x62);
    else if (c == 0x09) store<u8>(o++, 0x74);
    else if (c == 0x0A) store<u8>(o++, 0x6E);
    else if (c == 0x0C) store<u8>(o++, 0x66);
    else if (c == 0x0D) store<u8>(o++, 0x72);
    else { o--; o = putEscapeU(o, c); }
    p++;
  }
  store<u8>(o++, 0x22);
  sinkAdvance(o - start);
  return true;
}

/** Writes \uXXXX with lowercase hex (D6) at o; returns the new position. */
function putEscapeU(o: usize, cu: u32): usize {
  store<u8>(o, 0x5C);
  store<u8>(o + 1, 0x75);
  store<u8>(o + 2, <u8>hexDigit(cu >> 12)); // cu <= 0xFFFF: a control or a lone surrogate
  store<u8>(o + 3, <u8>hexDigit((cu >> 8) & 0xF));
  store<u8>(o + 4, <u8>hexDigit((cu >> 4) & 0xF));
  store<u8>(o + 5, <u8>hexDigit(cu & 0xF));
  return o + 6;
}

@inline function isVisibleAscii(c: u8): bool {
  return c > 0x20 && c < 0x80;
}
