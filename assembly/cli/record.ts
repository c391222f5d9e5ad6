// A call as the CLI engine sees it: the core's explanation record
// (explain.ts) read back onto the tape, plus its digest. Internal; the
// formatters (explain.ts, verify, why in run.ts and why.ts) read its members.
import { F_CALL, F_DIGEST, F_EXPLAIN, F_NTH_CALL, F_PREIMAGE, F_STRING_INPUT, HEADER_BYTES, OK, RESULT_DIGEST } from "../abi";
import { alloc } from "../base/arena";
import { lastCall } from "../pipeline/callnodes";
import { sinkBase, sinkLength } from "../json/sink";
import { parseText } from "../json/reader";
import { T_STR, nodeA, nodeB, nodeFlags, nodeType, subtreeEnd, tapeInit, STR_CLEAN } from "../json/tape";
import { writeJsonString } from "../pipeline/canonical";
import { callTextStart, messageKept, runLine, sameMessageNext } from "../pipeline/process";
import { result } from "../base/result";
import { bytes, lit } from "../json/emit";

/** The 64 hex digits of the last call read. */
export function DIGEST(): usize { return memory.data(64); }

/**
 * Reads call number index (-1: the line is one call) of the JSON text
 * [p, p+n) as a host string would be (F_STRING_INPUT). explain: also the
 * record (then recRoot is its tape root). again: the calls of one line in
 * order, nothing released between them. Returns the core's status.
 */
export function readCall(p: usize, n: usize, index: i32, explain: bool, defer: bool = false, again: bool = false): i32 {
  const nth = index >= 0;
  // again: the line of the last readCall, the arena kept since: its parse is reused (pipeline/process.ts).
  if (again && messageKept()) { sameMessageNext(); n = 0; } else again = false;
  const req = alloc(HEADER_BYTES + 4 + n);
  if (req == 0) return 9;
  // defer: the preimage instead of the digest, hashed later with others (cli/defer.ts).
  const flags = F_CALL | (defer ? F_PREIMAGE : F_DIGEST) | F_STRING_INPUT | (explain ? F_EXPLAIN : 0) | (nth ? F_NTH_CALL : 0);
  const k: usize = nth ? 4 : 0;
  store<u32>(req, flags); store<u32>(req, <u32>k, 4); store<u32>(req, 0, 8); store<u32>(req, 0, 12);
  store<u32>(req, 0, 16); store<u32>(req, <u32>n, 20);
  if (nth) store<u32>(req + HEADER_BYTES, <u32>index);
  memory.copy(req + HEADER_BYTES + k, p, n);
  if (!again) callText = req + HEADER_BYTES + k;
  const status = runLine(req, HEADER_BYTES + k + n);
  if (status != OK) return status;
  if (defer) {
    preP = sinkBase() + callTextStart(); preN = sinkLength() - callTextStart();
  } else memory.copy(DIGEST(), result() + RESULT_DIGEST, 64);
  if (!explain) {
    nameP = <usize>nodeB(<u32>lastCall().name); nameN = <usize>nodeA(<u32>lastCall().name);
    return OK;
  }
  const at = sinkBase() + callTextStart(), len = sinkLength() - callTextStart();
  if (!tapeInit(len)) return 9;
  recRoot = parseText(at, len, false);
  if (recRoot < 0) return 9;
  nameP = strP(member("name")); nameN = strN(member("name"));
  return OK;
}

/** Where the call's text was copied (error positions refer to it). */
export let callText: usize = 0;
export let recRoot: i32 = -1;
export let nameP: usize = 0;
export let nameN: usize = 0;
/** readCall's preimage when deferred. */
export let preP: usize = 0;
export let preN: usize = 0;

/** The value node of the record's member key, or -1. */
export function member(key: string): i32 {
  return memberOf(<u32>recRoot, key);
}

export function memberOf(obj: u32, key: string): i32 {
  const count = nodeA(obj);
  let k = obj + 1;
  for (let m: u32 = 0; m < count; m++) {
    if (is(k, key)) return <i32>(k + 1);
    k = subtreeEnd(k + 1);
  }
  return -1;
}

function is(i: u32, s: string): bool {
  if (nodeA(i) != <u32>s.length) return false;
  const p = <usize>nodeB(i);
  for (let j = 0; j < s.length; j++) if (<u32>load<u8>(p + <usize>j) != <u32>s.charCodeAt(j)) return false;
  return true;
}

export function strP(node: i32): usize {
  return node >= 0 && nodeType(<u32>node) == T_STR ? <usize>nodeB(<u32>node) : 0;
}

export function strN(node: i32): usize {
  return node >= 0 && nodeType(<u32>node) == T_STR ? <usize>nodeA(<u32>node) : 0;
}

/** A string node as a JSON string. */
export function jsonStr(node: u32): bool {
  return writeJsonString(<usize>nodeB(node), <usize>nodeA(node), (nodeFlags(node) & STR_CLEAN) != 0);
}

/** An array of strings as JSON text, as JSON.stringify writes it. */
export function jsonList(node: u32): bool {
  if (!lit("[")) return false;
  const end = subtreeEnd(node);
  for (let e = node + 1; e < end; e++) {
    if (e > node + 1 && !lit(",")) return false;
    if (!jsonStr(e)) return false;
  }
  return lit("]");
}

/** {"version":1,"kind","name","selected","canonical","preimage","fingerprint"} after an opening already written. */
export function explanationBody(): bool {
  const sel = member("selected");
  return lit("\"version\":1,\"kind\":") && jsonStr(<u32>member("kind")) && lit(",\"name\":") && jsonStr(<u32>member("name"))
    && lit(",\"selected\":{\"kept\":") && jsonList(<u32>memberOf(<u32>sel, "kept"))
    && lit(",\"dropped\":") && jsonList(<u32>memberOf(<u32>sel, "dropped"))
    && lit(",\"missing\":") && jsonList(<u32>memberOf(<u32>sel, "missing"))
    && lit("},\"canonical\":") && jsonStr(<u32>member("canonical")) && lit(",\"preimage\":") && jsonStr(<u32>member("preimage"))
    && lit(",\"fingerprint\":\"") && bytes(DIGEST(), 64)
    // Issue 12: which declaration chose the selection (--tools), as the SDKs' explain says.
    && (member("declared") < 0 || lit("\",\"declared\":\"tools")) && lit("\"}");
}
