// What the CLIs print, made once: a CLI request (F_CLI) names a step, and
// the core returns the exact bytes. A CLI run is the driver's loop
// (cli/drive.ts: start, next; a worker's instance: worker, job); the hosts
// keep only transport: argv, files and stdin, stdout/stderr, threads, the terminal.
//
// Request parts for F_CLI (abi.ts): kind = the step's name (ASCII); the
// other parts by step (results: RESULT_CLI_*):
//   start, next, worker, job   the driver's (cli/drive.ts)
//   plan        name = argv (cli/args.ts), matchOn = program name, ignoreArgs = package version,
//               args = the host's facts → the plan (cli/plan.ts)
//   unreadable  name = file, ignoreArgs = the error name the host got (ENOENT; "-": none), worded by cli/errno.ts
//   progress    name = file, ignoreArgs = "BYTES TOTAL LINES MS" → the progress line on stderr, or nothing
//               (cli/progress.ts); no numbers: the text that erases it
//   lines       args = whole lines → their count (RESULT_CLI_LINES), as the driver numbers them
//   position    name = JSON text, ignoreArgs = a byte offset (decimal) → " at byte N (line L, column C, X)",
//               the one place that says where a JSON error is, for the SDKs' cold error path
//   help, version   name = topic, matchOn = program name, ignoreArgs = package version
// (plan, unreadable, progress and lines are the driver's parts, asked alone by the vectors' tests.)
//
// Adding a command (e.g. `replay`): write its formatter in cli/<command>.ts
// (static literals and request bytes into the sink, as why.ts does), add one
// `if` for it in run.ts's oneLine (and its summary in runFinish), and one
// word in args.ts's commandWord. No host formats anything.
import { E_BAD_REQUEST, fail } from "../base/errors";
import { sinkInit } from "../json/sink";
import { FINGERPRINT_VERSION } from "../abi";
import { is, setProg, writeHelp, writeVersion } from "./help";
import { pushRunLimits, setPkg } from "./args";
import { popLimits } from "../base/limits";
import { setTools } from "../pipeline/tools";
import { keptTools, keptToolsLength } from "../ops/replay";
import { writeProgress } from "./progress";
import { sinkLength } from "../json/sink";
import { done, statePrefix } from "./output";
import { driveJob, driveNext, driveStart, driveWorker } from "./drive";
import { runLines, runPlan, runPosition, runUnreadable } from "./run";

/**
 * Runs step [fP, fP+fN) with the request's parts; true with the text at the
 * sink's start. The run's --max-* options (args.ts) tighten the instance's
 * limits for the step, which leaves them as they were.
 */
export function cliText(fP: usize, fN: usize, opP: usize, opN: usize, progP: usize, progN: usize,
  pkgP: usize, pkgN: usize, argsP: usize, argsN: usize): bool {
  pushRunLimits();
  const ok = step(fP, fN, opP, opN, progP, progN, pkgP, pkgN, argsP, argsN);
  popLimits();
  return ok;
}

function step(fP: usize, fN: usize, opP: usize, opN: usize, progP: usize, progN: usize,
  pkgP: usize, pkgN: usize, argsP: usize, argsN: usize): bool {
  setTools(keptTools(), keptToolsLength()); // --tools (cli/tools.ts), kept by this instance's replay index
  statePrefix(0, 0);
  if (fN == 4 && is(fP, "next")) return driveNext(pkgP, pkgN, opP, opN, progP, progN, argsP, argsN);
  if (fN == 3 && is(fP, "job")) return driveJob(argsP, argsN);
  if (fN == 5 && is(fP, "start")) { setProg(progP, progN); setPkg(pkgP, pkgN); return driveStart(opP, opN, argsP, argsN); }
  if (fN == 6 && is(fP, "worker")) return driveWorker(opP, opN, argsP, argsN);
  if (fN == 4 && is(fP, "plan")) {
    setProg(progP, progN); setPkg(pkgP, pkgN);
    return runPlan(opP, opN, argsP, argsN, FINGERPRINT_VERSION);
  }
  if (fN == 8 && is(fP, "progress")) {
    return sinkInit(true, false, opN + 128) && writeProgress(opP, opN, pkgP, pkgN) && done(0, sinkLength(), 0, 0, 0);
  }
  if (fN == 10 && is(fP, "unreadable")) return runUnreadable(opP, opN, pkgP, pkgN);
  if (fN == 5 && is(fP, "lines")) return runLines(argsP, argsN);
  if (fN == 8 && is(fP, "position")) return runPosition(opP, opN, parseDecimal(pkgP, pkgN));
  if (!sinkInit(true, false, 4096)) return false;
  setProg(progP, progN);
  if (fN == 4 && is(fP, "help")) return writeHelp(opP, opN, FINGERPRINT_VERSION) || unknown();
  if (fN == 7 && is(fP, "version")) return writeVersion(pkgP, pkgN, FINGERPRINT_VERSION);
  return unknown();
}

function parseDecimal(p: usize, n: usize): u32 {
  let v: u32 = 0;
  for (let i: usize = 0; i < n; i++) v = v * 10 + (<u32>load<u8>(p + i) - 0x30);
  return v;
}

/** An unknown formatter or help topic: the host decides what that means (a usage error). */
function unknown(): bool {
  fail(E_BAD_REQUEST, -1);
  return false;
}
