// The diff of two canonical texts (for a Diff: ops/compare.ts; for the CLI's
// why: cli/why.ts; engine module only). Internal.
//
// Input: two texts the core wrote (canonical JSON: valid, no whitespace,
// keys in code point order, D5). Output: a JSON array of changes,
//   [{"path":"items[3].when","kind":"added"|"removed"|"changed","before":T|null,"after":T|null}]
// depth first in canonical order, where T is the canonical text of the value.
// Objects are compared member by member (merged in code point order), arrays
// index by index (an insertion shows as what it does to each index), values
// of different types or differing scalars as one "changed". Paths: a key
// that is an identifier is `.key` (no dot at the start), any other key
// `["raw"]` (its canonical literal), an index `[3]`; "" is the whole args.
//
// Linear in the texts' size at any depth: each text is indexed once into
// nodes (span, first child, next sibling, key span), and the walk visits each
// pair of nodes once with an explicit stack; the path is one buffer that is
// cut back to the parent's length before each step (depth first, the
// parent's path is always its prefix). No recursion (D19).
import { alloc, grow } from "../base/arena";
import { ensure, putByte, sinkInit } from "../json/sink";
import { writeJsonString } from "../pipeline/canonical";
import { writeDecimal } from "../num/digits";

const NONE: u32 = 0xFFFF_FFFF;
// Node: 6 u32 — start, end, kind ('{', '[' or 0 for a scalar), keyStart, keyEnd, next sibling; +24 first child.
const NODE: usize = 28;

let nodes: usize = 0;
let nodeCount: u32 = 0;
let nodeCap: u32 = 0;

@inline function f(i: u32, field: usize): u32 { return load<u32>(nodes + <usize>i * NODE + (field << 2)); }
@inline function setF(i: u32, field: usize, v: u32): void { store<u32>(nodes + <usize>i * NODE + (field << 2), v); }
const START: usize = 0, END: usize = 1, KIND: usize = 2, KEY_START: usize = 3, KEY_END: usize = 4, NEXT: usize = 5, FIRST: usize = 6;

/** Position after the string literal starting at i (canonical: well-formed). */
function stringEnd(t: usize, i: u32, n: u32): u32 {
  i++;
  while (i < n) {
    const c = load<u8>(t + i);
    if (c == 0x5C) i += 2;
    else if (c == 0x22) return i + 1;
    else i++;
  }
  return n;
}

/** Indexes the canonical text [t, t + n) into the node arrays; returns the first node, or NONE on OOM. */
function indexText(t: usize, n: u32): u32 {
  const first = nodeCount;
  let stack = alloc(64 << 3); // open containers: node, last child
  let stackCap: u32 = 64, depth: u32 = 0;
  if (stack == 0) return NONE;
  let i: u32 = 0;
  let keyStart: u32 = 0, keyEnd: u32 = 0;
  while (i < n) {
    // A value starts at i.
    if (nodeCount == nodeCap) {
      const cap = nodeCap << 1;
      const p = grow(nodes, <usize>nodeCap * NODE, <usize>cap * NODE);
      if (p == 0) return NONE;
      nodes = p; nodeCap = cap;
    }
    const idx = nodeCount++;
    const c = <u32>load<u8>(t + i);
    setF(idx, START, i); setF(idx, KEY_START, keyStart); setF(idx, KEY_END, keyEnd);
    setF(idx, NEXT, NONE); setF(idx, FIRST, NONE);
    if (depth > 0) {
      const top = stack + (<usize>(depth - 1) << 3);
      const last = load<u32>(top, 4);
      if (last == NONE) setF(load<u32>(top), FIRST, idx); else setF(last, NEXT, idx);
      store<u32>(top, idx, 4);
    }
    if (c == 0x7B || c == 0x5B) {
      setF(idx, KIND, c);
      if (depth == stackCap) {
        const p = grow(stack, <usize>stackCap << 3, <usize>stackCap << 4);
        if (p == 0) return NONE;
        stack = p; stackCap <<= 1;
      }
      store<u32>(stack + (<usize>depth << 3), idx);
      store<u32>(stack + (<usize>depth << 3), NONE, 4);
      depth++;
      i++;
      if (i < n && <u32>load<u8>(t + i) != c + 2) { // not empty: the first member or element follows
        if (c == 0x7B) { keyStart = i; i = stringEnd(t, i, n); keyEnd = i; i++; }
        continue;
      }
    } else {
      setF(idx, KIND, 0);
      if (c == 0x22) i = stringEnd(t, i, n);
      else while (i < n) { const d = load<u8>(t + i); if (d == 0x2C || d == 0x5D || d == 0x7D) break; i++; }
      setF(idx, END, i);
    }
    // Close what ends here; after a comma, read the next key (objects).
    while (depth > 0 && i < n) {
      const d = <u32>load<u8>(t + i);
      const top = load<u32>(stack + (<usize>(depth - 1) << 3));
      if (d == 0x7D || d == 0x5D) { setF(top, END, i + 1); depth--; i++; continue; }
      i++; // ','
      if (f(top, KIND) == 0x7B) { keyStart = i; i = stringEnd(t, i, n); keyEnd = i; i++; }
      break;
    }
    if (depth == 0) break;
  }
  return first;
}

// The path buffer.
let path: usize = 0;
let pathLen: u32 = 0;
let pathCap: u32 = 0;

function pathRoom(n: u32): bool {
  if (pathLen + n <= pathCap) return true;
  let cap = pathCap << 1;
  if (cap < pathLen + n) cap = pathLen + n;
  const p = grow(path, <usize>pathLen, <usize>cap);
  if (p == 0) return false;
  path = p; pathCap = cap;
  return true;
}

@inline function isIdentStart(c: u32): bool { return (c | 0x20) - 0x61 < 26 || c == 0x5F || c == 0x24; }
@inline function isIdentPart(c: u32): bool { return isIdentStart(c) || c - 0x30 < 10; }

/** Appends the key segment (literal [p, p + n), quotes included). */
function appendKey(p: usize, n: u32): bool {
  let ident = n > 2 && isIdentStart(<u32>load<u8>(p + 1));
  for (let j: u32 = 2; ident && j < n - 1; j++) ident = isIdentPart(<u32>load<u8>(p + j));
  if (!pathRoom(n + 3)) return false;
  if (ident) {
    if (pathLen > 0) store<u8>(path + pathLen++, 0x2E);
    memory.copy(path + pathLen, p + 1, n - 2); pathLen += n - 2;
  } else {
    store<u8>(path + pathLen++, 0x5B);
    memory.copy(path + pathLen, p, n); pathLen += n;
    store<u8>(path + pathLen++, 0x5D);
  }
  return true;
}

function appendIndex(k: u32): bool {
  if (!pathRoom(12)) return false;
  store<u8>(path + pathLen++, 0x5B);
  pathLen += writeDecimal(k, path + pathLen);
  store<u8>(path + pathLen++, 0x5D);
  return true;
}

/** Next code point of a canonical string literal's content at p (escapes decoded); sets cpNext. */
let cpNext: usize = 0;
function nextCp(p: usize): u32 {
  const c = <u32>load<u8>(p);
  if (c == 0x5C) {
    const e = <u32>load<u8>(p + 1);
    cpNext = p + 2;
    if (e == 0x75) { // \u00xx or \udxxx: 4 lowercase hex digits
      let v: u32 = 0;
      for (let j: usize = 2; j < 6; j++) {
        const h = <u32>load<u8>(p + j);
        v = (v << 4) | (h - 0x30 < 10 ? h - 0x30 : h - 0x57);
      }
      cpNext = p + 6;
      return v;
    }
    if (e == 0x62) return 0x08;
    if (e == 0x74) return 0x09;
    if (e == 0x6E) return 0x0A;
    if (e == 0x66) return 0x0C;
    if (e == 0x72) return 0x0D;
    return e; // \" and \\
  }
  if (c < 0x80) { cpNext = p + 1; return c; }
  if (c < 0xE0) { cpNext = p + 2; return ((c & 0x1F) << 6) | (<u32>load<u8>(p + 1) & 0x3F); }
  if (c < 0xF0) {
    cpNext = p + 3;
    return ((c & 0x0F) << 12) | ((<u32>load<u8>(p + 1) & 0x3F) << 6) | (<u32>load<u8>(p + 2) & 0x3F);
  }
  cpNext = p + 4;
  return ((c & 0x07) << 18) | ((<u32>load<u8>(p + 1) & 0x3F) << 12) | ((<u32>load<u8>(p + 2) & 0x3F) << 6)
    | (<u32>load<u8>(p + 3) & 0x3F);
}

/** Code point order (D5) of two key literals [a, a + an) and [b, b + bn), quotes included. */
function compareKeys(a: usize, an: u32, b: usize, bn: u32): i32 {
  let p = a + 1, q = b + 1;
  const pe = a + an - 1, qe = b + bn - 1;
  while (p < pe && q < qe) {
    const x = nextCp(p); p = cpNext;
    const y = nextCp(q); q = cpNext;
    if (x != y) return x < y ? -1 : 1;
  }
  return (p < pe ? 1 : 0) - (q < qe ? 1 : 0);
}

// Pending comparisons: a, b (node or NONE), parent path length, segment kind, segment value.
const SEG_NONE: u32 = 0, SEG_KEY_A: u32 = 1, SEG_KEY_B: u32 = 2, SEG_INDEX: u32 = 3;
let todo: usize = 0;
let todoLen: u32 = 0;
let todoCap: u32 = 0;

function push(a: u32, b: u32, parentLen: u32, seg: u32, val: u32): bool {
  if (todoLen == todoCap) {
    const p = grow(todo, <usize>todoCap * 20, <usize>todoCap * 40);
    if (p == 0) return false;
    todo = p; todoCap <<= 1;
  }
  const e = todo + <usize>todoLen * 20;
  store<u32>(e, a); store<u32>(e, b, 4); store<u32>(e, parentLen, 8); store<u32>(e, seg, 12); store<u32>(e, val, 16);
  todoLen++;
  return true;
}

// The walk's state while it writes: whether a change was written yet, and how many.
let firstChange = true;
let changeCount: i32 = 0;

function lit(s: string): bool {
  if (!ensure(<usize>s.length)) return false;
  for (let i = 0; i < s.length; i++) putByte(<u32>s.charCodeAt(i));
  return true;
}

function span(t: usize, node: u32): bool {
  if (node == NONE) return lit("null");
  return writeJsonString(t + <usize>f(node, START), <usize>(f(node, END) - f(node, START)), false);
}

function change(kind: string, ta: usize, a: u32, tb: usize, b: u32): bool {
  if (!lit(firstChange ? "{\"path\":" : ",{\"path\":")) return false;
  firstChange = false;
  changeCount++;
  return writeJsonString(path, <usize>pathLen, false) && lit(",\"kind\":\"") && lit(kind) && lit("\",\"before\":")
    && span(ta, a) && lit(",\"after\":") && span(tb, b) && lit("}");
}

/**
 * Writes the changes from canonical text A to B as a JSON array, in a sink
 * of its own; returns how many (why and replay rank candidates by it), -1 on OOM.
 */
export function diffTexts(ta: usize, na: u32, tb: usize, nb: u32): i32 {
  return sinkInit(true, false, 256) ? writeDiff(ta, na, tb, nb) : -1;
}

/** diffTexts into the current sink (after what it holds); the texts must not be in the sink. */
export function writeDiff(ta: usize, na: u32, tb: usize, nb: u32): i32 {
  if (!lit("[")) return -1;
  const count = writeChanges(ta, na, tb, nb, true);
  return count >= 0 && lit("]") ? count : -1;
}

/**
 * The changes alone, each preceded by a comma unless first (a Diff's
 * (kind)/(name) changes come before them: ops/compare.ts); returns how many, -1 on OOM.
 */
export function writeChanges(ta: usize, na: u32, tb: usize, nb: u32, first: bool): i32 {
  return walk(ta, na, tb, nb, first) ? changeCount : -1;
}

function walk(ta: usize, na: u32, tb: usize, nb: u32, first: bool): bool {
  nodeCap = 64; nodeCount = 0;
  nodes = alloc(<usize>nodeCap * NODE);
  pathCap = 256; pathLen = 0;
  path = alloc(<usize>pathCap);
  todoCap = 64; todoLen = 0;
  todo = alloc(<usize>todoCap * 20);
  if (nodes == 0 || path == 0 || todo == 0) return false;
  const ra = indexText(ta, na);
  const rb = indexText(tb, nb);
  if (ra == NONE || rb == NONE) return false;
  firstChange = first;
  changeCount = 0;
  if (!push(ra, rb, 0, SEG_NONE, 0)) return false;
  while (todoLen > 0) {
    todoLen--;
    const e = todo + <usize>todoLen * 20;
    const a = load<u32>(e), b = load<u32>(e, 4), seg = load<u32>(e, 12), val = load<u32>(e, 16);
    pathLen = load<u32>(e, 8);
    if (seg == SEG_KEY_A || seg == SEG_KEY_B) {
      const t = seg == SEG_KEY_A ? ta : tb;
      const ks = f(val, KEY_START);
      if (!appendKey(t + <usize>ks, f(val, KEY_END) - ks)) return false;
    } else if (seg == SEG_INDEX && !appendIndex(val)) return false;
    if (a == NONE) { if (!change("added", ta, a, tb, b)) return false; continue; }
    if (b == NONE) { if (!change("removed", ta, a, tb, b)) return false; continue; }
    const ka = f(a, KIND), kb = f(b, KIND);
    if (ka != kb || ka == 0) {
      if (!sameSpan(ta, a, tb, b) && !change("changed", ta, a, tb, b)) return false;
      continue;
    }
    // Same container type: children pushed in reverse, so they pop in canonical order.
    const mark = todoLen;
    const here = pathLen;
    let x = f(a, FIRST), y = f(b, FIRST);
    let k: u32 = 0;
    while (x != NONE || y != NONE) {
      if (ka == 0x5B) {
        if (!push(x, y, here, SEG_INDEX, k++)) return false;
        if (x != NONE) x = f(x, NEXT);
        if (y != NONE) y = f(y, NEXT);
        continue;
      }
      let c: i32;
      if (x == NONE) c = 1;
      else if (y == NONE) c = -1;
      else c = compareKeys(ta + <usize>f(x, KEY_START), f(x, KEY_END) - f(x, KEY_START),
        tb + <usize>f(y, KEY_START), f(y, KEY_END) - f(y, KEY_START));
      if (c <= 0) {
        if (!push(x, c == 0 ? y : NONE, here, SEG_KEY_A, x)) return false;
        x = f(x, NEXT);
        if (c == 0) y = f(y, NEXT);
      } else {
        if (!push(NONE, y, here, SEG_KEY_B, y)) return false;
        y = f(y, NEXT);
      }
    }
    reverse(mark, todoLen);
  }
  return true;
}

function sameSpan(ta: usize, a: u32, tb: usize, b: u32): bool {
  const n = f(a, END) - f(a, START);
  if (n != f(b, END) - f(b, START)) return false;
  return memory.compare(ta + <usize>f(a, START), tb + <usize>f(b, START), <usize>n) == 0;
}

function reverse(from: u32, to: u32): void {
  let i = from, j = to;
  while (j > i + 1) {
    j--;
    const p = todo + <usize>i * 20, q = todo + <usize>j * 20;
    for (let w: usize = 0; w < 20; w += 4) {
      const t = load<u32>(p + w);
      store<u32>(p + w, load<u32>(q + w));
      store<u32>(q + w, t);
    }
    i++;
  }
}
