// The progress line a CLI shows on a terminal (the "progress" step, cli/steps.ts):
//   "FILE: 12,345 lines, 3.2 of 44.7 MB (7%)"   ("3.2 MB" when the size is unknown)
// after the run's first second, at most every 250 ms, on stderr, drawn over
// itself ("\r" and erase line). The host says whether stderr is a terminal
// (it asks only then) and passes the numbers; the text and the pace are here.
// Internal.
import { bytes, decimal, lit } from "../json/emit";

let last: i64 = -1;
let shown = false;

/** A driven run (cli/drive.ts) erases the line itself before text; stdout a terminal too. */
let auto = false, outTty = false;

export function progressReset(): void {
  last = -1;
  shown = false;
  auto = false;
}

export function progressAuto(stdoutTty: bool): void {
  auto = true;
  outTty = stdoutTty;
}

/** Whether a text of out and err bytes must erase the line drawn first (then it is gone). */
export function eraseBefore(out: usize, err: usize): bool {
  if (!auto || !shown || (err == 0 && (out == 0 || !outTty))) return false;
  shown = false;
  return true;
}

/** Whether a line is drawn (the end of a run erases it). */
export function progressShown(): bool { return shown; }

/**
 * Numbers [p, p+n): "BYTES TOTAL LINES MS" (decimal; BYTES read of this
 * file, TOTAL its size or 0 when unknown, LINES of the run, MS since the
 * run started) → the line to draw, or nothing (too early, too soon). With no
 * numbers: the text that erases a line drawn (nothing when none is).
 */
export function writeProgress(fP: usize, fN: usize, p: usize, n: usize): bool {
  if (n == 0) {
    if (!shown) return true;
    shown = false;
    return erase();
  }
  let q = p;
  const end = p + n;
  const nBytes = next(q, end); q = at;
  const total = next(q, end); q = at;
  const lines = next(q, end); q = at;
  const ms = <i64>next(q, end);
  return drawProgress(fP, fN, nBytes, total, lines, ms);
}

/** The progress line for these numbers, or nothing (too early, too soon). */
export function drawProgress(fP: usize, fN: usize, nBytes: u64, total: u64, lines: u64, ms: i64): bool {
  if (ms < 1000 || (last >= 0 && ms - last < 250)) return true;
  last = ms;
  shown = true;
  if (!erase() || !bytes(fP, fN) || !lit(": ") || !grouped(lines) || !lit(" lines, ") || !megabytes(nBytes)) return false;
  if (total == 0) return lit(" MB");
  return lit(" of ") && megabytes(total) && lit(" MB (") && decimal(nBytes * 100 / total) && lit("%)");
}

/** "\r" and erase line. A literal here, not a module constant: that would sit in the fingerprint module's data too. */
function erase(): bool { return lit("\r\x1b[K"); }
export function writeErase(): bool { return erase(); }

let at: usize = 0;

/** The decimal number at q (up to a space or end); `at` is after its space. */
function next(q: usize, end: usize): u64 {
  let v: u64 = 0;
  while (q < end && load<u8>(q) != 0x20) v = v * 10 + <u64>(load<u8>(q++) - 0x30);
  at = q < end ? q + 1 : q;
  return v;
}

/** Bytes in MiB, one decimal, rounded (n / 2^20 never lies halfway between tenths). */
function megabytes(n: u64): bool {
  const tenths = (n * 20 + (1 << 20)) / (2 << 20);
  return decimal(tenths / 10) && lit(".") && decimal(tenths % 10);
}

/** Thousands separated by ",": 12,345. */
function grouped(v: u64): bool {
  if (v < 1000) return decimal(v);
  const r = v % 1000;
  return grouped(v / 1000) && lit(",") && decimal(r / 100) && decimal(r / 10 % 10) && decimal(r % 10);
}
