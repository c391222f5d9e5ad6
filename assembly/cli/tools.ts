// The CLIs' `--tools FILE`, the "tools" step of the CLI
// engine (cli/steps.ts): the host hands over the file's bytes (or why it could
// not read them) right after the plan; the core checks the declarations and
// keeps them in this instance's replay index (assembly/replay.ts), from where
// every later step applies them by tool name. A bad or unreadable file is a
// usage-like error: "error: --tools FILE: message", exit status 2, nothing run.
import { PART_TOOLS } from "../abi";
import { failCode, failDetailLen, failOffset, failPart } from "../base/errors";
import { sinkInit, sinkLength } from "../json/sink";
import { replayTools } from "../ops/replay";
import { bytes, lit } from "../json/emit";
import { position, writeMessage } from "./message";
import { errorReason } from "./_errors.gen";
import { done } from "./output";
import { writeErrno } from "./errno";

/** "tools": file [fP, fP+fN), the host's error name when unreadable [rP, rP+rN) (errno.ts) or its bytes [p, p+n). */
export function runTools(fP: usize, fN: usize, rP: usize, rN: usize, p: usize, n: usize): bool {
  if (rN == 0) {
    if (n >= 3 && load<u8>(p) == 0xEF && load<u8>(p + 1) == 0xBB && load<u8>(p + 2) == 0xBF) { p += 3; n -= 3; }
    if (replayTools(p, n)) return done(0, 0, 0, 0, -1);
  }
  if (!sinkInit(true, false, (fN + rN) * 2 + 512) || !lit("error: --tools ") || !bytes(fP, fN) || !lit(": ")) return false;
  if (rN > 0) {
    if (!writeErrno(rP, rN)) return false;
  } else if (failPart() == PART_TOOLS && failOffset() >= 0 && failDetailLen() == 0) {
    if (!lit("invalid JSON: ") || !lit(errorReason(failCode())) || !position(p, n, <usize>failOffset())) return false;
  } else if (!writeMessage(p, n)) return false;
  return lit("\n") && done(0, sinkLength(), 0, 0, 2);
}
