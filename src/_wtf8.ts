/**
 * Strings → WTF-8 bytes: UTF-8 where a surrogate pair becomes one 4-byte
 * code point and a lone surrogate stays a 3-byte sequence (D14), which
 * TextEncoder cannot do (it writes U+FFFD). Shared by the text path
 * (core.ts) and the value stream (values.ts). Internal.
 * @module
 */

// The built-ins a string's bytes depend on, as they were when this module loaded: a later patch of a
// prototype (hostile or careless code in the same process) cannot change what a fingerprint reads.
const nativeIsWellFormed = (String.prototype as { isWellFormed?: unknown }).isWellFormed;
/** Whether s has no lone surrogate (String.prototype.isWellFormed, with a fallback for older engines). */
export const isWellFormed: (s: string) => boolean = typeof nativeIsWellFormed === "function"
  ? Function.prototype.call.bind(nativeIsWellFormed) as (s: string) => boolean
  : (s) => !/[\ud800-\udbff](?![\udc00-\udfff])|(?:[^\ud800-\udbff]|^)[\udc00-\udfff]/.test(s);

const encodeIntoNative = TextEncoder.prototype.encodeInto.bind(new TextEncoder()) as
  (s: string, dest: Uint8Array) => { written: number };
const subarray = Function.prototype.call.bind(Uint8Array.prototype.subarray) as (m: Uint8Array, from: number, to: number) => Uint8Array;
/** s as UTF-8 at mem[at..to) (TextEncoder's encodeInto; a lone surrogate would become U+FFFD: check first); its length. */
export const encodeInto = (s: string, mem: Uint8Array, at: number, to: number): number => encodeIntoNative(s, subarray(mem, at, to)).written;

/**
 * Set by each writeWtf8: whether what it wrote holds a quote, a backslash, a
 * control character or a lone surrogate (a string the core must escape: D6,
 * D14). The value stream reads it instead of scanning the string twice more.
 */
export let wtf8Special = false;

/** Called bound: V8 inlines it whatever the string's representation (values.ts's charCodeAt says why). */
const codePointAt = Function.prototype.call.bind(String.prototype.codePointAt) as (s: string, i: number) => number;

/**
 * Writes s from UTF-16 index `from` as WTF-8 at b[p..]; returns the new
 * position (and sets wtf8Special). The caller guarantees room for 3 bytes
 * per remaining unit.
 */
export function writeWtf8(s: string, from: number, b: Uint8Array, p: number): number {
  const n = s.length;
  let special = false;
  for (let i = from; i < n; i++) {
    const c = codePointAt(s, i); // a surrogate pair's code point, or a lone surrogate's unit
    if (c < 0x80) {
      if (c < 0x20 || c === 0x22 || c === 0x5c) special = true;
      b[p++] = c;
    } else if (c < 0x800) {
      b[p++] = 0xc0 | (c >> 6);
      b[p++] = 0x80 | (c & 63);
    } else if (c < 0x10000) {
      if (c >= 0xd800 && c < 0xe000) special = true; // a lone surrogate
      b[p++] = 0xe0 | (c >> 12);
      b[p++] = 0x80 | ((c >> 6) & 63);
      b[p++] = 0x80 | (c & 63);
    } else {
      i++; // the pair's second unit
      b[p++] = 0xf0 | (c >> 18);
      b[p++] = 0x80 | ((c >> 12) & 63);
      b[p++] = 0x80 | ((c >> 6) & 63);
      b[p++] = 0x80 | (c & 63);
    }
  }
  wtf8Special = special;
  return p;
}
