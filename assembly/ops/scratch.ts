// Scratch for replay.ts: a log in the arena that outlives the
// calls made after it, and hex output into the sink. Internal;
// engine module only.
import { RESULT_DIGEST } from "../abi";
import { alloc, arenaMark, grow, releaseFrom } from "../base/arena";
import { bytes } from "../json/emit";
import { hexDigit } from "../text/hex";
import { result } from "../base/result";

// ---- A scratch log in the arena, kept while calls come and go after it --------
// Each call's allocations are released back to the log's end; the log then
// grows in place (it is the last block), so a chunk of any size runs in
// bounded arena memory.

/** The log: where it is, its bytes, its room, and the arena mark after it. Only this file writes it. */
@unmanaged export class Log {
  p: usize;
  len: usize;
  cap: usize;
  mark: usize;
}

/** The one log (static, inside a function for the reason scratch() gives; not @inline: each inlined copy would lay out its own). */
export function log(): Log { return changetype<Log>(memory.data(offsetof<Log>(), 8)); }

export function logInit(): bool {
  const l = log();
  l.cap = 4096; l.len = 0;
  l.p = alloc(l.cap);
  l.mark = arenaMark();
  return l.p != 0;
}

/** Drops everything allocated after the log (a call's tape, sink…). */
export function logRelease(): void { releaseFrom(log().mark); }

/**
 * Appends a record: `words` u32 header words (head16()) then n bytes from src,
 * which may lie after the log (a released call's detail or name): the bytes
 * are moved first, as memmove does, then the header is written.
 */
export function logPut(words: usize, src: usize, n: usize): bool {
  const l = log();
  const need = l.len + (words << 2) + n;
  if (need > l.cap) {
    let cap = l.cap << 1;
    if (cap < need) cap = need;
    const q = grow(l.p, l.cap, cap); // in place: the log is the last block after logRelease
    if (q == 0) return false;
    l.p = q; l.cap = cap; l.mark = arenaMark();
  }
  memory.copy(l.p + l.len + (words << 2), src, n);
  memory.copy(l.p + l.len, head16(), words << 2);
  l.len = need;
  return true;
}

// Static scratch, inside a function: a module-level memory.data would be laid
// out in the fingerprint module too (its import graph holds this file), moving its data.
function scratch(): usize { return memory.data(96, 16); }
/** A log record's header words; hex output. */
export function head16(): usize { return scratch(); }
@inline function hexBuf(): usize { return scratch() + 32; }

function hexNibble(c: u32): u32 { return c <= 0x39 ? c - 0x30 : c - 0x57; }

/** The last call's digest (64 hex digits in the result block) as 32 bytes at out. */
export function digestTo(out: usize): void {
  const hex = result() + RESULT_DIGEST;
  for (let i: usize = 0; i < 32; i++) {
    store<u8>(out + i, <u8>((hexNibble(<u32>load<u8>(hex + 2 * i)) << 4) | hexNibble(<u32>load<u8>(hex + 2 * i + 1))));
  }
}

// ---- Output helpers ----------------------------------------------------------


export function hex(d: usize): bool {
  for (let i: usize = 0; i < 32; i++) {
    const b = <u32>load<u8>(d + i);
    store<u8>(hexBuf() + 2 * i, <u8>hexDigit(b >> 4));
    store<u8>(hexBuf() + 2 * i + 1, <u8>hexDigit(b & 15));
  }
  return bytes(hexBuf(), 64);
}
