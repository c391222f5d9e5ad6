/**
 * Replay diagnostics: why did a call get the fingerprint it got, and
 * why does it differ from a recorded one? Public API, re-exported by api.ts.
 *
 * - `explain` / `explainJSON` / `explainCall`: the selection (which
 *   top-level keys stayed), the canonical text, the preimage (D17) and the
 *   digest of one call.
 * - `diff`: the differences between two calls that change the fingerprint.
 * - `nearest`: the recorded call with the same kind and name and the fewest
 *   differences.
 *
 * The core is the single source of truth: it reads the call (assembly/pipeline/call.ts)
 * and writes the explanation record with the digest (assembly/pipeline/explain.ts),
 * in the engine module (src/_engine.ts). Nothing is
 * canonicalized or selected on the host. The diff compares the core's
 * canonical texts in the core (assembly/ops/diff.ts, linear at any depth), which
 * is exactly the equality the fingerprint sees: a trimmed space, a dropped
 * null, key order or `1.0` vs `1` never show up.
 * @module
 */
import { type Side, callKeepMask, diffSides, explainIn, nearSearch } from "./_engine.js";
import { applyMask, keysObject, selectableKeys } from "./select.js";
import { F_TEXT, NEAR_EXACT, NEAR_SEND_CALL, W_CALL, W_MESSAGE, W_RECORDED, W_TEXT } from "./_abi.gen.js";
import { callText } from "./core.js";
import { hostError, typeWord } from "./errors.js";
import type { FingerprintOptions } from "./api.js";
import { optionParts } from "./_options.js";
import { toolsText, type CallOptions } from "./tools.js";
import { type CoreLimits, NONE } from "./_limits.js";

/**
 * One tool call, the object a recording line holds (the one call model of
 * both SDKs and CLIs, read by the core: assembly/pipeline/call.ts). `argsJSON` wins
 * over `args`; other members are carried along. A near miss of a key
 * (`args_json`, `match_on`, `options`…) is an error naming the right key.
 */
export interface Call {
  name: string;
  args?: unknown;
  argsJSON?: string | Uint8Array;
  kind?: string;
  matchOn?: readonly string[] | null;
  ignoreArgs?: readonly string[] | null;
  fingerprint?: string;
  [member: string]: unknown;
}

/**
 * A tool call, a message or a response in one of the shapes agents emit
 * (OpenAI Chat Completions or Responses, Anthropic, Bedrock, Gemini, MCP,
 * Vercel AI SDK, LangChain), or an array of them (D22), read by the core
 * (assembly/pipeline/shapes.ts). Any object: the SDKs' own types (`ToolUseBlock`,
 * `ChatCompletionMessageToolCall`, `TypedToolCall`…) have no index signature,
 * so a `Record<string, unknown>` would refuse them at compile time; the
 * core decides what the object is, and refuses what it is not.
 */
export type ProviderCall = object;

// The records explain, diff and nearest return: declared once for every host (interface/records.json).
export type { Change, ChangeKind, Diff, Explanation, NearestMatch, Selection } from "./_records.gen.js";
import type { Diff, Explanation, NearestMatch } from "./_records.gen.js";

/**
 * Explains the fingerprint of a call whose args are a JavaScript value.
 * @throws FingerprintError as fingerprint() does.
 * @example explain("search", { q: " cats ", page: 2 }, { ignoreArgs: ["page"] }).canonical // '{"q":"cats"}'
 */
export function explain(name: string, args: unknown, options?: FingerprintOptions): Explanation {
  const o = optionParts(options);
  return explained({ kind: o.rawKind, matchOn: o.matchOn, ignoreArgs: o.ignoreArgs, name, args }, undefined, o.limits);
}

/**
 * Explains the fingerprint of a call whose args are JSON text.
 * @throws FingerprintError as fingerprintJSON() does (with the byte `offset`).
 * @example explainJSON("search", '{"q":"cats","page":2}', { matchOn: ["q"] }).selected.dropped // ["page"]
 */
export function explainJSON(name: string, argsJSON: string | Uint8Array, options?: FingerprintOptions): Explanation {
  if (typeof argsJSON !== "string" && !(argsJSON instanceof Uint8Array)) throw hostError(W_TEXT, [typeWord(argsJSON)]);
  const o = optionParts(options);
  return explained({ kind: o.rawKind, matchOn: o.matchOn, ignoreArgs: o.ignoreArgs, name, argsJSON }, undefined, o.limits);
}

/**
 * Explains one call: a call object, or a recording line's JSON text (read
 * by the core, never by JSON.parse here). `options.tools`: tool declarations
 * applied by the call's name (a conflicting call is an error); the
 * explanation's `declared` is "tools" when one applied.
 * @throws FingerprintError for a call the core cannot read or fingerprint.
 * @example explainCall('{"name":"t","args":{"p":"P0"}}').canonical // '{"p":"P0"}'
 */
export function explainCall(call: Call | ProviderCall | string | Uint8Array, options?: CallOptions): Explanation {
  return explained(call, toolsText(options));
}

/**
 * The fingerprint of one call (any shape the core reads, or its JSON text),
 * with the tool declarations of `options.tools` applied.
 * @throws FingerprintError as explainCall does.
 * @example fingerprintCall({ name: "search", args: { q: "x", requestId: 7 } },
 *   { tools: { search: { ignoreArgs: ["requestId"] } } }) === fingerprint("search", { q: "x" })
 */
export function fingerprintCall(call: Call | ProviderCall | string | Uint8Array, options?: CallOptions): string {
  return explained(call, toolsText(options)).fingerprint;
}

/**
 * Explains every call of a message that holds several, in order: a Chat
 * Completions, Anthropic, Vercel AI SDK, Bedrock or Gemini message, or a
 * Chat Completions, Responses, Bedrock Converse or Gemini response (the
 * containers: README, "Tool calls as agents emit them"). A single call
 * gives one explanation, a message without calls none. Read by the core
 * (assembly/pipeline/shapes.ts).
 * @throws FingerprintError for a call the core cannot read or fingerprint.
 * @example explainCalls({ role: "assistant", content: [{ type: "text", text: "…" },
 *   { type: "tool_use", id: "t", name: "search", input: { q: "x" } }] }).length // 1
 */
export function explainCalls(message: ProviderCall | string | Uint8Array, options?: CallOptions): Explanation[] {
  if (message === null || (typeof message !== "object" && typeof message !== "string")) {
    throw hostError(W_MESSAGE, [typeWord(message)]);
  }
  return explainIn(message, true, toolsText(options));
}

/** The core's Explanation of a call (src/_engine.ts): its JSON text as it is, an object as sent() makes it. */
function explained(call: Call | ProviderCall | string | Uint8Array, tools?: Uint8Array, own: CoreLimits = NONE): Explanation {
  return explainIn(sent(call, tools, own), false, tools, own)[0];
}

/**
 * A call (or, for diff and nearest, an Explanation) as the core is sent it: its JSON text as it is; an
 * object with argsJSON bytes as text, and args only as far as selection reads them.
 */
function sent(x: unknown, tools?: Uint8Array, own: CoreLimits = NONE): Side {
  if (typeof x === "string" || x instanceof Uint8Array) return x;
  if (x === null || typeof x !== "object") throw hostError(W_CALL, [typeWord(x)]);
  const c = x as Call;
  // argsJSON bytes are read by the core as bytes (a BOM, surrogates as three-byte sequences, the
  // first error and its offset: D12, D14); their canonical text stands in for them (the same args, D13).
  if (c.argsJSON instanceof Uint8Array) return { ...c, argsJSON: callText(F_TEXT, "", "", "", "", c.argsJSON, own) };
  return c.argsJSON === undefined || c.argsJSON === null ? selectedCall(c, tools, own) : c;
}

/**
 * The call with only what its selection keeps read from its args (D9),
 * decided by the core (src/select.ts): a kept member goes in whole, a
 * member left out as what says whether it holds a value (`selected.dropped`
 * names only those) without walking it, so its getters, toJSON and a value
 * D15 rejects are never reached. Args that are not a plain object are not
 * selected from (D10), as fingerprint() does, not even as their JSON form.
 */
function selectedCall(c: Call, tools: Uint8Array | undefined, own: CoreLimits): Call {
  const lists = (c.matchOn !== undefined && c.matchOn !== null) || (c.ignoreArgs !== undefined && c.ignoreArgs !== null);
  if (!lists && !tools) return c;
  const keys = selectableKeys(c.args);
  if (keys === null) {
    if (!lists || !Array.isArray(c.matchOn ?? c.ignoreArgs) || typeof c.args !== "object" || c.args === null) return c;
    const { matchOn: _m, ignoreArgs: _g, ...rest } = c;
    return rest as Call;
  }
  const mask = callKeepMask({ ...c, args: keysObject(keys) }, tools, own);
  if (mask === "") return c;
  // A member left out, unread below its top: null-like values as they are, a Date by its time value, else a plain `true`.
  const standIn = (v: unknown) => (typeof v !== "object" || v === null || v instanceof Date ? v : true);
  return { ...c, args: applyMask(c.args as Record<string, unknown>, keys, mask, standIn) };
}

/**
 * The differences between two calls that change the fingerprint, computed on
 * the core's canonical texts (assembly/ops/compare.ts). Each side is a call or
 * an explanation from explain() (cheaper when one call is compared with many).
 * @throws FingerprintError when a call cannot be fingerprinted.
 * @example diff({ name: "t", args: { p: "P0" } }, { name: "t", args: { p: "P1" } }).changes
 *   // [{ path: "p", kind: "changed", before: '"P0"', after: '"P1"' }]
 */
export function diff(a: Call | Explanation | ProviderCall, b: Call | Explanation | ProviderCall): Diff {
  return JSON.parse(diffSides(sent(a), sent(b))) as Diff;
}

/**
 * Among the recorded calls with the same kind and name as `call`, the one
 * with the fewest changes (the first of equals), with its diff; null when no
 * recorded call has that kind and name. The recording is read once, in
 * order, and may be any iterable (a generator over a file streams); it stops
 * at an exact match. The core decides (assembly/ops/compare.ts); this hands
 * it each recorded call and keeps the one it names.
 * @throws FingerprintError when the call or a recorded call cannot be fingerprinted.
 */
export function nearest<T extends object = Call | Explanation | ProviderCall>(call: Call | Explanation | ProviderCall,
  recording: Iterable<T>): NearestMatch<T> | null {
  return nearSearch(sent(call), (step) => {
    let best: NearestMatch<T> | null = null;
    for (const rec of recording) {
      if (rec === null || typeof rec !== "object") throw hostError(W_RECORDED, [typeWord(rec)]);
      // Its name first, when it shows one: the core skips another tool's call unread.
      const name = (rec as { name?: unknown }).name;
      let [s, match] = typeof name === "string" ? step(name, true) : [NEAR_SEND_CALL, ""];
      if (s === NEAR_SEND_CALL) [s, match] = step(sent(rec), false);
      if (match !== "") {
        const m = JSON.parse(match) as { index: number; explanation: Explanation | null; diff: Diff };
        // A null explanation: the recorded item is an Explanation, its own.
        best = { index: m.index, call: rec, explanation: m.explanation ?? rec as unknown as Explanation, diff: m.diff };
      }
      if (s === NEAR_EXACT) break;
    }
    return best;
  });
}
