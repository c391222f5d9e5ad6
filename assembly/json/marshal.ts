// Reader for CPython's marshal format (version 4), the Python SDK's fast path
// for host values. Internal.
//
// `marshal.dumps(value, 4)` walks exactly dict, list, tuple, str, int, float,
// bool and None at C speed (about 14× faster than the json encoder on the
// benchmark's records) and refuses their subclasses and every other object,
// so the Python host keeps its JSON-text path for those. This reader accepts
// only the plain subset that maps onto JSON one to one:
//   'N' None   'F' False   'T' True
//   'i' i32 → number        'l' int of ≤ 4 15-bit digits (< 2^60) → nearest double
//   'g' binary f64 (non-finite → null, D1)
//   'u' 't' u32 length + UTF-8;  'a' 'A' u32 length + ASCII;  'z' 'Z' u8 length + ASCII
//   '[' '(' u32 count, ')' u8 count → array;  '{' key/value pairs up to '0' → object
//   'r' u32 index: a repeat of an earlier flagged item (marshal writes shared
//       objects once; a flag bit 0x80 on the type marks those it will refer
//       to later, in pre-order). A string or number is repeated as one node;
//       a finished list or dict by copying its subtree on the tape, as
//       json.dumps writes it again (D16: a value's meaning, not its identity).
// Everything else fails with E_BAD_REQUEST at its byte offset, and the host
// then takes its JSON-text path, which gives the exact D16 answer or the
// error with a path: a set, bytes, complex, code object, an int of 60 bits or
// more, a str with a surrogate (marshal writes the two halves of a pair
// separately; the text path joins them, D14), a dict key that is not a str
// (int/float/bool/None keys have D16 spellings), and a repeat of a container
// still open (a cycle: D16's error names its path).
//
// Copies keep the reader linear in its input: they may add at most
// COPY_PER_BYTE nodes per stream byte (plus COPY_FREE). Beyond that (a
// reference bomb: `x = [x, x]` thirty times is 2^30 leaves from ~300 bytes)
// the stream is refused: with no limits set the host's text path then costs
// what json.dumps costs, under a depth or members limit it is E_LIMIT_SHARED,
// as a server asked for bounded work. A copy also obeys both limits: its
// height is checked against maxDepth where it lands (its objects passed
// maxMembers when first read).
// It builds the same tape as the JSON reader, so
// selection and the canonical writer are shared. Bounds-checked throughout:
// a malformed stream can never read outside the request.
// tapePush stays inlined at its nine call sites: one non-inlined wrapper
// saved 414 bytes of the 40 KiB budget but made value input 3-6% slower
// (medium and large bench payloads, measured against canonicaljson).
import { alloc, grow } from "../base/arena";
import { NO_LIMIT, depthAllowed, depthOrMembersLimited, membersAllowed } from "../base/limits";
import { E_BAD_REQUEST, fail } from "../base/errors";
import { E_LIMIT_SHARED } from "../abi";
import { specialMask } from "./reader";
import {
  STR_CLEAN, T_ARR, T_FALSE, T_NULL, T_NUM, T_OBJ, T_STR, T_TRUE,
  nodeAt, nodeB, nodeType, setNodeA, setNodeB, tapeLength, tapePush,
} from "./tape";

const FLAG_REF: u8 = 0x80;
// node, items left (list) or members so far (dict), is dict, height of its
// tallest child container, its slot in refs + 1 (0: not flagged)
const FRAME: usize = 20;
const REF: usize = 8; // node, height (of a container, once finished)
const COPY_PER_BYTE: u64 = 16;
const COPY_FREE: u64 = 1 << 16;

let stack: usize = 0;
let stackCap: u32 = 0;
let refs: usize = 0;
let refCap: u32 = 0;
let refLen: u32 = 0;
let copied: u64 = 0;
let copyBudget: u64 = 0;

/** Reads the marshal stream at [start, start + len) onto the tape; returns the root index, or -1. */
export function readMarshal(start: usize, len: usize): i32 {
  const end = start + len;
  let p = start;
  const root = tapeLength();
  stackCap = 32;
  stack = alloc(<usize>stackCap * FRAME);
  refCap = 64;
  refLen = 0;
  refs = alloc(<usize>refCap * REF);
  copied = 0;
  copyBudget = <u64>len * COPY_PER_BYTE + COPY_FREE;
  if (stack == 0 || refs == 0) return -1;
  let depth: u32 = 0;
  let done = false;
  while (true) {
    if (depth > 0) {
      const f = stack + <usize>(depth - 1) * FRAME;
      const node = load<u32>(f);
      if (load<u32>(f, 8) != 0) {
        // dict: '0' closes it, else a str key (or a repeat of one) comes first
        if (p >= end) return bad(p, start);
        if (load<u8>(p) == 0x30) {
          const members = load<u32>(f, 4);
          if (!membersAllowed(members, -1)) return -1;
          setNodeA(node, members);
          setNodeB(node, <u64>tapeLength());
          closed(f, depth);
          depth--;
          p++;
          continue;
        }
        const k = readKey(p, end, start);
        if (k == 0) return -1;
        p = k;
        store<u32>(f, load<u32>(f, 4) + 1, 4);
      } else {
        const left = load<u32>(f, 4);
        if (left == 0) {
          setNodeB(node, <u64>tapeLength());
          closed(f, depth);
          depth--;
          continue;
        }
        store<u32>(f, left - 1, 4);
      }
    } else if (done) {
      break;
    }
    done = true;
    if (p >= end) return bad(p, start);
    const at = p;
    const code = load<u8>(p) & ~FLAG_REF;
    const ref = (load<u8>(p) & FLAG_REF) != 0;
    p++;
    if (code == 0x5B || code == 0x28 || code == 0x29 || code == 0x7B) { // [ ( ) {
      let count: u32 = 0;
      if (code == 0x29) {
        if (p + 1 > end) return bad(at, start);
        count = load<u8>(p);
        p++;
      } else if (code != 0x7B) {
        if (p + 4 > end) return bad(at, start);
        count = load<u32>(p);
        p += 4;
        if (<usize>count > end - p) return bad(at, start); // every item takes a byte
      }
      if (!depthAllowed(depth + 1, -1)) return -1;
      const node = tapePush(code == 0x7B ? T_OBJ : T_ARR, 0, count, 0);
      if (node < 0) return -1;
      if (ref && !addRef(<u32>node)) return -1;
      if (depth == stackCap) {
        const cap = stackCap << 1;
        const s = grow(stack, <usize>stackCap * FRAME, <usize>cap * FRAME);
        if (s == 0) return -1;
        stack = s;
        stackCap = cap;
      }
      const f = stack + <usize>depth * FRAME;
      store<u32>(f, <u32>node);
      store<u32>(f, code == 0x7B ? 0 : count, 4);
      store<u32>(f, code == 0x7B ? 1 : 0, 8);
      store<u32>(f, 0, 12);
      store<u32>(f, ref ? refLen : 0, 16);
      depth++;
      continue;
    }
    const q = readScalar(code, ref, at, p, end, start, depth);
    if (q == 0) return -1;
    p = q;
  }
  if (p != end) return bad(p, start);
  return <i32>root;
}

/** One non-container item after its type byte at `at`; returns the position after it, or 0. */
function readScalar(code: u8, ref: bool, at: usize, p: usize, end: usize, start: usize, depth: u32): usize {
  let node: i32;
  if (code == 0x4E) { // N
    node = tapePush(T_NULL, 0, 0, 0);
  } else if (code == 0x54 || code == 0x46) { // T F
    node = tapePush(code == 0x54 ? T_TRUE : T_FALSE, 0, 0, 0);
  } else if (code == 0x69) { // i
    if (p + 4 > end) return badAt(at, start);
    node = tapePush(T_NUM, 0, 0, reinterpret<u64>(<f64>load<i32>(p)));
    p += 4;
  } else if (code == 0x67) { // g
    if (p + 8 > end) return badAt(at, start);
    const v = load<f64>(p);
    node = v - v == 0 ? tapePush(T_NUM, 0, 0, reinterpret<u64>(v)) : tapePush(T_NULL, 0, 0, 0);
    p += 8;
  } else if (code == 0x6C) { // l: signed digit count, then 15-bit digits, least significant first
    if (p + 4 > end) return badAt(at, start);
    const n = load<i32>(p);
    const size = <u32>(n < 0 ? -n : n);
    if (size > 4 || p + 4 + (<usize>size << 1) > end) return badAt(at, start);
    let acc: u64 = 0;
    for (let i: u32 = 0; i < size; i++) {
      const d = <u64>load<u16>(p + 4 + (<usize>i << 1));
      if (d >= 0x8000) return badAt(at, start);
      acc |= d << (<u64>i * 15);
    }
    const v = <f64>acc; // < 2^60: one correctly rounded conversion (D11)
    node = tapePush(T_NUM, 0, 0, reinterpret<u64>(n < 0 ? -v : v));
    p += 4 + (<usize>size << 1);
  } else if (code == 0x72) { // r
    return repeat(p, end, at, start, depth);
  } else {
    const q = readString(code, p, end);
    if (q == 0) return badAt(at, start);
    node = <i32>tapeLength() - 1;
    p = q;
  }
  if (node < 0) return 0;
  if (ref && !addRef(<u32>node)) return 0;
  return p;
}

/** A dict key: a str item or a repeat of one; returns the position after it, or 0. */
function readKey(p: usize, end: usize, start: usize): usize {
  const code = load<u8>(p) & ~FLAG_REF;
  const ref = (load<u8>(p) & FLAG_REF) != 0;
  if (code == 0x72) return repeat(p + 1, end, p, start, NO_LIMIT);
  const q = readString(code, p + 1, end);
  if (q == 0) return badAt(p, start);
  if (ref && !addRef(tapeLength() - 1)) return 0;
  return q;
}

/**
 * A string item's body (type byte already read) pushed as a STR node; returns
 * the position after it, or 0 when it is not a string this reader takes (or
 * the tape is full: then an error is recorded).
 */
function readString(code: u8, p: usize, end: usize): usize {
  let n: usize;
  if (code == 0x7A || code == 0x5A) { // z Z: short ASCII
    if (p + 1 > end) return 0;
    n = load<u8>(p);
    p++;
  } else if (code == 0x75 || code == 0x74 || code == 0x61 || code == 0x41) { // u t a A
    if (p + 4 > end) return 0;
    n = load<u32>(p);
    p += 4;
  } else {
    return 0;
  }
  if (n > end - p) return 0;
  // Clean (D6: copied as it is) unless a quote, backslash or control byte
  // needs escaping; 0xED A0..BF is a surrogate, which the text path handles.
  let clean = true;
  const e = p + n;
  let s = p;
  while (s < e) {
    // Eight bytes at a time, landing on the first special one, also for a
    // string shorter than eight (most keys): memory extends past every range
    // (arena.ts, SLACK), and what lies past its end is ignored.
    const m = specialMask(load<u64>(s));
    if (m == 0) { s += 8; continue; }
    s += <usize>(ctz<u64>(m) >> 3);
    if (s >= e) break;
    const c = load<u8>(s);
    if (c < 0x20 || c == 0x22 || c == 0x5C) clean = false;
    else if (c == 0xED && s + 1 < e && load<u8>(s + 1) >= 0xA0) return 0;
    s++;
  }
  if (tapePush(T_STR, clean ? STR_CLEAN : 0, <u32>n, <u64>p) < 0) return 0;
  return e;
}

/** The frame `f` at nesting `depth` closed: its height goes to its ref slot and its parent. */
function closed(f: usize, depth: u32): void {
  const h = load<u32>(f, 12) + 1;
  const r = load<u32>(f, 16);
  if (r != 0) store<u32>(refs + <usize>(r - 1) * REF, h, 4);
  if (depth > 1) taller(f - FRAME, h);
}

@inline function taller(f: usize, h: u32): void {
  if (h > load<u32>(f, 12)) store<u32>(f, h, 12);
}

/**
 * 'r': a copy of the node an earlier flagged item made, or of a finished
 * container's whole subtree; `depth` is the open containers around it
 * (NO_LIMIT: a dict key, which only a string may be).
 */
function repeat(p: usize, end: usize, at: usize, start: usize, depth: u32): usize {
  if (p + 4 > end) return badAt(at, start);
  const i = load<u32>(p);
  if (i >= refLen) return badAt(at, start);
  const r = refs + <usize>i * REF;
  const src = load<u32>(r);
  const t = nodeType(src);
  if (t == T_ARR || t == T_OBJ) {
    const e = <u32>nodeB(src); // 0 while the container is open: a cycle
    if (depth == NO_LIMIT || e == 0) return badAt(at, start);
    const h = load<u32>(r, 4);
    if (!depthAllowed(depth + h, -1)) return 0;
    copied += <u64>(e - src);
    if (copied > copyBudget) {
      if (!depthOrMembersLimited()) return badAt(at, start);
      fail(E_LIMIT_SHARED, -1);
      return 0;
    }
    const shift = <u64>(tapeLength() - src);
    for (let k = src; k < e; k++) {
      const n = nodeAt(k); // read again after each push: the tape may move
      const nt = load<u8>(n);
      if (tapePush(nt, load<u8>(n, 1), load<u32>(n, 4), load<u64>(n, 8) + (nt >= T_ARR ? shift : 0)) < 0) return 0;
    }
    if (depth > 0) taller(stack + <usize>(depth - 1) * FRAME, h);
    return p + 4;
  }
  if (depth == NO_LIMIT ? t != T_STR : t != T_STR && t != T_NUM) return badAt(at, start);
  const s = nodeAt(src);
  if (tapePush(t, load<u8>(s, 1), load<u32>(s, 4), load<u64>(s, 8)) < 0) return 0;
  return p + 4;
}

function addRef(v: u32): bool {
  if (refLen == refCap) {
    const cap = refCap << 1;
    const r = grow(refs, <usize>refCap * REF, <usize>cap * REF);
    if (r == 0) return false;
    refs = r;
    refCap = cap;
  }
  store<u32>(refs + <usize>refLen * REF, v);
  refLen++;
  return true;
}

function bad(p: usize, start: usize): i32 {
  fail(E_BAD_REQUEST, <i32>(p - start));
  return -1;
}

function badAt(p: usize, start: usize): usize {
  fail(E_BAD_REQUEST, <i32>(p - start));
  return 0;
}
