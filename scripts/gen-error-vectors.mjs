// Writes vectors/errors.vectors.json: every error code and message the SDKs
// give, per entry point and input — the specification both SDKs are tested
// against (test/error-vectors.test.ts, python/tests/test_error_vectors.py).
// The expected messages are written here by hand; offsets by counting bytes
// in the input (the `at` helper), paths by reading the value: never taken
// from the code under test.
//   node scripts/gen-error-vectors.mjs           write the file
//   node scripts/gen-error-vectors.mjs --check   fail (exit 1) when it is stale
//
// A case: { id, op, input, expect: { code, message, offset, path }, ts?, py?, only? }
// - op: the entry point (its TypeScript name; the Python test maps it to
//   fingerprint_json and friends, option names to snake_case).
// - ts / py: what differs in that SDK: the host's own words for a type
//   (typeof vs type names) and its argument names, nothing else.
// - only: "ts" or "py" for an input one SDK cannot be given (an options
//   object in Python, keyword arguments in TypeScript).
// - input values: JSON, plus {"$host": "set"} (a Set / set: no JSON value)
//   and {"$host": "cycle"} (an object holding itself under "self").
import { existsSync, readFileSync, writeFileSync } from "node:fs";

const OUT = new URL("../vectors/errors.vectors.json", import.meta.url);

/** The byte offset of the first `needle` in `text` (UTF-8), counted here. */
function at(text, needle, from = 0) {
  const i = text.indexOf(needle, from);
  if (i < 0) throw new Error(`no ${needle} in ${text}`);
  return Buffer.byteLength(text.slice(0, i));
}

const e = (code, message, offset = null, path = null) => ({ code, message, offset, path });
const KIND_RULE = "kind must be a non-empty string without line feeds or lone surrogates";
const NAME_RULE = "name must be a non-empty string without lone surrogates";
const JS_ALLOWED = "only plain objects, arrays, strings, numbers, booleans, null, Dates and objects with toJSON are allowed (D15)";
const PY_ALLOWED = "only dict, list, tuple, str, int, float, bool, None, datetime and date are allowed (D16)";

const cases = [];
const add = (c) => cases.push(c);

// ---- JSON text errors: the core's statuses, in every frame --------------------------------
const texts = [
  ["unexpected-character", '{"a":1,}', "}", "unexpected character"],
  ["unexpected-end", '{"a":', null, "the text ends inside a value"],
  ["control-character", '{"a":"x\ty"}', "\t", "unescaped control character in a string"],
  ["trailing-content", '{"a":1} x', "x", "unexpected content after the JSON value"],
  ["bad-escape", '["\\q"]', "\\", "invalid escape sequence"],
  ["bad-number", "[1.x]", "x", "invalid number"],
];
for (const [code, text, needle, reason] of texts) {
  const off = needle === null ? Buffer.byteLength(text) : at(text, needle);
  add({ id: `fingerprintJSON-${code}`, op: "fingerprintJSON", input: { name: "t", text },
    expect: e(code, `invalid JSON: ${reason} at byte ${off}`, off) });
  add({ id: `canonicalizeJSON-${code}`, op: "canonicalizeJSON", input: { text },
    expect: e(code, `invalid JSON: ${reason} at byte ${off}`, off) });
  // explainJSON sends its text as the call's argsJSON: the frame names it.
  add({ id: `explainJSON-${code}`, op: "explainJSON", input: { name: "t", text },
    expect: e(code, `argsJSON: invalid JSON: ${reason} at byte ${off}`, off) });
}
add({ id: "fingerprintJSON-empty-input", op: "fingerprintJSON", input: { name: "t", text: "" },
  expect: e("empty-input", "invalid JSON: no JSON value (empty text) at byte 0", 0) });

// Bytes reach the core as bytes: the same code, message and offset in both SDKs (0xFF at byte 6).
const bad = [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]; // {"a":"\xFF"}
for (const op of ["fingerprintJSON", "canonicalizeJSON", "explainJSON"]) {
  add({ id: `${op}-bytes-0xff`, op, input: { name: "t", bytes: bad },
    expect: e("invalid-utf8", "invalid JSON: invalid UTF-8 at byte 6", 6) });
}
// A truncated sequence (é cut after its first byte), after a BOM: the offset counts the BOM's bytes.
const cut = [0xef, 0xbb, 0xbf, 0x5b, 0x22, 0xc3, 0x22, 0x5d]; // BOM ["\xC3"]
for (const op of ["fingerprintJSON", "explainJSON"]) {
  add({ id: `${op}-bytes-truncated`, op, input: { name: "t", bytes: cut },
    expect: e("invalid-utf8", "invalid JSON: invalid UTF-8 at byte 5", 5) });
}

// ---- kind, name, key lists: checked by the core -------------------------------------------
add({ id: "fingerprint-kind-newline", op: "fingerprint", input: { name: "t", args: {}, options: { kind: "a\nb" } },
  expect: e("bad-kind", `invalid kind: ${KIND_RULE}`) });
add({ id: "fingerprint-kind-empty", op: "fingerprintJSON", input: { name: "t", text: "{}", options: { kind: "" } },
  expect: e("bad-kind", `invalid kind: ${KIND_RULE}`) });
add({ id: "fingerprint-name-empty", op: "fingerprint", input: { name: "", args: {} },
  expect: e("bad-name", `invalid name: ${NAME_RULE}`) });
add({ id: "fingerprintJSON-name-lone-surrogate", op: "fingerprintJSON", input: { name: "a\ud800", text: "{}" },
  expect: e("bad-name", `invalid name: ${NAME_RULE}`) });

// ---- calls (the diagnostics module's readers) ---------------------------------------------
add({ id: "explainCall-not-an-object", op: "explainCall", input: { call: "5" }, expect: e("bad-call", "a call must be a JSON object") });
add({ id: "explainCall-an-array", op: "explainCall", input: { call: "[1]" },
  expect: e("bad-call", "this is an array, not one call: read the calls of an array of calls or messages with explainCalls "
    + "(Python: explain_calls; the CLI reads a line's calls)") });
add({ id: "fingerprintCall-name-not-string", op: "fingerprintCall", input: { call: '{"name":5,"args":{}}' },
  expect: e("bad-call", '"name" must be a string') });
add({ id: "explainCall-bad-text", op: "explainCall", input: { call: '{"name":"t","args":{"a":}}' },
  expect: e("unexpected-character", `invalid JSON: unexpected character at byte ${at('{"name":"t","args":{"a":}}', "}")}`,
    at('{"name":"t","args":{"a":}}', "}")) });
add({ id: "fingerprintCall-bad-argsJSON", op: "fingerprintCall", input: { call: { name: "t", argsJSON: '{"a":1,}' } },
  expect: e("unexpected-character", `argsJSON: invalid JSON: unexpected character at byte ${at('{"a":1,}', "}")}`, at('{"a":1,}', "}")) });
add({ id: "explainCalls-no-calls-at-index", op: "Recording.answer",
  input: { recording: '{"name":"t","args":{}}\n', call: { role: "assistant", content: "hi" }, index: 0 },
  expect: e("no-calls", "the message holds no tool call at that index") });
add({ id: "fingerprintCall-tools-bad", op: "fingerprintCall",
  input: { call: { name: "t", args: {} }, options: { tools: "[1]" } },
  expect: e("bad-tools", 'tool declarations must be a JSON object {"<tool name>": {"matchOn"?, "ignoreArgs"?}}') });
add({ id: "fingerprintCall-tools-bad-text", op: "fingerprintCall",
  input: { call: { name: "t", args: {} }, options: { tools: '{"t":' } },
  expect: e("unexpected-end", "tools: invalid JSON: the text ends inside a value at byte 5", 5) });
add({ id: "fingerprintCall-declaration-conflict", op: "fingerprintCall",
  input: { call: { name: "t", args: {}, matchOn: ["a"] }, options: { tools: { t: { matchOn: ["b"] } } } },
  expect: e("declaration-conflict", 'the call of "t" has matchOn ["a"] but its tool\'s declaration has matchOn ["b"]') });
add({ id: "Recording.load-bad-line", op: "Recording.load", input: { text: '{"name":"t","args":{"a":}}\n' },
  expect: e("unexpected-character", `invalid JSON: unexpected character at byte ${at('{"name":"t","args":{"a":}}', "}")}`,
    at('{"name":"t","args":{"a":}}', "}")) });
add({ id: "Recording.load-bad-utf8-line", op: "Recording.load", input: { bytes: [...Buffer.from('{"name":"t","args":"'), 0xff, ...Buffer.from('"}\n')] },
  expect: e("invalid-utf8", `invalid JSON: invalid UTF-8 at byte ${Buffer.byteLength('{"name":"t","args":"')}`,
    Buffer.byteLength('{"name":"t","args":"')) });

// ---- limits (the core's whole message) -------------------------------------------------------
add({ id: "fingerprintJSON-limit-depth", op: "fingerprintJSON", input: { name: "t", text: "[[1]]", options: { limits: { maxDepth: 1 } } },
  expect: e("limit-exceeded", "limit exceeded: nesting deeper than the maxDepth limit at byte 1 (maxDepth is 1)", 1) });
add({ id: "fingerprint-limit-members", op: "fingerprint", input: { name: "t", args: { a: 1, b: 2 }, options: { limits: { maxMembers: 1 } } },
  expect: e("limit-exceeded", "limit exceeded: an object with more members than the maxMembers limit (maxMembers is 1)") });
add({ id: "fingerprintJSON-limit-bytes", op: "fingerprintJSON", input: { name: "t", text: "[1,2,3]", options: { limits: { maxInputBytes: 4 } } },
  expect: e("limit-exceeded", "limit exceeded: input larger than the maxInputBytes limit (maxInputBytes is 4)") });

// ---- values the host walks: worded by the core, path from the host ----------------------
add({ id: "fingerprint-circular", op: "fingerprint", input: { name: "t", args: { a: { $host: "cycle" } } },
  expect: e("circular-value", "circular reference at args.a.self", null, "args.a.self") });
add({ id: "fingerprint-unsupported", op: "fingerprint", input: { name: "t", args: { s: { $host: "set" } } },
  expect: e("unsupported-value", `cannot fingerprint a value of type Set at args.s: ${JS_ALLOWED}`, null, "args.s"),
  py: { message: `cannot fingerprint a value of type set at args.s: ${PY_ALLOWED}` } });
add({ id: "canonicalJSON-unsupported-in-array", op: "canonicalJSON", input: { value: [1, { $host: "set" }] },
  expect: e("unsupported-value", `cannot fingerprint a value of type Set at args[1]: ${JS_ALLOWED}`, null, "args[1]"),
  py: { message: `cannot fingerprint a value of type set at args[1]: ${PY_ALLOWED}` } });

// ---- arguments of the wrong type: worded by the core, the host's type words ---------------
add({ id: "fingerprint-name-not-string", op: "fingerprint", input: { name: 5, args: {} },
  expect: e("invalid-argument", "name must be a string, got number"), py: { message: "name must be a string, got int" } });
add({ id: "fingerprint-options-not-object", op: "fingerprint", only: "ts", input: { name: "t", args: {}, options: 5 },
  expect: e("invalid-argument", "options must be an object, got number") });
add({ id: "fingerprint-kind-not-string", op: "fingerprint", input: { name: "t", args: {}, options: { kind: 5 } },
  expect: e("invalid-argument", "kind must be a string, got number"), py: { message: "kind must be a string, got int" } });
add({ id: "fingerprint-matchOn-not-list", op: "fingerprint", input: { name: "t", args: {}, options: { matchOn: "a" } },
  expect: e("invalid-argument", "matchOn must be an array of strings, got string"),
  py: { message: "match_on must be an array of strings, got str" } });
add({ id: "fingerprint-ignoreArgs-holds-number", op: "fingerprint", input: { name: "t", args: {}, options: { ignoreArgs: ["a", 1] } },
  expect: e("invalid-argument", "ignoreArgs must be an array of strings, got an array holding number"),
  py: { message: "ignore_args must be an array of strings, got an array holding int" } });
add({ id: "fingerprintJSON-text-not-text", op: "fingerprintJSON", input: { name: "t", value: 5 },
  expect: e("invalid-argument", "JSON text must be a string or bytes, got number"),
  py: { message: "JSON text must be a string or bytes, got int" } });
add({ id: "explainJSON-text-not-text", op: "explainJSON", input: { name: "t", value: null },
  expect: e("invalid-argument", "JSON text must be a string or bytes, got null"),
  py: { message: "JSON text must be a string or bytes, got NoneType" } });
add({ id: "Recording.answer-call-not-call", op: "Recording.answer", input: { recording: "", call: 5 },
  expect: e("invalid-argument", "a call must be an object or its JSON text, got number"),
  py: { message: "a call must be an object or its JSON text, got int" } });
add({ id: "explainCalls-message-not-message", op: "explainCalls", input: { message: 5 },
  expect: e("invalid-argument", "a message must be an object or its JSON text, got number"),
  py: { message: "a message must be an object or its JSON text, got int" } });
add({ id: "nearest-recorded-not-object", op: "nearest", input: { call: { name: "t", args: {} }, recording: [5] },
  expect: e("invalid-argument", "a recorded call must be an object, got number"),
  py: { message: "a recorded call must be an object, got int" } });
add({ id: "Recording.load-source", op: "Recording.load", input: { value: 5 },
  expect: e("invalid-argument", "a recording is its text, its bytes, or an iterable of chunks or lines, got number"),
  py: { message: "a recording is its text, its bytes, or an iterable of chunks or lines, got int" } });
add({ id: "Recording.load-piece", op: "Recording.load", input: { value: [5] },
  expect: e("invalid-argument", "a recording's pieces are bytes chunks or string lines, got number"),
  py: { message: "a recording's pieces are bytes chunks or string lines, got int" } });

// ---- explain: the same errors as fingerprint(), and argsJSON's offsets -------------------------
add({ id: "explain-name-empty", op: "explain", input: { name: "", args: 1 }, expect: e("bad-name", `invalid name: ${NAME_RULE}`) });
add({ id: "explain-unsupported", op: "explain", input: { name: "t", args: { a: { $host: "set" } } },
  expect: e("unsupported-value", `cannot fingerprint a value of type Set at args.a: ${JS_ALLOWED}`, null, "args.a"),
  py: { message: `cannot fingerprint a value of type set at args.a: ${PY_ALLOWED}` } });
add({ id: "explain-matchOn-not-list", op: "explain", input: { name: "t", args: 1, options: { matchOn: "a" } },
  expect: e("invalid-argument", "matchOn must be an array of strings, got string"),
  py: { message: "match_on must be an array of strings, got str" } });
add({ id: "explainJSON-missing-value", op: "explainJSON", input: { name: "t", text: '{"a":,}' },
  expect: e("unexpected-character", `argsJSON: invalid JSON: unexpected character at byte ${at('{"a":,}', ",")}`, at('{"a":,}', ",")) });
add({ id: "canonicalizeJSON-not-text", op: "canonicalizeJSON", input: { value: null },
  expect: e("invalid-argument", "JSON text must be a string or bytes, got null"),
  py: { message: "JSON text must be a string or bytes, got NoneType" } });

// ---- batches -------------------------------------------------------------------------------
add({ id: "fingerprintBatchJSON-lengths", op: "fingerprintBatchJSON", input: { names: ["t", "u"], argsJSON: ["{}"] },
  expect: e("invalid-argument", "names and argsJSON have different lengths"),
  py: { message: "names and args_json have different lengths" } });
add({ id: "fingerprintBatchJSON-onError", op: "fingerprintBatchJSON", input: { names: ["t"], argsJSON: ["{}"], options: { onError: "skip" } },
  expect: e("invalid-argument", 'onError must be "throw" or "null", got skip'),
  py: { message: "on_error must be \"raise\" or \"null\", got 'skip'" } });
add({ id: "fingerprintBatchJSON-kind-not-string", op: "fingerprintBatchJSON", input: { names: ["t"], argsJSON: ["{}"], options: { kind: 5 } },
  expect: e("invalid-argument", "kind must be a string, got number"), py: { message: "kind must be a string, got int" } });
add({ id: "fingerprintBatch-not-iterable", op: "fingerprintBatch", input: { calls: 5 },
  expect: e("invalid-argument", "calls must be an iterable, got number"), py: { message: "calls must be an iterable, got int" } });

// ---- configure -------------------------------------------------------------------------------
add({ id: "configure-retain-negative", op: "configure", input: { settings: { retainMemoryBytes: -1 } },
  expect: e("invalid-argument", "retainMemoryBytes must be a non-negative number, got -1"),
  py: { message: "retain_memory_bytes must be a non-negative number, got -1" } });
add({ id: "configure-not-object", op: "configure", only: "ts", input: { settings: 5 },
  expect: e("invalid-argument", "settings must be an object, got number") });

// ---- the limits argument: checked and worded by the core (names as each SDK spells them) --------
const LIMIT_JS = "maxInputBytes, maxDepth, maxMembers", LIMIT_PY = "max_input_bytes, max_depth, max_members";
add({ id: "fingerprint-limits-unknown", op: "fingerprint", input: { name: "t", args: {}, options: { limits: { maxdepth: 3 } } },
  expect: e("invalid-argument", `unknown limits maxdepth: allowed are ${LIMIT_JS}`),
  py: { message: `unknown limits maxdepth: allowed are ${LIMIT_PY}` } });
add({ id: "configure-limits-unknown", op: "configure", input: { settings: { limits: { maxDepth: 3, depth: 1, x: null } } },
  expect: e("invalid-argument", `unknown limits depth, x: allowed are ${LIMIT_JS}`),
  py: { message: `unknown limits depth, x: allowed are ${LIMIT_PY}` } });
add({ id: "fingerprintJSON-limits-negative", op: "fingerprintJSON", input: { name: "t", text: "{}", options: { limits: { maxDepth: -1 } } },
  expect: e("invalid-argument", "maxDepth must be a non-negative integer, Infinity or null, got -1"),
  py: { message: "max_depth must be a non-negative int, math.inf or None, got -1" } });
add({ id: "explainJSON-limits-fraction", op: "explainJSON", input: { name: "t", text: "{}", options: { limits: { maxMembers: 1.5 } } },
  expect: e("invalid-argument", "maxMembers must be a non-negative integer, Infinity or null, got 1.5"),
  py: { message: "max_members must be a non-negative int, math.inf or None, got 1.5" } });
add({ id: "configure-limits-string", op: "configure", input: { settings: { limits: { maxInputBytes: "5" } } },
  expect: e("invalid-argument", "maxInputBytes must be a non-negative integer, Infinity or null, got 5"),
  py: { message: "max_input_bytes must be a non-negative int, math.inf or None, got '5'" } });
add({ id: "fingerprintBatchJSON-limits-bool", op: "fingerprintBatchJSON",
  input: { names: ["t"], argsJSON: ["{}"], options: { limits: { maxDepth: true } } },
  expect: e("invalid-argument", "maxDepth must be a non-negative integer, Infinity or null, got true"),
  py: { message: "max_depth must be a non-negative int, math.inf or None, got True" } });
add({ id: "fingerprint-limits-not-object", op: "fingerprint", input: { name: "t", args: {}, options: { limits: 5 } },
  expect: e("invalid-argument", "limits must be an object, got number"), py: { message: "limits must be an object, got int" } });

const body = JSON.stringify({
  description: "Every error code and message the SDKs give, per entry point and input: the specification "
    + "(expected messages written by hand in scripts/gen-error-vectors.mjs, offsets counted in the input, paths read "
    + "from the value). Both SDKs assert code, message, offset and path of every case (test/error-vectors.test.ts, "
    + "python/tests/test_error_vectors.py); ts/py hold what differs in one SDK (its type words and argument names).",
  version: 1,
  cases,
}, null, 1) + "\n";

if (process.argv.includes("--check")) {
  if (!existsSync(OUT) || readFileSync(OUT, "utf8") !== body) {
    console.error("vectors/errors.vectors.json is stale: run node scripts/gen-error-vectors.mjs");
    process.exit(1);
  }
  console.log(`vectors/errors.vectors.json is current (${cases.length} cases)`);
} else {
  writeFileSync(OUT, body);
  console.log(`wrote vectors/errors.vectors.json (${cases.length} cases)`);
}
