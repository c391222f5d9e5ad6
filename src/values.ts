/**
 * Host values → the core's value stream (assembly/json/values.ts), written
 * straight into linear memory in one walk: the fast path for fingerprint()
 * and canonicalJSON(). Numbers travel as doubles (no decimal round trip).
 * D15 as the oracle reads it: Dates go by their time value, which the core
 * prints as toISOString() does (invalid → null),
 * other toJSON methods are applied once with the property key,
 * undefined/functions/symbols are dropped, objects contribute their own
 * enumerable string keys (Object.keys, as JSON.stringify reads them — never
 * inherited ones), and anything else is a FingerprintError naming its path.
 *
 * Invariants:
 * - Iterative: the frame stack lives on the heap (frame objects), so depth does not depend on
 *   the host's call stack (D19 holds under `node --stack-size=400`).
 * - Read once: every getter, Proxy trap and toJSON runs at most once per
 *   call; the error path is built from the frames, never by walking again.
 * - Re-entrant: a call made from inside a toJSON or getter runs its own walk
 *   above the outer one's frames and restores the outer writer state.
 * - User exceptions (getters, toJSON) pass through unchanged; failures to
 *   read an object's shape (a revoked Proxy, a bad ownKeys trap) become a
 *   FingerprintError with the original as `cause`.
 * Internal.
 * @module
 */

import {
  V_ARRAY, V_DATE, V_FALSE, V_NULL, V_NUMBER, V_OBJECT, V_STR, V_STR_CLEAN, V_STR_TAIL, V_TRUE, VALUE_CYCLE_CHECK_DEPTH, VALUE_MAX_DEPTH,
  W_CIRCULAR, W_NOT_PLAIN, W_TOO_DEEP, W_UNREADABLE, W_UNSUPPORTED,
} from "./_abi.gen.js";
import { FingerprintError, pathError } from "./errors.js";
import { encodeInto, isWellFormed, writeWtf8, wtf8Special } from "./_wtf8.js";

// Deeper than VALUE_MAX_DEPTH is an error: the text path reads as many levels (D19). Cycles are
// looked for only below VALUE_CYCLE_CHECK_DEPTH: a cycle repeats, so it gets there (see push()).
/** Arrays at least this long are checked for holes: cost follows the elements present. */
const SPARSE_MIN_LENGTH = 1 << 16;
/** Strings longer than this go through TextEncoder (SIMD); shorter ones through a char loop (~2.5 ns a char in V8: the crossover). */
const LONG_STRING = 28;

const objectProto = Object.prototype, arrayProto = Array.prototype, getPrototypeOf = Object.getPrototypeOf;
const objectKeys = Object.keys, isArray = Array.isArray, dateGetTime = Date.prototype.getTime;
// Called bound, not as s.charCodeAt(i): V8 inlines the bound call whatever the string's representation, where
// the method's load turns generic once the site has met strings of more than four (bench/PROFILE.md).
const charCodeAt = Function.prototype.call.bind(String.prototype.charCodeAt) as (s: string, i: number) => number;
// The tail's join and slice as they were at load: a patched Array.prototype.join must not change the bytes.
const join = Function.prototype.call.bind(Array.prototype.join) as (a: string[], sep: string) => string;
const slice = Function.prototype.call.bind(Array.prototype.slice) as (a: string[], from: number, to: number) => string[];
// DataView's writes as they were at load, own properties of each view this writer makes: a patched
// DataView.prototype.setFloat64 must not change a number (called as methods: V8 inlines them, not bound ones).
const dataViewWrites = { setUint32: { value: DataView.prototype.setUint32 }, setFloat64: { value: DataView.prototype.setFloat64 } };

// Writer state: the current target in linear memory.
let u8: Uint8Array = new Uint8Array(0);
let dv: DataView = new DataView(new ArrayBuffer(0));
let pos = 0;
let cap = 0;
const NO_TARGET = (): void => { throw new Error("no target"); };
let growTo: (need: number) => void = NO_TARGET;

// The frame stack, one entry per open container: frames made once per depth and reused (no allocation per
// container; its fields measured ~3% faster at medium than seven parallel arrays). keys is null for a dense array.
class Frame {
  obj: object = objectProto;
  keys: string[] | null = null;
  isArray = false;
  idx = 0; len = 0; head = 0; count = 0; // member index, member count, header position, members written
}
const frames: Frame[] = [];
let sp = 0;
/** Frames below this belong to an outer call in progress (re-entrancy). */
let base = 0;
/** Containers on the path deeper than VALUE_CYCLE_CHECK_DEPTH. */
let deep: Set<object> | null = null;
/** Where error paths start: "args", or "" for a whole call, whose args member is then `args…` (D15). */
let root = "args";
/**
 * String values go to the stream's tail (assembly/json/values.ts): the walk
 * writes their UTF-16 length and keeps them here; at its end one join and one
 * TextEncoder call encode them all in native code (the char loop costs
 * ~2.5 ns a character: the medium payload's strings went ~3× faster). A
 * walk's strings start at tailBase.
 */
const tails: string[] = [];
let tailBase = 0;
let tailEnd = 0;
/**
 * UTF-16 units still written in place before strings go to the tail: a small
 * value has no tail, whose fixed cost (~0.3 µs) is more than its char loops.
 * Strings of up to SHORT_STRING units stay in place too: cheaper than a tail
 * entry (an id such as "SKU-0abc12de": 12 ~1.5% faster than 8 on the medium
 * payload, 16 ~1% slower).
 */
let inlineLeft = 0;
const INLINE_UNITS = 256;
const SHORT_STRING = 12;

/**
 * Writes the stream for `value` into mem[start..end); `grow(need)` must make
 * room up to `need` and call retarget() (memory may move). Returns the end
 * position. Throws FingerprintError for values D15 rejects, and whatever a
 * user's getter or toJSON throws, unchanged. A call made from inside a
 * toJSON or getter of a walk in progress walks above its frames and gives
 * the outer walk its writer state back after.
 */
export function writeValue(value: unknown, mem: Uint8Array, start: number, end: number,
  grow: (need: number) => void, path = "args"): number {
  const nested = walking;
  const outer = nested ? [u8, dv, pos, cap, growTo, base, deep, root, tailBase, inlineLeft] as const : null;
  if (u8 !== mem) retarget(mem, end);
  pos = start;
  cap = end;
  growTo = grow;
  root = path;
  base = sp;
  deep = null;
  tailBase = tailEnd;
  inlineLeft = INLINE_UNITS;
  walking = true;
  try {
    walk(value);
    writeTail();
    return pos;
  } finally {
    release(base);
    for (let k = tailBase; k < tailEnd; k++) tails[k] = ""; // no references to user strings kept
    tailEnd = tailBase;
    walking = nested;
    if (outer !== null) [u8, dv, pos, cap, growTo, base, deep, root, tailBase, inlineLeft] = outer;
  }
}

/** A walk is in progress: a call from inside its getters or toJSON walks above its frames. */
let walking = false;

/** Pops the frames above `to`, dropping their references to user objects. */
function release(to: number): void {
  for (let f = to; f < sp; f++) { frames[f].obj = objectProto; frames[f].keys = null; }
  sp = to;
}

/** Forgets the writer's views of linear memory (a retired instance's memory must become garbage). */
export function detachValues(): void {
  retarget(new Uint8Array(0), 0);
  growTo = NO_TARGET; // the last walk's grow holds its instance, and so its memory, alive
}

/** Points the writer at moved or grown memory (called from the grow callback). */
export function retarget(mem: Uint8Array, end: number): void {
  u8 = mem;
  dv = Object.defineProperties(new DataView(mem.buffer), dataViewWrites);
  cap = end;
}

function room(n: number): void {
  if (pos + n > cap) growTo(pos + n);
}

/**
 * The walk. Scalars of the innermost open container are written in a tight
 * loop over its members; a child container pushes a frame and the loop
 * moves to it. The frame's index and count are stored before any call
 * that may throw or re-enter, so error paths and nested walks see them.
 */
function walk(root: unknown): void {
  if (item(root, "") === DROPPED) {
    room(1);
    u8[pos++] = V_NULL; // D2: a dropped top level is null
  }
  containers: while (sp > base) {
    const f = sp - 1;
    const fr = frames[f];
    const o = fr.obj;
    const keys = fr.keys;
    const n = fr.len;
    const isArr = fr.isArray;
    let i = fr.idx;
    let count = fr.count;
    while (i < n) {
      let key: string | number;
      let v: unknown;
      const mark = pos;
      if (!isArr) {
        key = keys![i];
        // A key met at this frame and position last time: its cached words written here (writeKey does the rest).
        const slot = ((f << 4) | i++) & KEY_SLOT_MASK, words = slotKey[slot] === key ? slotWords[slot] : null;
        if (words !== null && pos + 4 * words.length <= cap) {
          const n = words.length - 1, d = dv;
          for (let w = 0, q = pos; w < n; w++, q += 4) d.setUint32(q, words[w], true);
          pos += words[n];
        } else writeKey(key, slot);
        v = (o as Record<string, unknown>)[key];
      } else {
        key = keys === null ? i++ : +keys[i++];
        v = (o as unknown[])[key];
      }
      let r = scalar(v);
      if (r === OTHER) {
        fr.idx = i;
        fr.count = count;
        r = item(v, key);
        if (r === PUSHED) continue containers;
      }
      if (r === WRITTEN) count++;
      else if (isArr) { room(1); u8[pos++] = V_NULL; count++; } // dropped element: the writer drops it (D1), the count stays right
      else pos = mark; // dropped member: no key either
    }
    // Close the container; in its parent it counts as written (D8: never dropped).
    dv.setUint32(fr.head + 1, count, true);
    if (f - base >= VALUE_CYCLE_CHECK_DEPTH) deep!.delete(o);
    release(f);
    if (f > base) frames[f - 1].count++;
  }
}

const DROPPED = 0, WRITTEN = 1, PUSHED = 2, OTHER = 3;

/** Writes a string, number or boolean; DROPPED for undefined/function/symbol; OTHER for the rest. */
function scalar(v: unknown): number {
  // `typeof v === "…"` tests, not a switch: V8 compiles each to a type check, where a switch calls its
  // Typeof builtin and compares strings (and then cannot tell that v is a string: its length a generic load).
  if (typeof v === "string") {
    const n = v.length; // read once: a load V8 cannot specialize after strings of many representations
    if (inlineLeft > 0 || n <= SHORT_STRING) {
      inlineLeft -= n;
      str(v, n);
      return WRITTEN;
    }
    room(5);
    u8[pos] = V_STR_TAIL;
    dv.setUint32(pos + 1, n, true);
    pos += 5;
    tails[tailEnd++] = v;
    return WRITTEN;
  }
  if (typeof v === "number") return f64(V_NUMBER, v); // non-finite: the core makes it null (D1)
  if (typeof v === "boolean") {
    room(1);
    u8[pos++] = v ? V_TRUE : V_FALSE;
    return WRITTEN;
  }
  if (typeof v === "object" || typeof v === "bigint") return v === null ? DROPPED : OTHER;
  return DROPPED; // undefined, a function or a symbol (D1)
}

/** A number or a Date's time value: its tag and a little-endian f64. */
function f64(tag: number, x: number): number {
  room(9);
  u8[pos] = tag;
  dv.setFloat64(pos + 1, x, true);
  pos += 9;
  return WRITTEN;
}

/** Writes one item (a scalar, or a container's header and frame); DROPPED when D1/D15 drop it. */
function item(v: unknown, key: string | number): number {
  const r = scalar(v);
  if (r !== OTHER) return r;
  if (typeof v === "bigint") throw refused(W_UNSUPPORTED, key, ["BigInt"]);
  return object(v as object, key, false);
}

type J = { toJSON?: unknown };
// The same read at two sites, plain objects' and the rest's (V8 keeps feedback per function): arrays and class
// instances then meet a few shapes at theirs, not every record's (~2% of a medium call).
const plainToJSON = (v: object): unknown => (v as J).toJSON, otherToJSON = (v: object): unknown => (v as J).toJSON;
function object(v: object, key: string | number, toJSONApplied: boolean): number {
  const proto = protoOf(v, key);
  const plain = proto === objectProto || proto === null;
  // A Date by its internal slot, as the oracle checks (not by prototype): its time value, which
  // the core prints, an invalid one (NaN) as null (D15).
  const t = plain || proto === arrayProto ? undefined : timeOf(v);
  if (t !== undefined) return f64(V_DATE, t);
  const toJSON = toJSONApplied ? undefined : plain ? plainToJSON(v) : otherToJSON(v);
  if (typeof toJSON === "function") {
    // Applied once, with the key as JSON.stringify passes it (D15).
    const r: unknown = toJSON.call(v, typeof key === "number" ? String(key) : key);
    if (typeof r === "object" && r !== null) return object(r, key, true);
    return item(r, key);
  }
  if (plain) {
    const keys = keysOf(v, key);
    push(v, key, keys, false, keys.length);
    return PUSHED;
  }
  if (!arrayOf(v, key)) throw unsupported(v, key);
  const len = (v as unknown[]).length;
  const present = len >= SPARSE_MIN_LENGTH ? presentIndices(v as unknown[], len, key) : null;
  push(v, key, present, true, present === null ? len : present.length);
  return PUSHED;
}

// The object's shape, or the FingerprintError for one that cannot be read (the cause kept). One function per
// read, each a direct call V8 inlines (a shared `read(v)` site saw three targets: ~1% of a small call).
function protoOf(v: object, key: string | number): object | null {
  try { return getPrototypeOf(v); } catch (err) { throw unreadable(key, err); }
}
function keysOf(v: object, key: string | number): string[] {
  try { return objectKeys(v); } catch (err) { throw unreadable(key, err); }
}
function arrayOf(v: object, key: string | number): boolean {
  try { return isArray(v); } catch (err) { throw unreadable(key, err); }
}

/** The time value of a Date (NaN when invalid), or undefined for anything that is not a Date. */
function timeOf(v: object): number | undefined {
  try {
    return dateGetTime.call(v as Date);
  } catch {
    return undefined;
  }
}

/**
 * Opens a container: its header now, its count when it closes. Below
 * VALUE_CYCLE_CHECK_DEPTH no cycle check is made; a cycle repeats its objects
 * every L levels, so it is found by depth VALUE_CYCLE_CHECK_DEPTH + 2L.
 */
function push(o: object, key: string | number, keys: string[] | null, isArr: boolean, len: number): void {
  const depth = sp - base;
  if (depth >= VALUE_MAX_DEPTH) throw refused(W_TOO_DEEP, key, [VALUE_MAX_DEPTH]);
  if (depth >= VALUE_CYCLE_CHECK_DEPTH) {
    if (deep === null) deep = new Set();
    if (deep.has(o)) throw circular(key);
    deep.add(o);
  }
  room(5);
  const f = sp++;
  const fr = frames[f] ?? (frames[f] = new Frame());
  fr.obj = o;
  fr.keys = keys;
  fr.isArray = isArr;
  fr.idx = 0;
  fr.len = len;
  fr.head = pos;
  fr.count = 0;
  u8[pos] = isArr ? V_ARRAY : V_OBJECT;
  pos += 5;
}

/**
 * The own index keys of a long array, ascending, when fewer than half its
 * slots are filled (else null: walk it densely). Holes are no elements, so
 * a sparse array costs what it holds, not its length; indices inherited from
 * the prototype chain are included, since reading a hole reads them (as
 * JSON.stringify does).
 */
function presentIndices(a: unknown[], len: number, key: string | number): string[] | null {
  const own = keysOf(a, key);
  if (own.length >= len / 2) return null;
  const names = [own];
  for (let p = getPrototypeOf(a); p !== null; p = getPrototypeOf(p)) names.push(Object.getOwnPropertyNames(p));
  const isIndex = (k: string): boolean => +k >= 0 && +k < len && String(+k) === k;
  return [...new Set(names.flat().filter(isIndex))].sort((x, y) => +x - +y);
}

/**
 * Object keys repeat across records (every row of a list has the same
 * keys): their encoded items are cached as little-endian u32 words (header
 * and bytes, zero-padded), so a repeated key is a few word stores. In front
 * of the Map, the key last written at the same frame and member position:
 * records of one shape repeat their keys there, so most keys are found by
 * one identity compare instead of a hash lookup.
 */
const keyCache = new Map<string, Uint32Array>();
const KEY_CACHE_MAX = 4096;
const KEY_MAX_CHARS = 64;
const KEY_SLOT_MASK = 255;
// Every slot starts as the empty key with its item (tag, zero length: 5 bytes): the slots hold strings only, so V8
// compares a slot with a key by identity, where a slot that could be undefined made each compare a generic call.
const slotKey: string[] = new Array<string>(KEY_SLOT_MASK + 1).fill("");
const slotWords: Uint32Array[] = new Array<Uint32Array>(KEY_SLOT_MASK + 1).fill(Uint32Array.of(V_STR_CLEAN, 0, 5));

function writeKey(k: string, slot: number): void {
  let words: Uint32Array | undefined = slotWords[slot];
  if (slotKey[slot] !== k && (words = keyCache.get(k)) !== undefined) {
    slotKey[slot] = k;
    slotWords[slot] = words;
  }
  if (words === undefined) {
    const start = pos;
    str(k);
    if (k.length > KEY_MAX_CHARS) return;
    if (keyCache.size >= KEY_CACHE_MAX) keyCache.clear();
    const len = pos - start;
    const n = (len + 3) >> 2;
    keyCache.set(k, words = new Uint32Array(n + 1));
    for (let i = 0; i < len; i++) words[i >> 2] |= u8[start + i] << ((i & 3) << 3);
    words[n] = len;
    return;
  }
  const n = words.length - 1;
  const len = words[n];
  if (pos + len > cap) growTo(pos + len);
  if (pos + 4 * n <= cap) {
    // Whole words: up to 3 bytes past the key, which the member's value overwrites.
    const d = dv;
    for (let i = 0, p = pos; i < n; i++, p += 4) d.setUint32(p, words[i], true);
  } else {
    // At the end of the room (a byte limit): exactly the key's bytes.
    for (let i = 0; i < len; i++) u8[pos + i] = (words[i >> 2] >>> ((i & 3) << 3)) & 255;
  }
  pos += len;
}

/**
 * The tail: the walk's strings in order, each followed by a 0 byte, as UTF-8
 * (one native encode), or as WTF-8 string by string when one holds a lone
 * surrogate (D14; the 0 bytes keep it from pairing with its neighbour).
 */
function writeTail(): void {
  const n = tailEnd;
  if (n === tailBase) return;
  tails[tailEnd++] = ""; // the last string's 0 byte
  if (tailBase === 0) tails.length = tailEnd; // join reads the whole array
  const all = join(tailBase === 0 ? tails : slice(tails, tailBase, tailEnd), "\0");
  room(3 * all.length);
  if (isWellFormed(all)) {
    pos += encodeInto(all, u8, pos, pos + 3 * all.length);
    return;
  }
  for (let k = tailBase; k < n; k++) {
    pos = writeWtf8(tails[k], 0, u8, pos);
    u8[pos++] = 0;
  }
}

/** Writes a string item: UTF-8, lone surrogates as WTF-8 (D14); clean when nothing needs escaping (D6). */
function str(s: string, n = s.length): void {
  room(5 + 3 * n);
  const head = pos;
  let p = head + 5;
  let clean = true;
  if (n > LONG_STRING && isWellFormed(s)) {
    p += encodeInto(s, u8, p, p + 3 * n);
    clean = false; // the core checks it as it writes it (D6): a RegExp's test() here looks up a patchable exec
  } else {
    const b = u8;
    // Plain printable ASCII first (most keys and short values): one test per char.
    let i = 0;
    for (; i < n; i++) {
      const c = charCodeAt(s, i);
      if (c - 0x20 >>> 0 >= 0x60 || c === 0x22 || c === 0x5c) break; // not 0x20..0x7f, or a quote or backslash
      b[p++] = c;
    }
    if (i < n) {
      // The rest, as WTF-8; it needs escaping if it holds a quote, a
      // backslash, a control character (D6) or a lone surrogate (D14).
      p = writeWtf8(s, i, b, p);
      clean = !wtf8Special; // the prefix before i is plain ASCII
    }
  }
  u8[head] = clean ? V_STR_CLEAN : V_STR;
  dv.setUint32(head + 1, p - head - 5, true);
  pos = p;
}

// --- Errors: where they are comes from the frames; the core writes the path and the message.

/** The current key of frame f (the member or element being written). */
function frameKey(f: number): string | number {
  const { idx, keys, isArray: sparse } = frames[f]; // an array frame with keys: a sparse array's present indices
  return keys === null ? idx - 1 : sparse ? +keys[idx - 1] : keys[idx - 1];
}

/** The value at `key` in the top frame is refused (a cycle: at the frame `top`); the core words it. */
function refused(id: number, key: string | number, params: (string | number)[], cause?: unknown, top = sp): FingerprintError {
  // The keys and indices down to the item `key` inside frame top-1 (the top level when top === base).
  const at: (string | number)[] = [];
  for (let f = base; f < top - 1; f++) at.push(frameKey(f));
  if (top > base) at.push(key);
  return pathError(id, at, root === "", params, cause);
}

/** The object's shape could not be read (a revoked Proxy, an ownKeys trap that breaks its invariants). */
function unreadable(key: string | number, cause: unknown): FingerprintError {
  return refused(W_UNREADABLE, key, [cause instanceof Error ? cause.message : String(cause)], cause);
}

/** The first container on the path that repeats an earlier one, named as the oracle names it. */
function circular(key: string | number): FingerprintError {
  const seen = new Set<object>();
  for (let f = base; f < sp; f++) {
    if (seen.has(frames[f].obj)) return refused(W_CIRCULAR, frameKey(f - 1), [], undefined, f);
    seen.add(frames[f].obj);
  }
  return refused(W_CIRCULAR, key, []);
}

/** The word for a value D15 refuses: its constructor's name (Map, Uint8Array, a class), or the core's "non-plain object". */
function unsupported(v: object, key: string | number): FingerprintError {
  let name: unknown;
  try { name = (getPrototypeOf(v) as { constructor?: { name?: unknown } } | null)?.constructor?.name; } catch { /* unnamed */ }
  return typeof name === "string" && name !== "" && name !== "Object" ? refused(W_UNSUPPORTED, key, [name]) : refused(W_NOT_PLAIN, key, []);
}
