// Reader for the host-value stream: the TypeScript SDK's fast path for
// values (D15), which skips JSON text altogether. Internal.
//
// The host walks its value once and writes tagged items into linear memory:
//   0x00 null (also undefined/function/symbol in arrays, NaN-like top level)
//   0x01 false   0x02 true
//   0x03 number: 8 bytes, little-endian f64 (non-finite becomes null: D1)
//   0x04 string, clean: u32 byte length + UTF-8 with no '"', '\\', C0 control
//        or lone surrogate (written as it is)
//   0x05 string, other: u32 byte length + WTF-8 (pairs already joined; lone
//        surrogates as ED A0..BF xx, D14), escaped by the writer (D6)
//   0x06 array: u32 count, then count items
//   0x07 object: u32 count, then count (string item, item) members
//   0x08 date: 8 bytes, little-endian f64 time value in ms, printed as
//        toISOString() prints it; NaN or beyond ±8.64e15 is null (D15, D16)
//   0x09 day: 8 bytes, little-endian f64 days since 1970-01-01, printed
//        YYYY-MM-DD (a Python date, D16)
//   0x0a JSON text: u32 byte length + UTF-8 JSON text, read by the JSON reader
//        (Go's json.RawMessage and encoding/json output, D20); its error offsets
//        count from the text's first byte
//   0x0b string in the tail: u32 length in UTF-16 units. The tail follows the
//        last item: these strings' UTF-8 (WTF-8 for lone surrogates) in stream
//        order, each followed by a 0 byte. A JavaScript host encodes them all
//        with one native call instead of a char loop per string; the 0 bytes
//        keep a lone surrogate at a string's end from pairing with the next.
// It builds the same tape as the JSON reader, so selection and the canonical
// writer are shared: the rules stay in one place. Numbers arrive as doubles,
// so no decimal parsing happens at all. A malformed stream is a host bug and
// fails with E_BAD_REQUEST at its byte offset; it is bounds-checked
// throughout, so it can never read outside the request.
import { alloc, grow } from "../base/arena";
import { V_ARRAY, V_DATE, V_DAY, V_FALSE, V_JSON, V_NULL, V_NUMBER, V_OBJECT, V_STR, V_STR_CLEAN, V_STR_TAIL, V_TRUE } from "../abi";
import { validTime, writeIsoDay, writeIsoTime } from "../text/isodate";
import { sequenceLength } from "../text/utf8";
import { parseInside, specialMask } from "./reader";
import { depthAllowed, membersAllowed } from "../base/limits";
import { E_BAD_REQUEST, fail } from "../base/errors";
import {
  STR_CLEAN, STR_TAIL, T_ARR, T_FALSE, T_NULL, T_NUM, T_OBJ, T_STR, T_TRUE,
  nodeA, nodeFlags, nodeType, setNodeB, setStr, tapeLength, tapePush,
} from "./tape";

// Open containers: node index and items still to read (8 bytes each).
let stack: usize = 0;
let stackCap: u32 = 0;

/** Reads the stream at [start, start + len) onto the tape; returns the root index, or -1. */
export function readValues(start: usize, len: usize): i32 {
  const end = start + len;
  let p = start;
  const root = tapeLength();
  stackCap = 32;
  stack = alloc(<usize>stackCap << 3);
  if (stack == 0) return -1;
  let depth: u32 = 0;
  // Items expected: 1 at top level; inside a container, tracked on the stack.
  let pending: u32 = 1;
  let inObject = false; // whether the next item is an object member (key first)
  let firstTail: i32 = -1; // the first tail string's node
  while (true) {
    if (pending == 0) {
      // Close the innermost container, or finish.
      if (depth == 0) break;
      depth--;
      const f = stack + (<usize>depth << 3);
      setNodeB(load<u32>(f), <u64>tapeLength());
      if (depth == 0) { pending = 0; continue; }
      const parent = stack + (<usize>(depth - 1) << 3);
      pending = load<u32>(parent, 4);
      inObject = nodeType(load<u32>(parent)) == T_OBJ;
      continue;
    }
    if (inObject) {
      // A member: its key must be a string item.
      if (p + 5 > end) return bad(p, start);
      const kt = load<u8>(p);
      if (kt != V_STR_CLEAN && kt != V_STR) return bad(p, start);
      const n = <usize>load<u32>(p + 1);
      if (n > end - p - 5) return bad(p, start);
      if (tapePush(T_STR, kt == V_STR_CLEAN ? STR_CLEAN : 0, <u32>n, <u64>(p + 5)) < 0) return -1;
      p += 5 + n;
    }
    pending--; // kept in this local; saved on the stack only when a child container opens
    if (p >= end) return bad(p, start);
    const t = load<u8>(p);
    if (t == V_NUMBER) {
      if (p + 9 > end) return bad(p, start);
      const v = load<f64>(p + 1);
      if ((v - v == 0 ? tapePush(T_NUM, 0, 0, reinterpret<u64>(v)) : tapePush(T_NULL, 0, 0, 0)) < 0) return -1;
      p += 9;
    } else if (t == V_STR_CLEAN || t == V_STR) {
      if (p + 5 > end) return bad(p, start);
      const n = <usize>load<u32>(p + 1);
      if (n > end - p - 5) return bad(p, start);
      if (tapePush(T_STR, t == V_STR_CLEAN ? STR_CLEAN : 0, <u32>n, <u64>(p + 5)) < 0) return -1;
      p += 5 + n;
    } else if (t == V_STR_TAIL) {
      if (p + 5 > end) return bad(p, start);
      const node = tapePush(T_STR, STR_TAIL, load<u32>(p + 1), 0);
      if (node < 0) return -1;
      if (firstTail < 0) firstTail = node;
      p += 5;
    } else if (t == V_ARRAY || t == V_OBJECT) {
      if (p + 5 > end) return bad(p, start);
      const count = load<u32>(p + 1);
      // Every item takes at least one byte: a count beyond the rest is malformed.
      if (<usize>count > end - p - 5) return bad(p, start);
      if (!depthAllowed(depth + 1, -1)) return -1;
      if (t == V_OBJECT && !membersAllowed(count, -1)) return -1;
      const node = tapePush(t == V_ARRAY ? T_ARR : T_OBJ, 0, count, 0);
      if (node < 0) return -1;
      p += 5;
      if (depth > 0) store<u32>(stack + (<usize>(depth - 1) << 3), pending, 4); // the parent's items left
      if (depth == stackCap) {
        const cap = stackCap << 1;
        const s = grow(stack, <usize>stackCap << 3, <usize>cap << 3);
        if (s == 0) return -1;
        stack = s;
        stackCap = cap;
      }
      const f = stack + (<usize>depth << 3);
      store<u32>(f, <u32>node);
      store<u32>(f, count, 4);
      depth++;
      pending = count;
      inObject = t == V_OBJECT;
      continue;
    } else if (t == V_DATE || t == V_DAY) {
      if (p + 9 > end) return bad(p, start);
      if (!date(load<f64>(p + 1), t == V_DAY)) return -1;
      p += 9;
    } else if (t == V_JSON) {
      if (p + 5 > end) return bad(p, start);
      const n = <usize>load<u32>(p + 1);
      if (n > end - p - 5) return bad(p, start);
      if (parseInside(p + 5, n, depth) < 0) return -1; // its nodes go on the tape as an item here; its depth counts from here
      p += 5 + n;
    } else if (t <= V_TRUE) {
      if (tapePush(t == V_NULL ? T_NULL : t == V_TRUE ? T_TRUE : T_FALSE, 0, 0, 0) < 0) return -1;
      p++;
    } else {
      return bad(p, start);
    }
    // A scalar: pending and inObject stand for the same container.
  }
  if (firstTail >= 0) p = placeTail(<u32>firstTail, p, end);
  if (p != end) return bad(p, start);
  return <i32>root;
}

/**
 * Gives the tail strings from node `i` on their bytes in [p, end): each takes
 * as many characters as its UTF-16 length, then its 0 byte. Returns where the
 * tail ends, or where it is malformed.
 */
function placeTail(i: u32, p: usize, end: usize): usize {
  for (const to = tapeLength(); i < to; i++) {
    if (nodeType(i) != T_STR || nodeFlags(i) != STR_TAIL) continue;
    const s = p;
    let units = nodeA(i);
    let clean = true;
    while (units != 0) {
      if (units >= 8 && p + 8 <= end) {
        const m = specialMask(load<u64>(p));
        if (m == 0) { p += 8; units -= 8; continue; }
        const k = <u32>ctz(m) >> 3; // plain ASCII before the first special byte
        p += k; units -= k;
      }
      if (p >= end) return p;
      const c = <u32>load<u8>(p);
      if (c < 0x80) {
        if (c < 0x20 || c == 0x22 || c == 0x5C) clean = false;
        p++; units--;
        continue;
      }
      const n = sequenceLength(p, end); // 0: not WTF-8 (a host bug)
      if (n == 0 || (n == 4 && units < 2)) return p;
      if (c == 0xED && load<u8>(p + 1) >= 0xA0) clean = false; // a lone surrogate (D14)
      p += <usize>n; units -= n == 4 ? 2 : 1; // a 4-byte sequence is a surrogate pair: two units
    }
    if (p >= end || load<u8>(p) != 0) return p;
    setStr(i, clean, <u32>(p - s), s);
    p++;
  }
  return p;
}

/** A date item: its ISO text as a clean string (the core prints dates), or null for an invalid one. */
function date(v: f64, day: bool): bool {
  if (!validTime(day ? v * 86_400_000 : v)) return tapePush(T_NULL, 0, 0, 0) >= 0;
  const s = alloc(32);
  if (s == 0) return false;
  const n = day ? writeIsoDay(<i64>Math.floor(v), s) : writeIsoTime(v, s);
  return tapePush(T_STR, STR_CLEAN, <u32>n, <u64>s) >= 0;
}

function bad(p: usize, start: usize): i32 {
  fail(E_BAD_REQUEST, <i32>(p - start));
  return -1;
}
