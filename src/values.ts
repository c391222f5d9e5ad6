/**
 * Host values → the core's value stream (assembly/json/values.ts), written
 * straight into linear memory in one walk: the fast path for fingerprint()
 * and canonicalJSON(). It replaces JSON.stringify + a check walk + the
 * core's JSON parse, and numbers travel as doubles (no decimal round trip).
 * D15 exactly as the oracle reads it: Dates print toISOString() (invalid →
 * null), other toJSON methods are applied once with the property key,
 * undefined/functions/symbols are dropped; anything else that is not a plain
 * object or array is rejected (the caller then finds the path, encode.ts).
 * Internal.
 * @module
 */

import { isWellFormed, writeWtf8 } from "./_wtf8.js";
import { V_ARRAY, V_FALSE, V_NULL, V_NUMBER, V_OBJECT, V_STR, V_STR_CLEAN, V_TRUE } from "./_abi.gen.js";
/** Deeper than this is treated as a possible cycle; the slow describe() walk decides. */
const MAX_DEPTH = 4000;
/** Strings longer than this go through TextEncoder (SIMD); shorter ones through a byte loop. */
const LONG_STRING = 48;
const SPECIAL = /[\u0000-\u001f"\\]/;

/** Thrown for a value D15 rejects (or too deep): the caller explains it with a path. */
export class Rejected {}
const REJECTED = new Rejected();

const objectProto = Object.prototype;
const encoder = new TextEncoder();

let u8 = new Uint8Array(0);
let dv = new DataView(new ArrayBuffer(0));
let pos = 0;
let cap = 0;
let growTo: (need: number) => void = () => { throw new Error("no target"); };

/**
 * Points the writer at linear memory: bytes go to [start, end); `grow(need)`
 * must make room up to `need` and call setTarget again (memory may move).
 */
export function setTarget(mem: Uint8Array, start: number, end: number, grow: (need: number) => void): void {
  if (u8 !== mem) {
    u8 = mem;
    dv = new DataView(mem.buffer);
  }
  pos = start;
  cap = end;
  growTo = grow;
}

export function retarget(mem: Uint8Array, end: number): void {
  u8 = mem;
  dv = new DataView(mem.buffer);
  cap = end;
}

/** Writes the stream for value; returns the end position. Throws Rejected. */
export function writeValue(value: unknown): number {
  if (!item(value, "", 0)) {
    room(1);
    u8[pos++] = V_NULL; // D2: a dropped top level is null
  }
  return pos;
}

function room(n: number): void {
  if (pos + n > cap) growTo(pos + n);
}

/** Writes one item; false (and nothing written) when D1/D15 drop it. */
/** `key` is the property name, or the index in an array (made a string only if a toJSON needs it). */
function item(v: unknown, key: string | number, depth: number): boolean {
  switch (typeof v) {
    case "string":
      str(v);
      return true;
    case "number":
      room(9);
      u8[pos] = V_NUMBER;
      dv.setFloat64(pos + 1, v, true); // non-finite: the core makes it null (D1)
      pos += 9;
      return true;
    case "boolean":
      room(1);
      u8[pos++] = v ? V_TRUE : V_FALSE;
      return true;
    case "undefined":
    case "function":
    case "symbol":
      return false;
    case "bigint":
      throw REJECTED;
  }
  if (v === null) return false;
  return object(v as object, key, depth, false);
}

function object(v: object, key: string | number, depth: number, toJSONApplied: boolean): boolean {
  if (depth > MAX_DEPTH) throw REJECTED;
  // Plain objects first: the common case pays one prototype read and one toJSON miss.
  const proto = Object.getPrototypeOf(v);
  const plain = proto === objectProto || proto === null;
  if (!plain && v instanceof Date) {
    const t = v.getTime();
    if (t !== t) return false;
    str(v.toISOString());
    return true;
  }
  const toJSON = (v as { toJSON?: unknown }).toJSON;
  if (!toJSONApplied && typeof toJSON === "function") {
    const r = (toJSON as (k: string) => unknown).call(v, String(key));
    if (typeof r === "object" && r !== null) return object(r, key, depth, true);
    return item(r, key, depth);
  }
  if (plain) {
    if (pos + 5 > cap) growTo(pos + 5);
    const head = pos;
    u8[head] = V_OBJECT;
    pos += 5;
    let count = 0;
    // for-in: V8's enum cache; see encode.ts for why inherited keys are harmless.
    for (const k in v) {
      const mark = pos;
      writeKey(k);
      if (item((v as Record<string, unknown>)[k], k, depth + 1)) count++;
      else pos = mark; // dropped member: no key either
    }
    putU32(head + 1, count);
    return true;
  }
  if (!Array.isArray(v)) throw REJECTED;
  const n = v.length;
  if (pos + 5 > cap) growTo(pos + 5);
  u8[pos] = V_ARRAY;
  putU32(pos + 1, n);
  pos += 5;
  for (let i = 0; i < n; i++) {
    if (!item(v[i], i, depth + 1)) {
      if (pos + 1 > cap) growTo(pos + 1);
      u8[pos++] = V_NULL; // dropped by the writer (D1), keeps the count right
    }
  }
  return true;
}

/** Little-endian u32 at an absolute position (already within capacity). */
function putU32(at: number, x: number): void {
  const b = u8;
  b[at] = x & 0xff;
  b[at + 1] = (x >>> 8) & 0xff;
  b[at + 2] = (x >>> 16) & 0xff;
  b[at + 3] = x >>> 24;
}

/**
 * Object keys repeat across records (every row of a list has the same
 * keys): their encoded items are cached, so a repeated key is one Map
 * lookup and a short copy. Bounded; cleared when full.
 */
const keyCache = new Map<string, Uint8Array>();
const KEY_CACHE_MAX = 4096;
const KEY_MAX_CHARS = 64;

function writeKey(k: string): void {
  const cached = keyCache.get(k);
  if (cached !== undefined) {
    const n = cached.length;
    if (pos + n > cap) growTo(pos + n);
    const b = u8;
    for (let i = 0; i < n; i++) b[pos + i] = cached[i];
    pos += n;
    return;
  }
  const start = pos;
  str(k);
  if (k.length <= KEY_MAX_CHARS) {
    if (keyCache.size >= KEY_CACHE_MAX) keyCache.clear();
    keyCache.set(k, u8.slice(start, pos));
  }
}

/** Writes a string item: UTF-8, lone surrogates as WTF-8 (D14); clean when nothing needs escaping (D6). */
function str(s: string): void {
  const n = s.length;
  if (pos + 5 + 3 * n > cap) growTo(pos + 5 + 3 * n);
  const head = pos;
  let p = head + 5;
  let clean = true;
  if (n > LONG_STRING && isWellFormed(s)) {
    p += encoder.encodeInto(s, u8.subarray(p, p + 3 * n)).written;
    clean = !SPECIAL.test(s);
  } else {
    const b = u8;
    // Plain printable ASCII first (most keys and short values): one test per char.
    let i = 0;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80 || c < 0x20 || c === 0x22 || c === 0x5c) break;
      b[p++] = c;
    }
    if (i < n) {
      // The rest, as WTF-8; it needs escaping if it holds a quote, a
      // backslash, a control character (D6) or a lone surrogate (D14).
      p = writeWtf8(s, i, b, p);
      clean = !SPECIAL.test(s) && isWellFormed(s);
    }
  }
  u8[head] = clean ? V_STR_CLEAN : V_STR;
  putU32(head + 1, p - head - 5);
  pos = p;
}
