// `replay CALLS.jsonl --in RECORDING.jsonl` in the CLI engine
// (cli/run.ts): the host streams the recording's chunks ("load" step) into
// this instance's replay index (assembly/replay.ts), then the calls' chunks
// ("chunk"); each call is answered there and formatted here; "finish" lists
// the recorded calls never asked for and the summary. Internal.
//
// Decisions: a calls line is checked whole (every call of a message) before
// any call is answered, so a bad line takes no recorded call; bad lines of
// either file count as failed lines; unused calls are listed up to UNUSED_CAP
// (text and --json), the summary counts all; "#K" marks call K > 0 of a line.
import { E_NO_CALLS, F_STRING_INPUT, OK } from "../abi";
import { sinkBase, sinkInit, sinkLength } from "../json/sink";
import { parseText } from "../json/reader";
import { nodeA, subtreeEnd, tapeInit } from "../json/tape";
import { writeJsonString } from "../pipeline/canonical";
import { callsInLastMessage } from "../pipeline/process";
import {
  Answer, entryCall, entryLine, entryTextN, entryTextP, entryTotal, entryUsed, replayAnswer, replayLoadLine, unusedCount,
} from "../ops/replay";
import { accInit, accSink } from "./output";
import { options } from "./args";
import { bytes, decimal, lit } from "../json/emit";
import { DIGEST, jsonStr, lineCall, memberOf, readCall, strN, strP } from "./readcall";
import { changeLine } from "./why";

const UNUSED_CAP: u32 = 20;
const NONE: u32 = 0xFFFF_FFFF;

let nCalls: u32 = 0, nHits: u32 = 0, nMisses: u32 = 0;
/** Which file the chunks come from: the recording ("load") or the calls ("chunk"). */
let loading = false;
export function replayLoading(): bool { return loading; }

/** The recording's name, from its "load" steps (argv's bytes live only in the plan's request); at most 4 KiB (PATH_MAX). */
function REC(): usize { return memory.data(4096); }
let recN: usize = 0;

export function replayStart(load: bool, fP: usize, fN: usize): void {
  loading = load;
  if (!load) return;
  recN = fN < 4096 ? fN : 4096;
  memory.copy(REC(), fP, recN);
}
export function replayReset(): void { nCalls = nHits = nMisses = 0; loading = false; }
export function replayMissed(): bool { return nMisses > 0; }

/**
 * recordingLine and callsLine return OK, the status a bad line failed with
 * (its text at lineCall().text: run.ts reports it, as it does every other command's
 * failed lines), or LINE_NO_MEMORY.
 */
export const LINE_NO_MEMORY: i32 = -1;

/** One recording line into the index; a bad one is read again by the CLI's reader for its message. */
export function recordingLine(line: u32, p: usize, n: usize): i32 {
  const r = replayLoadLine(p, n, line);
  if (r >= 0) return r > 0 ? OK : LINE_NO_MEMORY;
  for (let i = 0, count = 1; i < count; i++) {
    const st = readCall(p, n, i, false, false, i > 0);
    if (st != OK) return st;
    count = callsInLastMessage();
  }
  return OK; // (not reached: the index and the reader agree)
}

/** Every call of one calls line, answered; fileP/fileN name the calls file. */
export function callsLine(fileP: usize, fileN: usize, line: u32, p: usize, n: usize): i32 {
  let count = 1;
  for (let i = 0; i < count; i++) {
    const st = readCall(p, n, i, false, false, i > 0);
    if (st != OK) {
      if (st == E_NO_CALLS && i == 0) return OK; // a message without calls: nothing to answer
      return st;
    }
    count = callsInLastMessage();
  }
  for (let i = 0; i < count; i++) {
    const a = replayAnswer(p, n, F_STRING_INPUT, <u32>i, i > 0);
    if (a === null || !answerOut(a, fileP, fileN, line, <u32>i)) return LINE_NO_MEMORY;
  }
  return OK;
}

/** "FILE:LINE" and "#K" for K > 0. */
function where(fP: usize, fN: usize, line: u32, call: u32): bool {
  return bytes(fP, fN) && lit(":") && decimal(line) && (call == 0 || (lit("#") && decimal(call)));
}

function answerOut(a: Answer, fileP: usize, fileN: usize, line: u32, call: u32): bool {
  nCalls++;
  if (a.hit) nHits++; else nMisses++;
  const rP = sinkBase(), rN = a.recordEnd;
  if (!tapeInit(rN)) return false;
  const root = parseText(rP, rN, false);
  if (root < 0) return false;
  const name = memberOf(<u32>root, "name"), fp = memberOf(<u32>root, "fingerprint");
  if (!sinkInit(true, false, rN * 2 + fileN + 256)) return false;
  if (options().json) {
    if (!lit("{\"line\":") || !decimal(line) || !lit(",\"call\":") || !decimal(call) || !lit(",\"name\":") || !jsonStr(<u32>name)
      || !lit(",\"fingerprint\":\"") || !bytes(strP(fp), strN(fp))) return false;
    if (a.hit) {
      if (!lit("\",\"hit\":true,\"recordedLine\":") || !decimal(entryLine(a.entry)) || !lit("}\n")) return false;
    } else {
      if (!lit("\",\"hit\":false,\"recordedLine\":null,\"why\":\"") || !bytes(rP + a.whyFrom, a.whyTo - a.whyFrom)
        || !lit("\",\"nearest\":")) return false;
      if (a.entry == NONE ? !lit("null") : !(lit("{\"line\":") && decimal(entryLine(a.entry)) && lit(",\"call\":")
        && decimal(entryCall(a.entry)) && lit("}"))) return false;
      if (!lit(",\"changes\":") || !bytes(rP + a.changesFrom, a.changesTo - a.changesFrom) || !lit("}\n")) return false;
    }
    return accSink(false);
  }
  if (!where(fileP, fileN, line, call) || !lit("  ") || !bytes(strP(name), strN(name))) return false;
  if (a.hit) {
    return lit("  hit   ") && where(REC(), recN, entryLine(a.entry), entryCall(a.entry)) && lit("\n")
      && accSink(false);
  }
  if (!lit("  miss  ") || !bytes(rP + a.whyFrom, a.whyTo - a.whyFrom) || !lit("\n")) return false;
  const list = memberOf(<u32>root, "changes");
  const end = subtreeEnd(<u32>list);
  for (let c = <u32>list + 1; c < end; c = subtreeEnd(c)) {
    if (!changeLine(c)) return false;
  }
  return accSink(false);
}

/** The unused recorded calls (the first UNUSED_CAP) and the summary into the output; allocates it. */
export function replayFinish(): bool {
  if (!accInit(4096)) return false;
  const unused = unusedCount();
  let shown: u32 = 0;
  const total = entryTotal();
  for (let e: u32 = 0; e < total && shown < UNUSED_CAP; e++) {
    if (entryUsed(e)) continue;
    shown++;
    if (readCall(entryTextP(e), entryTextN(e), <i32>entryCall(e), false) != OK) return false;
    const nameP = lineCall().nameP, nameN = lineCall().nameN;
    if (!sinkInit(true, false, nameN * 6 + recN + 256)) return false;
    if (options().json) {
      if (!lit("{\"unused\":{\"line\":") || !decimal(entryLine(e)) || !lit(",\"call\":") || !decimal(entryCall(e)) || !lit(",\"name\":")
        || !writeJsonString(nameP, nameN, false) || !lit(",\"fingerprint\":\"") || !bytes(DIGEST(), 64) || !lit("\"}}\n")) return false;
    } else if (!lit("unused  ") || !where(REC(), recN, entryLine(e), entryCall(e)) || !lit("  ") || !bytes(nameP, nameN)
      || !lit("\n")) return false;
    if (!accSink(false)) return false;
  }
  if (!sinkInit(true, false, 256)) return false;
  if (!options().json && unused > shown && !(lit("unused  ... and ") && decimal(unused - shown) && lit(" more\n"))) return false;
  if (options().json) {
    if (!lit("{\"summary\":{\"calls\":") || !decimal(nCalls) || !lit(",\"hits\":") || !decimal(nHits) || !lit(",\"misses\":")
      || !decimal(nMisses) || !lit(",\"unused\":") || !decimal(unused) || !lit("}}\n")) return false;
  } else if (!lit("replay: ") || !decimal(nCalls) || !lit(nCalls == 1 ? " call, " : " calls, ") || !decimal(nHits)
    || !lit(nHits == 1 ? " hit, " : " hits, ") || !decimal(nMisses) || !lit(nMisses == 1 ? " miss, " : " misses, ")
    || !decimal(unused) || !lit(" unused\n")) return false;
  return accSink(false);
}

export { nodeA };
