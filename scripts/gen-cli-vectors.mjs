// Writes vectors/cli.vectors.json: both CLIs' cases as data (args → stdout,
// stderr, exit status), expected bytes from the independent oracle
// (test/reference/cli.mjs over the diagnostics and contract oracles, never
// the core) or, for error messages, written here by hand. {prog} and {pkg}
// in a text stand for the CLI's program name and package version. The input
// files the cases read live in vectors/cli/ (written here too). Read by
// test/cli-vectors.test.ts and python/tests/test_cli_vectors.py, which run
// both CLIs.
//   node scripts/gen-cli-vectors.mjs           write
//   node scripts/gen-cli-vectors.mjs --check   exit 1 when a file is stale
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { explainOut, fingerprintLines, fingerprintWithTools, help, replayOut, verifyOut, versionLine, whyOut } from "../test/reference/cli.mjs";
import { toolsError } from "../test/reference/replay.mjs";
import { explainLine } from "../test/reference/diagnostics.mjs";
import { textLimitError } from "../test/reference/limits.mjs";
import { FINGERPRINT_VERSION } from "../test/reference/contract.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const PATH = resolve(ROOT, "vectors/cli.vectors.json");
const RECORDING = "examples/recording.jsonl"; // relative to the repository root, where the runners start the CLIs
const at = (p) => resolve(ROOT, p);

// Input files (vectors/cli/).
const line = (o) => JSON.stringify(o);
const good = explainLine(line({ name: "t", args: { a: "x" } })).fingerprint;
const files = {
  "vectors/cli/drift.jsonl": [
    line({ name: "t", args: { a: " x " }, fingerprint: good }),
    line({ name: "t", args: { a: "y" }, fingerprint: good }),
    line({ name: "t", args: { a: "z" } }),
    "",
  ].join("\n"),
  // Bad lines; their messages are written by hand below.
  "vectors/cli/bad.jsonl": [
    '{"name":"ok1","args":1}',
    '{"name":"x","args":[1,}',
    "[1]",
    '{"args":1}',
    '{"name":"x","argsJSON":"{\\"a\\" 1}"}',
    '{"name":"x","args":NaN}',
    '{"name":"x","matchOn":"a"}',
    '{"name":"","args":1}',
    '{"name":"x","args":[1,\u0001]}',
    '{"name":"x","args":\u00e9}',
    '{"name":"x","argsJSON":"[1,\\n2,]"}',
    '{"name":"x","args":[1',
    '{"name":"ok2","args":2}',
    "",
  ].join("\n"),
  "vectors/cli/seen.json": line({ name: "search_docs", args: { query: "refund policy ", limit: 10.0 } }),
  "vectors/cli/none.json": line({ name: "nope" }),
  "vectors/cli/selection.json": JSON.stringify({ name: "get_weather", args: { city: "Zürich", units: "metric", ts: 1, lang: "de" } }, null, 2),
  "vectors/cli/long.json": line({ name: "w", args: { text: "é".repeat(120), n: 1 } }),
  "vectors/cli/long.jsonl": line({ name: "w", args: { text: "e".repeat(120), n: 2 } }) + "\n",
  // why's hint names the first changed key that looks like noise (an id, a timestamp, a cursor), and only then.
  "vectors/cli/noise.jsonl": [
    { name: "s", args: { q: "refunds", meta: { created_at: "2024-05-01", user: "ann" }, items: [{ sku: "a", addedAt: 1 }], "x-trace-id": "t1" } },
    { name: "t", args: { q: "refunds", page: { nextPageToken: "p1" } } },
    { name: "u", args: { q: "refunds", format: "json", valid: true } },
  ].map((c) => line(c) + "\n").join(""),
  "vectors/cli/noise-nested.json": line({ name: "s", args: { q: "refunds", meta: { created_at: "2024-06-01", user: "bob" }, items: [{ sku: "a", addedAt: 2 }], "x-trace-id": "t2" } }),
  "vectors/cli/noise-quoted.json": line({ name: "s", args: { q: "refunds", meta: { created_at: "2024-05-01", user: "ann" }, items: [{ sku: "a", addedAt: 1 }], "x-trace-id": "t2" } }),
  "vectors/cli/noise-cursor.json": line({ name: "t", args: { q: "refunds", page: { nextPageToken: "p2" } } }),
  "vectors/cli/noise-none.json": line({ name: "u", args: { q: "refunds", format: "xml", valid: false } }),
  // replay: a recording with a repeated call, a message of two calls and calls never asked for.
  "vectors/cli/replay/recording.jsonl": [
    line({ name: "search_docs", args: { query: "refund policy", limit: 10 }, result: { hits: 3 } }),
    line({ name: "search_docs", args: { query: "refund policy", limit: 10 }, result: { hits: 4 } }),
    line({ name: "create_ticket", args: { title: "Login fails", priority: "P1", requestId: "r-1" }, result: "T-1" }),
    "",
    line({ role: "assistant", tool_calls: [
      { id: "c1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
      { id: "c2", type: "function", function: { name: "get_time", arguments: '{"tz":"CET"}' } },
    ] }),
    line({ type: "tool_use", id: "tu_1", name: "lookup_order", input: { order: 42 } }),
    line({ name: "never_asked", args: { x: 1 } }),
    "",
  ].join("\n"),
  "vectors/cli/replay/calls.jsonl": [
    line({ name: "search_docs", args: { limit: 10.0, query: "refund policy" } }),
    line({ name: "search_docs", argsJSON: '{"query":"refund policy","limit":10}' }),
    line({ name: "search_docs", args: { query: "refund policy", limit: 10 } }),
    line({ name: "create_ticket", args: { title: "Login fails", priority: "P2", requestId: "r-2" } }),
    line({ role: "assistant", tool_calls: [
      { id: "x1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
      { id: "x2", type: "function", function: { name: "get_time", arguments: '{"tz":"UTC"}' } },
    ] }),
    line({ name: "unknown_tool", args: {} }),
    "",
  ].join("\n"),
  // Every call a hit: exit 0.
  "vectors/cli/replay/hits.jsonl": [
    line({ type: "tool_use", id: "tu_9", name: "lookup_order", input: { order: 42 } }),
    line({ name: "search_docs", args: { query: "refund policy", limit: 10 } }),
    "",
  ].join("\n"),
  // Declarations: the request id is noise.
  "vectors/cli/replay/tools.json": JSON.stringify({ create_ticket: { ignoreArgs: ["requestId"] }, search_docs: { matchOn: ["query"] } }, null, 2) + "\n",
  "vectors/cli/replay/ticket.jsonl": line({ name: "create_ticket", args: { title: "Login fails", priority: "P1", requestId: "r-77" } }) + "\n",
  // A call whose own selection differs from its tool's declaration, and a bad line.
  "vectors/cli/replay/conflict.jsonl": [
    line({ name: "create_ticket", args: { title: "Login fails", priority: "P1" }, matchOn: ["title"] }),
    line({ name: "create_ticket", args: { title: "Login fails", priority: "P1", requestId: "r-5" }, ignoreArgs: ["requestId"] }),
    '{"name":"x","args":[1,}',
    "",
  ].join("\n"),
  // explain --tools: two declared tools and one without a declaration.
  "vectors/cli/replay/explain.jsonl": [
    '{"name":"search_docs","args":{"query":"refund policy","limit":10}}',
    '{"name":"create_ticket","args":{"title":"Login fails","priority":"P1","requestId":"r-9"}}',
    '{"name":"get_weather","args":{"city":"Paris"}}',
  ].join("\n") + "\n",
  "vectors/cli/replay/bad-tools.json": JSON.stringify({ create_ticket: { match_on: ["title"] } }) + "\n",
  "vectors/cli/replay/broken-tools.json": '{"create_ticket": {"matchOn": ["title"]]}\n',
  // A stale recording: 25 calls, one asked for (the unused list stops at 20).
  "vectors/cli/replay/stale.jsonl": Array.from({ length: 25 }, (_, i) => line({ name: "step", args: { i } })).join("\n") + "\n",
  "vectors/cli/replay/one.jsonl": line({ name: "step", args: { i: 0 } }) + "\n",
  // --max-depth / --max-members / --max-input-bytes: lines over a limit fail like any bad line.
  "vectors/cli/limits.jsonl": [
    line({ name: "flat", args: [1] }),
    line({ name: "deep", args: [[1]] }),
    line({ name: "wide", args: { x: 1, y: 2 } }),
    line({ name: "long", args: "x".repeat(40) }),
    "",
  ].join("\n"),
};
const BAD = "vectors/cli/bad.jsonl";
// Bytes of a line that is not UTF-8, appended after the text lines (line 14).
const BAD_BYTES = Buffer.concat([Buffer.from(files[BAD]), Buffer.from([0x7b, 0xff, 0x7d, 0x0a])]);
const ACCEPTED = 'accepted: a recording line {"name", "args" | "argsJSON"}, or a tool call of OpenAI Chat Completions, ' +
  "OpenAI Responses, Anthropic Messages, Bedrock Converse, Gemini, MCP tools/call, Vercel AI SDK or LangChain";
/** [line, message, code] of each bad line of bad.jsonl (offset, line, column, the character). */
const BAD_LINES = [
  [2, 'invalid JSON: unexpected character at byte 22 (line 1, column 23, "}")', "unexpected-character"],
  [3, "a call must be a JSON object", "bad-call"],
  [4, `missing "name"; ${ACCEPTED}`, "bad-call"],
  [5, 'argsJSON: invalid JSON: unexpected character at byte 5 (line 1, column 6, "1")', "unexpected-character"],
  [7, '"matchOn" must be an array of strings', "bad-call"],
  [8, "invalid name: name must be a non-empty string without lone surrogates", "bad-name"],
  [9, "invalid JSON: unexpected character at byte 22 (line 1, column 23, U+0001)", "unexpected-character"],
  [10, 'invalid JSON: unexpected character at byte 19 (line 1, column 20, "\u00e9")', "unexpected-character"],
  [11, 'argsJSON: invalid JSON: unexpected character at byte 6 (line 2, column 3, "]")', "unexpected-character"],
  [12, "invalid JSON: the text ends inside a value at byte 21 (line 1, column 22, end of text)", "unexpected-end"],
  [14, "invalid UTF-8", "invalid-utf8"],
];
const badOk = (json) => [1, 6, 13].map((n) => {
  const l = files[BAD].split("\n")[n - 1];
  const e = explainLine(l);
  return json ? line({ file: BAD, line: n, name: e.name, fingerprint: e.fingerprint }) + "\n" : `${e.fingerprint}  ${e.name}\n`;
});

// The inputs first: the oracle reads them.
const CHECK = process.argv.includes("--check");
if (!CHECK) {
  mkdirSync(at("vectors/cli/replay"), { recursive: true });
  for (const [p, body] of Object.entries({ ...files, [BAD]: BAD_BYTES })) writeFileSync(at(p), body);
}

const ok = (id, args, stdout) => ({ id, args, stdout, stderr: "", exit: 0 });
const R = "vectors/cli/replay/";
const RREC = `${R}recording.jsonl`;
const TOOLS = JSON.parse(files[`${R}tools.json`]);
const replayCase = (id, callsFile, recFile, opts = {}, extra = []) => ({
  id, args: ["replay", ...(opts.json ? ["--json"] : []), callsFile, "--in", recFile, ...extra],
  ...replayOut(at(callsFile), at(recFile), { callsFile, recFile, ...opts }),
});
const usage = (id, args, stderr) => ({ id, args, stdout: "", stderr, exit: 2 });
const rec = at(RECORDING);
// The limits' cases: each line's error from the limits oracle, else its fingerprint.
const LIM = "vectors/cli/limits.jsonl";
const limitsCase = (id, opts, limits, json = false) => {
  const lines = files[LIM].split("\n").filter((l) => l !== "");
  let stdout = "", stderr = "", failed = 0;
  lines.forEach((l, i) => {
    const e = textLimitError(l, limits);
    if (e) {
      failed++;
      if (json) stdout += line({ file: LIM, line: i + 1, error: e.message, code: e.code }) + "\n";
      else stderr += `${LIM}:${i + 1}: ${e.message}\n`;
      return;
    }
    const x = explainLine(l);
    stdout += json ? line({ file: LIM, line: i + 1, name: x.name, fingerprint: x.fingerprint }) + "\n" : `${x.fingerprint}  ${x.name}\n`;
  });
  if (failed) stderr += `${failed} of ${lines.length} lines failed\n`;
  return { id, args: [...opts, ...(json ? ["--json"] : []), LIM], stdout, stderr, exit: failed ? 1 : 0 };
};
const cases = [
  ok("help", ["--help"], help("main")),
  ok("help-short", ["-h"], help("main")),
  ok("help-explain", ["explain", "--help"], help("explain")),
  ok("help-verify", ["verify", "-h"], help("verify")),
  ok("help-why", ["why", "--help"], help("why")),
  ok("help-command", ["help"], help("main")),
  ok("help-command-topic", ["help", "why"], help("why")),
  ok("help-command-main", ["help", "main"], help("main")),
  { id: "help-command-unknown", args: ["help", "nope"], stdout: help("main"), stderr: "", exit: 2 },
  { id: "no-arguments", args: [], stdout: "", stderr: help("main"), exit: 2 },
  ok("version", ["--version"], versionLine()),
  ok("fingerprint", [RECORDING], fingerprintLines(rec)),
  ok("fingerprint-json", ["--json", RECORDING], fingerprintLines(rec, true, RECORDING)),
  ok("fingerprint-jobs-1", ["--jobs", "1", RECORDING], fingerprintLines(rec)),
  ok("fingerprint-jobs-2", ["--jobs=2", RECORDING], fingerprintLines(rec)),
  ok("explain", ["explain", RECORDING], explainOut(rec, false, RECORDING)),
  ok("explain-json", ["explain", "--json", RECORDING], explainOut(rec, true, RECORDING)),
  // Explain names the declaration that chose a call's selection.
  ok("explain-tools", ["explain", "--tools", `${R}tools.json`, `${R}explain.jsonl`],
    explainOut(at(`${R}explain.jsonl`), false, `${R}explain.jsonl`, TOOLS)),
  ok("explain-tools-json", ["explain", "--json", "--tools", `${R}tools.json`, `${R}explain.jsonl`],
    explainOut(at(`${R}explain.jsonl`), true, `${R}explain.jsonl`, TOOLS)),
  { id: "verify-drift", args: ["verify", "vectors/cli/drift.jsonl"], ...verifyOut(at("vectors/cli/drift.jsonl"), false, "vectors/cli/drift.jsonl") },
  { id: "verify-drift-json", args: ["verify", "--json", "vectors/cli/drift.jsonl"], ...verifyOut(at("vectors/cli/drift.jsonl"), true, "vectors/cli/drift.jsonl") },
  { id: "verify-nothing", args: ["verify", RECORDING], ...verifyOut(rec, false, RECORDING) },
  ok("why-unseen", ["why", "examples/unseen-call.json", "--in", RECORDING], whyOut(at("examples/unseen-call.json"), rec, false, RECORDING)),
  ok("why-unseen-json", ["why", "--json", "examples/unseen-call.json", "--in", RECORDING], whyOut(at("examples/unseen-call.json"), rec, true, RECORDING)),
  ok("why-noise", ["why", "examples/noisy-call.json", `--in=${RECORDING}`], whyOut(at("examples/noisy-call.json"), rec, false, RECORDING)),
  ok("why-seen", ["why", "vectors/cli/seen.json", "--in", RECORDING], whyOut(at("vectors/cli/seen.json"), rec, false, RECORDING)),
  ok("why-seen-json", ["why", "--json", "vectors/cli/seen.json", "--in", RECORDING], whyOut(at("vectors/cli/seen.json"), rec, true, RECORDING)),
  ok("why-none", ["why", "vectors/cli/none.json", "--in", RECORDING], whyOut(at("vectors/cli/none.json"), rec, false, RECORDING)),
  ok("why-none-json", ["why", "--json", "vectors/cli/none.json", "--in", RECORDING], whyOut(at("vectors/cli/none.json"), rec, true, RECORDING)),
  ok("why-selection", ["why", "vectors/cli/selection.json", "--in", RECORDING], whyOut(at("vectors/cli/selection.json"), rec, false, RECORDING)),
  ok("why-long", ["why", "vectors/cli/long.json", "--in", "vectors/cli/long.jsonl"],
    whyOut(at("vectors/cli/long.json"), at("vectors/cli/long.jsonl"), false, "vectors/cli/long.jsonl")),
  ...["nested", "quoted", "cursor", "none"].map((k) => ok(`why-noise-${k}`, ["why", `vectors/cli/noise-${k}.json`, "--in", "vectors/cli/noise.jsonl"],
    whyOut(at(`vectors/cli/noise-${k}.json`), at("vectors/cli/noise.jsonl"), false, "vectors/cli/noise.jsonl"))),
  {
    id: "bad-lines", args: [BAD], stdout: badOk(false).join(""),
    stderr: BAD_LINES.map(([n, m]) => `${BAD}:${n}: ${m}\n`).join("") + "11 of 14 lines failed\n", exit: 1,
  },
  {
    id: "bad-lines-json", args: ["--json", BAD],
    stdout: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13].map((i) => {
      const bad = BAD_LINES.find(([n]) => n === i + 1);
      if (bad) return line({ file: BAD, line: bad[0], error: bad[1], code: bad[2] }) + "\n";
      return [1, 6, 13].includes(i + 1) ? badOk(true)[[1, 6, 13].indexOf(i + 1)] : "";
    }).join(""),
    stderr: "11 of 14 lines failed\n", exit: 1,
  },
  { id: "missing-file", args: ["vectors/cli/nope.jsonl", RECORDING], stdout: fingerprintLines(rec), stderr: "vectors/cli/nope.jsonl: no such file\n", exit: 1 },
  { id: "missing-file-json", args: ["--json", "vectors/cli/nope.jsonl"], stdout: line({ file: "vectors/cli/nope.jsonl", error: "no such file", code: "unreadable-file" }) + "\n", stderr: "", exit: 1 },
  { id: "directory", args: ["vectors/cli"], stdout: "", stderr: "vectors/cli: is a directory\n", exit: 1 },
  { id: "why-call-missing", args: ["why", "vectors/cli/nope.json", "--in", RECORDING], stdout: "", stderr: "vectors/cli/nope.json: no such file\n", exit: 1 },
  usage("unknown-option", ["--bogus"], "error: unknown option --bogus (see --help)\n"),
  usage("unknown-command", ["verfy", "x.jsonl"], 'error: unknown command "verfy" (commands: explain, verify, why, replay, help; or a FILE) (see --help)\n'),
  { id: "file-named-like-a-command", args: ["--", "explain"], stdout: "", stderr: "explain: no such file\n", exit: 1 },
  usage("explain-needs-a-file", ["explain"], "error: explain needs a FILE (- for standard input) (see --help)\n"),
  usage("in-belongs-to-why", ["explain", "--in", "x"], "error: --in belongs to the why and replay commands (see --help)\n"),
  usage("in-needs-a-file", ["why", "x", "--in"], "error: --in needs a FILE (see --help)\n"),
  usage("why-needs-in", ["why", "examples/unseen-call.json"], "error: why needs the recording: --in FILE\n"),
  usage("why-takes-one-call", ["why", "--in", RECORDING], "error: why takes one CALL.json (see why --help)\n"),
  usage("why-stdin-twice", ["why", "-", "--in", "-"], "error: only one of CALL.json and --in can be standard input\n"),
  usage("jobs-needs-a-number", ["--jobs", "0", RECORDING], "error: --jobs needs a number of jobs, 1 or more (see --help)\n"),
  ok("help-replay", ["replay", "--help"], help("replay")),
  ok("help-command-replay", ["help", "replay"], help("replay")),
  replayCase("replay", `${R}calls.jsonl`, RREC),
  replayCase("replay-json", `${R}calls.jsonl`, RREC, { json: true }),
  replayCase("replay-hits", `${R}hits.jsonl`, RREC),
  replayCase("replay-tools", `${R}ticket.jsonl`, RREC, { tools: TOOLS }, ["--tools", `${R}tools.json`]),
  replayCase("replay-without-tools", `${R}ticket.jsonl`, RREC),
  replayCase("replay-tools-json", `${R}calls.jsonl`, RREC, { json: true, tools: TOOLS }, [`--tools=${R}tools.json`]),
  replayCase("replay-conflict", `${R}conflict.jsonl`, RREC, { tools: TOOLS,
    messages: { [`${R}conflict.jsonl:3`]: ['invalid JSON: unexpected character at byte 22 (line 1, column 23, "}")', "unexpected-character"] } },
  ["--tools", `${R}tools.json`]),
  replayCase("replay-conflict-json", `${R}conflict.jsonl`, RREC, { json: true, tools: TOOLS,
    messages: { [`${R}conflict.jsonl:3`]: ['invalid JSON: unexpected character at byte 22 (line 1, column 23, "}")', "unexpected-character"] } },
  ["--tools", `${R}tools.json`]),
  replayCase("replay-bad-recording", `${R}one.jsonl`, `${R}conflict.jsonl`, { tools: TOOLS,
    messages: { [`${R}conflict.jsonl:3`]: ['invalid JSON: unexpected character at byte 22 (line 1, column 23, "}")', "unexpected-character"] } },
  ["--tools", `${R}tools.json`]),
  replayCase("replay-stale", `${R}one.jsonl`, `${R}stale.jsonl`),
  replayCase("replay-stale-json", `${R}one.jsonl`, `${R}stale.jsonl`, { json: true }),
  { id: "fingerprint-tools", args: ["--tools", `${R}tools.json`, `${R}conflict.jsonl`],
    ...fingerprintWithTools(at(`${R}conflict.jsonl`), TOOLS, `${R}conflict.jsonl`, {
      [`${R}conflict.jsonl:3`]: 'invalid JSON: unexpected character at byte 22 (line 1, column 23, "}")' }) },
  { id: "replay-missing-recording", args: ["replay", `${R}one.jsonl`, "--in", `${R}nope.jsonl`],
    stdout: `${R}one.jsonl:1  step  miss  no recorded call of this tool and kind\nreplay: 1 call, 0 hits, 1 miss, 0 unused\n`,
    stderr: `${R}nope.jsonl: no such file\n`, exit: 1 },
  usage("tools-bad", ["--tools", `${R}bad-tools.json`, RECORDING], `error: --tools ${R}bad-tools.json: ${toolsError(JSON.parse(files[`${R}bad-tools.json`])).message}\n`),
  usage("tools-bad-json", ["explain", "--tools", `${R}broken-tools.json`, RECORDING],
    `error: --tools ${R}broken-tools.json: invalid JSON: unexpected character at byte 39 (line 1, column 40, "]")\n`),
  usage("tools-missing", ["replay", `${R}one.jsonl`, "--in", RREC, "--tools", `${R}nope.json`], `error: --tools ${R}nope.json: no such file\n`),
  usage("tools-needs-a-file", ["--tools"], "error: --tools needs a FILE (see --help)\n"),
  usage("replay-needs-in", ["replay", `${R}one.jsonl`], "error: replay takes one recording: --in RECORDING.jsonl\n"),
  usage("replay-takes-one-calls", ["replay", "--in", RREC], "error: replay takes one CALLS.jsonl (see replay --help)\n"),
  usage("replay-stdin-twice", ["replay", "-", "--in", "-"], "error: only one of CALLS.jsonl and --in can be standard input\n"),
  limitsCase("limits-depth", ["--max-depth", "2"], { maxDepth: 2 }),
  limitsCase("limits-depth-json", ["--max-depth=2"], { maxDepth: 2 }, true),
  limitsCase("limits-members", ["--max-members=1"], { maxMembers: 1 }),
  limitsCase("limits-bytes", ["--max-input-bytes", "40"], { maxInputBytes: 40 }),
  limitsCase("limits-all", ["--max-input-bytes", "1000", "--max-depth", "3", "--max-members", "2"], { maxInputBytes: 1000, maxDepth: 3, maxMembers: 2 }),
  limitsCase("limits-none-crossed", ["--max-depth", "4294967295"], {}),
  { id: "limits-why-target", args: ["why", "--max-depth", "1", "vectors/cli/seen.json", "--in", RECORDING], stdout: "",
    stderr: `vectors/cli/seen.json: ${textLimitError(files["vectors/cli/seen.json"], { maxDepth: 1 }).message}\n`, exit: 1 },
  usage("limits-needs-a-number", ["--max-depth", "x", RECORDING], "error: --max-depth needs a whole number, 0 or more (see --help)\n"),
  usage("limits-needs-a-value", [RECORDING, "--max-members"], "error: --max-members needs a whole number, 0 or more (see --help)\n"),
  usage("limits-not-negative", ["--max-input-bytes=-1", RECORDING], "error: --max-input-bytes needs a whole number, 0 or more (see --help)\n"),
  usage("limits-too-large", ["--max-depth", "4294967296", RECORDING], "error: --max-depth needs a whole number, 0 or more (see --help)\n"),
];

// Where a JSON error is, as the SDKs' error path asks the core for it; written by hand.
const positions = [
  { text: "[1,}", offset: 3, want: ' at byte 3 (line 1, column 4, "}")' },
  { text: "[1,\n 2,]", offset: 7, want: ' at byte 7 (line 2, column 4, "]")' },
  { text: "[\u00e9\u00e9 x", offset: 6, want: ' at byte 6 (line 1, column 5, "x")' },
  { text: '{"a":\u0000}', offset: 5, want: " at byte 5 (line 1, column 6, U+0000)" },
  { text: "[1, \u00a0]", offset: 4, want: " at byte 4 (line 1, column 5, U+00A0)" },
  { text: "[\"\u2028\"", offset: 2, want: " at byte 2 (line 1, column 3, U+2028)" },
  { text: "[1", offset: 2, want: " at byte 2 (line 1, column 3, end of text)" },
  { text: '["\ud83d\ude00" 1]', offset: 8, want: ' at byte 8 (line 1, column 6, "1")' },
  { hex: "5b31ff5d", offset: 2, want: " at byte 2 (line 1, column 3, byte 0xFF)" },
];

// The run's plan (assembly/cli/plan.ts), written by hand: argv with the size each host found at the path (null:
// nothing there) and the host's facts → the records the host follows. The policy, as stated: one job per core
// unless --jobs; why and replay one job; workers only from 4 MiB of files when a worker shares the compiled module
// ("thread"), from 32 MiB when it compiles its own ("isolate"), never more than the 1 MiB chunks after the first;
// a worker holds 2 chunks; 4 answers wait per job; near a file's end a worker holds one.
const MiB = 1 << 20;
const policy = (workers, { deal = false } = {}) => [`workers=${workers}`, `chunk=${MiB}`, "inflight=3", "queue=4",
  ...(deal ? ["deal=1"] : [])];
const planCase = (id, argv, facts, records) => ({ id, argv, facts, plan: records });
const thread = { cores: 2, worker: "thread" }, isolate = { cores: 2, worker: "isolate" };
const plans = [
  planCase("one-small-file", [["rec.jsonl", 1000]], isolate, [...policy(0), "here=rec.jsonl"]),
  planCase("jobs-2-large-isolate", [["--jobs", null], ["2", null], ["rec.jsonl", 44_766_569]], isolate,
    [...policy(1), "shared=rec.jsonl"]),
  planCase("jobs-4-under-isolate-threshold", [["--jobs=4", null], ["rec.jsonl", 20 * MiB]], isolate, [...policy(0), "here=rec.jsonl"]),
  planCase("jobs-4-over-thread-threshold", [["--jobs=4", null], ["rec.jsonl", 20 * MiB]], thread, [...policy(3), "shared=rec.jsonl"]),
  planCase("isolate-threshold-reached", [["--jobs", null], ["2", null], ["rec.jsonl", 32 * MiB]], isolate, [...policy(1), "shared=rec.jsonl"]),
  planCase("thread-threshold-not-reached", [["--jobs", null], ["2", null], ["rec.jsonl", 4 * MiB - 1]], thread, [...policy(0), "here=rec.jsonl"]),
  planCase("workers-at-most-the-chunks-after-the-first", [["--jobs", null], ["8", null], ["rec.jsonl", 2 * MiB + 1]],
    { ...thread, "min-bytes": 0 }, [...policy(2), "shared=rec.jsonl"]),
  planCase("jobs-default-one-per-core", [["explain", null], ["a.jsonl", 60 * MiB], ["b.jsonl", 40 * MiB]], { cores: 8, worker: "isolate" },
    [...policy(7), "shared=a.jsonl", "shared=b.jsonl"]),
  planCase("sizes-summed-over-files", [["--jobs", null], ["2", null], ["a.jsonl", 20 * MiB], ["b.jsonl", 20 * MiB]], isolate,
    [...policy(1), "shared=a.jsonl", "shared=b.jsonl"]),
  planCase("stdin-on-this-thread", [["verify", null], ["--jobs", null], ["2", null], ["a.jsonl", 50 * MiB], ["-", null], ["b.jsonl", 1]],
    isolate, [...policy(1), "shared=a.jsonl", "here=-", "shared=b.jsonl"]),
  planCase("missing-file-counts-nothing", [["--jobs", null], ["2", null], ["nope.jsonl", null]], { ...thread, "min-bytes": 1 },
    [...policy(0), "here=nope.jsonl"]),
  planCase("why-one-job", [["why", null], ["call.json", 100], ["--jobs", null], ["4", null], ["--in", null], ["a.jsonl", 90 * MiB],
    ["--in=b.jsonl", null]], thread, [...policy(0), "target=call.json", "here=a.jsonl", "here=b.jsonl"]),
  planCase("replay-tools-first", [["replay", null], ["calls.jsonl", 90 * MiB], ["--in", null], ["rec.jsonl", 90 * MiB],
    ["--tools=tools.json", null]], thread, [...policy(0), "tools=tools.json", "load=rec.jsonl", "here=calls.jsonl"]),
  planCase("tools-for-fingerprint", [["--tools", null], ["tools.json", 50], ["rec.jsonl", 10]], thread,
    [...policy(0), "tools=tools.json", "here=rec.jsonl"]),
  planCase("tests-deal-in-turn", [["--jobs", null], ["3", null], ["rec.jsonl", 3 * MiB]], { ...thread, "min-bytes": 0, deal: 1 },
    [...policy(2, { deal: true }), "shared=rec.jsonl"]),
];

// The progress line (assembly/cli/progress.ts), by hand: "BYTES TOTAL LINES MS" (null: erase) → stderr, in order
// after a plan: nothing in the first second, then at most every 250 ms; MB = 2^20 bytes, one decimal, rounded.
const E = "\r\x1b[K";
const progress = [
  { id: "pace-and-erase", steps: [
    ["1000 0 10 999", ""],
    ["1048576 10485760 12345 1000", `${E}f: 12,345 lines, 1.0 of 10.0 MB (10%)`],
    ["2097152 10485760 20000 1249", ""],
    ["2097152 10485760 1234567 1250", `${E}f: 1,234,567 lines, 2.0 of 10.0 MB (20%)`],
    [null, E],
    [null, ""],
  ] },
  { id: "size-unknown-and-rounding", steps: [
    ["157286 0 999 2000", `${E}f: 999 lines, 0.1 MB`],
    ["157287 0 1000 2250", `${E}f: 1,000 lines, 0.2 MB`],
    ["10485759 10485760 1000000 2500", `${E}f: 1,000,000 lines, 10.0 of 10.0 MB (99%)`],
  ] },
];

// Read errors, as the host got them (the errno name or the system's text; "-": none) → the words after "FILE: ", by hand.
const errno = [
  ["ENOENT", "no such file"], ["EACCES", "permission denied"], ["EPERM", "permission denied"], ["EISDIR", "is a directory"],
  ["ENOTDIR", "a part of the path is not a directory"], ["ELOOP", "too many symbolic links"],
  ["ENAMETOOLONG", "file name too long"], ["EMFILE", "too many open files"], ["ENFILE", "too many open files"],
  ["EIO", "input/output error"], ["ENXIO", "no such device"], ["ENOMEM", "out of memory"],
  ["EXDEV", "cannot be read (EXDEV)"], ["-", "cannot be read"],
  // The same errors by the system's text (a Go host's syscall.Errno has no name)
  ["no such file or directory", "no such file"], ["permission denied", "permission denied"],
  ["operation not permitted", "permission denied"], ["is a directory", "is a directory"],
  ["not a directory", "a part of the path is not a directory"], ["too many levels of symbolic links", "too many symbolic links"],
  ["file name too long", "file name too long"], ["too many open files", "too many open files"],
  ["too many open files in system", "too many open files"], ["input/output error", "input/output error"],
  ["no such device or address", "no such device"], ["device not configured", "no such device"],
  ["cannot allocate memory", "out of memory"], ["invalid argument", "cannot be read (invalid argument)"],
].map(([name, words]) => ({ name, words }));

const text = JSON.stringify({
  FINGERPRINT_VERSION,
  about: "CLI cases for both CLIs: args (run from the repository root) → stdout, stderr, exit. {prog}/{pkg}: program name, package version. Inputs in vectors/cli/. " +
    "plans: argv with the size at each path and the host's facts → the plan's records; progress: the progress step's numbers → its text; " +
    "errno: a read error's name → its words. Generated by scripts/gen-cli-vectors.mjs from test/reference/cli.mjs and by hand.",
  cases,
  positions,
  plans,
  progress,
  errno,
}, null, 2) + "\n";

const outputs = { "vectors/cli.vectors.json": text, ...files, [BAD]: BAD_BYTES };
if (CHECK) {
  const stale = Object.entries(outputs).filter(([p, body]) => !existsSync(at(p)) || !readFileSync(at(p)).equals(Buffer.from(body)));
  if (stale.length) {
    console.error(`stale: ${stale.map(([p]) => p).join(", ")}: run node scripts/gen-cli-vectors.mjs`);
    process.exit(1);
  }
} else writeFileSync(PATH, text);
