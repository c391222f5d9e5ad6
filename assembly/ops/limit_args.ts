// The limits argument of configure() and of one call, checked and worded
// here (abi.ts F_LIMITS), so both SDKs accept the same values and say the
// same words: a host sends the caller's object member by member — a number
// as the host prints it ("Infinity" for none), anything else as the host
// shows it — and gets back which limits were given and their values, or the
// error. A limit is a non-negative integer; Infinity and any integer from
// NO_LIMIT up are none; null keeps the setting underneath; an unknown key
// is an error, never ignored. Internal.
import {
  E_BAD_ARGUMENT, E_BAD_REQUEST, OK, RESULT_DIGEST, W_LIMIT_NAMES, W_LIMIT_NAMES_PY, W_LIMIT_UNKNOWN, W_LIMIT_VALUE,
  W_LIMIT_VALUE_PY,
} from "../abi";
import { fail, failCode } from "../base/errors";
import { NO_LIMIT } from "../base/limits";
import { RESULT } from "../base/result";
import { failWorded, wordText } from "../base/words";
import { parseText } from "../json/reader";
import { T_ARR, T_NULL, T_OBJ, T_STR, nodeA, nodeB, nodeType, subtreeEnd, tapeInit } from "../json/tape";

// The unknown keys, ", "-separated, cut at UNKNOWN_MAX bytes (the message's room).
const UNKNOWN_MAX: usize = 120;
const UNKNOWN: usize = memory.data(128);
// A shown value is cut at SHOWN_MAX bytes.
const SHOWN_MAX: usize = 60;
const INFINITY: usize = memory.data<u8>([0x49, 0x6E, 0x66, 0x69, 0x6E, 0x69, 0x74, 0x79]); // "Infinity"

/** The limits request: `snake` (kind part "_") names them as Python does; args the members. */
export function limitArgs(snake: bool, p: usize, n: usize): i32 {
  if (!tapeInit(n)) return failCode();
  const root = parseText(p, n, false);
  if (root < 0 || nodeType(<u32>root) != T_OBJ) return failCode() != OK ? failCode() : fail(E_BAD_REQUEST, -1);
  const names = wordText(snake ? W_LIMIT_NAMES_PY : W_LIMIT_NAMES);
  const namesP = names + 1, namesN = <usize>load<u8>(names);
  // Each limit's value node (the last member of that name wins, D13); 0: not given or null.
  let v0: u32 = 0, v1: u32 = 0, v2: u32 = 0;
  let unknown: usize = 0;
  let c = <u32>root + 1;
  for (let k: u32 = 0; k < nodeA(<u32>root); k++) {
    const kp = <usize>nodeB(c), kn = <usize>nodeA(c), v = c + 1;
    const f = fieldOf(namesP, namesN, kp, kn);
    const given = nodeType(v) != T_NULL ? v : 0;
    if (f == 0) v0 = given; else if (f == 1) v1 = given; else if (f == 2) v2 = given;
    else unknown = addUnknown(unknown, kp, kn);
    c = subtreeEnd(v);
  }
  if (unknown > 0) return failWorded(E_BAD_ARGUMENT, W_LIMIT_UNKNOWN, UNKNOWN, unknown, namesP, namesN);
  let mask: u32 = 0;
  for (let f = 0; f < 3; f++) {
    const v = f == 0 ? v0 : f == 1 ? v1 : v2;
    let value = NO_LIMIT;
    if (v != 0) {
      const t = nodeType(v);
      const shown = t == T_ARR && nodeA(v) == 1 && nodeType(v + 1) == T_STR ? v + 1 : t == T_STR ? v : 0;
      if (shown == 0) return fail(E_BAD_REQUEST, -1);
      const sp = <usize>nodeB(shown), sn = <usize>nodeA(shown);
      if (t == T_STR) value = limitOf(sp, sn);
      if (t != T_STR || !isLimit) {
        const name = fieldName(namesP, namesN, f);
        return failWorded(E_BAD_ARGUMENT, snake ? W_LIMIT_VALUE_PY : W_LIMIT_VALUE, namesP + name, nameLen,
          sp, sn < SHOWN_MAX ? sn : SHOWN_MAX);
      }
      mask |= 1 << f;
    }
    store<u32>(RESULT + RESULT_DIGEST + 4 + 4 * <usize>f, value);
  }
  store<u32>(RESULT + RESULT_DIGEST, mask);
  return OK;
}

/** Which of the ", "-separated names [p, p + n) the key is (0..2), or -1. */
function fieldOf(p: usize, n: usize, kp: usize, kn: usize): i32 {
  for (let f = 0; f < 3; f++) {
    const at = fieldName(p, n, f);
    if (nameLen == kn && memory.compare(p + at, kp, kn) == 0) return f;
  }
  return -1;
}

let nameLen: usize = 0;

/** Where name f starts in the list [p, p + n), its length in nameLen. */
function fieldName(p: usize, n: usize, f: i32): usize {
  let at: usize = 0;
  for (let k = 0; k < f; k++) {
    while (load<u8>(p + at) != 0x2C) at++;
    at += 2; // ", "
  }
  let end = at;
  while (end < n && load<u8>(p + end) != 0x2C) end++;
  nameLen = end - at;
  return at;
}

/** Appends a key to the unknown list (cut at UNKNOWN_MAX bytes); returns its length. */
function addUnknown(at: usize, kp: usize, kn: usize): usize {
  if (at > 0 && at + 2 <= UNKNOWN_MAX) { store<u16>(UNKNOWN + at, 0x202C); at += 2; } // ", "
  const room = UNKNOWN_MAX > at ? UNKNOWN_MAX - at : 0;
  const k = kn < room ? kn : room;
  memory.copy(UNKNOWN + at, kp, k);
  return at + k;
}

let isLimit = false;

/**
 * A number as a host prints it: digits, a fraction, an exponent, or
 * "Infinity". A limit when it is a non-negative integer (1.5e+21 is; 5.0 and
 * -1 are not: a host prints an integer without a fraction); NO_LIMIT for
 * Infinity and from NO_LIMIT up. isLimit says whether it was one.
 */
function limitOf(p: usize, n: usize): u32 {
  isLimit = true;
  if (n == 8 && memory.compare(p, INFINITY, 8) == 0) return NO_LIMIT;
  isLimit = false;
  let i: usize = 0, v: u64 = 0, digits: i32 = 0, fraction: i32 = 0, exp: i32 = 0;
  const CAP: u64 = 0x1_0000_0000; // past NO_LIMIT: v stays there once it gets there
  for (let part = 0; part < 2; part++) {
    const from = i;
    while (i < n && <u32>load<u8>(p + i) - 0x30 < 10) {
      v = v >= CAP ? CAP : v * 10 + <u64>(load<u8>(p + i) - 0x30);
      i++;
    }
    if (i == from) return 0;
    if (part == 0) digits = <i32>(i - from); else fraction = <i32>(i - from);
    if (part == 1 || i >= n || load<u8>(p + i) != 0x2E) break;
    i++; // "."
  }
  if (i < n && (load<u8>(p + i) | 0x20) == 0x65) { // e, E
    i++;
    const neg = i < n && load<u8>(p + i) == 0x2D;
    if (i < n && (load<u8>(p + i) == 0x2B || neg)) i++;
    const from = i;
    while (i < n && <u32>load<u8>(p + i) - 0x30 < 10) {
      exp = exp > 100000 ? exp : exp * 10 + <i32>(load<u8>(p + i) - 0x30);
      i++;
    }
    if (i == from) return 0;
    if (neg) exp = -exp;
  }
  if (i != n || digits == 0 || exp < fraction) return 0;
  for (let k = fraction; k < exp && v < CAP; k++) v *= 10;
  isLimit = true;
  return v >= <u64>NO_LIMIT ? NO_LIMIT : <u32>v;
}
