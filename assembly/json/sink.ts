// The output sink: canonical bytes go into an arena buffer and stream into
// SHA-256 as it fills, so the preimage is hashed without a second pass.
// Internal. In digest-only mode the buffer is recycled after each flush
// (bounded memory); when the host wants the text it grows instead.
import { grow, alloc } from "../base/arena";
import { sha256Update } from "../hash/sha256";

const INITIAL_CAP: usize = 16 * 1024;

let outBase: usize = 0;
let outPos: usize = 0;
let outCap: usize = 0;
let hashedTo: usize = 0;
let keepText: bool = false;
let hashing: bool = false;

/** The buffer the next sinkInit keeps its text in, if given (sinkPreset). */
let presetBase: usize = 0;
let presetCap: usize = 0;

/**
 * Has the next sinkInit keep its text in [p, p + cap) when the size hint
 * fits (batch.ts: a hash lane's buffer, so a preimage is not copied there);
 * a text that outgrows it moves to the arena like any other. 0: none.
 */
export function sinkPreset(p: usize, cap: usize): void {
  presetBase = p;
  presetCap = cap;
}

/** sizeHint: expected output bytes when the text is kept (sized up front: no regrowth copies). */
export function sinkInit(keep: bool, hash: bool, sizeHint: usize): bool {
  // A kept text starts at its hint (it doubles when it outgrows it): one call of a message read
  // again (pipeline/process.ts) hints only its name, and a line's calls then cost their own size each.
  outCap = keep ? sizeHint + (sizeHint >> 3) + 64 : INITIAL_CAP;
  const preset = keep && sizeHint + OVERSHOOT <= presetCap ? presetBase : 0;
  presetBase = 0;
  if (preset != 0) outCap = presetCap - OVERSHOOT;
  outBase = preset != 0 ? preset : alloc(outCap + OVERSHOOT);
  outPos = 0;
  hashedTo = 0;
  keepText = keep;
  hashing = hash;
  return outBase != 0;
}

/** Where the sink's bytes start (they move as it grows: read it again after an ensure). */
@inline export function sinkBase(): usize {
  return outBase;
}

/** How many bytes the sink holds: they are [sinkBase(), sinkBase() + sinkLength()). */
@inline export function sinkLength(): usize {
  return outPos;
}

/** Where the next byte goes: sinkBase() + sinkLength(). */
@inline export function sinkEnd(): usize {
  return outBase + outPos;
}

/** Counts n bytes written at sinkEnd() (inside the ensured room) as the sink's. */
@inline export function sinkAdvance(n: usize): void {
  outPos += n;
}

/** Makes room for n more bytes at sinkEnd(); false on OOM. */
@inline export function ensure(n: usize): bool {
  return outPos + n <= outCap || makeRoom(n);
}

function makeRoom(n: usize): bool {
  if (hashing) {
    sha256Update(outBase + hashedTo, outPos - hashedTo);
    hashedTo = outPos;
  }
  if (!keepText) {
    outPos = 0;
    hashedTo = 0;
    if (n <= outCap) return true;
  }
  let cap = outCap << 1;
  if (cap < outPos + n) cap = outPos + n;
  if (cap < outCap) return false; // overflow
  const p = grow(outBase, outPos, cap + OVERSHOOT);
  if (p == 0) return false;
  outBase = p;
  outCap = cap;
  return true;
}

@inline export function putByte(c: u32): void {
  store<u8>(outBase + outPos, <u8>c);
  outPos++;
}

/** Below this length a word loop beats memory.copy, which V8 runs as an out-of-line call. */
const SMALL_COPY: usize = 64;
/**
 * The sink's buffer extends this far past its capacity, so a short copy into
 * the ensured room writes whole words (up to 7 bytes past the copy, which
 * later bytes overwrite; readers load past a range too: arena.ts, SLACK).
 */
const OVERSHOOT: usize = 8;

@inline export function putBytes(src: usize, n: usize): void {
  putAt(outBase + outPos, src, n);
  outPos += n;
}

/** Copies n bytes to dst (inside the ensured room of the sink); may not overlap. */
@inline export function putAt(dst: usize, src: usize, n: usize): void {
  if (n <= SMALL_COPY) {
    for (let i: usize = 0; i < n; i += 8) store<u64>(dst + i, load<u64>(src + i));
  } else {
    memory.copy(dst, src, n);
  }
}

/** Copies n <= SMALL_COPY bytes; may not overlap. */
@inline export function copySmall(dst: usize, src: usize, n: usize): void {
  let i: usize = 0;
  for (; i + 8 <= n; i += 8) store<u64>(dst + i, load<u64>(src + i));
  for (; i < n; i++) store<u8>(dst + i, load<u8>(src + i));
}

/** Stops hashing (after sinkFinish): what follows is kept as text only. */
export function sinkStopHashing(): void {
  hashing = false;
}

/** Feeds what is left into the hash. The text (if kept) is [sinkBase(), sinkEnd()). */
export function sinkFinish(): void {
  if (hashing) {
    sha256Update(outBase + hashedTo, outPos - hashedTo);
    hashedTo = outPos;
  }
}
