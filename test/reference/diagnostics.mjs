// The independent oracle for the replay diagnostics (test-only): explain,
// diff and nearest written straight from their definitions on top of the
// contract oracle (contract.mjs) and V8's JSON.parse / JSON.stringify —
// never the wasm core. scripts/gen-diagnostics-vectors.mjs uses it to write
// vectors/diagnostics.vectors.json, which both SDKs' thin runners read.
//
// Definitions (docs/api-typescript.md; the core's versions: assembly/pipeline/call.ts,
// assembly/pipeline/explain.ts, assembly/ops/diff.ts):
//   call      a recording line: {"name", "args" | "argsJSON", "kind"?,
//             "matchOn"?, "ignoreArgs"?}; null members count as absent;
//             argsJSON wins over args; no args is null (D2).
//   selected  kept: the canonical text's top-level keys; dropped: keys that
//             selection left out and whose value is not dropped anyway (D1);
//             missing: matchOn keys not kept, listing order, once each. Only
//             for an object top level, and dropped/missing only with a selection.
//   diff      (kind)/(name) first, then depth first in canonical order:
//             objects by key (code point order), arrays index by index, other
//             differences "changed" with both canonical texts.
//   nearest   same name and kind, fewest changes, first of equals.
import {
  DEFAULT_KIND, OracleError, canonicalValue, compareCodePoints, fingerprintOf, fingerprintOfText, parseJSONText,
} from "./contract.mjs";
import { ACCEPTED, ARRAY_NOT_ONE_CALL, NOT_ONE_CALL, isMessageObject, nearShape } from "./shapes.mjs";

const RESERVED = ["name", "args", "argsJSON", "kind", "matchOn", "ignoreArgs", "fingerprint", "options"];
const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
const opt = (v) => (v === null ? undefined : v);

/** The error a recording line must give: { code, message }, or null when it is a fine call. */
export function callError(text) {
  const c = parseJSONText(text);
  if (Array.isArray(c)) return { code: "bad-call", message: ARRAY_NOT_ONE_CALL };
  if (!isObject(c)) return { code: "bad-call", message: "a call must be a JSON object" };
  for (const k of Object.keys(c)) {
    if (RESERVED.includes(k) && k !== "options") continue;
    const norm = k.replace(/[_-]/g, "").toLowerCase();
    const near = RESERVED.find((r) => r.toLowerCase() === norm);
    if (near === "options") {
      return { code: "bad-call", message: `"${k}" is not a call key: put kind, matchOn and ignoreArgs at the top level of the call` };
    }
    if (near) return { code: "bad-call", message: `"${k}" should be "${near}" (call keys are camelCase)` };
  }
  // A message (or a user message with a "name") is not one call: without args it would be one with args null (D22).
  const noArgs = opt(c.args) === undefined && opt(c.argsJSON) === undefined;
  if ((opt(c.name) === undefined || noArgs) && isMessageObject(c)) return { code: "bad-call", message: NOT_ONE_CALL };
  if (c.name === undefined || c.name === null) return { code: "bad-call", message: `missing "name"; ${nearShape(c)}${ACCEPTED}` };
  if (typeof c.name !== "string") return { code: "bad-call", message: '"name" must be a string' };
  // A provider's args key on a line without args/argsJSON: an error, never args null.
  const argsLike = Object.keys(c).find((k) => ["arguments", "input", "parameters", "input_schema", "inputSchema"].includes(k) && c[k] !== null);
  if (argsLike && (c.args === undefined || c.args === null) && (c.argsJSON === undefined || c.argsJSON === null)) {
    return {
      code: "bad-call",
      message: `"${argsLike}" is not read as args: a recording line has "args" (a value) or "argsJSON" (JSON text); ` +
        `a provider's tool call goes in whole; ${ACCEPTED}`,
    };
  }
  return null;
}

/** explain() of a recording line, by definition. */
export function explainLine(text) {
  const c = parseJSONText(text);
  const kind = opt(c.kind) ?? DEFAULT_KIND;
  const { name } = c;
  const matchOn = opt(c.matchOn), ignoreArgs = opt(c.ignoreArgs);
  const argsJSON = opt(c.argsJSON);
  const d = argsJSON !== undefined
    ? fingerprintOfText({ kind, name, argsJSON, matchOn, ignoreArgs })
    : fingerprintOf({ kind, name, args: c.args === undefined ? null : c.args, matchOn, ignoreArgs });
  const args = argsJSON !== undefined ? parseJSONText(argsJSON) : c.args;
  const top = JSON.parse(d.canonical);
  const kept = isObject(top) ? Object.keys(top).sort(compareCodePoints) : [];
  let dropped = [], missing = [];
  if ((matchOn || ignoreArgs) && isObject(args)) {
    const selected = (k) => (matchOn ? matchOn.includes(k) : !ignoreArgs.includes(k));
    dropped = Object.keys(args).filter((k) => !selected(k) && canonicalValue(args[k]) !== "null").sort(compareCodePoints);
    if (matchOn) missing = [...new Set(matchOn)].filter((k) => !kept.includes(k));
  }
  return {
    version: 1, kind, name, selected: { kept, dropped, missing }, canonical: d.canonical,
    preimage: `${kind}\n${name}\n${d.canonical}`, fingerprint: d.fingerprint,
  };
}

function pathOf(path, key) {
  if (IDENT.test(key)) return path ? `${path}.${key}` : key;
  return `${path}[${JSON.stringify(key)}]`;
}

function diffValues(a, b, path, out) {
  const ta = canonicalValue(a), tb = canonicalValue(b);
  if (ta === tb) return;
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort(compareCodePoints);
    for (const k of keys) {
      const sub = pathOf(path, k);
      if (!Object.hasOwn(b, k)) out.push({ path: sub, kind: "removed", before: canonicalValue(a[k]), after: null });
      else if (!Object.hasOwn(a, k)) out.push({ path: sub, kind: "added", before: null, after: canonicalValue(b[k]) });
      else diffValues(a[k], b[k], sub, out);
    }
  } else if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const sub = `${path}[${i}]`;
      if (i >= b.length) out.push({ path: sub, kind: "removed", before: canonicalValue(a[i]), after: null });
      else if (i >= a.length) out.push({ path: sub, kind: "added", before: null, after: canonicalValue(b[i]) });
      else diffValues(a[i], b[i], sub, out);
    }
  } else {
    out.push({ path, kind: "changed", before: ta, after: tb });
  }
}

/** diff() of two explanations, by definition. */
export function diffExplained(ea, eb) {
  const changes = [];
  if (ea.kind !== eb.kind) changes.push({ path: "(kind)", kind: "changed", before: JSON.stringify(ea.kind), after: JSON.stringify(eb.kind) });
  if (ea.name !== eb.name) changes.push({ path: "(name)", kind: "changed", before: JSON.stringify(ea.name), after: JSON.stringify(eb.name) });
  diffValues(JSON.parse(ea.canonical), JSON.parse(eb.canonical), "", changes);
  return { same: ea.fingerprint === eb.fingerprint, changes };
}

/** nearest() of a line among recording lines, by definition: { index, diff } or null. */
export function nearestLine(line, recording) {
  const target = explainLine(line);
  let best = null;
  for (let i = 0; i < recording.length; i++) {
    const e = explainLine(recording[i]);
    if (e.name !== target.name || e.kind !== target.kind) continue;
    const d = diffExplained(e, target);
    if (best === null || d.changes.length < best.diff.changes.length) best = { index: i, diff: d };
    if (d.same) break;
  }
  return best;
}

export { OracleError };
