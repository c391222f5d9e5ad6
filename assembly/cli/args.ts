// The CLIs' arguments, read once here: argv in, the options and the
// input arguments out. Internal; cli/plan.ts turns them into the run's plan.
//
// argv arrives as one part: each argument is what the host found at that
// path ("-" when nothing, else its size in bytes), ":", the argument's
// bytes, a NUL. A bare word that is no file is a mistyped command; the
// sizes decide whether workers pay (cli/plan.ts).
// `replay` takes one CALLS file and one --in recording; --tools FILE is for
// every command, the last one given wins. --max-input-bytes / --max-depth /
// --max-members N (every command): the limits every line and CALL.json is
// read under (limits.ts); a line over one is a bad line like any other.
import { bytes, lit } from "../json/emit";
import { is, writeHelp } from "./help";
import { pushLimits } from "../base/limits";

export const C_FINGERPRINT = 0, C_EXPLAIN = 1, C_VERIFY = 2, C_WHY = 3, C_HELP = 4, C_REPLAY = 5;

/** The run's options, as the last plan read them. */
@unmanaged export class Options {
  command: i32; json: bool; jobs: u32;
}
export function options(): Options { return changetype<Options>(memory.data(offsetof<Options>())); }

let command = C_FINGERPRINT;
let json = false;
let jobs: u32 = 0;
const NONE_GIVEN: u32 = 0xFFFF_FFFF; // limits.ts NO_LIMIT
/** --max-input-bytes, --max-depth, --max-members (0xFFFFFFFF: not given). */
let limitBytes: u32 = NONE_GIVEN, limitDepth: u32 = NONE_GIVEN, limitMembers: u32 = NONE_GIVEN;

/** The run's --max-* options over the instance's limits, for one step (popLimits after it). */
export function pushRunLimits(): void { pushLimits(limitBytes, limitDepth, limitMembers); }
let help = false, version = false;
let hasTools = false, toolsArg: u32 = 0;

/** Argument i: [argP, argP+argN); files and --in files are kept as argument indexes. */
let argv: usize = 0, argc: u32 = 0;
const MAX_ARGS: u32 = 1024;
// Static buffers inside functions: a module-level memory.data would be
// placed in the fingerprint module too (it imports this tree), 40 KiB budget.
function files(): usize { return memory.data(1024 * 4); }
function inFiles(): usize { return memory.data(1024 * 4); }
function offsets(): usize { return memory.data(1025 * 4); }
/** Where argument i's record starts (its stat, before the ":"). */
function starts(): usize { return memory.data(1025 * 4); }
let nFiles: u32 = 0, nIn: u32 = 0;

/** The plan's outcome: -1 run, else the exit status; the texts go to out (stdout) or err (stderr). */
let exitCode: i32 = -1;
let toStderr = false;
export function planExit(): i32 { return exitCode; }
export function planToStderr(): bool { return toStderr; }

/** The usage error text into the sink: "error: <text> (see --help)\n". */
let usageP: usize = 0;

export function argP(i: u32): usize { return argv + <usize>load<u32>(offsets() + (<usize>i << 2)); }
export function argN(i: u32): usize {
  return <usize>(load<u32>(starts() + (<usize>(i + 1) << 2)) - load<u32>(offsets() + (<usize>i << 2))) - 1;
}
function exists(i: u32): bool { return load<u8>(argv + <usize>load<u32>(starts() + (<usize>i << 2))) != 0x2D; }
/** The size the host found at argument i's path (0 when nothing is there). */
export function argSize(i: u32): u64 {
  let v: u64 = 0;
  let q = argv + <usize>load<u32>(starts() + (<usize>i << 2));
  while (<u32>load<u8>(q) - 0x30 <= 9) v = v * 10 + <u64>(load<u8>(q++) - 0x30);
  return v;
}
export function fileArg(k: u32): u32 { return load<u32>(files() + (<usize>k << 2)); }
export function inArg(k: u32): u32 { return load<u32>(inFiles() + (<usize>k << 2)); }
export function fileCount(): u32 { return nFiles; }
export function inCount(): u32 { return nIn; }

function publish(): void {
  const o = options();
  o.command = command; o.json = json; o.jobs = jobs;
}

/** Reads argv [p, p+n); false (with exitCode 2) on a usage error whose text is then in the sink. */
function parse(p: usize, n: usize): bool {
  command = C_FINGERPRINT; json = help = version = hasTools = false; jobs = 0; nFiles = nIn = 0; argc = 0;
  limitBytes = limitDepth = limitMembers = NONE_GIVEN;
  publish();
  argv = p;
  let start: usize = 0, colon: usize = 0;
  for (let i: usize = 0; i < n; i++) {
    const c = load<u8>(p + i);
    if (c == 0x3A && colon <= start) colon = i + 1; // the first ":" of the record ends its stat
    if (c != 0) continue;
    if (argc == MAX_ARGS) return usage("too many arguments", true);
    if (colon <= start) return usage("an argument without the host's \"SIZE:\" in front", false); // a host defect
    store<u32>(starts() + (<usize>argc << 2), <u32>start);
    store<u32>(offsets() + (<usize>argc << 2), <u32>colon);
    argc++;
    start = i + 1;
  }
  store<u32>(starts() + (<usize>argc << 2), <u32>start);
  let optionsDone = false, first = true;
  for (let i: u32 = 0; i < argc; i++) {
    const s = argP(i), m = argN(i);
    if (!optionsDone && m > 1 && load<u8>(s) == 0x2D) {
      if (m == 2 && is(s, "--")) optionsDone = true;
      else if (m == 6 && is(s, "--json")) json = true;
      else if ((m == 2 && is(s, "-h")) || (m == 6 && is(s, "--help"))) help = true;
      else if (m == 9 && is(s, "--version")) version = true;
      else if (opt(s, m, "--in")) {
        if (command != C_WHY && command != C_REPLAY) return usage("--in belongs to the why and replay commands", true);
        const v = value(s, m, 4, i);
        if (v == NONE || (v == i ? m - 5 : argN(v)) == 0) return usage("--in needs a FILE", true);
        if (v != i) i = v;
        store<u32>(inFiles() + (<usize>nIn << 2), v == i && m > 4 ? i | 0x8000_0000 : v); nIn++;
      } else if (opt(s, m, "--tools")) {
        const v = value(s, m, 7, i);
        if (v == NONE || (v == i ? m - 8 : argN(v)) == 0) return usage("--tools needs a FILE", true);
        toolsArg = v == i ? i | 0x8000_0000 : v;
        if (v != i) i = v;
        hasTools = true;
      } else if (opt(s, m, "--jobs")) {
        const v = value(s, m, 6, i);
        const vp = v == i ? s + 7 : v == NONE ? 0 : argP(v), vn = v == i ? m - 7 : v == NONE ? 0 : argN(v);
        if (v != i && v != NONE) i = v;
        jobs = number(vp, vn);
        if (jobs == 0) return usage("--jobs needs a number of jobs, 1 or more", true);
      } else if (limitOption(s, m) != 0) {
        const k = limitOption(s, m);
        const v = value(s, m, k, i);
        const vp = v == i ? s + k + 1 : v == NONE ? 0 : argP(v), vn = v == i ? m - k - 1 : v == NONE ? 0 : argN(v);
        if (v != i && v != NONE) i = v;
        const x = limitNumber(vp, vn);
        if (x < 0) return lit("error: ") && bytes(s, k) && lit(" needs a whole number, 0 or more (see --help)\n") && usageEnd();
        if (k == 17) limitBytes = <u32>x; else if (k == 11) limitDepth = <u32>x; else limitMembers = <u32>x;
      } else {
        return lit("error: unknown option ") && bytes(s, m) && lit(" (see --help)\n") && usageEnd();
      }
      continue;
    }
    if (first && !optionsDone && commandWord(s, m)) {
      // set by commandWord
    } else if (first && !optionsDone && isWord(s, m) && !exists(i)) {
      // A bare word that is no file: a mistyped command, not a missing recording.
      return lit("error: unknown command \"") && bytes(s, m)
        && lit("\" (commands: explain, verify, why, replay, help; or a FILE) (see --help)\n") && usageEnd();
    } else {
      store<u32>(files() + (<usize>nFiles << 2), i); nFiles++;
    }
    first = false;
  }
  return true;
}

const NONE: u32 = 0xFFFF_FFFF;

/** The length of the limit option s names (alone or as name=value), 0 if none. */
function limitOption(s: usize, m: usize): usize {
  return opt(s, m, "--max-input-bytes") ? 17 : opt(s, m, "--max-depth") ? 11 : opt(s, m, "--max-members") ? 13 : 0;
}

/** A limit's value: decimal digits up to 2^32 - 1 (which is no limit); -1 otherwise. */
function limitNumber(p: usize, n: usize): i64 {
  if (n == 0 || n > 10) return -1;
  let v: i64 = 0;
  for (let j: usize = 0; j < n; j++) {
    const d = <u32>load<u8>(p + j) - 0x30;
    if (d > 9) return -1;
    v = v * 10 + <i64>d;
  }
  return v > <i64>0xFFFF_FFFF ? -1 : v;
}

/** s is the option name, alone or as name=value. */
function opt(s: usize, m: usize, name: string): bool {
  const k = <usize>name.length;
  return (m == k || (m > k && load<u8>(s + k) == 0x3D)) && is(s, name);
}

/** The argument holding the option's value: i itself for name=value, else the next one (NONE if none). */
function value(s: usize, m: usize, k: usize, i: u32): u32 {
  if (m > k) return i;
  return i + 1 < argc ? i + 1 : NONE;
}

function number(p: usize, n: usize): u32 {
  if (n == 0 || n > 4) return 0;
  let v: u32 = 0;
  for (let j: usize = 0; j < n; j++) {
    const d = <u32>load<u8>(p + j) - 0x30;
    if (d > 9) return 0;
    v = v * 10 + d;
  }
  return v;
}

function commandWord(s: usize, m: usize): bool {
  if (m == 7 && is(s, "explain")) command = C_EXPLAIN;
  else if (m == 6 && is(s, "verify")) command = C_VERIFY;
  else if (m == 3 && is(s, "why")) command = C_WHY;
  else if (m == 4 && is(s, "help")) command = C_HELP;
  else if (m == 6 && is(s, "replay")) command = C_REPLAY;
  else return false;
  return true;
}

/** [a-z][a-z-]* */
function isWord(s: usize, m: usize): bool {
  for (let j: usize = 0; j < m; j++) {
    const c = <u32>load<u8>(s + j);
    if (!(c - 0x61 < 26 || (j > 0 && c == 0x2D))) return false;
  }
  return m > 0;
}

function usage(text: string, seeHelp: bool): bool {
  return lit("error: ") && lit(text) && (seeHelp ? lit(" (see --help)\n") : lit("\n")) && usageEnd();
}

function usageEnd(): bool {
  exitCode = 2;
  toStderr = true;
  return false;
}

/**
 * The plan of argv [p, p+n) into the sink (a fresh one, keep mode): either
 * the text to print (exitCode >= 0, toStderr) or the run's plan (exitCode -1).
 */
export function plan(p: usize, n: usize, contract: i32): bool {
  exitCode = -1; toStderr = false;
  const parsed = parse(p, n);
  publish();
  if (!parsed) return exitCode == 2; // the usage error is in the sink
  exitCode = 0;
  if (version) return writeVersionLine(contract);
  if (command == C_HELP) {
    if (nFiles > 0) {
      const t = fileArg(0);
      if (writeHelp(argP(t), argN(t), contract)) return true;
      exitCode = 2;
    }
    return writeHelp(TOPIC_MAIN(), 4, contract);
  }
  if (help) {
    return command == C_FINGERPRINT ? writeHelp(TOPIC_MAIN(), 4, contract)
      : command == C_EXPLAIN ? writeHelp(T_EXPLAIN(), 7, contract)
      : command == C_VERIFY ? writeHelp(T_VERIFY(), 6, contract)
      : command == C_WHY ? writeHelp(T_WHY(), 3, contract)
      : command == C_REPLAY ? writeHelp(T_REPLAY(), 6, contract) : writeHelp(TOPIC_MAIN(), 4, contract);
  }
  if (command == C_REPLAY) {
    if (nFiles != 1) return usage("replay takes one CALLS.jsonl (see replay --help)", false);
    if (nIn != 1) return usage("replay takes one recording: --in RECORDING.jsonl", false);
    if (isStdin(fileArg(0)) && isStdinIn(0)) return usage("only one of CALLS.jsonl and --in can be standard input", false);
  } else if (command == C_WHY) {
    if (nFiles != 1) return usage("why takes one CALL.json (see why --help)", false);
    if (nIn == 0) return usage("why needs the recording: --in FILE", false);
    if (isStdin(fileArg(0))) {
      for (let k: u32 = 0; k < nIn; k++) {
        if (isStdinIn(k)) return usage("only one of CALL.json and --in can be standard input", false);
      }
    }
  } else if (nFiles == 0) {
    if (command == C_FINGERPRINT) { toStderr = true; exitCode = 2; return writeHelp(TOPIC_MAIN(), 4, contract); }
    return lit("error: ") && (command == C_EXPLAIN ? lit("explain") : lit("verify"))
      && lit(" needs a FILE (- for standard input) (see --help)\n") && usageEnd();
  }
  exitCode = -1;
  return true;
}

function isStdin(i: u32): bool { return argN(i) == 1 && load<u8>(argP(i)) == 0x2D; }

/** --in FILE k: "-" whether given as --in - or --in=-. */
function isStdinIn(k: u32): bool {
  const a = inArg(k);
  if ((a & 0x8000_0000) == 0) return isStdin(a);
  const i = a & 0x7FFF_FFFF;
  return argN(i) == 6 && load<u8>(argP(i) + 5) == 0x2D;
}

/** The file name of --in k: bytes. */
export function isStdinArg(i: u32): bool { return isStdin(i); }
export function inP(k: u32): usize {
  const a = inArg(k);
  return (a & 0x8000_0000) == 0 ? argP(a) : argP(a & 0x7FFF_FFFF) + 5;
}
export function inN(k: u32): usize {
  const a = inArg(k);
  return (a & 0x8000_0000) == 0 ? argN(a) : argN(a & 0x7FFF_FFFF) - 5;
}

function TOPIC_MAIN(): usize { return memory.data<u8>([0x6D, 0x61, 0x69, 0x6E]); } // "main"
function T_EXPLAIN(): usize { return memory.data<u8>([0x65, 0x78, 0x70, 0x6C, 0x61, 0x69, 0x6E]); }
function T_VERIFY(): usize { return memory.data<u8>([0x76, 0x65, 0x72, 0x69, 0x66, 0x79]); }
function T_WHY(): usize { return memory.data<u8>([0x77, 0x68, 0x79]); }
function T_REPLAY(): usize { return memory.data<u8>([0x72, 0x65, 0x70, 0x6C, 0x61, 0x79]); }

export function hasToolsFile(): bool { return hasTools; }
/** The file name of --tools (as --tools FILE or --tools=FILE). */
export function toolsP(): usize { return (toolsArg & 0x8000_0000) == 0 ? argP(toolsArg) : argP(toolsArg & 0x7FFF_FFFF) + 8; }
export function toolsN(): usize { return (toolsArg & 0x8000_0000) == 0 ? argN(toolsArg) : argN(toolsArg & 0x7FFF_FFFF) - 8; }

import { writeVersion } from "./help";
let pkgP: usize = 0, pkgN: usize = 0;
export function setPkg(p: usize, n: usize): void { pkgP = p; pkgN = n; }
function writeVersionLine(contract: i32): bool { return writeVersion(pkgP, pkgN, contract); }
