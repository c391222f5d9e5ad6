// The replay index: a recording loaded once, indexed by
// fingerprint, answering live calls. Internal; engine module only
// (F_REPLAY, ops R_* in abi.ts). One index per module instance: a host makes
// one instance per recording.
//
// Kept region (arena.ts: between the input region and the arena, it survives
// every request): [tools text | hash table | entries | recorded line bytes |
// a nearest search's target].
// Offsets are relative to its start, so it moves as a whole when the input
// region grows (reserveKeepingStore) and segments move up when one grows
// (relayout, only at the start of a request, while the arena is empty).
//
// Lines (R_LOAD; the rules of both CLIs, src/cli.ts): split on "\n", a
// trailing "\r" dropped, a UTF-8 BOM skipped at the start of the recording,
// blank lines (spaces, tabs, CR) skipped, strict UTF-8 (no encoded
// surrogates either). A line is one call or a message holding several
// (shapes.ts: one entry per call, in order); a message without calls has
// none. A bad line is reported with its line number and error and kept out;
// the rest is kept. A chunk's unterminated last line is left for the next
// chunk (kept here, after the recorded lines' bytes) unless the chunk ends a line.
//
// Answers (R_ANSWER): a hit takes the next unanswered entry of that
// fingerprint (recorded order, one per lookup); a miss gives the why answer:
// "recorded N times, asked N+1", or the nearest recorded call of the same
// tool and kind (fewest changes, the first of equals; assembly/diff.ts).
import {
  E_BAD_REQUEST, E_BAD_TOOLS, E_INVALID_UTF8, E_NO_CALLS, E_OUT_OF_MEMORY, F_CALL, F_DIGEST, F_FROM_VALUE, F_NTH_CALL, F_STRING_INPUT, F_TEXT,
  F_VALUES, HEADER_BYTES, OK, PART_CALL, REPLAY_KIND_BYTES, LOAD_ENDS_LINE, LOAD_LAST, R_ANSWER, R_LOAD, R_TOOLS, R_UNUSED, RESULT_DIGEST, U_NONE,
} from "../abi";
import { alloc, arenaMark, grow, inputEnd, releaseFrom, reserveInput, setArenaBase } from "../base/arena";
import { lastCall } from "../pipeline/callnodes";
import { diffTexts, writeDiff } from "./diff";
import { failureMessage } from "../base/words";
import { fail, failCode, failDetailLen, failDetailPtr, failOffset, failPart, resetErrors, setErrorDetail } from "../base/errors";
import { hexDigit } from "../text/hex";
import { sinkBase, sinkInit, sinkLength } from "../json/sink";
import { nodeA, nodeB, tapeInit } from "../json/tape";
import { writeItems } from "./items";
import { writeJsonString } from "../pipeline/canonical";
import { callTextStart, callsInLastMessage, messageKept, processCall, sameMessageNext } from "../pipeline/process";
import { readTools } from "../pipeline/tools";
import { keptDone, keptStart } from "../base/limits";
import { sequenceLength } from "../text/utf8";
import { bytes, decimal, lit, signedDecimal } from "../json/emit";
import { digestTo, head16, hex, log, logInit, logPut, logRelease } from "./scratch";

const NONE: u32 = 0xFFFF_FFFF;
const ENTRY: usize = 72;
// Entry fields (byte offsets): the binary digest, where its line is, and the
// chain of entries with the same digest (recorded order); head-only fields
// hold the chain's tail, the next entry to answer and how often it was asked.
const E_LINE_OFF: usize = 32, E_LINE_LEN: usize = 36, E_LINE_NO: usize = 40, E_CALL: usize = 44, E_NEXT: usize = 48;
const E_TAIL: usize = 52, E_CURSOR: usize = 56, E_ASKED: usize = 60, E_NAME_HASH: usize = 64, E_FLAGS: usize = 68;
const FLAG_HEAD: u32 = 1, FLAG_USED: u32 = 2;

let toolsLen: usize = 0;
let toolsCap: usize = 0;
let tableOff: usize = 0;
let tableCap: u32 = 0;
let entriesOff: usize = 0;
let entryCount: u32 = 0;
let entryCap: u32 = 0;
let linesOff: usize = 0;
let linesLen: usize = 0;
let linesCap: usize = 0;
let storeSize: usize = 0;
// The last segment: what a nearest search keeps between its steps (ops/compare.ts), in any engine instance.
let nearOff: usize = 0;
let nearLen: usize = 0;
let nearCap: usize = 0;
let lineNo: u32 = 0;

@inline function base(): usize { return inputEnd(); }
@inline function entry(i: u32): usize { return base() + entriesOff + <usize>i * ENTRY; }
@inline function ef(i: u32, f: usize): u32 { return load<u32>(entry(i) + f); }
@inline function setEf(i: u32, f: usize, v: u32): void { store<u32>(entry(i) + f, v); }
@inline function slot(h: u32): usize { return base() + tableOff + (<usize>h << 2); }

/** The engine module's reserve(): the input region grows, the kept region moves up behind it. */
export function reserveKeepingStore(n: usize): usize {
  const old = inputEnd();
  const p = reserveInput(n);
  if (p == 0 || storeSize == 0) return p;
  const now = inputEnd();
  if (now != old) {
    if (!setArenaBase(now + storeSize)) return 0;
    memory.copy(now, old, storeSize);
  }
  return p;
}

/** Runs replay op [kind part: op u32, argument u32] on the payload. False on error (recorded). */
export function replayOp(kindP: usize, kindN: usize, p: usize, n: usize, flags: u32): bool {
  if (kindN != REPLAY_KIND_BYTES) return fail(E_BAD_REQUEST, -1) == OK;
  const op = load<u32>(kindP), arg = load<u32>(kindP, 4), held = load<u32>(kindP, 8), unit = load<u32>(kindP, 12);
  if (unit > U_NONE) return fail(E_BAD_REQUEST, -1) == OK;
  if (op == R_TOOLS) return setToolsText(p, n);
  if (op == R_LOAD) return loadChunk(p, n, arg);
  if (op == R_ANSWER) {
    const ok = answer(p, n, flags & (F_VALUES | F_STRING_INPUT | F_FROM_VALUE), arg, false, held != 0, unit);
    if (!ok) sentLine = 0; // a failed answer: the host holds no line it could have built from it
    return ok;
  }
  if (op == R_UNUSED) return unused(unit);
  return fail(E_BAD_REQUEST, -1) == OK;
}

// ---- For a CLI formatter (assembly/cli/): the same operations as functions ----
// A `replay` command loads the recording with R_TOOLS / R_LOAD requests into
// the engine's instance, then, per line of CALLS, calls replayAnswer and
// formats from the fields below (or re-reads the record replayAnswer wrote
// into the sink: [sinkBase(), sinkBase() + recordEnd)). Any other command
// applies a recording's declarations (--tools) with setTools(keptTools(),
// keptToolsLength()) before reading its lines.

/**
 * Answers call number nth of [p, p + n) (flags: F_STRING_INPUT / F_VALUES); the record is in the sink, without
 * the recorded line. again: [p, p + n) is the line of the last answer, with the arena kept since (not re-read).
 */
export function replayAnswer(p: usize, n: usize, flags: u32, nth: u32, again: bool): Answer | null {
  return answer(p, n, flags, nth, again, false, NO_LINE) ? theAnswer() : null;
}
/** The declarations the recording keeps (R_TOOLS), for setTools (tools.ts). */
/** Forgets the kept declarations and recording: a CLI run starts on an instance that may have served another. */
export function replayClear(): void {
  if (tableCap > 0) memory.fill(slot(0), 0, <usize>tableCap << 2);
  toolsLen = linesLen = tailLen = 0;
  entryCount = lineNo = tailBraces = sentLine = 0;
}
export function keptTools(): usize { return base(); }
export function keptToolsLength(): usize { return toolsLen; }
/** The recorded calls never answered. */
export function unusedCount(): u32 {
  let k: u32 = 0;
  for (let i: u32 = 0; i < entryCount; i++) if ((ef(i, E_FLAGS) & FLAG_USED) == 0) k++;
  return k;
}
/**
 * An answer (replayAnswer): a hit; the entry answered or the nearest (NONE:
 * none); counts; where its record, why text and changes end or lie in the sink.
 */
@unmanaged export class Answer {
  hit: bool;
  entry: u32;
  recorded: u32;
  asked: u32;
  recordEnd: usize;
  whyFrom: usize;
  whyTo: usize;
  changesFrom: usize;
  changesTo: usize;
}
/** The one answer this module writes (static: inside a function, so the fingerprint module never lays it out). */
function theAnswer(): Answer { return changetype<Answer>(memory.data(offsetof<Answer>(), 8)); }
/** An entry's line number and call index within its line. */
export function entryLine(e: u32): u32 { return ef(e, E_LINE_NO); }
export function entryCall(e: u32): u32 { return ef(e, E_CALL); }

/** The CLI's `load` step (cli/replay.ts): room for a chunk [p, p + n) of whole lines, first in the request (relayout). */
export function replayRoom(p: usize, n: usize): bool {
  let braces: usize = 0;
  for (let i: usize = 0; i < n; i++) if (load<u8>(p + i) == 0x7B) braces++;
  if (braces > (n >> 3)) braces = n >> 3;
  return makeRoom(n, <u32>braces + 2);
}
/** Loads one line (split by the CLI, strict UTF-8) as line number `line`; -1 bad (the CLI re-reads it for the message), 0 OOM, 1 kept. */
export function replayLoadLine(p: usize, n: usize, line: u32): i32 {
  lineNo = line;
  if (!logInit()) return 0;
  const ok = loadLine(p, n);
  const bad = log().len > 0;
  logRelease();
  return !ok ? 0 : bad ? -1 : 1;
}
/** Recorded calls, whether one was answered, and its line's text. */
export function entryTotal(): u32 { return entryCount; }
export function entryUsed(e: u32): bool { return (ef(e, E_FLAGS) & FLAG_USED) != 0; }
export function entryTextP(e: u32): usize { return base() + linesOff + <usize>ef(e, E_LINE_OFF); }
export function entryTextN(e: u32): usize { return <usize>ef(e, E_LINE_LEN); }
/** R_TOOLS for the CLI's `tools` step: checks and keeps the declarations; false with the error recorded. */
export function replayTools(p: usize, n: usize): bool {
  // The room first: its relayout moves the arena, where the sink that setToolsText writes to must come after.
  if (align16(n) > toolsCap && !relayout(align16(n), tableCap, entryCap, linesCap)) return false;
  return sinkInit(true, false, 64) && setToolsText(p, n);
}

/**
 * What a nearest search keeps between its steps (ops/compare.ts), in any
 * engine instance: room for n bytes (false: OOM, recorded). Growing moves the
 * arena, so a request reads its input again after it (nearFits says whether).
 */
export function nearFits(n: usize): bool { return n <= nearCap; }
export function nearRoom(n: usize): bool {
  return nearFits(n) || relayout(toolsCap, tableCap, entryCap, linesCap, align16(n + (n >> 1)));
}
/** The kept bytes (nearRoom first) and how many hold the search (0: none started). */
export function nearKept(): usize { return base() + nearOff; }
export function nearKeptLength(): usize { return nearLen; }
export function setNearKeptLength(n: usize): void { nearLen = n; }

// ---- The kept region ----------------------------------------------------------

@inline function align16(n: usize): usize { return (n + 15) & ~<usize>15; }

/** Lays the kept region out with the given capacities (never smaller); at a request's start only. */
function relayout(newTools: usize, newTable: u32, newEntries: u32, newLines: usize, newNear: usize = nearCap): bool {
  const b = base();
  const tabOff = align16(newTools);
  const entOff = tabOff + (<usize>newTable << 2);
  const linOff = align16(entOff + <usize>newEntries * ENTRY);
  const nOff = align16(linOff + newLines);
  const size = align16(nOff + newNear);
  if (!setArenaBase(b + size)) return false;
  // Every segment moves up (or stays): the highest first.
  memory.copy(b + nOff, b + nearOff, nearLen);
  memory.copy(b + linOff, b + linesOff, linesLen + tailLen);
  memory.copy(b + entOff, b + entriesOff, <usize>entryCount * ENTRY);
  const rehash = newTable != tableCap || tabOff != tableOff;
  toolsCap = newTools;
  tableOff = tabOff; tableCap = newTable; entriesOff = entOff; entryCap = newEntries;
  linesOff = linOff; linesCap = newLines; nearOff = nOff; nearCap = newNear; storeSize = size;
  if (rehash) {
    memory.fill(b + tableOff, 0, <usize>tableCap << 2);
    for (let i: u32 = 0; i < entryCount; i++) if (ef(i, E_FLAGS) & FLAG_HEAD) store<u32>(slot(findSlot(entry(i))), i + 1);
  }
  return true;
}

/** Room for lineBytes more line bytes and calls more entries (growing by half, the table at most half full). */
function makeRoom(lineBytes: usize, calls: u32): bool {
  const needLines = linesLen + lineBytes, needEntries = entryCount + calls;
  if (needLines <= linesCap && needEntries <= entryCap && (<u64>needEntries << 1) <= <u64>tableCap) return true;
  if (needEntries > 0x0FFF_FFFF) return fail(E_BAD_REQUEST, -1) == OK;
  let lc = linesCap, ec = entryCap, tc = tableCap < 16 ? <u32>16 : tableCap;
  if (needLines > lc) { lc = lc + (lc >> 1); if (lc < needLines) lc = needLines; }
  if (needEntries > ec) { ec = ec + (ec >> 1); if (ec < needEntries) ec = needEntries; }
  while (<u64>tc < (<u64>needEntries << 1)) tc <<= 1;
  return relayout(toolsCap, tc, ec, lc);
}

/** The table slot holding this digest's head, or the empty slot where it goes. */
function findSlot(digest: usize): u32 {
  const mask = tableCap - 1;
  let h = load<u32>(digest) & mask;
  while (true) {
    const v = load<u32>(slot(h));
    if (v == 0 || memory.compare(entry(v - 1), digest, 32) == 0) return h;
    h = (h + 1) & mask;
  }
  return 0; // unreachable
}

function headOf(digest: usize): u32 {
  if (tableCap == 0) return NONE;
  const v = load<u32>(slot(findSlot(digest)));
  return v == 0 ? NONE : v - 1;
}

/** Links entry i (digest and line fields set) into the index. */
function link(i: u32): void {
  setEf(i, E_NEXT, NONE);
  const s = slot(findSlot(entry(i)));
  const v = load<u32>(s);
  if (v == 0) {
    store<u32>(s, i + 1);
    setEf(i, E_FLAGS, FLAG_HEAD); setEf(i, E_TAIL, i); setEf(i, E_CURSOR, i); setEf(i, E_ASKED, 0);
    return;
  }
  const h = v - 1;
  setEf(i, E_FLAGS, 0);
  setEf(ef(h, E_TAIL), E_NEXT, i);
  setEf(h, E_TAIL, i);
  if (ef(h, E_CURSOR) == NONE) setEf(h, E_CURSOR, i);
}

function setToolsText(p: usize, n: usize): bool {
  if (entryCount != 0 || lineNo != 0 || tailLen != 0) {
    fail(E_BAD_TOOLS, -1);
    detail("declarations are set before the recording is loaded");
    return false;
  }
  if (align16(n) > toolsCap && !relayout(align16(n), tableCap, entryCap, linesCap)) return false;
  memory.copy(base(), p, n); // p is in the input region, below the kept region
  toolsLen = n;
  if (!tapeInit(n)) return false;
  if (readTools(base(), n) < 0) { toolsLen = 0; return false; }
  return lit("{}");
}

function detail(s: string): void {
  const out = alloc(<usize>s.length);
  if (out == 0) return;
  for (let i = 0; i < s.length; i++) store<u8>(out + <usize>i, <u8>s.charCodeAt(i));
  setErrorDetail(out, <usize>s.length);
}

// ---- Calls through the core's one call path (pipeline/process.ts) ----------------------

/**
 * Fingerprints call number nth of the JSON text (or value stream) [p, p + n)
 * with the recording's declarations. The digest is at result() + RESULT_DIGEST;
 * with text, the canonical text is [sinkBase() + callTextStart(), sinkEnd()).
 */
function fingerprintAt(p: usize, n: usize, nth: u32, flags: u32): i32 {
  const req = alloc(HEADER_BYTES + 4 + n);
  if (req == 0) return failCode();
  store<u32>(req, F_CALL | F_DIGEST | F_NTH_CALL | flags);
  store<u32>(req, 4, 4); store<u32>(req, 0, 8); store<u32>(req, 0, 12); store<u32>(req, 0, 16); store<u32>(req, <u32>n, 20);
  store<u32>(req + HEADER_BYTES, nth);
  memory.copy(req + HEADER_BYTES + 4, p, n);
  return processCall(req, HEADER_BYTES + 4 + n, base(), toolsLen);
}

/** FNV-1a of the last call's kind "\n" name: candidates for the nearest call. */
function nameHash(): u32 {
  const call = lastCall();
  let h: u32 = 0x811C9DC5;
  if (call.kind >= 0) h = fnv(h, <usize>nodeB(<u32>call.kind), <usize>nodeA(<u32>call.kind));
  else for (let i = 0; i < 9; i++) h = (h ^ <u32>"tool_call".charCodeAt(i)) * 0x01000193;
  h = (h ^ 0x0A) * 0x01000193;
  return fnv(h, <usize>nodeB(<u32>call.name), <usize>nodeA(<u32>call.name));
}

function fnv(h: u32, p: usize, n: usize): u32 {
  for (let i: usize = 0; i < n; i++) h = (h ^ <u32>load<u8>(p + i)) * 0x01000193;
  return h;
}

/** replayAnswer's unit: no line follows the record (the CLI formats from the Answer). */
const NO_LINE: u32 = 0xFFFF_FFFF;

/** The live call's binary digest (static: inside a function, so the fingerprint module never lays it out). */
function live(): usize { return memory.data(32, 16); }

// ---- R_LOAD ------------------------------------------------------------------

// The recording's unterminated last line so far (a chunk may end anywhere): kept
// after the recorded lines' bytes, [linesLen, linesLen + tailLen), until a chunk ends it.
let tailLen: usize = 0;
let tailBraces: u32 = 0;

/** R_LOAD: a chunk cut anywhere (flags: LOAD_LAST, LOAD_ENDS_LINE); its whole lines are read, the rest is kept. */
function loadChunk(p: usize, n: usize, flags: u32): bool {
  const last = (flags & LOAD_LAST) != 0, endsLine = (flags & LOAD_ENDS_LINE) != 0;
  // Worst case: every byte kept, and a call per "{" (every call is an object),
  // at most one per 8 bytes (a call's text is longer).
  let braces: usize = 0;
  for (let i: usize = 0; i < n; i++) if (load<u8>(p + i) == 0x7B) braces++;
  const max = (n + tailLen) >> 3;
  let calls = <usize>tailBraces + braces;
  if (calls > max) calls = max;
  if (!makeRoom(tailLen + n, <u32>calls + 2)) return false;
  if (!logInit()) return false;
  let pos: usize = 0;
  while (true) {
    let nl = pos;
    while (nl < n && load<u8>(p + nl) != 0x0A) nl++;
    // No line end left: the rest is a line when the chunk ends one, or when it is the last and something is left.
    if (nl == n && !(endsLine || (last && (pos < n || tailLen > 0)))) break;
    // A line: the kept tail and [pos, nl), joined after the recorded lines' bytes when a tail is kept.
    let lp = p + pos, ln = nl - pos;
    if (tailLen > 0) {
      lp = base() + linesOff + linesLen;
      memory.copy(lp + tailLen, p + pos, ln);
      ln += tailLen;
      tailLen = 0; tailBraces = 0;
    }
    pos = nl < n ? nl + 1 : n;
    if (!takeLine(lp, ln)) return false;
    if (nl == n) break;
  }
  if (pos < n) {
    // An unterminated line: kept for the next chunk (makeRoom left room for it).
    memory.copy(base() + linesOff + linesLen + tailLen, p + pos, n - pos);
    tailLen += n - pos;
    for (let i = pos; i < n; i++) if (load<u8>(p + i) == 0x7B) tailBraces++;
  }
  logRelease();
  if (!sinkInit(true, false, 256 + log().len * 2)) return false;
  if (!lit("{\"lines\":") || !decimal(lineNo) || !lit(",\"calls\":")
    || !decimal(entryCount) || !lit(",\"bad\":[")) return false;
  let q = log().p;
  const qe = log().p + log().len;
  while (q < qe) {
    const dl = <usize>load<u32>(q, 16);
    if (q != log().p && !lit(",")) return false;
    if (!lit("{\"line\":") || !decimal(load<u32>(q)) || !lit(",\"status\":") || !decimal(load<u32>(q, 4))
      || !lit(",\"offset\":") || !signedDecimal(load<i32>(q, 8)) || !lit(",\"part\":") || !decimal(load<u32>(q, 12))
      || !lit(",\"detail\":") || !writeJsonString(q + 20, dl, false) || !lit("}")) return false;
    q += 20 + dl;
  }
  return lit("]}");
}

/** One line of the recording (its line end cut off): numbered, a CR and a first line's BOM dropped, a blank one skipped. */
function takeLine(p: usize, n: usize): bool {
  lineNo++;
  if (n > 0 && load<u8>(p + n - 1) == 0x0D) n--;
  if (lineNo == 1 && n >= 3 && load<u8>(p) == 0xEF && load<u8>(p + 1) == 0xBB && load<u8>(p + 2) == 0xBF) { p += 3; n -= 3; }
  return isBlank(p, n) || loadLine(p, n);
}

function isBlank(p: usize, n: usize): bool {
  for (let i: usize = 0; i < n; i++) {
    const c = load<u8>(p + i);
    if (c != 0x20 && c != 0x09 && c != 0x0D) return false;
  }
  return true;
}

/** Byte offset of the first byte that is not strict UTF-8 (an encoded surrogate is not), or -1. */
function badUtf8(p: usize, n: usize): i32 {
  const end = p + n;
  let q = p;
  while (q < end) {
    const c = load<u8>(q);
    if (c < 0x80) { q++; continue; }
    const len = sequenceLength(q, end);
    if (len == 0 || (c == 0xED && load<u8>(q + 1) >= 0xA0)) return <i32>(q - p);
    q += <usize>len;
  }
  return -1;
}

/** Reads every call of one line into new entries; a bad line goes to the log. False only on OOM. */
function loadLine(p: usize, n: usize): bool {
  const bad = badUtf8(p, n);
  if (bad >= 0) return logBad(E_INVALID_UTF8, bad, PART_CALL, 0, 0);
  let count: u32 = 1;
  const first = entryCount;
  let kept: usize = 0;
  for (let nth: u32 = 0; nth < count; nth++) {
    resetErrors(PART_CALL);
    const again = nth > 0 && messageKept(); // the line is parsed once (pipeline/process.ts)
    if (again) { releaseFrom(kept); sameMessageNext(); }
    const st = fingerprintAt(p, again ? 0 : n, nth, F_STRING_INPUT);
    if (!again) kept = arenaMark();
    if (st != OK) {
      if (st == E_NO_CALLS && nth == 0 && callsInLastMessage() == 0) { logRelease(); return true; } // no calls: nothing to keep
      const code = failCode(), off = failOffset(), part = failPart(), dp = failDetailPtr(), dn = failDetailLen();
      if (code == E_OUT_OF_MEMORY) return false; // not the line's fault: the load stops
      logRelease();
      return logBad(code, off, part, dp, dn);
    }
    if (nth == 0) count = <u32>callsInLastMessage();
    if (count == 0 || first + count > entryCap) { logRelease(); return fail(E_BAD_REQUEST, -1) == OK; }
    const e = entry(first + nth);
    digestTo(e);
    store<u32>(e + E_LINE_OFF, <u32>linesLen);
    store<u32>(e + E_LINE_LEN, <u32>n);
    store<u32>(e + E_LINE_NO, lineNo);
    store<u32>(e + E_CALL, nth);
    store<u32>(e + E_NAME_HASH, nameHash());
  }
  logRelease();
  // Every call of the line read: keep the line and index its calls.
  memory.copy(base() + linesOff + linesLen, p, n);
  linesLen += n;
  entryCount = first + count;
  for (let i = first; i < entryCount; i++) link(i);
  resetErrors(PART_CALL);
  return true;
}

/** Log record: line, status, offset, part, detail length, detail bytes. */
function logBad(code: i32, off: i32, part: i32, dp: usize, dn: usize): bool {
  if (dn == 0) { failureMessage(code, off, part); dp = failDetailPtr(); dn = failDetailLen(); }
  store<u32>(head16(), lineNo); store<i32>(head16(), code, 4); store<i32>(head16(), off, 8); store<i32>(head16(), part, 12);
  store<u32>(head16(), <u32>dn, 16);
  const ok = logPut(5, dp, dn);
  resetErrors(PART_CALL);
  return ok;
}

// ---- R_ANSWER ----------------------------------------------------------------

/** The live call's digest, canonical text, kind and name, copied out of its request's scratch. */

/** Whether the request memo (pipeline/process.ts) still holds the last answer's live line. */
let liveKept = false;

/**
 * The line number of the recorded line the last answer sent (0: none). `held`: the host built
 * that line's value. The line named again is then left out ("the same as your last one"): the
 * answers to the n calls of one line cost O(line), not O(n x line).
 */
let sentLine: u32 = 0;

/**
 * The recorded call it names (a hit, or a miss's nearest) carries its line's "text" unless the
 * host holds it (held, sentLine) or unit is NO_LINE (the CLI's formatters); then "\n" and the
 * line's items in `unit` (itemsOut; none with U_NONE).
 */
function answer(p: usize, n: usize, flags: u32, nth: u32, again: bool, held: bool, unit: u32): bool {
  let withLine = unit != NO_LINE;
  again = again && liveKept && messageKept();
  if (again) sameMessageNext();
  const st = fingerprintAt(p, again ? 0 : n, nth, F_TEXT | flags);
  liveKept = st == OK;
  if (st != OK) return false;
  const calls = callsInLastMessage();
  digestTo(live());
  const canonN = sinkLength() - callTextStart();
  const canon = alloc(canonN);
  if (canonN > 0 && canon == 0) return false;
  memory.copy(canon, sinkBase() + callTextStart(), canonN);
  const liveHash = nameHash();
  const call = lastCall();
  const nameP = <usize>nodeB(<u32>call.name), nameN = <usize>nodeA(<u32>call.name);
  const kindP = call.kind >= 0 ? <usize>nodeB(<u32>call.kind) : 0, kindN = call.kind >= 0 ? <usize>nodeA(<u32>call.kind) : 0;
  const mark = arenaMark(); // the live call's tape and texts stay below
  forgetLine();

  const head = headOf(live());
  if (head != NONE && ef(head, E_CURSOR) != NONE) {
    const e = ef(head, E_CURSOR);
    setEf(head, E_CURSOR, ef(e, E_NEXT));
    setEf(head, E_ASKED, ef(head, E_ASKED) + 1);
    setEf(e, E_FLAGS, ef(e, E_FLAGS) | FLAG_USED);
    if (held && ef(e, E_LINE_NO) == sentLine) withLine = false;
    if (!sinkInit(true, false, 512 + (withLine ? <usize>ef(e, E_LINE_LEN) * 4 : 0))) return false;
    const a = theAnswer();
    a.hit = true; a.entry = e; a.recorded = a.asked = 0;
    a.whyFrom = a.whyTo = a.changesFrom = a.changesTo = 0;
    // "line" and "call" again: a hit is a recorded call too (the host adds its text and value).
    if (!start(true, nameP, nameN, kindP, kindN, calls) || !decimal(ef(e, E_LINE_NO)) || !lit(",\"recordedCall\":")
      || !decimal(ef(e, E_CALL)) || !lit(",\"line\":") || !decimal(ef(e, E_LINE_NO)) || !lit(",\"call\":")
      || !decimal(ef(e, E_CALL)) || !(!withLine || textOf(e)) || !lit("}")) return false;
    a.recordEnd = sinkLength();
    return !withLine || sendLine(e, unit);
  }

  let best: u32 = NONE, bestChanges: u32 = 0, recorded: u32 = 0, asked: u32 = 0;
  if (head != NONE) {
    // Exhausted: the same fingerprint, recorded fewer times than asked.
    asked = ef(head, E_ASKED) + 1;
    setEf(head, E_ASKED, asked);
    for (let e = head; e != NONE; e = ef(e, E_NEXT)) { recorded++; best = e; }
  } else {
    for (let i: u32 = 0; i < entryCount; i++) {
      if (ef(i, E_NAME_HASH) != liveHash) continue;
      if (!canonicalOf(i, mark)) return false;
      if (!sameCall(nameP, nameN, kindP, kindN)) { releaseFrom(keptFloor(mark)); continue; }
      const cs = callTextStart(), ce = sinkLength();
      // The diff needs its texts outside the sink: copy the candidate's out.
      const t = alloc(ce - cs);
      if (ce > cs && t == 0) return false;
      memory.copy(t, sinkBase() + cs, ce - cs);
      const changes = diffTexts(t, <u32>(ce - cs), canon, <u32>canonN);
      if (changes < 0) return false;
      if (best == NONE || <u32>changes < bestChanges) { best = i; bestChanges = <u32>changes; }
      releaseFrom(keptFloor(mark));
      // Another fingerprint differs by one change at least: nothing beats one.
      if (bestChanges == 1) break;
    }
  }
  // The nearest call's canonical text again (the loop released it), then the record.
  let t: usize = 0, tn: usize = 0;
  if (best != NONE && head == NONE) {
    if (!canonicalOf(best, mark)) return false;
    tn = sinkLength() - callTextStart();
    t = alloc(tn);
    if (tn > 0 && t == 0) return false;
    memory.copy(t, sinkBase() + callTextStart(), tn);
  }
  if (best != NONE && held && ef(best, E_LINE_NO) == sentLine) withLine = false;
  if (!sinkInit(true, false, 1024 + (best != NONE && withLine ? <usize>ef(best, E_LINE_LEN) * 4 : 0))) return false;
  if (!start(false, nameP, nameN, kindP, kindN, calls) || !lit("null,\"why\":\"")) return false;
  const a = theAnswer();
  a.hit = false; a.entry = best; a.recorded = recorded; a.asked = asked;
  a.whyFrom = sinkLength();
  if (head != NONE) {
    if (!lit("recorded ") || !decimal(recorded) || !lit(recorded == 1 ? " time, asked " : " times, asked ") || !decimal(asked)) return false;
  } else if (best != NONE) {
    if (!lit("no recorded call has this fingerprint; the nearest recorded call of this tool is line ")
      || !decimal(ef(best, E_LINE_NO)) || !lit(" (") || !decimal(bestChanges) || !lit(bestChanges == 1 ? " change)" : " changes)")) return false;
  } else if (!lit("no recorded call of this tool and kind")) return false;
  a.whyTo = sinkLength();
  if (!lit("\",\"recorded\":") || !decimal(recorded) || !lit(",\"asked\":") || !decimal(asked) || !lit(",\"nearest\":")) return false;
  if (best == NONE) {
    if (!lit("null,\"changes\":")) return false;
    a.changesFrom = sinkLength();
    if (!lit("[]")) return false;
    a.changesTo = sinkLength();
    if (!lit("}")) return false;
    a.recordEnd = sinkLength();
    return true;
  }
  if (!lit("{\"line\":") || !decimal(ef(best, E_LINE_NO)) || !lit(",\"call\":") || !decimal(ef(best, E_CALL))
    || !(!withLine || textOf(best)) || !lit("},\"changes\":")) return false;
  a.changesFrom = sinkLength();
  if (head != NONE) { if (!lit("[]")) return false; }
  else if (writeDiff(t, <u32>tn, canon, <u32>canonN) < 0) return false;
  a.changesTo = sinkLength();
  if (!lit("}")) return false;
  a.recordEnd = sinkLength();
  return !withLine || sendLine(best, unit);
}

// Entries of one line are read one after another (nearest, unused): the line
// is parsed once and kept below `readKept` while its calls are read.
let readLine: u32 = NONE;
let readKept: usize = 0;

/** Forgets the kept line (a new request, or an arena released below it). */
function forgetLine(): void { readLine = NONE; }

/** Where a loop over entries releases to: above the kept line, and above `floor`. */
function keptFloor(floor: usize): usize { return readLine != NONE && readKept > floor ? readKept : floor; }

/** Re-reads entry i's call (flags: F_TEXT for its canonical text, in the sink); another line is read above floor. */
function reread(i: u32, flags: u32, floor: usize): bool {
  const off = ef(i, E_LINE_OFF);
  // A kept line was checked against the limits when it was loaded (limits.ts).
  if (off == readLine && messageKept()) {
    releaseFrom(readKept);
    sameMessageNext();
    keptStart();
    const again = fingerprintAt(0, 0, ef(i, E_CALL), flags | F_STRING_INPUT);
    keptDone();
    return again == OK;
  }
  releaseFrom(floor);
  readLine = NONE;
  liveKept = false; // the memo now holds a recorded line
  keptStart();
  const st = fingerprintAt(base() + linesOff + <usize>off, <usize>ef(i, E_LINE_LEN), ef(i, E_CALL), flags | F_STRING_INPUT);
  keptDone();
  if (st != OK) return false;
  readLine = off; readKept = arenaMark();
  return true;
}

/** Re-reads entry i's call with its canonical text (in the sink). */
function canonicalOf(i: u32, floor: usize): bool {
  return reread(i, F_TEXT, floor);
}

function sameCall(nameP: usize, nameN: usize, kindP: usize, kindN: usize): bool {
  const name = lastCall().name;
  if (<usize>nodeA(<u32>name) != nameN || memory.compare(<usize>nodeB(<u32>name), nameP, nameN) != 0) return false;
  const k = lastCall().kind;
  if ((k >= 0) != (kindP != 0 || kindN != 0)) return kindIsDefault(k, kindP, kindN);
  return k < 0 || (<usize>nodeA(<u32>k) == kindN && memory.compare(<usize>nodeB(<u32>k), kindP, kindN) == 0);
}

/** One side gave the kind "tool_call" explicitly, the other left it out: the same kind. */
function kindIsDefault(k: i32, kindP: usize, kindN: usize): bool {
  const p = k >= 0 ? <usize>nodeB(<u32>k) : kindP, n = k >= 0 ? <usize>nodeA(<u32>k) : kindN;
  if (n != 9) return false;
  for (let i = 0; i < 9; i++) if (<u32>load<u8>(p + <usize>i) != <u32>"tool_call".charCodeAt(i)) return false;
  return true;
}

/** The record's common head, up to "recordedLine": (its value follows). */
function start(hit: bool, nameP: usize, nameN: usize, kindP: usize, kindN: usize, calls: i32): bool {
  if (!lit(hit ? "{\"hit\":true,\"name\":" : "{\"hit\":false,\"name\":") || !writeJsonString(nameP, nameN, false)) return false;
  if (!lit(",\"kind\":")) return false;
  if (kindN > 0 || kindP != 0 ? !writeJsonString(kindP, kindN, false) : !lit("\"tool_call\"")) return false;
  return lit(",\"fingerprint\":\"") && hex(live()) && lit("\",\"calls\":") && decimal(<u32>calls) && lit(",\"recordedLine\":");
}

/** ,"text": and entry e's recorded line as a JSON string. */
function textOf(e: u32): bool {
  return lit(",\"text\":") && writeJsonString(base() + linesOff + <usize>ef(e, E_LINE_OFF), <usize>ef(e, E_LINE_LEN), false);
}

/** After the record: "\n" and entry e's items (itemsOut; none with U_NONE); the line is then the one sent. */
function sendLine(e: u32, unit: u32): bool {
  if (unit != U_NONE && !(lit("\n") && itemsOut(e, unit))) return false;
  sentLine = ef(e, E_LINE_NO);
  return true;
}

/** u32 n and the n bytes of entry e's line's items (ops/items.ts) in `unit`. */
function itemsOut(e: u32, unit: u32): bool {
  const at = sinkLength();
  if (!bytes(head16(), 4) || !writeItems(base() + linesOff + <usize>ef(e, E_LINE_OFF), <usize>ef(e, E_LINE_LEN), unit)) return false;
  store<u32>(sinkBase() + at, <u32>(sinkLength() - at - 4));
  return true;
}

// ---- R_UNUSED ----------------------------------------------------------------

/**
 * [{"line","call","name","fingerprint","text"?}…]: the recorded calls never
 * answered, in recorded order; text is the recorded line, given with the
 * first of its calls only (a line of n calls once, not n times: the host
 * shares it). Then "\n" and, for each text in order, u32 n and its n bytes of
 * items (ops/items.ts) in `unit` (none with U_NONE).
 */
function unused(unit: u32): bool {
  if (!logInit()) return false;
  forgetLine();
  for (let i: u32 = 0; i < entryCount; i++) {
    if (ef(i, E_FLAGS) & FLAG_USED) continue;
    // The name is copied into the log: the line stays parsed for its next call.
    if (!reread(i, 0, log().mark)) return false;
    const np = <usize>nodeB(<u32>lastCall().name), nn = <usize>nodeA(<u32>lastCall().name);
    store<u32>(head16(), i); store<u32>(head16(), <u32>nn, 4);
    if (!logPut(2, np, nn)) return false;
    if (log().mark > readKept) readKept = log().mark; // the log grew past the kept line: keep it too
  }
  forgetLine();
  logRelease();
  if (!sinkInit(true, false, 256 + log().len * 2) || !lit("[")) return false;
  let q = log().p;
  const qe = log().p + log().len;
  let lastLine: u32 = 0; // line numbers start at 1
  while (q < qe) {
    const i = load<u32>(q), nn = <usize>load<u32>(q, 4);
    if (q != log().p && !lit(",")) return false;
    if (!lit("{\"line\":") || !decimal(ef(i, E_LINE_NO)) || !lit(",\"call\":") || !decimal(ef(i, E_CALL)) || !lit(",\"name\":")
      || !writeJsonString(q + 8, nn, false) || !lit(",\"fingerprint\":\"") || !hex(entry(i)) || !lit("\"")) return false;
    if (ef(i, E_LINE_NO) != lastLine && !textOf(i)) return false;
    if (!lit("}")) return false;
    lastLine = ef(i, E_LINE_NO);
    q += 8 + nn;
  }
  if (!lit("]\n")) return false;
  lastLine = 0;
  for (q = log().p; unit != U_NONE && q < qe; q += 8 + <usize>load<u32>(q, 4)) {
    const i = load<u32>(q);
    if (ef(i, E_LINE_NO) == lastLine) continue;
    lastLine = ef(i, E_LINE_NO);
    if (!itemsOut(i, unit)) return false;
  }
  return true;
}
