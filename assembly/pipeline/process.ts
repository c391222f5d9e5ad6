// The pipeline: one request through read call → select → canonical → digest
// (or the canonical text, the preimage, the explanation record), for both
// modules. Internal. It imports nothing that calls back into it: the
// operations above it (replay.ts, the CLI engine in cli/) run their calls
// through runLine/processCall and read the results with the helpers below;
// the dispatcher (entry/dispatch.ts) alone routes a host's request to them or here.
// The ABI is documented in entry/fingerprint.ts and defined in abi.ts.
import {
  ALL_CALLS, E_NO_CALLS, F_CALL, F_FROM_VALUE, F_RAW_NAMES, F_NTH_CALL, F_TOOLS, F_DIGEST, F_EXPLAIN, F_MARSHAL, F_IGNORE, F_MATCH_ON, F_PREIMAGE, F_STRING_INPUT, F_TEXT, F_VALUES,
  PART_CALL, HEADER_BYTES, RESULT_DIGEST, RESULT_OFFSET, RESULT_PART, RESULT_STATUS, RESULT_TEXT_LEN, RESULT_TEXT_PTR,
} from "../abi";
import { alloc, arenaMark, arenaReset, grow, releaseFrom } from "../base/arena";
import { inputDone, inputFits, inputStart } from "../base/limits";
import { callArgs, callIgnore, callKind, callMatchOn, callName, callRecorded, readCall } from "./call";
import { callCount, callList, listCalls } from "./shapes";
import { writeExplanation } from "./explain";
import { applyTools, setTools } from "./tools";
import {
  E_BAD_KIND, E_BAD_NAME, E_BAD_REQUEST, E_BAD_SELECTION, E_OUT_OF_MEMORY, OK, PART_ARGS,
  PART_KIND, PART_NAME, PART_SELECTION, errCode, errDetailLen, errDetailPtr, errOffset, errPart, fail,
  resetErrors, setPart,
} from "../base/errors";
import { lastStrLen, lastStrPtr, parseText, readStringLiteral } from "../json/reader";
import { ensure, outBase, outPos, putBytes, sinkFinish, sinkInit, sinkStopHashing } from "../json/sink";
import { T_ARR, nodeA, nodeB, nodeType, tapeBack, tapeForget, tapeInit, tapeKeep, tapeKept } from "../json/tape";
import { readMarshal } from "../json/marshal";
import { readValues } from "../json/values";
import { writeCanonical } from "./canonical";
import { RESULT } from "../base/result";
import { failureMessage } from "../base/words";
import { SELECT_IGNORE, SELECT_MATCH_ON, SELECT_NONE, isKeyList, setSelection } from "./select";
import { sha256FinalHex, sha256Reset } from "../hash/sha256";
import { asciiEnd, hasSurrogate, sequenceLength } from "../text/utf8";
import { findByte } from "../text/bytes";


const HEADER: usize = HEADER_BYTES;
const DEFAULT_KIND: usize = memory.data<u8>([0x74, 0x6F, 0x6F, 0x6C, 0x5F, 0x63, 0x61, 0x6C, 0x6C]); // "tool_call"
const DEFAULT_KIND_LEN: usize = 9;
const NEWLINE: usize = memory.data<u8>([0x0A]);

/** Entry variants: the fingerprint module, and the diagnostics module with calls and explain. */
export type FingerprintOnly = u32;
export type WithCalls = u64;

/** The raw kind (F_RAW_NAMES) last found well-formed in this call from the host (0: none). */
let checkedKindP: usize = 0;
let checkedKindN: usize = 0;

/** A call from the host starts: a kind checked in an earlier one may be other bytes now. */
export function forgetCheckedKind(): void {
  checkedKindP = 0;
}

/** Every request starts from an empty arena and no error. */
export function startRequest(): void {
  arenaReset();
  tapeForget();
  callsInMessage = -1;
  resetErrors(PART_ARGS);
}

/** Fills the result block for a finished request; returns its status. */
export function finish<V>(status: i32): i32 {
  if (status != OK && errDetailLen == 0) failureMessage(status, errOffset, errPart);
  store<i32>(RESULT + RESULT_STATUS, status);
  // A kind, name or key list is the host's own argument, not text with byte offsets to show (words.ts).
  store<i32>(RESULT + RESULT_OFFSET, status == OK ? <i32>callsInMessage : errPart >= PART_KIND && errPart <= PART_SELECTION ? -1 : errOffset);
  store<i32>(RESULT + RESULT_PART, errPart);
  // On failure the text fields carry the error's detail (abi.ts), if any:
  // a limit's whole message (limits.ts), or in the diagnostics module call.ts's.
  store<u32>(RESULT + RESULT_TEXT_PTR, status == OK ? <u32>(outBase + textStart) : <u32>errDetailPtr);
  store<u32>(RESULT + RESULT_TEXT_LEN, status == OK ? <u32>(outPos - textStart) : <u32>errDetailLen);
  return status;
}

/** Whether req[0..len) is a header and parts of exactly len bytes. */
@inline export function headerFits(req: usize, len: usize): bool {
  // Sum in u64 so hostile lengths cannot wrap around.
  return len >= HEADER && <u64>HEADER + <u64>load<u32>(req, 4) + <u64>load<u32>(req, 8) + <u64>load<u32>(req, 12)
    + <u64>load<u32>(req, 16) + <u64>load<u32>(req, 20) == <u64>len;
}

/** The request at req[0..len): its header's parts, checked, to process(). */
@inline export function processRequest<V>(req: usize, len: usize): i32 {
  if (!headerFits(req, len)) return fail(E_BAD_REQUEST, -1);
  const kindLen = <usize>load<u32>(req, 4);
  const nameLen = <usize>load<u32>(req, 8);
  const matchLen = <usize>load<u32>(req, 12);
  const ignoreLen = <usize>load<u32>(req, 16);
  const argsLen = <usize>load<u32>(req, 20);
  const kindPtr = req + HEADER;
  const namePtr = kindPtr + kindLen;
  const matchPtr = namePtr + nameLen;
  const ignorePtr = matchPtr + matchLen;
  return process<V>(load<u32>(req), kindPtr, kindLen, namePtr, nameLen, matchPtr, matchLen, ignorePtr, ignoreLen,
    ignorePtr + ignoreLen, argsLen);
}

/**
 * One request whose parts are at the given addresses (the header's, or a
 * batch item's: batch.ts). The operations' flags (F_DIFF, F_REPLAY, F_CLI)
 * are the dispatcher's (entry/dispatch.ts): they route a host's request before it
 * gets here, and mean nothing here.
 */
export function process<V>(flags: u32, kindPtr: usize, kindLen: usize, namePtr: usize, nameLen: usize,
  matchPtr: usize, matchLen: usize, ignorePtr: usize, ignoreLen: usize, argsPtr: usize, argsLen: usize): i32 {
  let explain = false, isCall = false;
  if (sizeof<V>() == 8) {
    // F_TOOLS: the declarations (tools.ts) sit in the ignoreArgs part, for this call only.
    if (flags & F_TOOLS) setTools(ignorePtr, ignoreLen);
    explain = (flags & F_EXPLAIN) != 0;
    isCall = (flags & F_CALL) != 0;
  }
  // The fingerprint module does not look at F_CALL, F_EXPLAIN or F_DIFF (its
  // hosts never send them; rejecting them cost bytes the 40 KiB budget lacks).
  // The byte limit before anything is read or sized by the input (limits.ts).
  if (!inputFits(argsLen, (flags & F_FROM_VALUE) != 0)) return failed();
  const digest = (flags & F_DIGEST) != 0;
  const preimage = (flags & F_PREIMAGE) != 0 || explain;
  if (!sinkInit((flags & F_TEXT) != 0 || preimage, digest, kindLen + nameLen + argsLen + 16)) return failed();
  if (digest) sha256Reset();

  // A call (call.ts) is read first: kind, name, lists and args all come from it.
  let root: i32 = -1;
  let kindP = DEFAULT_KIND, kindN = DEFAULT_KIND_LEN, nameP: usize = 0, nameN: usize = 0;
  if (sizeof<V>() == 8) {
    if (isCall) {
      // F_NTH_CALL: the kind part is the u32 index of the call in a message (shapes.ts);
      // F_TOOLS: the ignoreArgs part holds the tool declarations (tools.ts).
      const nth = (flags & F_NTH_CALL) != 0;
      if (kindLen - (nth ? 4 : 0) + nameLen + matchLen + ((flags & F_TOOLS) != 0 ? 0 : ignoreLen) != 0) {
        return fail(E_BAD_REQUEST, -1);
      }
      setPart(PART_CALL);
      // A host object: the value stream (TS) or CPython marshal (Python's batch); else JSON text.
      const marshal = (flags & F_MARSHAL) != 0, values = (flags & F_VALUES) != 0 || marshal;
      let call: i32 = -1;
      const again = nth && sameMessage && tapeKept();
      sameMessage = false;
      // Depth and members are checked while the call is read, its argsJSON included (limits.ts).
      inputStart();
      if (again) {
        // The message read by the last request: its tape and call list are still in the arena.
        tapeBack();
        argsPtr = msgText; argsLen = msgTextLen;
      } else {
        if (!tapeInit(argsLen)) { inputDone(); return failed(); }
        call = (flags & F_VALUES) != 0 ? readValues(argsPtr, argsLen)
          : marshal ? readMarshal(argsPtr, argsLen) : parseText(argsPtr, argsLen, (flags & F_STRING_INPUT) == 0);
      }
      if (nth && (again || call >= 0)) {
        if (!again) {
          if (!listCalls(<u32>call)) { inputDone(); callsInMessage = callCount; return failed(); }
          msgList = callList; msgCount = callCount; msgText = argsPtr; msgTextLen = argsLen;
          tapeKeep();
        }
        callsInMessage = msgCount;
        const index = load<u32>(kindPtr);
        if (index >= msgCount) { inputDone(); return fail(E_NO_CALLS, -1); }
        call = <i32>load<u32>(msgList + (<usize>index << 2));
      }
      const read = call >= 0 && readCall(<u32>call, values ? 0 : argsPtr, values ? 0 : argsLen);
      inputDone();
      if (!read) return failed();
      if (!applyTools(<u32>callName)) return failed();
      if (callKind >= 0) { kindP = <usize>nodeB(<u32>callKind); kindN = <usize>nodeA(<u32>callKind); }
      nameP = <usize>nodeB(<u32>callName); nameN = <usize>nodeA(<u32>callName);
      root = callArgs;
    }
  }

  // D17: the prefix goes through the sink, so it is hashed (DIGEST) or
  // returned (PREIMAGE) exactly like the canonical text that follows.
  if (digest || preimage) {
    const raw = (flags & F_RAW_NAMES) != 0; // batch columns hold names as text (batch.ts)
    setPart(PART_KIND);
    // A batch's shared kind is checked for its first item only (the same bytes: the input does not change during a call).
    const known = raw && kindPtr == checkedKindP && kindLen == checkedKindN && kindPtr != 0;
    if (!isCall && (raw || kindLen != 0)) {
      if (raw) {
        if (!known && !isText(kindPtr, kindLen)) return fail(E_BAD_KIND, 0);
        kindP = kindPtr; kindN = kindLen;
      } else {
        if (!readStringLiteral(kindPtr, kindLen)) return failed();
        kindP = lastStrPtr(); kindN = lastStrLen();
      }
    }
    if (!known && kindP != DEFAULT_KIND && (kindN == 0 || hasSurrogate(kindP, kindP + kindN) || hasNewline(kindP, kindN))) {
      return fail(E_BAD_KIND, 0);
    }
    if (raw) { checkedKindP = kindPtr; checkedKindN = kindLen; }
    if (!emit(kindP, kindN) || !emit(NEWLINE, 1)) return failed();
    setPart(PART_NAME);
    if (!isCall) {
      if (raw) {
        if (!isText(namePtr, nameLen)) return fail(E_BAD_NAME, 0);
        nameP = namePtr; nameN = nameLen;
      } else {
        if (!readStringLiteral(namePtr, nameLen)) return failed();
        nameP = lastStrPtr(); nameN = lastStrLen();
      }
    }
    if (nameN == 0 || hasSurrogate(nameP, nameP + nameN)) return fail(E_BAD_NAME, 0);
    if (!emit(nameP, nameN) || !emit(NEWLINE, 1)) return failed();
  }
  textStart = preimage ? 0 : outPos;
  const canonStart = outPos;

  setPart(PART_ARGS);
  if (!isCall) {
    if (!tapeInit(argsLen)) return failed();
    inputStart();
    root = (flags & F_VALUES) != 0
      ? readValues(argsPtr, argsLen)
      : (flags & F_MARSHAL) != 0
      ? readMarshal(argsPtr, argsLen)
      : parseText(argsPtr, argsLen, (flags & F_STRING_INPUT) == 0);
    inputDone();
    if (root < 0) return failed();
  }

  let mode = SELECT_NONE;
  let matchList: i32 = -1, ignoreList: i32 = -1;
  if (sizeof<V>() == 8 && isCall) {
    matchList = callMatchOn; ignoreList = callIgnore;
    if (matchList >= 0) mode = SELECT_MATCH_ON;
    else if (ignoreList >= 0) mode = SELECT_IGNORE;
    if (!setSelection(mode, <u32>(mode == SELECT_MATCH_ON ? matchList : mode == SELECT_IGNORE ? ignoreList : 0))) {
      return failed();
    }
  } else {
    let listPtr = matchPtr, listLen = matchLen;
    if (flags & F_MATCH_ON) mode = SELECT_MATCH_ON;
    else if (flags & F_IGNORE) { mode = SELECT_IGNORE; listPtr = ignorePtr; listLen = ignoreLen; }
    if (mode != SELECT_NONE) {
      setPart(PART_SELECTION);
      const list = parseText(listPtr, listLen, false);
      if (list < 0) return failed();
      if (nodeType(<u32>list) != T_ARR || !isKeyList(<u32>list)) return fail(E_BAD_SELECTION, 0);
      if (!setSelection(mode, <u32>list)) return failed();
      if (mode == SELECT_MATCH_ON) matchList = list; else ignoreList = list;
    } else {
      setSelection(SELECT_NONE, 0);
    }
  }

  setPart(PART_ARGS);
  if (!writeCanonical(<u32>root)) return failed();
  sinkFinish();
  if (digest) sha256FinalHex(RESULT + RESULT_DIGEST);
  if (sizeof<V>() == 8) {
    if (explain) {
      // The record follows the preimage in the sink, outside the hash.
      sinkStopHashing();
      const canonEnd = outPos;
      if (!writeExplanation(kindP, kindN, nameP, nameN, matchList, ignoreList, isCall ? callRecorded : -1,
        <u32>root, mode, 0, canonStart, canonEnd)) return failed();
      textStart = canonEnd;
    }
  }
  return OK;
}

/**
 * One call of a CLI line (cli/run.ts): the request at req, as run() would
 * run it, without touching the result block's status words. Diagnostics
 * module only. Returns the status; the text is [callTextStart(), outPos).
 */
export function runLine(req: usize, len: usize): i32 {
  callsInMessage = -1;
  resetErrors(PART_ARGS);
  return processCalls(req, len);
}

/** A request in the diagnostics module: ALL_CALLS, or one request (compiled once: runRequest, runLine and processCall share it). */
@noinline export function processCalls(req: usize, len: usize): i32 {
  if (len >= HEADER + 4 && (load<u32>(req) & (F_CALL | F_NTH_CALL)) == (F_CALL | F_NTH_CALL) && load<u32>(req, 4) == 4
    && load<u32>(req + HEADER) == ALL_CALLS) return allCalls(req, len);
  return processRequest<WithCalls>(req, len);
}

// ALL_CALLS: every call of a message in one request, so a host's explainCalls
// is one parse of the message and one pass over it. The lines collect in a
// buffer below each call's scratch, which is released after the call.
let allP: usize = 0;
let allLen: usize = 0;
let allCap: usize = 0;

function allPut(src: usize, n: usize): bool {
  if (allLen + n > allCap) {
    let cap = allCap << 1;
    if (cap < allLen + n) cap = allLen + n;
    const q = grow(allP, allCap, cap); // in place when it is the last block, else moved to the top
    if (q == 0) return false;
    allP = q; allCap = cap;
  }
  memory.copy(allP + allLen, src, n);
  allLen += n;
  return true;
}

function allCalls(req: usize, len: usize): i32 {
  allCap = 4096; allLen = 0;
  allP = alloc(allCap);
  if (allP == 0) return failed();
  store<u32>(req + HEADER, 0);
  let status = processRequest<WithCalls>(req, len);
  let count: u32 = 0;
  if (status == OK) count = <u32>callsInMessage;
  else if (status != E_NO_CALLS || callsInMessage != 0) return status;
  else resetErrors(PART_ARGS); // a message without calls: no lines
  const mark = arenaMark(); // the message's tape and call list stay below
  for (let i: u32 = 0; i < count; i++) {
    if (i > 0) {
      const end = allP + allCap;
      releaseFrom(end > mark ? end : mark);
      store<u32>(req + HEADER, i);
      sameMessageNext();
      status = processRequest<WithCalls>(req, len);
      if (status != OK) return status;
    }
    if (!allPut(RESULT + RESULT_DIGEST, 64) || !allPut(outBase + textStart, outPos - textStart) || !allPut(NEWLINE, 1)) {
      return failed();
    }
  }
  if (!sinkInit(true, false, allLen)) return failed();
  putBytes(allP, allLen);
  textStart = 0;
  callsInMessage = <i32>count;
  return OK;
}

/**
 * One call request at req (replay.ts: recorded lines and live calls), in the
 * diagnostics module, without resetting the arena; the tools set by
 * replay.ts apply (no F_TOOLS). Its text is [outBase + callTextStart(), outPos).
 */
export function processCall(req: usize, len: usize, tools: usize, toolsLen: usize): i32 {
  callsInMessage = -1;
  setTools(tools, toolsLen);
  return processCalls(req, len);
}

/** Sink offset of the last call's text (runLine, processCall): it is [outBase + callTextStart(), outPos). */
export function callTextStart(): usize { return textStart; }
/** The count of calls in the message of the last call (F_NTH_CALL), -1 otherwise. */
export function callsInLastMessage(): i32 { return callsInMessage; }

/** The text an operation returned starts the sink (its own calls through the pipeline moved the start). */
export function textFromStart(): void { textStart = 0; }

/**
 * The recorded failure; a step that reports failure without recording one
 * (a size that cannot be represented) counts as out of memory, so a failed
 * call can never look successful.
 */
export function failed(): i32 {
  return errCode != OK ? errCode : fail(E_OUT_OF_MEMORY, -1);
}

// ---- The calls of one message, one after another (F_NTH_CALL) -----------------
// The first call of a message parses it and lists its calls (shapes.ts); a
// caller that keeps the arena below that (replay.ts, the CLI, ALL_CALLS)
// asks for the next call with sameMessageNext() and sends no text: n calls
// of one line cost O(line), not O(n x line).
let sameMessage = false;
let msgList: usize = 0;
let msgCount: u32 = 0;
let msgText: usize = 0;
let msgTextLen: usize = 0;

/** The next F_NTH_CALL request reads the message of the last one (its text part may be empty). */
export function sameMessageNext(): void { sameMessage = true; }

/** Whether the last message read is still kept (nothing reused the arena below it since). */
export function messageKept(): bool { return tapeKept(); }

/** F_NTH_CALL's count of calls in the message, returned in RESULT_OFFSET (-1 otherwise). */
let callsInMessage: i32 = -1;

/** Offset of the returned text in the sink: after the prefix, unless PREIMAGE. */
let textStart: usize = 0;

@inline function emit(p: usize, n: usize): bool {
  if (!ensure(n)) return false;
  putBytes(p, n);
  return true;
}

function hasNewline(p: usize, n: usize): bool {
  return findByte(p, p + n, 0x0A) < p + n;
}

/** F_RAW_NAMES: well-formed WTF-8 (lone surrogates are refused after, as for literals). */
function isText(p: usize, n: usize): bool {
  const end = p + n;
  p = asciiEnd(p, end);
  while (p < end) {
    if (load<u8>(p) < 0x80) { p++; continue; }
    const k = sequenceLength(p, end);
    if (k == 0) return false;
    p += k;
  }
  return true;
}
