// The CLI engine: everything the CLIs do
// that is not host transport. Internal; reached through F_CLI (cli/steps.ts).
//
//   plan      argv → a plan or the text to print (cli/args.ts); starts a run
//   target    why's CALL.json bytes → the state to hand back, or an error
//   chunk     whole lines of a file (its name, the first line's number) →
//             stdout and stderr bytes for all of them; counts; why's state
//   unreadable  a file the host could not read, with the host's reason
//   counts    this instance's counts as state (a worker's, for --jobs)
//   finish    + the workers' counts → the summary lines and the exit status
//
// Lines are split here exactly as the CLIs always did: "\n" ends a line, one
// trailing "\r" is dropped, a UTF-8 BOM opens line 1 only, lines of spaces
// and tabs are skipped, a line that is not strict UTF-8 fails as "invalid
// UTF-8". A bad line is reported (stderr "FILE:LINE: message", or a --json
// record on stdout) and the run goes on. The engine keeps the counts in its
// globals and why's variable state (the call, the best candidate's line) in
// the state bytes the host carries from one request to the next.
import { E_NO_CALLS, OK, RESULT_CLI_CODE, RESULT_CLI_ERR, RESULT_CLI_LINES, RESULT_CLI_OUT, RESULT_CLI_STATE } from "../abi";
import { alloc } from "../base/arena";
import { countByte16, findByte16 } from "../text/bytes";
import { ensure, putByte, sinkBase, sinkEnd, sinkInit, sinkLength } from "../json/sink";
import { writeJsonString } from "../pipeline/canonical";
import { callsInLastMessage } from "../pipeline/process";
import { result } from "../base/result";
import { accFinal, accInit, accRollback, accSave, accScratch, accSink, deferLine, done } from "./output";
import { C_EXPLAIN, C_FINGERPRINT, C_REPLAY, C_VERIFY, C_WHY, options, plan, planExit, planToStderr } from "./args";
import { writePlan } from "./plan";
import { progressReset } from "./progress";
import { writeErrno } from "./errno";
import { bytes, decimal, lit } from "../json/emit";
import { codeWord, position, writeMessage } from "./message";
import { DIGEST, explanationBody, lineCall, readCall, strP } from "./readcall";
import { whyChunkStart, whyFinish, whyFound, whyLine, whyTarget } from "./why";

// The run's counts (merged from the workers' at finish).
let nLines: u32 = 0, nFailed: u32 = 0, nFileErrors: u32 = 0, nMatch: u32 = 0, nDiffer: u32 = 0, nUnrecorded: u32 = 0;

let fileP: usize = 0, fileN: usize = 0;

/** "plan": argv [p, p+n) and the host's facts [hP, hP+hN) → plan (cli/plan.ts); resets the run. */
export function runPlan(p: usize, n: usize, hP: usize, hN: usize, contract: i32): bool {
  nLines = nFailed = nFileErrors = nMatch = nDiffer = nUnrecorded = 0;
  replayReset();
  progressReset();
  if (!sinkInit(true, false, 4096)) return false;
  if (!plan(p, n, contract)) { if (planExit() != 2) return false; }
  const code = planExit(), err = planToStderr();
  if (code >= 0) return done(err ? 0 : sinkLength(), err ? sinkLength() : 0, 0, 0, code);
  if (!writePlan(hP, hN)) return false;
  return done(0, 0, sinkLength(), 0, -1);
}

function final(stateP: usize, stateN: usize, lines: u32, code: i32): bool {
  return accFinal(stateP, stateN, lines, code);
}

/** "target": why's CALL.json, named src; or the host's error name [rP, rP+rN) when it could not be read. */
export function runTarget(srcP: usize, srcN: usize, rP: usize, rN: usize, p: usize, n: usize): bool {
  fileP = srcP; fileN = srcN;
  if (rN > 0) {
    if (!sinkInit(true, false, srcN + 128) || !bytes(srcP, srcN) || !lit(": ") || !writeErrno(rP, rN) || !lit("\n")) return false;
    return done(0, sinkLength(), 0, 0, 1);
  }
  if (n >= 3 && load<u8>(p) == 0xEF && load<u8>(p + 1) == 0xBB && load<u8>(p + 2) == 0xBF) { p += 3; n -= 3; }
  const status = strictUtf8(p, n) ? readCall(p, n, -1, true) : 3;
  if (status != OK) {
    if (!sinkInit(true, false, 256) || !bytes(srcP, srcN) || !lit(": ") || !message(status, lineCall().text, n) || !lit("\n")) return false;
    return done(0, sinkLength(), 0, 0, 1);
  }
  return whyTarget(p, n) && done(0, 0, sinkLength(), 0, 0);
}

/** "chunk": lines [p, p+n) of file [fP, fP+fN), the first numbered first; state: why's. */
export function runChunk(fP: usize, fN: usize, sP: usize, sN: usize, first: u32, p: usize, n: usize): bool {
  fileP = fP; fileN = fN;
  if (options().command == C_WHY && !whyChunkStart(sP, sN)) return false;
  if (options().command == C_REPLAY && replayLoading() && !replayRoom(p, n)) return false; // first: it lays the index out again
  if (!accInit(options().command == C_FINGERPRINT ? n / 2 + 1024 : n * 2 + 1024)) return false;
  let line = first;
  const end = p + n;
  let i = p;
  let stop = false;
  while (i < end && !stop) {
    const nl = findByte16(i, end, 0x0A);
    let s = i, e = nl;
    if (e > s && load<u8>(e - 1) == 0x0D) e--;
    if (line == 1 && e - s >= 3 && load<u8>(s) == 0xEF && load<u8>(s + 1) == 0xBB && load<u8>(s + 2) == 0xBF) s += 3;
    if (!blank(s, e)) {
      nLines++;
      accScratch();
      if (!oneLine(line, s, e - s)) return false;
      stop = options().command == C_WHY && whyFound();
    }
    line++;
    i = nl + 1;
  }
  if (options().command == C_WHY && !whyChunkEnd()) return false;
  // The host's state goes back as it came, but why's (why.ts: a better line changes it).
  const why = options().command == C_WHY;
  return final(why ? whyState() : sP, why ? whyStateLength() : sN, line - first, stop ? 1 : 0);
}

import { whyChunkEnd, whyState, whyStateLength } from "./why";
import { LINE_NO_MEMORY, callsLine, recordingLine, replayFinish, replayLoading, replayMissed, replayReset } from "./replay";
import { replayRoom } from "../ops/replay";

function blank(s: usize, e: usize): bool {
  for (let q = s; q < e; q++) {
    const c = load<u8>(q);
    if (c != 0x20 && c != 0x09 && c != 0x0D) return false;
  }
  return true;
}

/** One line's output; false only on out of memory (a bad line is reported and counted). */
function oneLine(line: u32, p: usize, n: usize): bool {
  if (!strictUtf8(p, n)) return failLine(line, 3, p, n);
  if (options().command == C_REPLAY) {
    const status = replayLoading() ? recordingLine(line, p, n) : callsLine(fileP, fileN, line, p, n);
    return status == OK || (status != LINE_NO_MEMORY && failLine(line, status, lineCall().text, n));
  }
  if (options().command == C_WHY) {
    const status = readCall(p, n, -1, true);
    if (status != OK) return failLine(line, status, lineCall().text, n);
    return whyLine(fileP, fileN, line, p, n);
  }
  if (options().command == C_VERIFY) {
    const status = readCall(p, n, -1, true);
    if (status != OK) return failLine(line, status, lineCall().text, n);
    return verifyLine(line);
  }
  const saved = accSave();
  const explain = options().command == C_EXPLAIN;
  for (let i = 0, count = 1; i < count; i++) {
    const status = readCall(p, n, i, explain, !explain, i > 0);
    if (status != OK) {
      if (status == E_NO_CALLS && i == 0) return true; // a message without calls: nothing to print
      accRollback(saved); // no half-printed line
      return failLine(line, status, lineCall().text, n);
    }
    count = callsInLastMessage();
    if (explain ? !explainOut(line) || !accSink(false) : !fingerprintOut(line) || !deferLine(lineCall().preP, lineCall().preN, sinkBase() + digestAt)) {
      return false;
    }
  }
  return true;
}

/** "<hex>  <name>", or {"file","line","name","fingerprint"}; the 64 digits at digestAt are left for digests.ts. */
function fingerprintOut(line: u32): bool {
  const c = lineCall();
  if (!sinkInit(true, false, c.nameN + fileN + 128)) return false;
  if (!options().json) return blank64() && lit("  ") && bytes(c.nameP, c.nameN) && lit("\n");
  return head(line) && lit(",\"name\":") && writeJsonString(c.nameP, c.nameN, false) && lit(",\"fingerprint\":\"")
    && blank64() && lit("\"}\n");
}

/** Sink offset of the fingerprint line's digest. */
let digestAt: usize = 0;

function blank64(): bool {
  digestAt = sinkLength();
  return bytes(DIGEST(), 64);
}

/** {"file":F,"line":L — the start of every per-line record. */
function head(line: u32): bool {
  return lit("{\"file\":") && writeJsonString(fileP, fileN, false) && lit(",\"line\":") && decimal(line);
}

function explainOut(line: u32): bool {
  if (!sinkInit(true, false, 1024)) return false;
  if (options().json) return head(line) && lit(",") && explanationBody() && lit("\n");
  const c = lineCall();
  return bytes(fileP, fileN) && lit(":") && decimal(line) && lit("  ") && bytes(c.nameP, c.nameN) && lit("  ") && bytes(DIGEST(), 64)
    && lit("\n  kind       ") && bytes(c.kindP, c.kindN) && lit("\n  selection  ") && selectionText()
    && lit("\n  canonical  ") && bytes(c.canonP, c.canonN) && lit("\n");
}

/** What matchOn/ignoreArgs kept and dropped, or "none". */
function selectionText(): bool {
  const c = lineCall();
  const m = c.matchOnN > 0, g = c.ignoreN > 0;
  if (!m && !g) return lit("none");
  if (!(m ? lit("matchOn ") && bytes(c.matchOnP, c.matchOnN) : lit("ignoreArgs ") && bytes(c.ignoreP, c.ignoreN))) return false;
  if (c.declared && !lit(" (tool declaration)")) return false; // --tools chose it
  if (!lit(": kept ") || !bytes(c.keptP, c.keptN) || !lit(", dropped ") || !bytes(c.droppedP, c.droppedN)) return false;
  if (c.missingN > 2 && !(lit(", missing ") && bytes(c.missingP, c.missingN))) return false; // more than "[]"
  return m && g ? lit(" (matchOn wins over ignoreArgs)") : true;
}

function verifyLine(line: u32): bool {
  const c = lineCall(), rec = c.recorded;
  if (rec < 0) { nUnrecorded++; return true; }
  if (memory.compare(strP(rec), DIGEST(), 64) == 0) { nMatch++; return true; }
  nDiffer++;
  if (!sinkInit(true, false, c.canonN + 512)) return false;
  if (options().json) {
    if (!head(line) || !lit(",\"name\":") || !writeJsonString(c.nameP, c.nameN, false) || !lit(",\"recorded\":\"")
      || !bytes(strP(rec), 64) || !lit("\",\"fingerprint\":\"") || !bytes(DIGEST(), 64) || !lit("\",\"canonical\":")
      || !writeJsonString(c.canonP, c.canonN, false) || !lit("}\n")) return false;
  } else if (!bytes(fileP, fileN) || !lit(":") || !decimal(line) || !lit("  ") || !bytes(c.nameP, c.nameN) || !lit("  recorded ")
    || !bytes(strP(rec), 64) || !lit("  computed ") || !bytes(DIGEST(), 64) || !lit("\n  canonical  ")
    || !bytes(c.canonP, c.canonN) || !lit("\n")) return false;
  return accSink(false);
}

/** Reports line's failure (status, in the text [p, p+n)) and counts it. */
export function failLine(line: u32, status: i32, p: usize, n: usize): bool {
  nFailed++;
  if (!sinkInit(true, false, 256) || !message(status, p, n)) return false;
  const mP = sinkBase(), mN = sinkLength();
  if (!sinkInit(true, false, mN * 6 + fileN * 6 + 128)) return false;
  if (options().json) {
    if (!head(line) || !lit(",\"error\":") || !writeJsonString(mP, mN, false) || !lit(",\"code\":\"")) return false;
    if (!(status == 3 && errorWasUtf8 ? lit("invalid-utf8") : lit(codeWord())) || !lit("\"}\n")) return false;
    return accSink(false);
  }
  return bytes(fileP, fileN) && lit(":") && decimal(line) && lit(": ") && bytes(mP, mN) && lit("\n") && accSink(true);
}

/** A line that is not strict UTF-8 fails as a whole ("invalid UTF-8"), as a host decoder would say. */
let errorWasUtf8 = false;

function message(status: i32, p: usize, n: usize): bool {
  errorWasUtf8 = status == 3 && utf8Failed;
  if (errorWasUtf8) return lit("invalid UTF-8");
  return writeMessage(p, n);
}

let utf8Failed = false;

/** Strict UTF-8 (no surrogates), as TextDecoder({fatal}) and bytes.decode() check it. */
function strictUtf8(p: usize, n: usize): bool {
  utf8Failed = false;
  const end = p + n;
  let q = p;
  while (q < end) {
    // ASCII 16 bytes a step (this module is built with SIMD, build-wasm.mjs), then 8.
    if (q + 16 <= end && i8x16.bitmask(v128.load(q)) == 0) { q += 16; continue; }
    if (q + 8 <= end && (load<u64>(q) & 0x8080_8080_8080_8080) == 0) { q += 8; continue; }
    const c = <u32>load<u8>(q);
    if (c < 0x80) { q++; continue; }
    const k = sequenceLength(q, end);
    if (k == 0 || (c == 0xED && load<u8>(q + 1) >= 0xA0)) { utf8Failed = true; return false; }
    q += <usize>k;
  }
  return true;
}

import { sequenceLength } from "../text/utf8";

/** "unreadable": the host could not read file [fP, fP+fN); its error name [rP, rP+rN) (cli/errno.ts). */
export function runUnreadable(fP: usize, fN: usize, rP: usize, rN: usize): bool {
  nFileErrors++;
  if (!accInit(256) || !sinkInit(true, false, rN + 64) || !writeErrno(rP, rN)) return false;
  const wP = sinkBase(), wN = sinkLength();
  if (!sinkInit(true, false, (fN + wN) * 6 + 64)) return false;
  if (options().json) {
    if (!lit("{\"file\":") || !writeJsonString(fP, fN, false) || !lit(",\"error\":") || !writeJsonString(wP, wN, false)
      || !lit(",\"code\":\"unreadable-file\"}\n") || !accSink(false)) return false;
  } else if (!bytes(fP, fN) || !lit(": ") || !bytes(wP, wN) || !lit("\n") || !accSink(true)) return false;
  return final(0, 0, 0, 0);
}

/** "position": where offset lies in the JSON text [p, p+n), as stdout text (message.ts). */
export function runPosition(p: usize, n: usize, offset: u32): bool {
  if (!sinkInit(true, false, 64) || !position(p, n, <usize>offset)) return false;
  return done(sinkLength(), 0, 0, 0, 0);
}

/**
 * "lines": the lines of the chunk [p, p+n) as "chunk" numbers them (a last line
 * without its newline counts). A host that hands chunks to workers needs the
 * next chunk's first line number at once: 16 bytes a step here (SIMD) against
 * ~0.45 ms per MiB in a host's own count.
 */
export function runLines(p: usize, n: usize): bool {
  let count = <u32>countByte16(p, p + n, 0x0A);
  if (n > 0 && load<u8>(p + n - 1) != 0x0A) count++;
  if (!sinkInit(true, false, 16)) return false;
  return done(0, 0, 0, count, 0);
}

const COUNTS = 6;

/** "counts": this instance's counts as state bytes (a worker's, merged by finish). */
export function runCounts(): bool {
  if (!sinkInit(true, false, COUNTS * 4) || !ensure(COUNTS * 4)) return false;
  const at = sinkEnd();
  store<u32>(at, nLines); store<u32>(at, nFailed, 4); store<u32>(at, nFileErrors, 8);
  store<u32>(at, nMatch, 12); store<u32>(at, nDiffer, 16); store<u32>(at, nUnrecorded, 20);
  for (let i = 0; i < COUNTS * 4; i++) putByte(load<u8>(at + <usize>i));
  return done(0, 0, COUNTS * 4, 0, 0);
}

/** "finish": state (why's), counts [cP, cP+cN) from the workers → summary, exit status. */
export function runFinish(sP: usize, sN: usize, cP: usize, cN: usize): bool {
  for (let q = cP; q + COUNTS * 4 <= cP + cN; q += COUNTS * 4) {
    nLines += load<u32>(q); nFailed += load<u32>(q, 4); nFileErrors += load<u32>(q, 8);
    nMatch += load<u32>(q, 12); nDiffer += load<u32>(q, 16); nUnrecorded += load<u32>(q, 20);
  }
  let code: i32 = nFailed > 0 || nFileErrors > 0 ? 1 : 0;
  if (options().command == C_WHY) {
    if (!whyFinish(sP, sN)) return false; // allocates its own output (acc) after its reads
  } else if (options().command == C_REPLAY) {
    if (!replayFinish()) return false; // the unused calls and the summary (cli/replay.ts)
    if (replayMissed()) code = 1;
  } else if (!accInit(1024)) return false;
  if (options().command == C_VERIFY) {
    if (!sinkInit(true, false, 256)) return false;
    if (options().json) {
      if (!lit("{\"summary\":{\"match\":") || !decimal(nMatch) || !lit(",\"differ\":") || !decimal(nDiffer)
        || !lit(",\"unrecorded\":") || !decimal(nUnrecorded) || !lit(",\"failed\":") || !decimal(nFailed) || !lit("}}\n")) return false;
    } else if (!lit("verify: ") || !decimal(nMatch) || !lit(" match, ") || !decimal(nDiffer) || !lit(" differ, ")
      || !decimal(nUnrecorded) || !lit(" without \"fingerprint\", ") || !decimal(nFailed) || !lit(" failed\n")) return false;
    if (!accSink(false)) return false;
  }
  if (nFailed > 0) {
    if (!sinkInit(true, false, 64) || !decimal(nFailed) || !lit(" of ") || !decimal(nLines) || !lit(" lines failed\n") || !accSink(true)) {
      return false;
    }
  }
  if (options().command == C_VERIFY) {
    if (nMatch + nDiffer == 0) {
      if (!sinkInit(true, false, 64) || !lit("verify: nothing to verify (no line has a \"fingerprint\")\n") || !accSink(true)) {
        return false;
      }
      code = 1;
    } else if (nDiffer > 0) code = 1;
  }
  return final(0, 0, 0, code);
}

// Kept for the formatters that do not need them.
export { C_EXPLAIN, C_FINGERPRINT, alloc };
