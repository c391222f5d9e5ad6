// The CLI engine's output for one request (cli/run.ts): stdout and stderr
// bytes collected line after line, then handed back as [stdout][stderr][state].
// Internal. The buffer sits in the arena before the lines' scratch: each
// line's scratch is released when the line is done, so a chunk's memory is
// its output plus one line's work, whatever the number of lines.
//
// Segments: [u8 stream][u32 len][bytes]; consecutive bytes of one stream
// extend the last segment, so a chunk without errors is one segment.
import { alloc, releaseFrom } from "../base/arena";
import { tapeForget } from "../json/tape";
import { ensure, putBytes, sinkAdvance, sinkBase, sinkEnd, sinkInit, sinkLength } from "../json/sink";
import { sha256Hex } from "../hash/sha256";
import { LANE_MAX } from "../hash/sha256x4";
import { deferFlush, deferKeep, deferQueue, deferReset, deferRollback } from "./digests";
import { RESULT_CLI_ARG, RESULT_CLI_CODE, RESULT_CLI_DATA, RESULT_CLI_ERR, RESULT_CLI_LINES, RESULT_CLI_OP, RESULT_CLI_OUT, RESULT_CLI_STATE } from "../abi";
import { eraseBefore } from "./progress";
import { result } from "../base/result";

let base: usize = 0;
let len: usize = 0;
let cap: usize = 0;
let last: usize = 0;      // offset of the last segment's header, or -1 as none
let hasLast = false;
/** Start of the current line's scratch (after the buffer). */
let mark: usize = 0;

@inline function align(n: usize): usize {
  return (n + 15) & ~<usize>15;
}

/** A fresh buffer at the arena's top; false on out of memory. */
export function accInit(hint: usize): bool {
  cap = align(hint < 4096 ? 4096 : hint);
  base = alloc(cap);
  len = 0;
  hasLast = false;
  mark = base + cap;
  deferReset(base);
  return base != 0;
}

/** Frees the previous line's scratch, but for the preimages whose digests are deferred (digests.ts). */
export function accScratch(): void {
  const keep = deferKeep();
  releaseFrom(keep > mark ? keep : mark);
}

/** The buffer's address; offsets into it (accLen) stay valid as it grows in place. */
export function accBase(): usize {
  return base;
}

/** Whether n more bytes fit without growing the buffer. */
export function accRoomFor(n: usize): bool {
  return len + n + 5 <= cap;
}

/** Current length, to roll a line back (accRollback) when it fails half-way. */
export function accLen(): usize {
  return len;
}

let savedLast: usize = 0;
let savedHas = false;
let savedSegment: u32 = 0;

export function accSave(): usize {
  savedLast = last; savedHas = hasLast;
  savedSegment = hasLast ? load<u32>(base + last + 1) : 0;
  return len;
}

export function accRollback(to: usize): void {
  len = to; last = savedLast; hasLast = savedHas;
  // The rolled-back bytes may have extended the last segment: its length too.
  if (hasLast) store<u32>(base + last + 1, savedSegment);
  deferRollback(to);
}

/** Appends n bytes at src (in the scratch, above the buffer) to stream err (false: stdout). */
export function accAppend(err: bool, src: usize, n: usize): bool {
  const extend = hasLast && (load<u8>(base + last) != 0) == err;
  const need = len + n + (extend ? 0 : 5);
  if (need > cap) {
    // Grow in place: the scratch above is dead but for src, which moves down (memmove).
    let c = cap << 1;
    if (c < need) c = need;
    c = align(c);
    const top = base + c;
    if (top < base) return false;
    if (top > mark) {
      deferFlush(); // the queued preimages lie in the scratch about to be reused
      tapeForget(); // and the line's parsed message (pipeline/process.ts) with them
      releaseFrom(mark);
      if (alloc(top - mark + n) == 0) return false; // room for the new end (src may lie there)
    }
    cap = c;
    mark = top;
  }
  // The bytes first: after growing, src may start where the new header goes.
  const head: usize = extend ? 0 : 5;
  memory.copy(base + len + head, src, n);
  if (extend) {
    store<u32>(base + last + 1, load<u32>(base + last + 1) + <u32>n);
  } else {
    last = len; hasLast = true;
    store<u8>(base + len, err ? 1 : 0);
    store<u32>(base + len + 1, <u32>n);
  }
  len += head + n;
  return true;
}

/** Appends the sink's bytes [sinkBase(), sinkEnd()). */
export function accSink(err: bool): bool {
  return accAppend(err, sinkBase(), sinkLength());
}

/**
 * Appends the sink (a fingerprint line whose 64 digits at digest, in the
 * sink, are a blank) to stdout, its digest to come from the preimage
 * [preP, preP + preN), queued (digests.ts) while the buffer has room for the
 * line without growing. False only on out of memory.
 */
export function deferLine(preP: usize, preN: usize, digest: usize): bool {
  if (preN > LANE_MAX || !accRoomFor(sinkLength())) {
    // Hashed now, into the sink; the append may grow the buffer (flushing first).
    sha256Hex(preP, preN, digest);
    return accSink(false);
  }
  if (!accSink(false)) return false; // fits: nothing moves
  deferQueue(preP, preN, accLen() - sinkLength() + (digest - sinkBase()));
  return true;
}

/** The step's result words (RESULT_CLI_*): the sink already holds [stdout][stderr][state]. */
export function done(out: usize, err: usize, state: usize, lines: u32, code: i32): bool {
  const r = result();
  store<u32>(r + RESULT_CLI_OUT, <u32>out);
  store<u32>(r + RESULT_CLI_ERR, <u32>err);
  store<u32>(r + RESULT_CLI_STATE, <u32>state);
  store<u32>(r + RESULT_CLI_LINES, lines);
  store<i32>(r + RESULT_CLI_CODE, code);
  store<u32>(r + RESULT_CLI_OP, 0);
  store<u32>(r + RESULT_CLI_DATA, 0);
  store<u32>(r + RESULT_CLI_ARG, 0);
  return true;
}

/** The state every result of a driven run starts with (cli/drive.ts): the plan, before a step's own state. */
let prefixP: usize = 0, prefixN: usize = 0;
export function statePrefix(p: usize, n: usize): void { prefixP = p; prefixN = n; }

/** Writes [stdout][stderr][state] into a fresh sink (the request's text) and the result words. */
export function accFinal(stateP: usize, stateN: usize, lines: u32, code: i32): bool {
  deferFlush();
  // Above everything (no release): the state may lie in the last line's scratch.
  if (!sinkInit(true, false, len + prefixN + stateN + 32)) return false;
  const out = copyStream(false);
  const at = sinkLength();
  let err = copyStream(true);
  // A progress line drawn goes away before the text (cli/progress.ts): its erase first on stderr.
  if (eraseBefore(out, err)) {
    if (!ensure(err + 8)) return false;
    memory.copy(sinkBase() + at + 4, sinkBase() + at, err);
    store<u32>(sinkBase() + at, 0x5B1B0D | (<u32>0x4B << 24)); // "\r\x1b[K"
    sinkAdvance(4);
    err += 4;
  }
  if (!ensure(prefixN + stateN)) return false;
  putBytes(prefixP, prefixN);
  putBytes(stateP, stateN);
  return done(out, err, prefixN + stateN, lines, code);
}

function copyStream(err: bool): usize {
  const start = sinkLength();
  let i: usize = 0;
  while (i < len) {
    const n = <usize>load<u32>(base + i + 1);
    if ((load<u8>(base + i) != 0) == err && ensure(n)) putBytes(base + i + 5, n);
    i += 5 + n;
  }
  return sinkLength() - start;
}
