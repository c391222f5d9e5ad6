// Writes vectors/replay.vectors.json: recordings and live calls with the
// answers replay must give (hits, repeats, exhausted repeats, misses with the
// nearest call and its changes, unused calls, bad lines, every call shape,
// messages, tool declarations and their conflicts), and declarations that
// must be refused. Expected values from the independent oracle
// test/reference/replay.mjs, never the core. Read by test/replay-vectors.test.ts
// and python/tests/test_replay_vectors.py.
//   node scripts/gen-replay-vectors.mjs           write
//   node scripts/gen-replay-vectors.mjs --check   exit 1 when the file is stale
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { replay, toolsError } from "../test/reference/replay.mjs";
import { buildCallShapesVectors } from "./gen-call-shapes-vectors.mjs";
import { callsOfMessage } from "../test/reference/shapes.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const REPLAY_VECTORS_PATH = resolve(ROOT, "vectors/replay.vectors.json");

const j = (x) => JSON.stringify(x);
const line = (name, args, extra = {}) => j({ name, args, ...extra });
const S = "search_docs", T = "create_ticket";

// Every shape's call (the call-shapes vectors' good single calls), recorded
// once each; asked again in the same shapes: the same args give the same
// fingerprint, so the answers follow recorded order.
const shapeCalls = buildCallShapesVectors().cases.filter((c) => c.op === "explain").map((c) => c.call);
const messageCalls = buildCallShapesVectors().cases.filter((c) => c.op === "calls" && c.expect.length > 1).map((c) => c.call);

const REPLAYS = [
  {
    id: "hits-repeats-exhausted",
    recording: [line(S, { q: "cats" }, { result: ["a"] }), line(S, { q: "dogs" }, { result: ["b"] }),
      line(S, { q: "cats" }, { result: ["c"] })].join("\n") + "\n",
    calls: [line(S, { q: "cats" }), line(S, { q: " cats " }), line(S, { q: "cats" }), line(S, { q: "dogs" })],
  },
  {
    id: "miss-nearest-fewest-changes-first-of-equals",
    recording: [line(S, { q: "cats", page: 1 }), line(T, { title: "x" }), line(S, { q: "dogs", page: 2 }),
      line(S, { q: "cats", page: 3 }), j({ name: S, kind: "other", args: { q: "cats", page: 2 } })].join("\n"),
    calls: [line(S, { q: "cats", page: 2 }), line(S, { q: "birds", page: 9, extra: [1] }), line("unknown_tool", {}),
      j({ name: S, kind: "other", args: { q: "cats" } }), line(T, { title: "y", tags: ["a", "b"] })],
  },
  {
    id: "unused-after-a-run",
    recording: [line(S, { q: "a" }), line(S, { q: "b" }), line(S, { q: "a" }), line(T, { title: "t" })].join("\n") + "\n",
    calls: [line(S, { q: "a" }), line(T, { title: "t" })],
  },
  {
    id: "bad-lines-reported-rest-kept",
    recordingBase64: Buffer.concat([
      Buffer.from("\uFEFF" + line(S, { q: "bom" }) + "\r\n\n   \t\r\n"),
      Buffer.from("not json\n" + j({ args: {} }) + "\n" + j({ name: S, match_on: ["q"], args: {} }) + "\n"),
      Buffer.from(line(S, { q: "\u00e9" }).slice(0, -3)), Buffer.from([0xff]), Buffer.from('"}}\n'),
      Buffer.from(line(S, { q: "\u00e9" }).slice(0, -3)), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}}\n'),
      Buffer.from(j({ tool_calls: [{ type: "function", function: { name: S, arguments: '{"q":"x"}' } }, { type: "function", function: { name: S, arguments: "{" } }] }) + "\n"),
      Buffer.from(j({ role: "assistant", content: "no calls" }) + "\n"),
      Buffer.from("\uFEFF" + line(S, { q: "late bom" }) + "\n"),
      Buffer.from(line(S, { q: "last" }) + "\n" + '{"name":"' + S + '"'),
    ]).toString("base64"),
    calls: [line(S, { q: "bom" }), line(S, { q: "last" }), line(S, { q: "x" })],
  },
  { id: "every-call-shape", recording: shapeCalls.join("\n") + "\n", calls: shapeCalls },
  {
    id: "messages-holding-several-calls",
    recording: messageCalls.join("\n") + "\n",
    calls: messageCalls.flatMap((m) => callsOfMessage(m).calls), // the oracle's split (test/reference/shapes.mjs)
  },
  {
    id: "declarations-apply-by-tool-name",
    tools: { [S]: { ignoreArgs: ["requestId"] }, [T]: { matchOn: ["title", "priority"] } },
    recording: [line(S, { q: "cats", requestId: "r1" }), line(T, { title: "Bug", priority: 2, body: "long text" }),
      line(S, { q: "dogs", requestId: "r2" }, { ignoreArgs: ["requestId"] }), line(T, { title: "Bug" }, { matchOn: ["title"] }),
      j({ type: "tool_use", id: "t", name: S, input: { q: "shape", requestId: "r3" } })].join("\n") + "\n",
    calls: [line(S, { q: "cats", requestId: "live" }), line(T, { title: "Bug", priority: 2, body: "other text" }),
      line(S, { q: "dogs" }), j({ type: "function_call", call_id: "c", name: S, arguments: '{"q":"shape","requestId":"x"}' }),
      line(T, { title: "Bug", priority: 3 })],
  },
];

const CONFLICTS = [
  ["live-call-differs-from-declaration", { [S]: { ignoreArgs: ["requestId"] } }, line(S, { q: "x" }, { matchOn: ["q"] })],
  ["live-call-other-list", { [T]: { matchOn: ["title", "priority"] } }, line(T, { title: "x" }, { matchOn: ["priority", "title"] })],
  ["declaration-declares-none", { [S]: {} }, line(S, { q: "x" }, { ignoreArgs: ["q"] })],
];

const TOOLS_ERRORS = [
  ["not-an-object", ["search"]],
  ["declaration-not-an-object", { [S]: ["q"] }],
  ["near-miss-match_on", { [S]: { match_on: ["q"] } }],
  ["near-miss-IgnoreArgs", { [S]: { IgnoreArgs: ["q"] } }],
  ["unknown-key", { [S]: { args: ["q"] } }],
  ["list-not-strings", { [T]: { matchOn: ["title", 3] } }],
];

export function buildReplayVectors() {
  const cases = REPLAYS.map((c) => {
    const bytes = c.recordingBase64 !== undefined ? Buffer.from(c.recordingBase64, "base64") : Buffer.from(c.recording);
    return { id: c.id, op: "replay", ...(c.recording !== undefined ? { recording: c.recording } : { recordingBase64: c.recordingBase64 }),
      tools: c.tools ?? null, calls: c.calls, expect: replay(new Uint8Array(bytes), c.calls, c.tools) };
  });
  for (const [id, tools, call] of CONFLICTS) {
    let expect;
    try { replay(new Uint8Array(), [call], tools); } catch (e) { expect = e; }
    if (!expect) throw new Error(`${id}: no conflict`);
    cases.push({ id: `conflict-${id}`, op: "conflict", tools, calls: [call], expect });
  }
  for (const [id, tools] of TOOLS_ERRORS) {
    const expect = toolsError(tools);
    if (!expect) throw new Error(`${id}: no error`);
    cases.push({ id: `tools-error-${id}`, op: "tools-error", tools, expect });
  }
  return {
    description: "Replay: recordings (JSON Lines; recordingBase64 for byte-level cases) and live calls with the answers, " +
      "bad lines and unused calls replay must give, declaration conflicts and refused declarations. Expected values " +
      "from test/reference/replay.mjs (never the core). Generated by scripts/gen-replay-vectors.mjs.",
    version: 1,
    cases,
  };
}

export function renderReplayVectors() {
  return JSON.stringify(buildReplayVectors(), null, 1) + "\n";
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const text = renderReplayVectors();
  if (process.argv.includes("--check")) {
    let now = "";
    try { now = readFileSync(REPLAY_VECTORS_PATH, "utf8"); } catch { /* missing */ }
    if (now !== text) { console.error("vectors/replay.vectors.json is stale: run node scripts/gen-replay-vectors.mjs"); process.exit(1); }
    console.log("vectors/replay.vectors.json is current");
  } else {
    writeFileSync(REPLAY_VECTORS_PATH, text);
    console.log(`wrote ${buildReplayVectors().cases.length} cases to vectors/replay.vectors.json`);
  }
}
