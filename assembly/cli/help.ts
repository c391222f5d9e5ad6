// The CLIs' fixed texts: usage, per-command help and the
// --version line, written once here for both CLIs (src/cli.ts, _cli.py),
// which pass in only what is theirs: the program name and package version.
// Internal; reached through F_CLI (abi.ts, cli/steps.ts). Only static
// literals and request bytes are written: the core's arena owns the heap, so
// no string is built at run time.
import { ensure, putByte } from "../json/sink";
import { bytes, decimal, lit } from "../json/emit";

/** The host's program name and package version: UTF-8 bytes in the request. */
let progP: usize = 0, progN: usize = 0;

export function setProg(p: usize, n: usize): void {
  progP = p; progN = n;
}

/** Writes help topic [p, p+n) ("main", "explain", "verify", "why", "replay"); false for an unknown topic. */
export function writeHelp(p: usize, n: usize, contract: i32): bool {
  const topic = n == 4 && is(p, "main") ? 0 : n == 7 && is(p, "explain") ? 1 : n == 6 && is(p, "verify") ? 2
    : n == 3 && is(p, "why") ? 3 : n == 6 && is(p, "replay") ? 4 : -1;
  if (topic == 0) return main(contract);
  if (topic == 1) return lit("usage: ") && prog() && lit(` explain [--json] FILE...

For each call: its fingerprint, kind, what matchOn/ignoreArgs kept and dropped
(top-level keys), and the canonical JSON text that is hashed.
--json: one object per call: {"file", "line", "version", "kind", "name",
"selected": {"kept", "dropped", "missing"}, "canonical", "preimage", "fingerprint"}.
`);
  if (topic == 2) return lit("usage: ") && prog() && lit(` verify [--json] FILE...

Recomputes the fingerprint of every line that stores one ("fingerprint") and
reports the lines whose stored value no longer matches, then a summary.
Exit status 1 if any differ or failed. Run it after upgrading the SDK.
--json: one object per differing line, {"file", "line", "name", "recorded",
"fingerprint", "canonical"}, then {"summary": {"match", "differ", "unrecorded", "failed"}}.
`);
  if (topic == 3) return lit("usage: ") && prog() && lit(` why [--json] CALL.json --in FILE [--in FILE...]

Answers "why was this call unseen?": CALL.json holds one call (same shape as a
recording line). Among the recorded calls with the same kind and name, shows
the one with the fewest differences and each difference that changes the
fingerprint (path, before, after). Whitespace, nulls, key order and number
spelling are never differences: the comparison runs on canonical texts.
--json: one object {"call", "seen", "candidates", "nearest": null |
{"file", "line", "explanation", "diff": {"same", "changes"}}}.
`);
  if (topic == 4) return lit("usage: ") && prog() && lit(` replay [--json] CALLS.jsonl --in RECORDING.jsonl [--tools FILE]

Answers each call of CALLS (every call of a message that holds several) from
the recording: a hit names the recorded line it took (the same call recorded
several times is answered in recorded order, one per call); a miss says why:
"recorded N times, asked N+1", or the nearest recorded call of that tool and
its changes. Then the recorded calls never asked for (the first 20) and a
summary. Exit status 1 on any miss or bad line, so a test suite can gate on it.
LINE#K is the call K (from 0) of a line holding several; #0 is not written.
--json: one object per call, {"line", "call", "name", "fingerprint", "hit",
"recordedLine"} (a miss: "recordedLine": null, "why", "nearest", "changes"),
{"unused": {"line", "call", "name", "fingerprint"}} for the first 20 unused,
then {"summary": {"calls", "hits", "misses", "unused"}}.
`);
  return false;
}

/** The --version line. */
export function writeVersion(pkgP: usize, pkgN: usize, contract: i32): bool {
  return prog() && lit(" ") && bytes(pkgP, pkgN) && lit(" (fingerprint contract v") && decimal(contract) && lit(")\n");
}

function main(contract: i32): bool {
  return lit("usage: ") && prog() && lit(` [--json] FILE...            one fingerprint per call: "<sha256 hex>  <name>"
       `) && prog() && lit(` explain [--json] FILE...    the selection and canonical text of each call
       `) && prog() && lit(` verify [--json] FILE...     recompute every stored "fingerprint", report the ones that differ
       `) && prog() && lit(` why [--json] CALL.json --in FILE...
                                           the recorded call nearest to CALL, and what differs
       `) && prog() && lit(` replay [--json] CALLS.jsonl --in RECORDING.jsonl
                                           answer each call from the recording: hit, or miss and why
       `) && prog() && lit(` COMMAND --help              help for one command
       `) && prog() && lit(` --version                   the package and contract versions

FILE is a recording in JSON Lines, one call a line:
  {"name": ..., "args": <value> | "argsJSON": "<JSON text>", "kind"?, "matchOn"?, "ignoreArgs"?, "fingerprint"?}
Use - for standard input. Bad lines are reported (FILE:LINE: reason) and skipped;
the exit status is 1 if any failed, 2 for a usage error. --json writes JSON Lines.
--tools FILE (every command): tool declarations by tool name,
  {"<tool>": {"matchOn"?: [...], "ignoreArgs"?: [...]}}; a bad file is a usage error.
--max-input-bytes N, --max-depth N, --max-members N (every command): limits on each
  line and CALL.json (bytes, nesting, members of one object); a line over one fails.
--jobs N: N jobs (default: one per core) over files big enough to pay for them;
  the output keeps input order. why and replay run as one job.
Fingerprint contract v`) && decimal(contract) && lit(".\n");
}

function prog(): bool {
  return bytes(progP, progN);
}

/** Bytes at p equal the ASCII literal s (the caller checked the length). */
export function is(p: usize, s: string): bool {
  for (let i = 0; i < s.length; i++) if (<i32>load<u8>(p + <usize>i) != s.charCodeAt(i)) return false;
  return true;
}
