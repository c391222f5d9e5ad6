// The CLIs' expected output, written independently of the core
// (assembly/cli/*.ts): the oracle behind vectors/cli.vectors.json. Texts use
// {prog} and {pkg} for the host's program name and package version; the
// runners substitute them. Fingerprint lines come from the contract oracle.
import { readFileSync } from "node:fs";
import { DEFAULT_KIND, FINGERPRINT_VERSION, canonicalValue, parseJSONText, select, sha256Hex } from "./contract.mjs";
import { explainLine, nearestLine } from "./diagnostics.mjs";
import { applyTools, explainWithTools, replay } from "./replay.mjs";
import { asRecordingLine } from "./shapes.mjs";
import { callsOfMessage } from "./shapes.mjs";

const usage = (cmd) => `usage: {prog} ${cmd}`;

/** Help texts by topic, each ending in "\n" as printed. */
export const HELP = {
  main: [
    'usage: {prog} [--json] FILE...            one fingerprint per call: "<sha256 hex>  <name>"',
    "       {prog} explain [--json] FILE...    the selection and canonical text of each call",
    '       {prog} verify [--json] FILE...     recompute every stored "fingerprint", report the ones that differ',
    "       {prog} why [--json] CALL.json --in FILE...",
    "                                           the recorded call nearest to CALL, and what differs",
    "       {prog} replay [--json] CALLS.jsonl --in RECORDING.jsonl",
    "                                           answer each call from the recording: hit, or miss and why",
    "       {prog} COMMAND --help              help for one command",
    "       {prog} --version                   the package and contract versions",
    "",
    "FILE is a recording in JSON Lines, one call a line:",
    '  {"name": ..., "args": <value> | "argsJSON": "<JSON text>", "kind"?, "matchOn"?, "ignoreArgs"?, "fingerprint"?}',
    "Use - for standard input. Bad lines are reported (FILE:LINE: reason) and skipped;",
    "the exit status is 1 if any failed, 2 for a usage error. --json writes JSON Lines.",
    "--tools FILE (every command): tool declarations by tool name,",
    '  {"<tool>": {"matchOn"?: [...], "ignoreArgs"?: [...]}}; a bad file is a usage error.',
    "--max-input-bytes N, --max-depth N, --max-members N (every command): limits on each",
    "  line and CALL.json (bytes, nesting, members of one object); a line over one fails.",
    "--jobs N: N jobs (default: one per core) over files big enough to pay for them;",
    "  the output keeps input order. why and replay run as one job.",
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
  replay: [
    usage("replay [--json] CALLS.jsonl --in RECORDING.jsonl [--tools FILE]"),
    "",
    "Answers each call of CALLS (every call of a message that holds several) from",
    "the recording: a hit names the recorded line it took (the same call recorded",
    "several times is answered in recorded order, one per call); a miss says why:",
    '"recorded N times, asked N+1", or the nearest recorded call of that tool and',
    "its changes. Then the recorded calls never asked for (the first 20) and a",
    "summary. Exit status 1 on any miss or bad line, so a test suite can gate on it.",
    "LINE#K is the call K (from 0) of a line holding several; #0 is not written.",
    '--json: one object per call, {"line", "call", "name", "fingerprint", "hit",',
    '"recordedLine"} (a miss: "recordedLine": null, "why", "nearest", "changes"),',
    '{"unused": {"line", "call", "name", "fingerprint"}} for the first 20 unused,',
    'then {"summary": {"calls", "hits", "misses", "unused"}}.',
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

// --- explain, verify, why: from the diagnostics oracle (test/reference/diagnostics.mjs) ---------

const lines = (path) => readFileSync(path, "utf8").replace(/^\uFEFF/, "").split("\n").map((l) => l.replace(/\r$/, ""))
  .map((l, i) => [l, i + 1]).filter(([l]) => l.trim());
const j = (v) => JSON.stringify(v);
const opt = (v) => (v === null ? undefined : v);

function selectionText(c, e) {
  const m = opt(c.matchOn), g = opt(c.ignoreArgs);
  if (!m && !g) return "none";
  const from = e.declared ? " (tool declaration)" : "";
  let t = `${m ? `matchOn ${j(m)}` : `ignoreArgs ${j(g)}`}${from}: kept ${j(e.selected.kept)}, dropped ${j(e.selected.dropped)}`;
  if (e.selected.missing.length) t += `, missing ${j(e.selected.missing)}`;
  return m && g ? t + " (matchOn wins over ignoreArgs)" : t;
}

/** explain FILE: per call four text lines, or with json the whole explanation after file and line. */
export function explainOut(path, json = false, file = path, tools = undefined) {
  return lines(path).map(([l, line]) => {
    const e = tools ? explainWithTools(l, tools) : explainLine(l);
    // With declarations the selection shown is the one they gave the line (recording lines only here).
    const c = tools ? applyTools(asRecordingLine(l).line, tools).line : JSON.parse(l);
    if (json) return j({ file, line, ...e }) + "\n";
    return `${file}:${line}  ${e.name}  ${e.fingerprint}\n  kind       ${e.kind}\n  selection  ${selectionText(c, e)}\n` +
      `  canonical  ${e.canonical}\n`;
  }).join("");
}

/** verify FILE: { stdout, stderr, exit }. */
export function verifyOut(path, json = false, file = path) {
  let match = 0, differ = 0, unrecorded = 0, out = "";
  for (const [l, line] of lines(path)) {
    const stored = opt(JSON.parse(l).fingerprint);
    const e = explainLine(l);
    if (stored === undefined) unrecorded++;
    else if (stored === e.fingerprint) match++;
    else {
      differ++;
      out += json ? j({ file, line, name: e.name, recorded: stored, fingerprint: e.fingerprint, canonical: e.canonical }) + "\n"
        : `${file}:${line}  ${e.name}  recorded ${stored}  computed ${e.fingerprint}\n  canonical  ${e.canonical}\n`;
    }
  }
  out += json ? j({ summary: { match, differ, unrecorded, failed: 0 } }) + "\n"
    : `verify: ${match} match, ${differ} differ, ${unrecorded} without "fingerprint", 0 failed\n`;
  const nothing = match + differ === 0;
  return { stdout: out, stderr: nothing ? 'verify: nothing to verify (no line has a "fingerprint")\n' : "", exit: nothing || differ ? 1 : 0 };
}

const clip = (s) => (Array.from(s).length <= 100 ? s : Array.from(s).slice(0, 100).join("") + "\u2026");
const selName = (c) => (opt(c.matchOn) ? `matchOn ${j(c.matchOn)}` : opt(c.ignoreArgs) ? `ignoreArgs ${j(c.ignoreArgs)}` : "no selection");

/** why CALL --in FILE: the answer (stdout). */
export function whyOut(callPath, recPath, json = false, file = recPath) {
  const callText = readFileSync(callPath, "utf8");
  const rec = lines(recPath);
  const target = explainLine(callText);
  const best = nearestLine(callText, rec.map(([l]) => l));
  const seen = best !== null && best.diff.same;
  // Calls of the same tool read: the reading ends at an exact match.
  const candidates = rec.slice(0, seen ? best.index + 1 : rec.length)
    .filter(([l]) => { const e = explainLine(l); return e.name === target.name && e.kind === target.kind; }).length;
  if (json) {
    const nearest = best && { file, line: rec[best.index][1], explanation: explainLine(rec[best.index][0]), diff: best.diff };
    return j({ call: target, seen, candidates, nearest }) + "\n";
  }
  let out = `call       ${target.name}  ${target.fingerprint}\n           ${target.canonical}\n`;
  if (best === null) return out + `unseen     no recorded call of ${j(target.name)} (kind ${target.kind})\n`;
  const [l, line] = rec[best.index];
  if (seen) return out + `seen       ${file}:${line} has this fingerprint\n`;
  const e = explainLine(l);
  out += `unseen     no recorded call has this fingerprint (recorded calls of ${target.name}: ${candidates})\n` +
    `nearest    ${file}:${line}  ${e.fingerprint}\n           ${e.canonical}\n` +
    `changes    ${best.diff.changes.length} (before: the recording, after: this call)\n`;
  for (const c of best.diff.changes) {
    const what = c.kind === "changed" ? `${clip(c.before)} \u2192 ${clip(c.after)}` : clip(c.kind === "added" ? c.after : c.before);
    out += `  ${c.kind.padEnd(8)} ${c.path === "" ? "(args)" : c.path}: ${what}\n`;
  }
  const call = JSON.parse(callText), mine = selName(call), theirs = selName(JSON.parse(l));
  if (mine !== theirs) out += `note       selection differs: this call has ${mine}, the recording ${theirs}\n`;
  const noise = best.diff.changes.find((c) => looksLikeNoise(c.path));
  if (!opt(call.matchOn) && noise) {
    out += `hint       ${noise.path} looks like noise (an id, a timestamp, a cursor): if it is, leave it out with ignoreArgs or matchOn\n`;
  }
  return out;
}

/**
 * why's hint is for keys that change on every call without changing what it asks, known by
 * the name of the path's last key (after array indexes), ASCII case-insensitive, "_"/"-"
 * dropped: ids (id, uuid, guid, nonce, etag, camelCase …Id/…ID, …_id), timestamps (ts,
 * …timestamp, camelCase …At, …_at) and cursors (…cursor, …pagetoken, …nexttoken).
 */
export function looksLikeNoise(path) {
  let p = path;
  for (let m = /\[[0-9]+\]$/.exec(p); m; m = /\[[0-9]+\]$/.exec(p)) p = p.slice(0, m.index);
  let key;
  if (p.length >= 4 && p.endsWith('"]')) {
    const i = p.lastIndexOf('["', p.length - 4);
    if (i < 0) return false;
    key = p.slice(i + 2, -2); // as written in the path, escapes and all
  } else key = /[A-Za-z0-9_$]*$/.exec(p)[0];
  const bytes = Buffer.byteLength(key);
  if (bytes === 0 || bytes > 64) return false;
  if (/[a-z0-9](Id|ID)$/.test(key) || /[a-z]At$/.test(key) || /[_-](id|at)$/i.test(key) && key.length > 2) return true;
  const w = key.replace(/[_-]/g, "").replace(/[A-Z]/g, (c) => c.toLowerCase());
  return ["id", "uuid", "guid", "nonce", "etag", "ts"].includes(w) || /(timestamp|cursor|pagetoken|nexttoken)$/.test(w);
}

// --- replay and --tools: from the replay oracle (test/reference/replay.mjs) -------------------

/** A file's non-blank lines by the CLI rules, as [text, lineNumber]. */
const fileLines = (path) => lines(path);

/**
 * Every call of a line, [{call, text}], or {error: {message, code}} when the
 * line is bad as the oracle sees it (a declaration conflict carries its own
 * message; other bad lines take theirs from `messages`, written by hand).
 */
function callsOf(text, tools) {
  try {
    const m = callsOfMessage(text);
    if (m.error) return { error: { message: m.error, code: m.code } };
    for (const c of m.calls) explainWithTools(c, tools);
    return { calls: m.calls.map((t, call) => ({ call, text: t })) };
  } catch (e) {
    return { error: { message: e.message, code: e.code ?? "bad-call" } };
  }
}

const at = (file, line, call) => `${file}:${line}${call ? `#${call}` : ""}`;
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

/**
 * replay CALLS --in RECORDING [--tools]: { stdout, stderr, exit }. `messages`
 * maps "file:line" of a bad line (not a conflict) to [message, code], by hand.
 */
export function replayOut(callsPath, recPath, { json = false, callsFile = callsPath, recFile = recPath, tools, messages = {} } = {}) {
  let out = "", err = "", failed = 0, nLines = 0;
  const badLine = (file, line, e) => {
    failed++;
    const hand = messages[`${file}:${line}`];
    if (e.code !== "declaration-conflict" && !hand) throw new Error(`${file}:${line} is bad (${e.message}): write its message by hand`);
    const [message, code] = e.code === "declaration-conflict" ? [e.message, e.code] : hand;
    if (json) out += j({ file, line, error: message, code }) + "\n";
    else err += `${file}:${line}: ${message}\n`;
  };
  for (const [text, line] of fileLines(recPath)) {
    nLines++;
    const r = callsOf(text, tools);
    if (r.error) badLine(recFile, line, r.error);
  }
  const calls = [];
  const callLines = fileLines(callsPath);
  for (const [text, line] of callLines) {
    nLines++;
    const r = callsOf(text, tools);
    if (r.error) calls.push({ line, error: r.error });
    else for (const c of r.calls) calls.push({ line, ...c });
  }
  const good = calls.filter((c) => !c.error);
  const answer = replay(readFileSync(recPath), good.map((c) => c.text), tools);
  let k = 0, hits = 0, misses = 0;
  for (const c of calls) {
    if (c.error) { badLine(callsFile, c.line, c.error); continue; }
    const a = answer.answers[k++];
    if (a.hit) hits++; else misses++;
    if (json) {
      const rec = { line: c.line, call: c.call, name: a.name, fingerprint: a.fingerprint, hit: a.hit, recordedLine: a.recordedLine };
      out += j(a.hit ? rec : { ...rec, why: a.why, nearest: a.nearest, changes: a.changes }) + "\n";
    } else if (a.hit) {
      out += `${at(callsFile, c.line, c.call)}  ${a.name}  hit   ${at(recFile, a.recordedLine, a.recordedCall)}\n`;
    } else {
      out += `${at(callsFile, c.line, c.call)}  ${a.name}  miss  ${a.why}\n`;
      for (const ch of a.changes) {
        const what = ch.kind === "changed" ? `${clip(ch.before)} \u2192 ${clip(ch.after)}` : clip(ch.kind === "added" ? ch.after : ch.before);
        out += `  ${ch.kind.padEnd(8)} ${ch.path === "" ? "(args)" : ch.path}: ${what}\n`;
      }
    }
  }
  const unused = answer.unused;
  for (const u of unused.slice(0, 20)) {
    out += json ? j({ unused: { line: u.line, call: u.call, name: u.name, fingerprint: u.fingerprint } }) + "\n"
      : `unused  ${at(recFile, u.line, u.call)}  ${u.name}\n`;
  }
  if (!json && unused.length > 20) out += `unused  ... and ${unused.length - 20} more\n`;
  out += json ? j({ summary: { calls: hits + misses, hits, misses, unused: unused.length } }) + "\n"
    : `replay: ${plural(hits + misses, "call", "calls")}, ${plural(hits, "hit", "hits")}, ${plural(misses, "miss", "misses")}, ${unused.length} unused\n`;
  if (failed) err += `${failed} of ${nLines} lines failed\n`;
  return { stdout: out, stderr: err, exit: failed || misses ? 1 : 0 };
}

/** FILE with --tools: "<hex>  <name>" per call, declarations applied; a conflict is the line's error. */
export function fingerprintWithTools(path, tools, file = path, messages = {}) {
  let out = "", err = "", failed = 0, n = 0;
  for (const [text, line] of fileLines(path)) {
    n++;
    const r = callsOf(text, tools);
    if (r.error) {
      const hand = messages[`${file}:${line}`];
      if (r.error.code !== "declaration-conflict" && !hand) throw new Error(`${file}:${line}: write its message by hand`);
      failed++;
      err += `${file}:${line}: ${r.error.code === "declaration-conflict" ? r.error.message : hand}\n`;
      continue;
    }
    for (const c of r.calls) { const e = explainWithTools(c.text, tools); out += `${e.fingerprint}  ${e.name}\n`; }
  }
  if (failed) err += `${failed} of ${n} lines failed\n`;
  return { stdout: out, stderr: err, exit: failed ? 1 : 0 };
}
