// A CLI run as a loop the core drives. The host does one action at a time
// (CLI_* in abi.ts: read a file, write, start workers, hand a task over,
// wait for a worker, exit) and reports what came of it; the core follows
// the plan (plan.ts), splits the lines, deals the chunks to the jobs,
// keeps the output in input order, merges the counts and says what to
// print and the exit status. A host keeps argv, files, stdio, its threads
// and the terminal, nothing else.
//
// Steps (F_CLI, steps.ts):
//   start   name = argv (args.ts), matchOn = program, ignoreArgs = version, args = the host's facts
//           (plan.ts; and progress=1: stderr is a terminal, tty=1: stdout is one)
//   next    name = milliseconds since the start (decimal), ignoreArgs = the last result's state,
//           then what the action gave: CLI_READ / CLI_READ_ALL: matchOn = the error's name (errno.ts;
//           "EOF": nothing more), args = the bytes read; CLI_POLL / CLI_WAIT: a worker's
//           message (nothing: none came)
//   worker  (a worker's instance) name = argv, args = CLI_SPAWN's payload
//   job     (a worker's instance) args = CLI_SEND's payload → out, err, state = the task's answer
// A worker's message: matchOn = its number once it started; or matchOn = the task's number
// and args = the task's answer (the host keeps the task's out and err for CLI_WRITE).
//
// A new host starts without workers (facts cores=1: the plan starts none): CLI_EXIT, CLI_NEXT,
// CLI_READ and CLI_READ_ALL are then all it does (test/cli-vectors.test.ts runs every CLI vector
// through such a host of ~30 lines); workers add the other six actions.
//
// The state the host hands back: u32 plan length, the plan's records, why's state (why.ts), then
// the line the last read cut (`keep` bytes): the state part lies right before the args part
// (dispatch.ts), so that line runs on into the next read's bytes where they are, and a host
// never keeps or joins what it read. The rest lives in this instance's globals. Tasks are numbered in input order; answers are written
// in that order, at most `queue` per job waiting, so memory stays constant.
import {
  CLI_EXIT, CLI_HOLD, CLI_NEXT, CLI_POLL, CLI_READ, CLI_READ_ALL, CLI_SEND, CLI_SPAWN, CLI_WAIT, CLI_WRITE,
  FINGERPRINT_VERSION, RESULT_CLI_ARG, RESULT_CLI_CODE, RESULT_CLI_DATA, RESULT_CLI_ERR, RESULT_CLI_LINES, RESULT_CLI_OP,
  RESULT_CLI_OUT, RESULT_CLI_STATE,
} from "../abi";
import { result } from "../base/result";
import { ensure, putBytes, sinkAdvance, sinkBase, sinkEnd, sinkInit, sinkLength } from "../json/sink";
import { decimal, lit } from "../json/emit";
import { keptTools, keptToolsLength, replayClear } from "../ops/replay";
import { done, statePrefix } from "./output";
import { factIs } from "./plan";
import { drawProgress, eraseBefore, progressAuto, progressShown, writeErase } from "./progress";
import { replayStart } from "./replay";
import { runTools } from "./tools";
import { is } from "./help";
import { COUNTS_BYTES, addCounts, chunkLines, resetCounts, runChunk, runFinish, runPlan, runTarget, runUnreadable, storeCounts } from "./run";

/** Tasks in flight or waiting to be written: more than QUEUE * (MAX_WORKERS + 1) plus read errors held. */
const RING: u32 = 2048;
const J_WORKER: u8 = 1, J_KEPT: u8 = 2; // sent to a worker; answered (its output at the host)
function jobState(): usize { return memory.data(2048); }
function jobOwner(): usize { return memory.data(2048); }
function jobFlags(): usize { return memory.data(2048); } // bit 0: it wrote stdout, bit 1: stderr
function wSent(): usize { return memory.data(256 * 4); }
function wDone(): usize { return memory.data(256 * 4); }
function wReady(): usize { return memory.data(256); }

const PH_RECORD: u32 = 0, PH_WHOLE: u32 = 1, PH_FILE: u32 = 2, PH_DRAIN: u32 = 3, PH_END: u32 = 4;
const K_OTHER: u32 = 0, K_TOOLS: u32 = 1, K_TARGET: u32 = 2, K_LOAD: u32 = 3, K_HERE: u32 = 4, K_SHARED: u32 = 5;

let phase: u32 = PH_RECORD, kind: u32 = K_OTHER, lastOp: u32 = CLI_NEXT;
let planP: usize = 0, planN: usize = 0, recAt: usize = 0;
let stP: usize = 0, stN: usize = 0, whyP: usize = 0, whyN: usize = 0;
let fileAt: usize = 0, fileLen: usize = 0, fileSize: u64 = 0, readBytes: u64 = 0, readSize: usize = 0;
/** The cut line carried in the state: its bytes [carryP, carryP + keep) (the request's, valid for one step). */
let keep: usize = 0, carryP: usize = 0;
const STDIN_READ: usize = 1 << 16;
let baseSize: usize = 1 << 20;
let first: u32 = 1, lines: u64 = 0, ms: i64 = 0;
let chunk: usize = 1 << 20, nWorkers: u32 = 0, inflight: u32 = 2, limit: u32 = 4, deal = false;
let spawned = false, readyN: u32 = 0, dealt: u32 = 0, mainChunks: u32 = 0;
let nextJob: u32 = 0, oldest: u32 = 0;
let polled = false, target: i32 = -1, stopped = false, progressOn = false, progressDue = false;

/** "start": the plan, or the text to print and the exit status (help, version, a usage error). */
export function driveStart(p: usize, n: usize, hP: usize, hN: usize): bool {
  replayClear();
  if (!runPlan(p, n, hP, hN, FINGERPRINT_VERSION, true)) return false;
  if (load<i32>(result() + RESULT_CLI_CODE) >= 0) return true; // CLI_EXIT
  phase = PH_RECORD; kind = K_OTHER; recAt = 0; lines = 0; first = 1; keep = 0;
  spawned = stopped = progressDue = deal = false; readyN = dealt = mainChunks = nextJob = oldest = nWorkers = 0;
  const src = sinkBase(), len = sinkLength();
  for (let q = src; q < src + len;) {
    q = readRec(q, src + len);
    if (key("workers")) nWorkers = <u32>value();
    else if (key("chunk")) chunk = <usize>value();
    else if (key("inflight")) inflight = <u32>value();
    else if (key("queue")) limit = <u32>value();
    else if (key("deal")) deal = value() == 1;
  }
  limit *= nWorkers + 1;
  for (let k: u32 = 0; k < nWorkers; k++) { store<u32>(wSent() + (<usize>k << 2), 0); store<u32>(wDone() + (<usize>k << 2), 0); store<u8>(wReady() + k, 0); }
  progressOn = factIs(hP, hN, "progress", "1");
  if (progressOn) progressAuto(factIs(hP, hN, "tty", "1"));
  if (!sinkInit(true, false, len + 16) || !ensure(len + 4)) return false;
  store<u32>(sinkEnd(), <u32>len);
  sinkAdvance(4);
  putBytes(src, len);
  lastOp = CLI_NEXT;
  return op(done(0, 0, len + 4, 0, 0), CLI_NEXT, 0, 0);
}

/** "next": what the last action gave; the next action. */
export function driveNext(sP: usize, sN: usize, msP: usize, msN: usize, aP: usize, aN: usize, p: usize, n: usize): bool {
  ms = <i64>decimalAt(msP, msN);
  stP = sP; stN = sN - keep; carryP = sP + stN;
  planN = <usize>load<u32>(sP); planP = sP + 4;
  whyP = planP + planN; whyN = stN - 4 - planN;
  statePrefix(sP, 4 + planN); // every result carries the plan back before a step's own state
  if (lastOp == CLI_READ) return afterRead(aP, aN, p, n);
  if (lastOp == CLI_READ_ALL) return afterWhole(aP, aN, p, n);
  if (lastOp == CLI_POLL || lastOp == CLI_WAIT) {
    if (aN == 0) polled = true; // nothing came
    else if (n == 0) { store<u8>(wReady() + <usize>decimalAt(aP, aN), 1); readyN++; }
    else answered(<u32>decimalAt(aP, aN), p);
  }
  return advance();
}

/** "worker": a worker's instance takes the run's options and --tools (CLI_SPAWN's payload). */
export function driveWorker(p: usize, n: usize, tP: usize, tN: usize): bool {
  replayClear();
  if (!runPlan(p, n, 0, 0, FINGERPRINT_VERSION)) return false;
  if (tN > 0 && !runTools(0, 0, 0, 0, tP, tN)) return false;
  return done(0, 0, 0, 0, 0);
}

/** "job": a task's lines on a worker; state = the task's counts, then whether it wrote stdout (1) and stderr (2). */
export function driveJob(p: usize, n: usize): bool {
  resetCounts();
  replayStart(false, 0, 0);
  const fN = <usize>load<u32>(p, 4);
  if (!runChunk(p + 8, fN, 0, 0, load<u32>(p), p + 8 + fN, n - 8 - fN)) return false;
  const r = result();
  if (!ensure(COUNTS_BYTES + 4)) return false;
  storeCounts(sinkEnd());
  store<u32>(sinkEnd() + COUNTS_BYTES, flags());
  sinkAdvance(COUNTS_BYTES + 4);
  store<u32>(r + RESULT_CLI_STATE, <u32>(COUNTS_BYTES + 4));
  return true;
}

function answered(j: u32, p: usize): void {
  addCounts(p);
  const k = <usize>load<u8>(jobOwner() + (j % RING));
  store<u8>(jobState() + (j % RING), J_KEPT);
  store<u8>(jobFlags() + (j % RING), <u8>load<u32>(p + COUNTS_BYTES));
  store<u32>(wSent() + (k << 2), load<u32>(wSent() + (k << 2)) - 1);
  store<u32>(wDone() + (k << 2), load<u32>(wDone() + (k << 2)) + 1);
}

function advance(): bool {
  for (;;) {
    if (progressDue) {
      progressDue = false;
      if (progressOn) {
        if (!sinkInit(true, false, fileLen + stN + 160) || !drawProgress(planP + fileAt, fileLen, readBytes, fileSize, lines, ms)) return false;
        if (sinkLength() > 0) return tail(0, sinkLength(), CLI_NEXT, 0, 0, 0, 0);
      }
    }
    if (phase == PH_RECORD) {
      if (stopped || recAt >= planN) { phase = PH_DRAIN; keep = 0; continue; }
      recAt = readRec(planP + recAt, planP + planN) - planP;
      kind = key("tools") ? K_TOOLS : key("target") ? K_TARGET : key("load") ? K_LOAD : key("here") ? K_HERE
        : key("shared") ? K_SHARED : K_OTHER;
      if (kind == K_OTHER) continue;
      fileAt = vP - planP; fileLen = vN;
      if (kind <= K_TARGET) { phase = PH_WHOLE; return act(CLI_READ_ALL, 0, 0, vP, vN); }
      fileSize = 0;
      if (recAt < planN) {
        const q = readRec(planP + recAt, planP + planN);
        if (key("size")) { fileSize = value(); recAt = q - planP; }
      }
      // Standard input in pieces of what has come, as a pipe gives them: each answered as its lines arrive.
      baseSize = fileLen == 1 && load<u8>(planP + fileAt) == 0x2D ? STDIN_READ : chunk;
      first = 1; readBytes = 0; readSize = baseSize; polled = false; phase = PH_FILE;
      if (kind == K_SHARED && !spawned && nWorkers > 0) {
        spawned = true;
        return act(CLI_SPAWN, nWorkers, 0, keptTools(), keptToolsLength());
      }
      continue;
    }
    if (phase == PH_FILE) {
      const queued = nextJob - oldest;
      target = -1;
      if (kind != K_SHARED) {
        if (queued > 0) return drainOne(); // a file read here comes after what came before
      } else {
        if (queued > 0 && (state(oldest) == J_KEPT || queued >= limit)) return drainOne();
        if (!polled) return act(CLI_POLL, 0, 0, 0, 0);
        if (deal) {
          if (readyN < nWorkers) return act(CLI_WAIT, 0, 0, 0, 0);
          const k = <i32>(dealt % (nWorkers + 1)) - 1;
          if (k >= 0 && sent(k) >= inflight) return drainOne();
          target = k;
        } else {
          // A started worker holding fewer than inflight, the least loaded; else the host's own thread. Near
          // the file's end one each, so no worker is left with a queue while the host thread waits for it.
          const most: u32 = fileSize - readBytes <= <u64>chunk * (nWorkers + 1) ? 1 : inflight;
          for (let k: i32 = 0; k < <i32>nWorkers; k++) {
            if (load<u8>(wReady() + k) != 0 && sent(k) < most && (target < 0 || sent(k) < sent(target))) target = k;
          }
        }
      }
      return act(CLI_READ, 0, <u32>readSize, planP + fileAt, fileLen);
    }
    if (phase == PH_DRAIN) {
      if (nextJob > oldest) return drainOne();
      phase = PH_END;
      if (progressShown()) {
        if (!sinkInit(true, false, stN + 64) || !writeErase()) return false;
        return tail(0, sinkLength(), CLI_NEXT, 0, 0, 0, 0);
      }
    }
    return finish();
  }
}

/** The oldest task's output written, or a wait for it. */
function drainOne(): bool {
  const j = oldest;
  if (state(j) != J_KEPT) return act(CLI_WAIT, 0, 0, 0, 0);
  oldest++;
  store<u8>(jobState() + (j % RING), 0);
  const f = load<u8>(jobFlags() + (j % RING));
  if (!sinkInit(true, false, stN + 64)) return false;
  if (eraseBefore(f & 1, f & 2) && !writeErase()) return false;
  return tail(0, sinkLength(), CLI_WRITE, j, 0, 0, 0);
}

function afterWhole(aP: usize, aN: usize, p: usize, n: usize): bool {
  phase = PH_RECORD;
  if (kind == K_TOOLS) {
    if (!runTools(planP + fileAt, fileLen, aP, aN, p, n)) return false;
    return load<i32>(result() + RESULT_CLI_CODE) >= 0 ? op(true, CLI_EXIT, 0, 0) : advance();
  }
  if (!runTarget(planP + fileAt, fileLen, aP, aN, p, n)) return false;
  if (load<i32>(result() + RESULT_CLI_CODE) != 0) return op(true, CLI_EXIT, 0, 0);
  // why's state (the sink's bytes) after the plan
  const src = sinkBase(), len = sinkLength();
  if (!sinkInit(true, false, len + 4 + planN + 16) || !ensure(len + 4 + planN)) return false;
  putBytes(stP, 4 + planN);
  putBytes(src, len);
  return op(done(0, 0, sinkLength(), 0, 0), CLI_NEXT, 0, 0);
}

function afterRead(aP: usize, aN: usize, p: usize, n: usize): bool {
  const eof = aN == 3 && is(aP, "EOF");
  if (aN > 0 && !eof) { // unreadable: worded after what came before it
    phase = PH_RECORD; keep = 0;
    return runUnreadable(planP + fileAt, fileLen, aP, aN, whyP, whyN) && held(nextJob > oldest, nextJob++);
  }
  readBytes += <u64>n;
  p = carryP; n += keep; // the line the last read cut, then these bytes
  let cut = n;
  if (!eof) {
    while (cut > 0 && load<u8>(p + cut - 1) != 0x0A) cut--;
    if (cut == 0) { // a line longer than the chunk: read on, twice as much
      keep = n;
      readSize = n > baseSize ? n : baseSize;
      return advance();
    }
  } else phase = PH_RECORD;
  keep = n - cut; carryP = p + cut;
  readSize = baseSize;
  polled = false;
  if (cut == 0) return advance();
  progressDue = true;
  if (kind == K_SHARED) dealt++;
  if (target >= 0) return send(p, cut);
  replayStart(kind == K_LOAD, planP + fileAt, fileLen);
  return runHere(planP + fileAt, fileLen, p, cut, nextJob++);
}

/** Lines [p, p+n) of the current file on this instance; held as task j when output waits before them. */
function runHere(fP: usize, fN: usize, p: usize, n: usize, j: u32): bool {
  mainChunks++;
  if (!runChunk(fP, fN, whyP, whyN, first, p, n) || !ensure(keep)) return false;
  const r = result(), nl = load<u32>(r + RESULT_CLI_LINES);
  putBytes(carryP, keep); // after the state runChunk wrote
  store<u32>(r + RESULT_CLI_STATE, load<u32>(r + RESULT_CLI_STATE) + <u32>keep);
  first += nl; lines += nl;
  if (load<i32>(r + RESULT_CLI_CODE) == 1) { stopped = true; phase = PH_RECORD; } // why found the call itself
  store<i32>(r + RESULT_CLI_CODE, 0);
  return held(j != oldest, j);
}

/** The result's out and err: written now (CLI_NEXT), or kept by the host as task j (CLI_HOLD) behind older tasks. */
function held(hold: bool, j: u32): bool {
  if (!hold) {
    if (j == nextJob - 1 && j == oldest) { nextJob--; } // a task number taken for nothing
    return op(true, CLI_NEXT, 0, 0);
  }
  store<u8>(jobState() + (j % RING), J_KEPT);
  store<u8>(jobFlags() + (j % RING), <u8>flags());
  return op(true, CLI_HOLD, j, 0);
}

function send(p: usize, n: usize): bool {
  const nl = chunkLines(p, n);
  const j = nextJob++;
  store<u8>(jobState() + (j % RING), J_WORKER);
  store<u8>(jobOwner() + (j % RING), <u8>target);
  store<u32>(wSent() + (<usize>target << 2), sent(target) + 1);
  if (!sinkInit(true, false, stN + keep + fileLen + n + 32) || !ensure(stN + keep + 8 + fileLen + n)) return false;
  putState();
  store<u32>(sinkEnd(), first); store<u32>(sinkEnd(), <u32>fileLen, 4);
  sinkAdvance(8);
  putBytes(planP + fileAt, fileLen);
  putBytes(p, n);
  first += nl; lines += nl;
  return op(done(0, 0, stN + keep, <u32>target, 0), CLI_SEND, j, 8 + fileLen + n);
}

function finish(): bool {
  if (!runFinish(whyP, whyN)) return false;
  // The chunks each job ran (tests: OVERTURN_FINGERPRINT_JOBS_TRACE), this instance's first.
  const at = sinkLength();
  const w = spawned ? nWorkers : 0;
  if (!lit("{\"workers\":") || !decimal(w) || !lit(",\"chunks\":[") || !decimal(mainChunks)) return false;
  for (let k: u32 = 0; k < w; k++) if (!lit(",") || !decimal(load<u32>(wDone() + (<usize>k << 2)))) return false;
  if (!lit("]}\n")) return false;
  return op(true, CLI_EXIT, 0, <u32>(sinkLength() - at));
}

/** An action with the state as it came and payload [dP, dP+dN). */
function act(o: u32, a: u32, b: u32, dP: usize, dN: usize): bool {
  return sinkInit(true, false, stN + keep + dN + 32) && tail(0, 0, o, a, b, dP, dN);
}

/** The sink holds out and err: the state as it came, the payload, the words. */
function tail(out: usize, err: usize, o: u32, a: u32, b: u32, dP: usize, dN: usize): bool {
  if (!ensure(stN + keep + dN)) return false;
  putState();
  putBytes(dP, dN);
  done(out, err, stN + keep, a, 0);
  return op(true, o, b, <u32>dN);
}

/** Sets the result's action: o, its second number b, payload bytes d; lines (the first) left as set. */
function op(ok: bool, o: u32, b: u32, d: u32): bool {
  if (!ok) return false;
  const r = result();
  if (o == CLI_HOLD) store<u32>(r + RESULT_CLI_LINES, b);
  store<u32>(r + RESULT_CLI_OP, o);
  store<u32>(r + RESULT_CLI_ARG, o == CLI_HOLD ? 0 : b);
  store<u32>(r + RESULT_CLI_DATA, d);
  if (o != CLI_EXIT) store<i32>(r + RESULT_CLI_CODE, 0);
  lastOp = o;
  return true;
}

/** The state as it came, then the line cut by the last read. */
function putState(): void {
  putBytes(stP, stN);
  putBytes(carryP, keep);
}

function flags(): u32 {
  const r = result();
  return (load<u32>(r + RESULT_CLI_OUT) > 0 ? 1 : 0) | (load<u32>(r + RESULT_CLI_ERR) > 0 ? 2 : 0);
}

function state(j: u32): u8 { return load<u8>(jobState() + (j % RING)); }
function sent(k: i32): u32 { return load<u32>(wSent() + (<usize>k << 2)); }

// ---- the plan's records: key=value, NUL-terminated ----
let kP: usize = 0, kN: usize = 0, vP: usize = 0, vN: usize = 0;

/** Reads the record at p (before end) into kP/kN, vP/vN; returns the next one's address. */
function readRec(p: usize, end: usize): usize {
  let q = p;
  while (q < end && load<u8>(q) != 0x3D && load<u8>(q) != 0) q++;
  kP = p; kN = q - p;
  vP = q < end && load<u8>(q) == 0x3D ? q + 1 : q;
  let e = vP;
  while (e < end && load<u8>(e) != 0) e++;
  vN = e - vP;
  return e + 1;
}

function key(s: string): bool { return kN == <usize>s.length && is(kP, s); }
function value(): u64 { return decimalAt(vP, vN); }

function decimalAt(p: usize, n: usize): u64 {
  let v: u64 = 0;
  for (let i: usize = 0; i < n; i++) v = v * 10 + <u64>(load<u8>(p + i) - 0x30);
  return v;
}
