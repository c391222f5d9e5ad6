// The run's plan (the "plan" step, cli/run.ts): from the arguments (args.ts),
// the sizes the host found at their paths and the host's facts, the core
// decides what the host does, in order, and how it shares the work. The
// host only follows it: it never looks at a command or an option.
//
// Host facts (the request's args part, NUL-separated "key=value"):
//   cores=N        the machine's cores (--jobs' default)
//   worker=KIND    "thread" (a thread that shares this compiled module) or
//                  "isolate" (a worker that loads and compiles its own)
//   min-bytes=N    tests only: the size from which workers start
//   deal=1         tests only: chunks dealt in turn, once every worker started
// (a fact without its value, "min-bytes=", is none; a flag is "1" when on)
// The plan (the state bytes, NUL-terminated "key=value" records, in order):
//   workers=N      worker jobs to start besides the host's own thread
//   chunk=N        bytes per read (a chunk is its whole lines)
//   inflight=N     chunks a worker holds at once (sent, not yet answered)
//   queue=N        answers waiting per job before the host writes the oldest
//   deal=1         (tests) chunk i goes to job i mod (workers + 1)
//   tools=F        read F whole, hand it to the "tools" step
//   target=F       read F whole, hand it to the "target" step (why's call)
//   load=F         F's chunks to the "load" step (replay's recording)
//   here=F         F's chunks to the "chunk" step on the host's thread, each
//                  answered before the next is read (stdin, why, replay)
//   shared=F       F's chunks to the "chunk" step on any job
//   size=N         (a driven run's plan, cli/drive.ts) the size of the file
//                  of the record before, for the progress line
// Then "finish". A read that fails goes to "unreadable" with the host's
// error name (errno.ts words it).
import { ensure, putByte } from "../json/sink";
import { bytes, decimal, lit } from "../json/emit";
import {
  C_REPLAY, C_WHY, argN, argP, argSize, fileArg, fileCount, hasToolsFile, inArg, inCount, inN, inP, isStdinArg, options,
  toolsN, toolsP,
} from "./args";
import { is } from "./help";

/** Bytes per read: whole lines of about this much are one chunk, one step. */
const CHUNK: u64 = 1 << 20;
/**
 * Below this many bytes of files no worker starts. A thread sharing the
 * compiled module is ready in about a millisecond: --jobs 2 pays from a few
 * MB (3 MB ~1.05x, 8 MB ~1.15x, 44 MB ~1.2x its --jobs 1). A worker in an
 * isolate of its own (a Node worker thread: the compiled module is shared,
 * but a new V8 isolate starts, ~35 ms alone, 60-100 ms while the host thread
 * and V8's compiler threads run) pays only once the host thread has tens of
 * MB to go (8 MB 0.89-1.07x, 16 MB 0.95-1.5x, 32 MB 1.11-1.37x, 224 MB 1.6-1.73x).
 */
const MIN_BYTES_THREAD: u64 = 4 << 20, MIN_BYTES_ISOLATE: u64 = 32 << 20;
/**
 * Chunks a worker holds: one running, two ready. The host thread hands out work only between its own
 * chunks, which take longer than a worker's (it reads and writes for every job): with one ready a
 * worker sat idle in gaps of 2-15 ms, ~4% of its time.
 */
const IN_FLIGHT: u32 = 3;
/** Answers waiting per job: output stays in input order with constant memory. */
const QUEUE: u32 = 4;

/** Workers at most: a driven run keeps each job's state in a table of this size (cli/drive.ts). */
export const MAX_WORKERS: u64 = 255;

/** The plan of the parsed arguments into the sink; hostP/hostN: the host's facts; sizes: with size records. */
export function writePlan(hostP: usize, hostN: usize, sizes: bool = false): bool {
  withSizes = sizes;
  const cores = fact(hostP, hostN, "cores");
  const isolate = factIs(hostP, hostN, "worker", "isolate");
  const given = fact(hostP, hostN, "min-bytes");
  const minBytes = given >= 0 ? <u64>given : isolate ? MIN_BYTES_ISOLATE : MIN_BYTES_THREAD;
  const one = options().command == C_WHY || options().command == C_REPLAY; // why: the first of equals in file order; replay: in call order
  const n = options().jobs > 0 ? <u64>options().jobs : cores > 0 ? <u64>cores : 1;
  let total: u64 = 0;
  if (!one) for (let k: u32 = 0; k < fileCount(); k++) if (!isStdinArg(fileArg(k))) total += argSize(fileArg(k));
  // Never more workers than the chunks after the first.
  let workers: u64 = 0;
  if (!one && n > 1 && total >= minBytes) {
    const after = (total + CHUNK - 1) / CHUNK - 1;
    workers = n - 1 < after ? n - 1 : after;
    if (workers > MAX_WORKERS) workers = MAX_WORKERS;
  }
  const deal = factIs(hostP, hostN, "deal", "1");
  if (!num("workers", workers) || !num("chunk", CHUNK) || !num("inflight", IN_FLIGHT) || !num("queue", QUEUE)
    || (deal && !num("deal", 1))) return false;
  if (hasToolsFile() && !rec("tools", toolsP(), toolsN())) return false;
  if (options().command == C_WHY) {
    if (!rec("target", argP(fileArg(0)), argN(fileArg(0)))) return false;
    for (let k: u32 = 0; k < inCount(); k++) if (!rec("here", inP(k), inN(k)) || !size(inSize(k))) return false;
    return true;
  }
  if (options().command == C_REPLAY) {
    return rec("load", inP(0), inN(0)) && size(inSize(0)) && rec("here", argP(fileArg(0)), argN(fileArg(0))) && size(argSize(fileArg(0)));
  }
  for (let k: u32 = 0; k < fileCount(); k++) {
    const a = fileArg(k);
    if (!rec(workers > 0 && !isStdinArg(a) ? "shared" : "here", argP(a), argN(a)) || !size(argSize(a))) return false;
  }
  return true;
}

let withSizes = false;

function size(n: u64): bool {
  return !withSizes || num("size", n);
}

/** The size at --in k's path (0 when given as --in=FILE: the host measured that argument, not the path). */
function inSize(k: u32): u64 {
  const a = inArg(k);
  return (a & 0x8000_0000) == 0 ? argSize(a) : 0;
}

function rec(key: string, p: usize, n: usize): bool {
  return lit(key) && lit("=") && bytes(p, n) && end();
}

function num(key: string, v: u64): bool {
  return lit(key) && lit("=") && decimal(v) && end();
}

function end(): bool {
  if (!ensure(1)) return false;
  putByte(0);
  return true;
}

/** The value of the host's fact key: [p, n) of its record, or n = -1 when absent. */
function find(p: usize, n: usize, key: string): i64 {
  const k = <usize>key.length;
  let s: usize = 0;
  for (let i: usize = 0; i <= n; i++) {
    if (i < n && load<u8>(p + i) != 0) continue;
    if (i - s > k && load<u8>(p + s + k) == 0x3D && is(p + s, key)) return <i64>(<u64>(s + k + 1) << 32 | <u64>(i - s - k - 1));
    s = i + 1;
  }
  return -1;
}

/** A numeric fact, -1 when absent or not a number. */
export function fact(p: usize, n: usize, key: string): i64 {
  const f = find(p, n, key);
  if (f < 0) return -1;
  const at = p + <usize>(f >> 32), len = <usize>(f & 0xFFFF_FFFF);
  if (len == 0 || len > 12) return -1;
  let v: i64 = 0;
  for (let j: usize = 0; j < len; j++) {
    const d = <u32>load<u8>(at + j) - 0x30;
    if (d > 9) return -1;
    v = v * 10 + <i64>d;
  }
  return v;
}

export function factIs(p: usize, n: usize, key: string, value: string): bool {
  const f = find(p, n, key);
  return f >= 0 && <usize>(f & 0xFFFF_FFFF) == <usize>value.length && is(p + <usize>(f >> 32), value);
}
