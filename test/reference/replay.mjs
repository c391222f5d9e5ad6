// The independent oracle for replay and tool declarations (// test-only): the rules written straight from their definitions on top of the
// shape and diagnostics oracles (shapes.mjs, diagnostics.mjs) and V8's
// JSON.parse / TextDecoder — never the wasm core (its version:
// assembly/ops/replay.ts, assembly/pipeline/tools.ts). scripts/gen-replay-vectors.mjs uses
// it to write vectors/replay.vectors.json.
//
// Definitions:
//   declarations  {"<tool>": {"matchOn"?, "ignoreArgs"?}} apply by name; a call
//                 with its own lists must carry exactly the declared ones (same
//                 strings, same order, null = absent), else a conflict naming both.
//   lines         split on "\n", a trailing "\r" dropped, a BOM skipped on line 1,
//                 blank lines (space, tab, CR) skipped, strict UTF-8; a line holds
//                 one call or a message of several (all read, or the line is bad).
//   answer        the next unanswered recording of the fingerprint, in recorded
//                 order; else "recorded N times, asked M" (M counts every ask of
//                 it) with the last recording as nearest and no changes; else the
//                 recorded call of the same name and kind with the fewest changes
//                 (first of equals); else no nearest.
//   unused        recorded calls never answered, in recorded order.
import { diffExplained, explainLine } from "./diagnostics.mjs";
import { asRecordingLine, callsOfMessage } from "./shapes.mjs";

const opt = (v) => (v === null || v === undefined ? undefined : v);
const list = (l) => `[${l.map((s) => JSON.stringify(s)).join(",")}]`;

function describe(m, i) {
  if (m === undefined && i === undefined) return "no matchOn or ignoreArgs";
  const parts = [];
  if (m !== undefined) parts.push(`matchOn ${list(m)}`);
  if (i !== undefined) parts.push(`ignoreArgs ${list(i)}`);
  return parts.join(" and ");
}

/** The recording line with its tool's declaration applied, and whether one applied; throws {code, message} on a conflict. */
export function applyTools(line, tools) {
  if (!tools || !Object.hasOwn(tools, line.name)) return { line, declared: false };
  const d = tools[line.name];
  const dm = opt(d.matchOn), di = opt(d.ignoreArgs);
  const m = opt(line.matchOn), i = opt(line.ignoreArgs);
  if ((m !== undefined || i !== undefined) && JSON.stringify([m, i]) !== JSON.stringify([dm, di])) {
    throw { code: "declaration-conflict",
      message: `the call of ${JSON.stringify(line.name)} has ${describe(m, i)} but its tool's declaration has ${describe(dm, di)}` };
  }
  const out = { ...line };
  delete out.matchOn; delete out.ignoreArgs;
  if (dm !== undefined) out.matchOn = dm;
  if (di !== undefined) out.ignoreArgs = di;
  return { line: out, declared: true };
}

/** explain() of one call text in any shape with declarations, by definition; throws {code, message}. */
export function explainWithTools(text, tools) {
  const r = asRecordingLine(text);
  if (r.error) throw { code: r.code, message: r.error };
  const { line, declared } = applyTools(r.line, tools);
  const e = explainLine(JSON.stringify(line));
  return declared ? { ...e, declared: "tools" } : e;
}

/** The recording's lines by the CLI rules: [{line, text}] for readable ones, [line] for bad ones. */
function linesOf(bytes) {
  const out = [], bad = [];
  const pieces = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a) { pieces.push(bytes.subarray(start, i)); start = i + 1; }
  if (start < bytes.length) pieces.push(bytes.subarray(start));
  pieces.forEach((p, k) => {
    const line = k + 1;
    let b = p;
    if (b.length && b[b.length - 1] === 0x0d) b = b.subarray(0, b.length - 1);
    if (line === 1 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) b = b.subarray(3);
    if (b.every((c) => c === 0x20 || c === 0x09 || c === 0x0d)) return;
    let text;
    try { text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(b); } catch { bad.push(line); return; }
    out.push({ line, text });
  });
  return { lines: out, bad, count: pieces.length };
}

/**
 * Replays calls (JSON texts, any shape) against a recording (bytes) with
 * declarations, by definition: { lines, calls, bad, answers, unused }.
 */
export function replay(recording, calls, tools) {
  const { lines, bad, count } = linesOf(recording);
  const entries = [];
  for (const { line, text } of lines) {
    try {
      const m = callsOfMessage(text);
      if (m.error) throw m;
      const got = m.calls.map((c, call) => {
        const e = explainWithTools(c, tools);
        return { line, call, e, used: false };
      });
      entries.push(...got);
    } catch {
      bad.push(line);
    }
  }
  bad.sort((a, b) => a - b);
  const asked = new Map();
  const answers = calls.map((text) => {
    const e = explainWithTools(text, tools);
    const base = { name: e.name, kind: e.kind, fingerprint: e.fingerprint };
    asked.set(e.fingerprint, (asked.get(e.fingerprint) ?? 0) + 1);
    const same = entries.filter((x) => x.e.fingerprint === e.fingerprint);
    const next = same.find((x) => !x.used);
    if (next) {
      next.used = true;
      return { ...base, hit: true, recordedLine: next.line, recordedCall: next.call };
    }
    if (same.length) {
      const n = same.length, a = asked.get(e.fingerprint), last = same[n - 1];
      return { ...base, hit: false, recordedLine: null, why: `recorded ${n} ${n === 1 ? "time" : "times"}, asked ${a}`,
        recorded: n, asked: a, nearest: { line: last.line, call: last.call }, changes: [] };
    }
    let best = null;
    for (const x of entries) {
      if (x.e.name !== e.name || x.e.kind !== e.kind) continue;
      const changes = diffExplained(x.e, e).changes;
      if (best === null || changes.length < best.changes.length) best = { x, changes };
    }
    if (best === null) {
      return { ...base, hit: false, recordedLine: null, why: "no recorded call of this tool and kind", recorded: 0, asked: 0,
        nearest: null, changes: [] };
    }
    const c = best.changes.length;
    return { ...base, hit: false, recordedLine: null,
      why: `no recorded call has this fingerprint; the nearest recorded call of this tool is line ${best.x.line} (${c} ${c === 1 ? "change" : "changes"})`,
      recorded: 0, asked: 0, nearest: { line: best.x.line, call: best.x.call }, changes: best.changes };
  });
  const unused = entries.filter((x) => !x.used)
    .map((x) => ({ line: x.line, call: x.call, name: x.e.name, fingerprint: x.e.fingerprint }));
  return { lines: count, calls: entries.length, bad, answers, unused };
}

/** The error a declarations object must give ({code, message}), or null when it is fine. */
export function toolsError(tools) {
  const shape = 'tool declarations must be a JSON object {"<tool name>": {"matchOn"?, "ignoreArgs"?}}';
  if (typeof tools !== "object" || tools === null || Array.isArray(tools)) return { code: "bad-tools", message: shape };
  for (const [name, d] of Object.entries(tools)) {
    const q = JSON.stringify(name);
    if (typeof d !== "object" || d === null || Array.isArray(d)) {
      return { code: "bad-tools", message: `the declaration of ${q} must be an object {"matchOn"?, "ignoreArgs"?}` };
    }
    for (const [k, v] of Object.entries(d)) {
      const where = `${JSON.stringify(k)} in the declaration of ${q}`;
      if (k !== "matchOn" && k !== "ignoreArgs") {
        const norm = k.replace(/[_-]/g, "").toLowerCase();
        const near = ["matchOn", "ignoreArgs"].find((r) => r.toLowerCase() === norm);
        return { code: "bad-tools", message: near ? `${where} should be "${near}"` : `${where} is not a declaration key (matchOn, ignoreArgs)` };
      }
      if (v !== null && !(Array.isArray(v) && v.every((s) => typeof s === "string"))) {
        return { code: "bad-tools", message: `${where} must be an array of strings` };
      }
    }
  }
  return null;
}
