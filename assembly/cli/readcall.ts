// A line's call as the CLI engine's formatters see it: read through the
// pipeline (pipeline/process.ts runLine) straight from the line's bytes, its
// parts taken from the struct the pipeline fills (explained(), explain.ts),
// plus its digest. Internal; the formatters (run.ts, why.ts, replay.ts) read
// lineCall() after readCall.
import { F_CALL, F_DIGEST, F_ECHO_CALL, F_EXPLAIN, F_PREIMAGE, F_STRING_INPUT, OK, RESULT_DIGEST } from "../abi";
import { lastCall } from "../pipeline/callnodes";
import { sinkBase, sinkLength } from "../json/sink";
import { T_STR, nodeA, nodeB, nodeFlags, nodeType, subtreeEnd, STR_CLEAN } from "../json/tape";
import { writeJsonString } from "../pipeline/canonical";
import { explained } from "../pipeline/explain";
import { callTextStart, messageKept, runLine, sameMessageNext } from "../pipeline/process";
import { result } from "../base/result";
import { bytes, lit } from "../json/emit";

/** The 64 hex digits of the last call read. */
export function DIGEST(): usize { return memory.data(64); }

/**
 * The last call read: where its line is (error positions refer to it), its
 * name and, when explained, its kind, canonical text and preimage (bytes),
 * its recorded fingerprint (a tape node, -1: none), whether a tool
 * declaration chose its selection, and its lists as JSON arrays (N = 0: the
 * call has no such list); or, when deferred, its preimage alone.
 */
@unmanaged export class LineCall {
  text: usize;
  nameP: usize; nameN: usize; kindP: usize; kindN: usize;
  canonP: usize; canonN: usize; preP: usize; preN: usize;
  recorded: i32; declared: bool;
  matchOnP: usize; matchOnN: usize; ignoreP: usize; ignoreN: usize;
  keptP: usize; keptN: usize; droppedP: usize; droppedN: usize; missingP: usize; missingN: usize;
}

export function lineCall(): LineCall { return changetype<LineCall>(memory.data(offsetof<LineCall>())); }

/**
 * Reads call number index (-1: the line is one call) of the JSON text
 * [p, p+n) as a host string would be (F_STRING_INPUT), into lineCall().
 * explain: its explanation's parts too. defer: its preimage, not its digest
 * (hashed later with others, cli/digests.ts). again: the calls of one line
 * in order, nothing released between them (its parse is reused). Returns
 * the core's status.
 */
export function readCall(p: usize, n: usize, index: i32, explain: bool, defer: bool = false, again: bool = false): i32 {
  if (again && messageKept()) { sameMessageNext(); n = 0; } else again = false;
  const c = lineCall();
  if (!again) c.text = p;
  const status = runLine(F_CALL | (defer ? F_PREIMAGE : F_DIGEST) | F_STRING_INPUT | (explain ? F_EXPLAIN | F_ECHO_CALL : 0), index, p, n);
  if (status != OK) return status;
  if (defer) {
    c.preP = sinkBase() + callTextStart(); c.preN = sinkLength() - callTextStart();
  } else memory.copy(DIGEST(), result() + RESULT_DIGEST, 64);
  if (!explain) {
    c.nameP = <usize>nodeB(<u32>lastCall().name); c.nameN = <usize>nodeA(<u32>lastCall().name);
    return OK;
  }
  const e = explained(), b = sinkBase();
  c.nameP = e.nameP; c.nameN = e.nameN; c.kindP = e.kindP; c.kindN = e.kindN;
  c.canonP = b + e.canonAt; c.canonN = e.canonEnd - e.canonAt; c.preP = b + e.preAt; c.preN = e.canonEnd - e.preAt;
  c.recorded = e.recorded; c.declared = e.declared;
  c.matchOnP = b + e.matchOnAt; c.matchOnN = e.matchOnEnd - e.matchOnAt;
  c.ignoreP = b + e.ignoreAt; c.ignoreN = e.ignoreEnd - e.ignoreAt;
  c.keptP = b + e.keptAt; c.keptN = e.keptEnd - e.keptAt;
  c.droppedP = b + e.droppedAt; c.droppedN = e.droppedEnd - e.droppedAt;
  c.missingP = b + e.missingAt; c.missingN = e.missingEnd - e.missingAt;
  return OK;
}

/** The value node of member key of the object at node obj (a read answer: a diff, a replay record), or -1. */
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

/** {"version":1,"kind","name","selected","canonical","preimage","fingerprint"} of the last call explained, after an opening already written. */
export function explanationBody(): bool {
  const c = lineCall();
  return lit("\"version\":1,\"kind\":") && writeJsonString(c.kindP, c.kindN, false)
    && lit(",\"name\":") && writeJsonString(c.nameP, c.nameN, false)
    && lit(",\"selected\":{\"kept\":") && bytes(c.keptP, c.keptN) && lit(",\"dropped\":") && bytes(c.droppedP, c.droppedN)
    && lit(",\"missing\":") && bytes(c.missingP, c.missingN)
    && lit("},\"canonical\":") && writeJsonString(c.canonP, c.canonN, false)
    && lit(",\"preimage\":") && writeJsonString(c.preP, c.preN, false)
    && lit(",\"fingerprint\":\"") && bytes(DIGEST(), 64)
    // Which declaration chose the selection (--tools), as the SDKs' explain says.
    && (!c.declared || lit("\",\"declared\":\"tools")) && lit("\"}");
}
