// `why CALL.json --in FILE…` in the CLI engine (cli/run.ts): the recorded
// call of the same kind and name with the fewest changes (the first of
// equals; an exact match ends the reading), then the answer. Internal.
//
// State the host carries between requests (bytes, opaque to it):
//   [u32 n][the call's JSON text][u32 n][best's file][u32 best's line][u32 n][best's line text]
// The best line is read again at finish: the engine keeps no tape across requests.
import { OK } from "../abi";
import { alloc } from "../base/arena";
import { diffTexts } from "../ops/diff";
import { ensure, putByte, putBytes, sinkBase, sinkInit, sinkLength } from "../json/sink";
import { parseText } from "../json/reader";
import { T_NULL, nodeA, nodeType, subtreeEnd, tapeInit } from "../json/tape";
import { writeJsonString } from "../pipeline/canonical";
import { accAppend, accInit } from "./output";
import { options } from "./args";
import { bytes, decimal, lit } from "../json/emit";
import { noisePath } from "./noise";
import { DIGEST, explanationBody, lineCall, memberOf, readCall, strN, strP } from "./readcall";

let candidates: u32 = 0;
let bestChanges: i32 = -1;
let found = false;
/** The chunk held the call itself: nothing beats it, reading can stop. */
export function whyFound(): bool { return found; }

// The call (target) of this request, read from the state.
let tP: usize = 0, tN: usize = 0;
let tNameP: usize = 0, tNameN: usize = 0, tKindP: usize = 0, tKindN: usize = 0, tCanonP: usize = 0, tCanonN: usize = 0;
function T_DIGEST(): usize { return memory.data(64); }
// The best candidate so far: from the state, or a line of this chunk.
let bFileP: usize = 0, bFileN: usize = 0, bLine: u32 = 0, bP: usize = 0, bN: usize = 0;
let changed = false;
/** The state to hand back after this chunk: the host's, or the one writeState made (run.ts reads it). */
let stateP: usize = 0, stateN: usize = 0;
export function whyState(): usize { return stateP; }
export function whyStateLength(): usize { return stateN; }

/** After the target was read (its record on the tape): the first state. */
export function whyTarget(p: usize, n: usize): bool {
  candidates = 0; bestChanges = -1; found = false;
  tP = p; tN = n; bFileN = 0; bLine = 0; bN = 0;
  return writeState();
}

function writeState(): bool {
  if (!sinkInit(true, false, tN + bFileN + bN + 16) || !ensure(tN + bFileN + bN + 16)) return false;
  u32out(<u32>tN); putBytes(tP, tN); u32out(<u32>bFileN); putBytes(bFileP, bFileN); u32out(bLine); u32out(<u32>bN); putBytes(bP, bN);
  stateP = sinkBase(); stateN = sinkLength();
  return true;
}

function u32out(v: u32): void {
  // Room was ensured by the caller.
  putBytes(scratch32(v), 4);
}

function scratch32(v: u32): usize { const w = memory.data(4); store<u32>(w, v); return w; }

function readState(p: usize, n: usize): bool {
  if (n < 16) return false;
  let q = p;
  tN = <usize>load<u32>(q); tP = q + 4; q = tP + tN;
  bFileN = <usize>load<u32>(q); bFileP = q + 4; q = bFileP + bFileN;
  bLine = load<u32>(q); q += 4;
  bN = <usize>load<u32>(q); bP = q + 4;
  return bP + bN <= p + n;
}

/** The target, read again for this request; false on a state that is not ours or out of memory. */
function readTarget(): bool {
  if (readCall(tP, tN, -1, true) != OK) return false;
  const c = lineCall();
  tNameP = c.nameP; tNameN = c.nameN; tKindP = c.kindP; tKindN = c.kindN; tCanonP = c.canonP; tCanonN = c.canonN;
  memory.copy(T_DIGEST(), DIGEST(), 64);
  return true;
}

export function whyChunkStart(sP: usize, sN: usize): bool {
  changed = false;
  stateP = sP; stateN = sN;
  return readState(sP, sN) && readTarget();
}

/** One recorded line whose record is on the tape. */
export function whyLine(fileP: usize, fileN: usize, line: u32, p: usize, n: usize): bool {
  const c = lineCall();
  if (!same(c.nameP, c.nameN, tNameP, tNameN) || !same(c.kindP, c.kindN, tKindP, tKindN)) return true;
  candidates++;
  let changes: i32 = 0;
  if (!same(c.canonP, c.canonN, tCanonP, tCanonN)) {
    changes = diffTexts(c.canonP, <u32>c.canonN, tCanonP, <u32>tCanonN);
    if (changes < 0) return false;
  }
  if (bestChanges < 0 || changes < bestChanges) {
    bestChanges = changes;
    bFileP = fileP; bFileN = fileN; bLine = line; bP = p; bN = n;
    changed = true;
  }
  if (memory.compare(DIGEST(), T_DIGEST(), 64) == 0) found = true; // nothing beats an exact match
  return true;
}

export function whyChunkEnd(): bool {
  return changed ? writeState() : true;
}

function same(a: usize, an: usize, b: usize, bn: usize): bool {
  return an == bn && memory.compare(a, b, an) == 0;
}

// Pieces of the answer, made before the output buffer is placed above them.
const MAX_PIECES = 16;
function pieces(): usize { return memory.data(16 * 8); }
let nPieces = 0;

function keep(): bool {
  if (nPieces == MAX_PIECES) return false;
  store<u32>(pieces() + <usize>nPieces * 8, <u32>sinkBase());
  store<u32>(pieces() + <usize>nPieces * 8 + 4, <u32>sinkLength());
  nPieces++;
  return true;
}

function start(hint: usize): bool {
  return sinkInit(true, false, hint);
}

/** The answer into the output (acc), after reading the target and the best line again. */
export function whyFinish(sP: usize, sN: usize): bool {
  nPieces = 0;
  if (!readState(sP, sN) || !readTarget()) return false;
  // The target's part of the answer.
  if (options().json) {
    if (!start(tCanonN * 12 + 512) || !lit("{\"call\":{") || !explanationBody() || !lit(",\"seen\":")) return false;
  } else {
    if (!start(tCanonN + 256) || !lit("call       ") || !bytes(tNameP, tNameN) || !lit("  ") || !bytes(T_DIGEST(), 64)
      || !lit("\n           ") || !bytes(tCanonP, tCanonN) || !lit("\n")) return false;
  }
  const seen = bestChanges == 0 && bN > 0;
  if (!keep()) return false;
  const mineP = selectionName(), mineN = sinkLength();
  if (mineP == 0) return false;
  const callMatchOn = lineCall().matchOnN > 0;
  if (bN == 0) {
    if (options().json) {
      if (!start(64) || !lit("false,\"candidates\":") || !decimal(candidates) || !lit(",\"nearest\":null}\n")) return false;
    } else if (!start(tNameN * 6 + 128) || !lit("unseen     no recorded call of ") || !writeJsonString(tNameP, tNameN, false)
      || !lit(" (kind ") || !bytes(tKindP, tKindN) || !lit(")\n")) return false;
    if (!keep()) return false;
    return flush();
  }
  // The best line, read again.
  if (readCall(bP, bN, -1, true) != OK) return false;
  const canonP = lineCall().canonP, canonN = lineCall().canonN;
  if (options().json) {
    if (!start(canonN * 12 + bFileN * 6 + 512) || !lit(seen ? "true" : "false") || !lit(",\"candidates\":") || !decimal(candidates)
      || !lit(",\"nearest\":{\"file\":") || !writeJsonString(bFileP, bFileN, false) || !lit(",\"line\":") || !decimal(bLine)
      || !lit(",\"explanation\":{") || !explanationBody() || !lit(",\"diff\":{\"same\":") || !lit(seen ? "true" : "false")
      || !lit(",\"changes\":")) return false;
    if (!keep()) return false;
  } else if (seen) {
    if (!start(bFileN + 64) || !lit("seen       ") || !bytes(bFileP, bFileN) || !lit(":") || !decimal(bLine)
      || !lit(" has this fingerprint\n") || !keep()) return false;
    return flush();
  } else {
    if (!start(canonN + bFileN + tNameN + 256) || !lit("unseen     no recorded call has this fingerprint (recorded calls of ")
      || !bytes(tNameP, tNameN) || !lit(": ") || !decimal(candidates) || !lit(")\nnearest    ") || !bytes(bFileP, bFileN) || !lit(":")
      || !decimal(bLine) || !lit("  ") || !bytes(DIGEST(), 64) || !lit("\n           ") || !bytes(canonP, canonN)
      || !lit("\nchanges    ") || !decimal(bestChanges) || !lit(" (before: the recording, after: this call)\n") || !keep()) return false;
  }
  const theirsP = selectionName(), theirsN = sinkLength();
  if (theirsP == 0) return false;
  // The diff, as JSON (--json) or one line per change.
  if (same(canonP, canonN, tCanonP, tCanonN)) {
    if (!start(16) || !lit("[]")) return false;
  } else if (diffTexts(canonP, <u32>canonN, tCanonP, <u32>tCanonN) < 0) return false;
  if (options().json) {
    if (!keep() || !start(16) || !lit("}}}\n") || !keep()) return false;
    return flush();
  }
  const dP = sinkBase(), dN = sinkLength();
  if (!tapeInit(dN)) return false;
  const list = parseText(dP, dN, false);
  if (list < 0 || !start(dN * 2 + 256)) return false;
  const end = subtreeEnd(<u32>list);
  let noise: i32 = -1; // the first changed path that looks like noise (noise.ts): the hint names it
  for (let c = <u32>list + 1; c < end; c = subtreeEnd(c)) {
    if (!changeLine(c)) return false;
    const path = memberOf(c, "path");
    if (noise < 0 && noisePath(strP(path), strN(path))) noise = path;
  }
  if (mineN != theirsN || memory.compare(mineP, theirsP, mineN) != 0) {
    if (!lit("note       selection differs: this call has ") || !bytes(mineP, mineN) || !lit(", the recording ")
      || !bytes(theirsP, theirsN) || !lit("\n")) return false;
  }
  if (!callMatchOn && noise >= 0 && (!lit("hint       ") || !bytes(strP(noise), strN(noise))
    || !lit(" looks like noise (an id, a timestamp, a cursor): if it is, leave it out with ignoreArgs or matchOn\n"))) {
    return false;
  }
  return keep() && flush();
}

/** "  changed  path: before → after" (at most 100 code points each, then "…"). */
export function changeLine(c: u32): bool {
  const path = memberOf(c, "path"), kind = memberOf(c, "kind"), before = memberOf(c, "before"), after = memberOf(c, "after");
  const kN = strN(kind);
  if (!lit("  ") || !bytes(strP(kind), kN)) return false;
  for (let i = kN; i < 8; i++) if (!lit(" ")) return false;
  if (!lit(" ")) return false;
  if (strN(path) == 0 ? !lit("(args)") : !bytes(strP(path), strN(path))) return false;
  if (!lit(": ")) return false;
  const isChanged = kN == 7 && load<u8>(strP(kind)) == 0x63; // "changed"
  const isAdded = kN == 5;
  if (isChanged) {
    if (!clip(before) || !utf8(" \u2192 ") || !clip(after)) return false;
  } else if (!clip(isAdded ? after : before)) return false;
  return lit("\n");
}

function clip(node: i32): bool {
  if (node < 0 || nodeType(<u32>node) == T_NULL) return lit("null");
  const p = strP(node), n = strN(node);
  let cps: u32 = 0;
  for (let i: usize = 0; i < n; i++) {
    if ((load<u8>(p + i) & 0xC0) == 0x80) continue;
    if (cps == 100) return bytes(p, i) && utf8("\u2026");
    cps++;
  }
  return bytes(p, n);
}

/** A literal with non-ASCII characters (up to U+FFFF, no surrogates) as UTF-8. */
function utf8(s: string): bool {
  for (let i = 0; i < s.length; i++) {
    const c = <u32>s.charCodeAt(i);
    if (!ensure(3)) return false;
    if (c < 0x80) putByte(c);
    else if (c < 0x800) { putByte(0xC0 | c >> 6); putByte(0x80 | (c & 0x3F)); }
    else { putByte(0xE0 | c >> 12); putByte(0x80 | (c >> 6 & 0x3F)); putByte(0x80 | (c & 0x3F)); }
  }
  return true;
}

/** "matchOn [...]", "ignoreArgs [...]" or "no selection" of the record on the tape, in its own sink; 0 on OOM. */
function selectionName(): usize {
  if (!start(256)) return 0;
  const c = lineCall();
  const ok = c.matchOnN > 0 ? lit("matchOn ") && bytes(c.matchOnP, c.matchOnN)
    : c.ignoreN > 0 ? lit("ignoreArgs ") && bytes(c.ignoreP, c.ignoreN) : lit("no selection");
  return ok ? sinkBase() : 0;
}

/** The kept pieces, in order, into a fresh output. */
function flush(): bool {
  let total: usize = 0;
  for (let i = 0; i < nPieces; i++) total += <usize>load<u32>(pieces() + <usize>i * 8 + 4);
  if (!accInit(total + 64)) return false;
  for (let i = 0; i < nPieces; i++) {
    if (!accAppend(false, <usize>load<u32>(pieces() + <usize>i * 8), <usize>load<u32>(pieces() + <usize>i * 8 + 4))) return false;
  }
  return true;
}

export { alloc, nodeA };
