// The CLIs' expected output, written independently of the core
// (assembly/cli/*.ts): the oracle behind vectors/cli.vectors.json. Texts use
// {prog} and {pkg} for the host's program name and package version; the
// runners substitute them. Fingerprint lines come from the contract oracle.
import { readFileSync } from "node:fs";
import { DEFAULT_KIND, FINGERPRINT_VERSION, canonicalValue, parseJSONText, select, sha256Hex } from "./contract.mjs";

const usage = (cmd) => `usage: {prog} ${cmd}`;

/** Help texts by topic, each ending in "\n" as printed. */
export const HELP = {
  main: [
    'usage: {prog} [--json] FILE...            one fingerprint per call: "<sha256 hex>  <name>"',
    "       {prog} explain [--json] FILE...    the selection and canonical text of each call",
    '       {prog} verify [--json] FILE...     recompute every stored "fingerprint", report the ones that differ',
    "       {prog} why [--json] CALL.json --in FILE...",
    "                                           the recorded call nearest to CALL, and what differs",
    "       {prog} COMMAND --help              help for one command",
    "       {prog} --version                   the package and contract versions",
    "",
    "FILE is a recording in JSON Lines, one call a line:",
    '  {"name": ..., "args": <value> | "argsJSON": "<JSON text>", "kind"?, "matchOn"?, "ignoreArgs"?, "fingerprint"?}',
    "Use - for standard input. Bad lines are reported (FILE:LINE: reason) and skipped;",
    "the exit status is 1 if any failed, 2 for a usage error. --json writes JSON Lines.",
    `Fingerprint contract v${FINGERPRINT_VERSION}.`,
  ],
  explain: [
    usage("explain [--json] FILE..."),
    "",
    "For each call: its fingerprint, kind, what matchOn/ignoreArgs kept and dropped",
    "(top-level keys), and the canonical JSON text that is hashed.",
    '--json: one object per call: {"file", "line", "version", "kind", "name",',
    '"selected": {"kept", "dropped", "missing"}, "canonical", "preimage", "fingerprint"}.',
  ],
  verify: [
    usage("verify [--json] FILE..."),
    "",
    'Recomputes the fingerprint of every line that stores one ("fingerprint") and',
    "reports the lines whose stored value no longer matches, then a summary.",
    "Exit status 1 if any differ or failed. Run it after upgrading the SDK.",
    '--json: one object per differing line, {"file", "line", "name", "recorded",',
    '"fingerprint", "canonical"}, then {"summary": {"match", "differ", "unrecorded", "failed"}}.',
  ],
  why: [
    usage("why [--json] CALL.json --in FILE [--in FILE...]"),
    "",
    'Answers "why was this call unseen?": CALL.json holds one call (same shape as a',
    "recording line). Among the recorded calls with the same kind and name, shows",
    "the one with the fewest differences and each difference that changes the",
    "fingerprint (path, before, after). Whitespace, nulls, key order and number",
    "spelling are never differences: the comparison runs on canonical texts.",
    '--json: one object {"call", "seen", "candidates", "nearest": null |',
    '{"file", "line", "explanation", "diff": {"same", "changes"}}}.',
  ],
};

export const help = (topic) => HELP[topic].join("\n") + "\n";

export const versionLine = () => `{prog} {pkg} (fingerprint contract v${FINGERPRINT_VERSION})\n`;

/**
 * Per call of a recording of plain {"name", "args" | "argsJSON", ...} lines:
 * "<hex>  <name>", or with `json` the record {"file", "line", "name", "fingerprint"}.
 */
export function fingerprintLines(path, json = false, file = path) {
  return readFileSync(path, "utf8").split("\n").map((l, i) => [l, i + 1]).filter(([l]) => l.trim()).map(([l, line]) => {
    const c = JSON.parse(l);
    const args = typeof c.argsJSON === "string" ? parseJSONText(c.argsJSON) : c.args;
    const canonical = canonicalValue(select(args, { matchOn: c.matchOn ?? undefined, ignoreArgs: c.ignoreArgs ?? undefined }));
    const fingerprint = sha256Hex(`${c.kind ?? DEFAULT_KIND}\n${c.name}\n${canonical}`);
    return json ? JSON.stringify({ file, line, name: c.name, fingerprint }) + "\n" : `${fingerprint}  ${c.name}\n`;
  }).join("");
}
