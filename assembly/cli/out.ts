// What the CLIs print, made once (issue 9 item 4). A CLI request (F_CLI)
// names a formatter and hands it the parsed inputs; the core returns the
// exact bytes to print. The hosts (src/cli.ts, _cli.py) keep only
// arguments, file/stdin streaming, TTY progress and exit codes.
//
// Request parts for F_CLI (abi.ts): kind = formatter name (ASCII), name =
// its first operand, matchOn part = the host's program name, ignoreArgs part
// = the package version, args = further input (unused so far).
//
// Per-line output (F_CLI | F_CALL, cli/line.ts): the core reads and
// fingerprints the call in args and formats it; kind = formatter, name =
// file, matchOn part = the decimal line number.
//
// Adding a command (e.g. `replay`): write its formatter in cli/<command>.ts
// (static literals and request bytes into the sink, as help.ts does), add
// one `if` below for its name, and one host function per language that
// sends the request (cliText in src/_diagnostics_wasm.ts, cli_text in
// _diagnostics_wasm.py). No host formats anything.
import { E_BAD_REQUEST, fail } from "../errors";
import { sinkInit } from "../json/sink";
import { FINGERPRINT_VERSION } from "../abi";
import { is, setProg, writeHelp, writeVersion } from "./help";

/** Runs formatter [fP, fP+fN) into a fresh sink; true with the text at the sink's start. */
export function cliText(fP: usize, fN: usize, opP: usize, opN: usize, progP: usize, progN: usize,
  pkgP: usize, pkgN: usize): bool {
  if (!sinkInit(true, false, 4096)) return false;
  setProg(progP, progN);
  if (fN == 4 && is(fP, "help")) return writeHelp(opP, opN, FINGERPRINT_VERSION) || unknown();
  if (fN == 7 && is(fP, "version")) return writeVersion(pkgP, pkgN, FINGERPRINT_VERSION);
  return unknown();
}

/** An unknown formatter or help topic: the host decides what that means (a usage error). */
function unknown(): bool {
  fail(E_BAD_REQUEST, -1);
  return false;
}
