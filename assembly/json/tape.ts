// The parse tape: one 16-byte node per JSON value or key, in document order.
// Internal. Containers are followed by their children; `end` lets a reader
// skip a whole subtree. Indices, not pointers, so the tape can be moved when
// it grows.
//
//   +0 u8  type     +1 u8 flags     +4 u32 a     +8 u64/f64 b
//   NULL                      (null, NaN/Infinity tokens, non-finite numbers: D1)
//   FALSE / TRUE
//   NUM   flags&NUM_LITERAL:  a = len, b = ptr of a small-integer literal printed as is
//         flags&NUM_DECIMAL:  a = e10 (i32), b = digits of a short decimal literal
//                             (num/decimal.ts), NUM_NEGATIVE for its sign
//         else                b = the f64 value (finite)
//   STR   a = len, b = ptr of WTF-8 bytes; flags&STR_CLEAN: bytes need no escaping
//         flags == STR_TAIL: a = UTF-16 units, b unset: a value stream's tail string
//                             not yet placed (json/values.ts; never seen past its reader)
//   ARR   a = child count,  b = index just past the subtree
//   OBJ   a = member count, b = index just past the subtree; members are key STR + value
import { alloc, grow } from "../base/arena";

export const T_NULL: u8 = 0;
export const T_FALSE: u8 = 1;
export const T_TRUE: u8 = 2;
export const T_NUM: u8 = 3;
export const T_STR: u8 = 4;
export const T_ARR: u8 = 5;
export const T_OBJ: u8 = 6;

export const NUM_LITERAL: u8 = 1;
export const NUM_DECIMAL: u8 = 2;
export const NUM_NEGATIVE: u8 = 4;
export const STR_CLEAN: u8 = 1;
export const STR_TAIL: u8 = 2;

const NODE: usize = 16;

let tapeBase: usize = 0;
let tapeLen: u32 = 0;
let tapeCap: u32 = 0;

/** The number of nodes on the tape: the index the next node gets. */
@inline export function tapeLength(): u32 {
  return tapeLen;
}

/** Starts an empty tape sized for a text of textLen bytes; false on OOM. */
export function tapeInit(textLen: usize): bool {
  // Typical JSON spends >= 6 bytes per value; start there and double on demand.
  let cap = <u32>(textLen / 6) + 16;
  tapeBase = alloc(<usize>cap * NODE);
  tapeLen = 0;
  tapeCap = cap;
  return tapeBase != 0;
}

// A tape kept for later (pipeline/process.ts: the calls of one message read one after
// another). Going back drops the nodes pushed since; the kept ones are intact,
// as nodes are only ever appended and a moved tape leaves its old copy.
// Whoever reuses the arena below the kept tape says so with tapeForget().
let keptBase: usize = 0;
let keptLen: u32 = 0;
let keptCap: u32 = 0;
let kept = false;

export function tapeKeep(): void {
  keptBase = tapeBase; keptLen = tapeLen; keptCap = tapeCap; kept = true;
}

export function tapeForget(): void { kept = false; }

export function tapeKept(): bool { return kept; }

export function tapeBack(): void {
  tapeBase = keptBase; tapeLen = keptLen; tapeCap = keptCap;
}

/** Appends a node and returns its index, or -1 on OOM. */
@inline export function tapePush(type: u8, flags: u8, a: u32, b: u64): i32 {
  if (tapeLen == tapeCap && !tapeGrow()) return -1;
  const n = tapeBase + <usize>tapeLen * NODE;
  store<u32>(n, <u32>type | (<u32>flags << 8));
  store<u32>(n, a, 4);
  store<u64>(n, b, 8);
  const i = tapeLen;
  tapeLen = i + 1;
  return <i32>i;
}

/** Doubles the tape (moved, since other allocations may follow it). */
function tapeGrow(): bool {
  const cap = tapeCap * 2;
  const p = grow(tapeBase, <usize>tapeCap * NODE, <usize>cap * NODE);
  if (p == 0) return false;
  tapeBase = p;
  tapeCap = cap;
  return true;
}

@inline export function nodeAt(i: u32): usize {
  return tapeBase + <usize>i * NODE;
}
@inline export function nodeType(i: u32): u8 {
  return load<u8>(nodeAt(i));
}
@inline export function nodeFlags(i: u32): u8 {
  return load<u8>(nodeAt(i), 1);
}
@inline export function nodeA(i: u32): u32 {
  return load<u32>(nodeAt(i), 4);
}
@inline export function nodeB(i: u32): u64 {
  return load<u64>(nodeAt(i), 8);
}
@inline export function nodeF64(i: u32): f64 {
  return load<f64>(nodeAt(i), 8);
}
@inline export function setNodeA(i: u32, a: u32): void {
  store<u32>(nodeAt(i), a, 4);
}
@inline export function setNodeB(i: u32, b: u64): void {
  store<u64>(nodeAt(i), b, 8);
}

/** Makes node i the string of n bytes at p. */
@inline export function setStr(i: u32, clean: bool, n: u32, p: usize): void {
  const a = nodeAt(i);
  store<u32>(a, <u32>T_STR | (<u32>(clean ? STR_CLEAN : 0) << 8));
  store<u32>(a, n, 4);
  store<u64>(a, <u64>p, 8);
}

/** Index just past the subtree rooted at i. */
@inline export function subtreeEnd(i: u32): u32 {
  const t = nodeType(i);
  return t >= T_ARR ? <u32>nodeB(i) : i + 1;
}
