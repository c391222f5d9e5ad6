/**
 * Replay diagnostics (issue 6): why did a call get the fingerprint it got, and
 * why does it differ from a recorded one? Public API, re-exported by api.ts.
 *
 * - `explain` / `explainJSON`: the selection (which top-level keys stayed),
 *   the canonical text, the preimage (D17) and the digest of one call.
 * - `diff`: the differences between two calls that change the fingerprint.
 * - `nearest`: the recorded call with the same kind and name and the fewest
 *   differences.
 *
 * The core is the single source of truth: every canonical text here is the
 * one the wasm core wrote, from the core call that also returns the digest
 * (flags DIGEST|TEXT|PREIMAGE; a second, text-only call for requests that
 * core.ts hashes on the host). Nothing is canonicalized on the host. The
 * diff walks the core's canonical texts and compares subtrees by their
 * canonical text, which is exactly the equality the fingerprint sees: a
 * trimmed space, a dropped null, key order or `1.0` vs `1` never show up.
 * The walks are iterative, so deep nesting (D19) cannot overflow the stack.
 * @module
 */
import { F_DIGEST, F_IGNORE, F_MATCH_ON, F_PREIMAGE, F_TEXT, call, callValue } from "./core.js";
import { selectValue } from "./select.js";
import { FingerprintError } from "./errors.js";
import type { FingerprintOptions } from "./api.js";

/** One tool call: args as a JavaScript value, or as JSON text (`argsJSON` wins when both are set). */
export interface Call {
  name: string;
  args?: unknown;
  argsJSON?: string | Uint8Array;
  options?: FingerprintOptions;
}

/** Which top-level keys of the args reached the canonical text. */
export interface Selection {
  /** Keys in the canonical text, in its (code point) order. */
  kept: string[];
  /** Keys that matchOn/ignoreArgs left out and that would otherwise be in the canonical text (code point order). */
  dropped: string[];
  /** matchOn keys that are not in the canonical text: absent from the args, or null (listing order, once each). */
  missing: string[];
}

/** Everything the fingerprint of one call is made of (D17). */
export interface Explanation {
  version: 1;
  kind: string;
  name: string;
  selected: Selection;
  /** The core's canonical JSON text of the selected args. */
  canonical: string;
  /** kind + "\n" + name + "\n" + canonical: the text whose UTF-8 bytes are hashed. */
  preimage: string;
  fingerprint: string;
}

export type ChangeKind = "added" | "removed" | "changed";

/**
 * One difference. `path` is readable (`items[3].when`, `["odd key"]`), ""
 * for the whole args, and `(kind)` / `(name)` for the preimage's other parts.
 * `before` / `after` are canonical JSON texts, null on the side that lacks the value.
 */
export interface Change {
  path: string;
  kind: ChangeKind;
  before: string | null;
  after: string | null;
}

export interface Diff {
  /** True when both calls have the same fingerprint (then `changes` is empty). */
  same: boolean;
  changes: Change[];
}

export interface NearestMatch {
  /** Position of the match in the recording (0-based). */
  index: number;
  /** The recorded call (or explanation) as it was passed in. */
  call: Call | Explanation;
  explanation: Explanation;
  /** diff(recorded, call): what the call changed. `before` is the recording's side, `after` the call's. */
  diff: Diff;
}

const DEFAULT_KIND = "tool_call";

/**
 * Explains the fingerprint of a call whose args are a JavaScript value.
 * @throws FingerprintError as fingerprint() does.
 * @example explain("search", { q: " cats ", page: 2 }, { ignoreArgs: ["page"] }).canonical // '{"q":"cats"}'
 */
export function explain(name: string, args: unknown, options?: FingerprintOptions): Explanation {
  return explainCall({ name, args, options });
}

/**
 * Explains the fingerprint of a call whose args are JSON text.
 * @throws FingerprintError as fingerprintJSON() does (with the byte `offset`).
 * @example explainJSON("search", '{"q":"cats","page":2}', { matchOn: ["q"] }).selected.dropped // ["page"]
 */
export function explainJSON(name: string, argsJSON: string | Uint8Array, options?: FingerprintOptions): Explanation {
  return explainCall({ name, argsJSON, options });
}

/**
 * The differences between two calls that change the fingerprint, computed on
 * the core's canonical texts. Each side is a call or an explanation from
 * explain() (cheaper when one call is compared with many).
 * @throws FingerprintError when a call cannot be fingerprinted.
 * @example diff({ name: "t", args: { p: "P0" } }, { name: "t", args: { p: "P1" } }).changes
 *   // [{ path: "p", kind: "changed", before: '"P0"', after: '"P1"' }]
 */
export function diff(a: Call | Explanation, b: Call | Explanation): Diff {
  const ea = toExplanation(a), eb = toExplanation(b);
  const changes: Change[] = [];
  if (ea.kind !== eb.kind) changes.push(changed("(kind)", JSON.stringify(ea.kind), JSON.stringify(eb.kind)));
  if (ea.name !== eb.name) changes.push(changed("(name)", JSON.stringify(ea.name), JSON.stringify(eb.name)));
  diffCanonical(ea.canonical, eb.canonical, changes);
  return { same: ea.fingerprint === eb.fingerprint, changes };
}

/**
 * Among the recorded calls with the same kind and name as `call`, the one
 * with the fewest changes (the first of equals), with its diff; null when no
 * recorded call has that kind and name. The recording is read once, in
 * order, and may be any iterable (a generator over a file streams).
 * @throws FingerprintError when the call or a recorded call cannot be fingerprinted.
 */
export function nearest(call: Call | Explanation, recording: Iterable<Call | Explanation>): NearestMatch | null {
  const target = toExplanation(call);
  let best: NearestMatch | null = null;
  let index = 0;
  for (const rec of recording) {
    const i = index++;
    if (rec === null || typeof rec !== "object") throw new FingerprintError("invalid-argument", "a recorded call must be an object");
    // Names first: calls of other tools are never fingerprinted.
    const kind = isExplanation(rec) ? rec.kind : rec.options?.kind ?? DEFAULT_KIND;
    if (rec.name !== target.name || kind !== target.kind) continue;
    const explanation = toExplanation(rec);
    const d = diff(explanation, target);
    if (best === null || d.changes.length < best.diff.changes.length) best = { index: i, call: rec, explanation, diff: d };
    if (d.same) break; // nothing beats an exact match
  }
  return best;
}

// --- explanations from the core --------------------------------------------

function isExplanation(x: unknown): x is Explanation {
  if (x === null || typeof x !== "object") return false;
  const e = x as Partial<Explanation>;
  return typeof e.canonical === "string" && typeof e.preimage === "string" && typeof e.fingerprint === "string";
}

function toExplanation(x: Call | Explanation): Explanation {
  return isExplanation(x) ? x : explainCall(x);
}

function explainCall(c: Call): Explanation {
  if (c === null || typeof c !== "object") throw new FingerprintError("invalid-argument", "a call must be an object {name, args | argsJSON, options?}");
  const { name, options } = c;
  if (typeof name !== "string") throw new FingerprintError("invalid-argument", `name must be a string, got ${typeof name}`);
  if (options !== undefined && (typeof options !== "object" || options === null)) {
    throw new FingerprintError("invalid-argument", "options must be an object");
  }
  const kind = options?.kind;
  if (kind !== undefined && typeof kind !== "string") throw new FingerprintError("invalid-argument", "kind must be a string");
  const matchOn = keyList(options?.matchOn, "matchOn") ?? null;
  const ignoreArgs = keyList(options?.ignoreArgs, "ignoreArgs") ?? null;
  const flags = (matchOn ? F_MATCH_ON : 0) | (ignoreArgs ? F_IGNORE : 0);
  const m = matchOn ? JSON.stringify(matchOn) : "";
  const g = ignoreArgs ? JSON.stringify(ignoreArgs) : "";
  const kindLit = kind === undefined ? "" : JSON.stringify(kind);

  let input: string | Uint8Array;
  const text = c.argsJSON !== undefined;
  if (text) {
    if (typeof c.argsJSON !== "string" && !(c.argsJSON instanceof Uint8Array)) {
      throw new FingerprintError("invalid-argument", "argsJSON must be a string or Uint8Array");
    }
    input = c.argsJSON;
  } else {
    // As fingerprint(): select on the value first, so left-out values are never read (D9).
    input = toJsonText(flags ? selectValue(c.args, matchOn, ignoreArgs) : c.args);
  }
  // One core call: the digest, and the preimage as text (D17). When core.ts
  // hashes a large request on the host (node:crypto) it returns no text; a
  // second, text-only call then gives the canonical text (no prefix).
  const nameLit = JSON.stringify(name);
  const out = call(flags | F_DIGEST | F_TEXT | F_PREIMAGE, kindLit, nameLit, m, g, input);
  const k = kind ?? DEFAULT_KIND;
  const canonical = out.text !== ""
    ? afterPrefix(out.text, `${k}\n${name}\n`)
    : call(flags | F_TEXT, kindLit, nameLit, m, g, input).text;
  const kept = topKeys(canonical) ?? [];
  const selected: Selection = { kept, dropped: [], missing: [] };
  if (flags && canonical.startsWith("{")) {
    selected.dropped = text || !isPlainObject(c.args)
      ? droppedFromText(text ? input : toJsonText(c.args), kept)
      : droppedFromValue(c.args as Record<string, unknown>, matchOn, ignoreArgs);
    if (matchOn) {
      const have = new Set(kept);
      selected.missing = [...new Set(matchOn)].filter((key) => !have.has(key));
    }
  }
  return { version: 1, kind: k, name, selected, canonical, preimage: `${k}\n${name}\n${canonical}`, fingerprint: out.digest };
}

function keyList(list: unknown, what: string): readonly string[] | null {
  if (list === undefined || list === null) return null;
  if (!Array.isArray(list) || !list.every((k) => typeof k === "string")) {
    throw new FingerprintError("invalid-argument", `${what} must be an array of strings`);
  }
  return list;
}

/**
 * The canonical text after the known "kind\nname\n" prefix of the preimage.
 * core.ts decodes with a default TextDecoder, which drops a leading U+FEFF:
 * a kind starting with U+FEFF (legal, D17) arrives without it.
 */
function afterPrefix(preimage: string, prefix: string): string {
  if (preimage.startsWith(prefix)) return preimage.slice(prefix.length);
  if (prefix.startsWith("\uFEFF") && preimage.startsWith(prefix.slice(1))) return preimage.slice(prefix.length - 1);
  throw new FingerprintError("bad-request", "the core returned a preimage without the expected kind and name (an SDK bug)");
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const p = Object.getPrototypeOf(v);
  return p === Object.prototype || p === null;
}

/** Keys of the unselected canonical text (core) that the selected one lacks. */
function droppedFromText(input: string | Uint8Array, kept: string[]): string[] {
  const all = topKeys(call(F_TEXT, "", "", "", "", input).text) ?? [];
  const have = new Set(kept);
  return all.filter((k) => !have.has(k));
}

/**
 * Keys selection left out of a plain object, minus those whose value the
 * core would drop anyway (null, undefined, NaN…: canonical text "null").
 * A value that cannot be fingerprinted at all still counts as dropped: the
 * selection is what kept it out (D9). Ordered by the core, which sorts keys.
 */
function droppedFromValue(args: Record<string, unknown>, matchOn: readonly string[] | null,
  ignoreArgs: readonly string[] | null): string[] {
  const listed = new Set(matchOn ?? ignoreArgs ?? []);
  const out: Record<string, number> = {};
  for (const k of Object.keys(args)) {
    if (listed.has(k) === (matchOn !== null)) continue; // selected
    let text: string;
    try {
      text = call(F_TEXT, "", "", "", "", toJsonText(args[k])).text;
    } catch (err) {
      if (!(err instanceof FingerprintError)) throw err;
      text = "";
    }
    if (text !== "null") Object.defineProperty(out, k, { value: 0, enumerable: true });
  }
  return topKeys(call(F_TEXT, "", "", "", "", JSON.stringify(out)).text) ?? [];
}

// --- the canonical text as a tree ------------------------------------------

/** A value in a canonical text: its span [start, end) and, for containers, its children. */
interface Node {
  start: number;
  end: number;
  type: "{" | "[" | "v";
  keys: string[]; // decoded member names ("{" only)
  raws: string[]; // the same names as canonical string literals
  children: Node[];
}

const newNode = (type: Node["type"], start: number): Node => ({ start, end: -1, type, keys: [], raws: [], children: [] });

/** End (exclusive) of the string literal starting at i. */
function stringEnd(t: string, i: number): number {
  for (i++; ; i++) {
    const c = t.charCodeAt(i);
    if (c === 0x5c) i++;
    else if (c === 0x22) return i + 1;
    else if (Number.isNaN(c)) throw malformed();
  }
}

function malformed(): FingerprintError {
  return new FingerprintError("bad-request", "unexpected canonical text from the core (an SDK bug)");
}

/**
 * Parses canonical text (the core's output: valid JSON, no whitespace)
 * without recursion. Only spans and member names are kept; values stay text.
 */
function parseCanonical(t: string): Node {
  const stack: Node[] = [];
  let root: Node | undefined;
  let key = "", raw = "";
  let i = 0;
  for (;;) {
    // A value starts at i.
    const c = t[i];
    let node: Node;
    if (c === "{" || c === "[") {
      node = newNode(c, i++);
    } else {
      node = newNode("v", i);
      if (c === '"') i = stringEnd(t, i);
      else while (i < t.length && t[i] !== "," && t[i] !== "]" && t[i] !== "}") i++;
      node.end = i;
      if (i === node.start) throw malformed();
    }
    const parent = stack[stack.length - 1];
    if (!parent) root = node;
    else {
      parent.children.push(node);
      if (parent.type === "{") { parent.keys.push(key); parent.raws.push(raw); }
    }
    if (node.type !== "v") stack.push(node);
    // Close what ends here, then move to the next value (after its key).
    for (;;) {
      const top = stack[stack.length - 1];
      if (!top) {
        if (i !== t.length) throw malformed();
        return root!;
      }
      const d = t[i];
      if (d === "}" || d === "]") {
        top.end = ++i;
        stack.pop();
        continue;
      }
      if (d === ",") i++;
      else if (top.children.length > 0) throw malformed();
      if (top.type === "{") {
        const e = stringEnd(t, i);
        raw = t.slice(i, e);
        key = JSON.parse(raw) as string;
        if (t[e] !== ":") throw malformed();
        i = e + 1;
      }
      break;
    }
  }
}

/** Member names of a canonical object text, in order; null when it is not an object. */
function topKeys(canonical: string): string[] | null {
  if (!canonical.startsWith("{")) return null;
  return parseCanonical(canonical).keys;
}

// --- the diff --------------------------------------------------------------

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function changed(path: string, before: string, after: string): Change {
  return { path, kind: "changed", before, after };
}

/** Code point order (D5), the order of the core's keys; JavaScript's `<` compares UTF-16 units. */
function compareCodePoints(a: string, b: string): number {
  let i = 0, j = 0;
  while (i < a.length && j < b.length) {
    const x = a.codePointAt(i)!, y = b.codePointAt(j)!;
    if (x !== y) return x < y ? -1 : 1;
    i += x > 0xffff ? 2 : 1;
    j += y > 0xffff ? 2 : 1;
  }
  return (i < a.length ? 1 : 0) - (j < b.length ? 1 : 0);
}

interface Task { path: string; a: Node | null; b: Node | null }

/**
 * Appends the changes from canonical text ta to tb, depth first in canonical
 * order. Objects are compared by member name, arrays index by index (order
 * is meaning for tool arguments, so an insertion is reported as what it
 * does to each index), everything else by its canonical text.
 */
function diffCanonical(ta: string, tb: string, out: Change[]): void {
  if (ta === tb) return;
  const todo: Task[] = [{ path: "", a: parseCanonical(ta), b: parseCanonical(tb) }];
  const span = (t: string, n: Node) => t.slice(n.start, n.end);
  while (todo.length) {
    const { path, a, b } = todo.pop()!;
    if (!a) { out.push({ path, kind: "added", before: null, after: span(tb, b!) }); continue; }
    if (!b) { out.push({ path, kind: "removed", before: span(ta, a), after: null }); continue; }
    const sa = span(ta, a), sb = span(tb, b);
    if (sa === sb) continue;
    const next: Task[] = [];
    if (a.type === "{" && b.type === "{") {
      let i = 0, j = 0;
      while (i < a.keys.length || j < b.keys.length) {
        const c = i >= a.keys.length ? 1 : j >= b.keys.length ? -1 : compareCodePoints(a.keys[i], b.keys[j]);
        const key = c <= 0 ? a.keys[i] : b.keys[j];
        const raw = c <= 0 ? a.raws[i] : b.raws[j];
        const sub = IDENT.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${raw}]`;
        next.push({ path: sub, a: c <= 0 ? a.children[i++] : null, b: c >= 0 ? b.children[j++] : null });
      }
    } else if (a.type === "[" && b.type === "[") {
      const n = Math.max(a.children.length, b.children.length);
      for (let k = 0; k < n; k++) next.push({ path: `${path}[${k}]`, a: a.children[k] ?? null, b: b.children[k] ?? null });
    } else {
      out.push(changed(path, sa, sb));
      continue;
    }
    for (let k = next.length - 1; k >= 0; k--) todo.push(next[k]);
  }
}

/**
 * JSON text standing for a host value: its canonical text, which the core
 * reads back to the same canonical text (canonicalization is idempotent).
 */
function toJsonText(value: unknown): string {
  return callValue(F_TEXT, "", "", "", "", value).text;
}
