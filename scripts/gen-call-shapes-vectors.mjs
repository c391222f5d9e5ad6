// Writes vectors/call-shapes.vectors.json: one tool call in each shape agents
// emit (issue 12), written here by hand from the providers' public formats,
// with the explanation (and so the fingerprint) each must get, or the error.
// Expected values from the independent oracles (test/reference/shapes.mjs →
// test/reference/diagnostics.mjs), never the core. Read by
// test/call-shapes-vectors.test.ts and python/tests/test_call_shapes_vectors.py.
//   node scripts/gen-call-shapes-vectors.mjs           write
//   node scripts/gen-call-shapes-vectors.mjs --check   exit 1 when the file is stale
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { explainLine } from "../test/reference/diagnostics.mjs";
import { asRecordingLine, callsOfMessage } from "../test/reference/shapes.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const CALL_SHAPES_VECTORS_PATH = resolve(ROOT, "vectors/call-shapes.vectors.json");

const W = "get_weather";
const ARGS = { city: " Paris ", units: "metric", days: 3.0 };
const TEXT = '{"units":"metric","city":"Paris","days":3.0,"days":3}';

const CALLS = [
  ["openai-chat", { id: "call_9f2", type: "function", function: { name: W, arguments: TEXT } }],
  ["openai-chat-no-type", { id: "call_9f3", function: { name: W, arguments: TEXT } }],
  ["ollama-object-arguments", { function: { name: W, arguments: ARGS } }],
  ["openai-chat-empty-arguments", { id: "c", type: "function", function: { name: "list_files", arguments: "{}" } }],
  ["openai-responses", { type: "function_call", id: "fc_1", call_id: "call_1", name: W, arguments: TEXT, status: "completed" }],
  ["anthropic-tool-use", { type: "tool_use", id: "toolu_01", name: W, input: ARGS }],
  ["bedrock-converse", { toolUse: { toolUseId: "tooluse_1", name: W, input: ARGS } }],
  ["gemini-function-call", { functionCall: { name: W, args: ARGS } }],
  ["gemini-no-args", { functionCall: { name: "list_files" } }],
  ["mcp-tools-call", { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: W, arguments: ARGS } }],
  ["vercel-input", { type: "tool-call", toolCallId: "t1", toolName: W, input: ARGS }],
  ["vercel-args-v4", { type: "tool-call", toolCallId: "t1", toolName: W, args: ARGS }],
  ["langchain", { name: W, args: ARGS, id: "lc_1", type: "tool_call" }],
  ["recording-line-with-type", { name: W, args: ARGS, type: "text" }],
  ["error-two-markers", { toolUse: { name: W, input: {} }, functionCall: { name: W, args: {} } }],
  ["error-chat-and-jsonrpc", { jsonrpc: "2.0", function: { name: W, arguments: "{}" } }],
  ["error-mcp-other-method", { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }],
  ["error-anthropic-no-name", { type: "tool_use", id: "toolu_02", input: {} }],
  ["error-vercel-name-not-string", { type: "tool-call", toolName: 3, input: {} }],
  ["error-bedrock-not-object", { toolUse: "get_weather" }],
  ["error-no-shape", { id: "x", arguments: "{}" }],
  // A provider's call taken out of its shape: its args key on a line is an error, never args null.
  ["error-chat-function-object-alone", { name: W, arguments: TEXT }],
  ["error-bedrock-tool-use-alone", { toolUseId: "tooluse_1", name: W, input: ARGS }],
  ["error-llama-parameters", { name: W, parameters: ARGS }],
  ["error-arguments-and-null-args-json", { name: W, argsJSON: null, arguments: TEXT }],
  ["line-args-beside-input", { name: W, args: ARGS, input: "the user's question" }],
  ["error-null-args-beside-arguments", { name: W, args: null, arguments: TEXT }],
  ["line-empty-args-beside-arguments", { name: W, args: {}, arguments: TEXT }],
  ["line-null-input-is-absent", { name: W, input: null }],
];

const chat = (id, name, args) => ({ id, type: "function", function: { name, arguments: JSON.stringify(args) } });
const MESSAGES = [
  ["chat-message-two-calls", { role: "assistant", content: null, tool_calls: [chat("c1", W, { city: "Paris" }), chat("c2", "get_time", { tz: "Europe/Paris" })] }],
  ["chat-response-choices", { id: "chatcmpl-1", object: "chat.completion", choices: [
    { index: 0, message: { role: "assistant", tool_calls: [chat("c1", W, { city: "Oslo" })] }, finish_reason: "tool_calls" },
    { index: 1, message: { role: "assistant", content: "No tools." }, finish_reason: "stop" },
    { index: 2, message: { role: "assistant", tool_calls: [chat("c3", W, { city: "Rome" }), chat("c4", "get_time", {})] } }] }],
  ["anthropic-message-content", { id: "msg_1", type: "message", role: "assistant", stop_reason: "tool_use", content: [
    { type: "text", text: "Let me check." }, { type: "tool_use", id: "toolu_1", name: W, input: { city: "Paris" } },
    { type: "tool_use", id: "toolu_2", name: "get_time", input: { tz: "UTC" } }] }],
  ["responses-output", { id: "resp_1", object: "response", output: [
    { type: "reasoning", id: "rs_1", summary: [] }, { type: "function_call", call_id: "call_1", name: W, arguments: '{"city":"Lima"}' },
    { type: "message", role: "assistant", content: [] }] }],
  ["bedrock-message-content", { role: "assistant", content: [
    { text: "Let me check." }, { toolUse: { toolUseId: "tooluse_1", name: W, input: { city: "Paris" } } },
    { toolUse: { toolUseId: "tooluse_2", name: "get_time", input: { tz: "UTC" } } }] }],
  ["bedrock-converse-response", { output: { message: { role: "assistant", content: [
    { text: "Checking." }, { toolUse: { toolUseId: "tooluse_3", name: W, input: { city: "Oslo" } } }] } },
  stopReason: "tool_use", usage: { inputTokens: 12, outputTokens: 30, totalTokens: 42 }, metrics: { latencyMs: 420 } }],
  ["bedrock-response-without-calls", { output: { message: { role: "assistant", content: [{ text: "Hello." }] } }, stopReason: "end_turn" }],
  ["gemini-content-parts", { role: "model", parts: [
    { text: "Checking both." }, { functionCall: { name: W, args: { city: "Paris" } } }, { functionCall: { name: "get_time", args: { tz: "UTC" } } }] }],
  ["gemini-response-candidates", { candidates: [
    { content: { role: "model", parts: [{ functionCall: { name: W, args: { city: "Lima" } } }] }, finishReason: "STOP", index: 0 },
    { content: { role: "model", parts: [{ text: "No tools." }] }, finishReason: "STOP", index: 1 },
    { content: { role: "model", parts: [{ functionCall: { name: "get_time" } }] }, finishReason: "STOP", index: 2 }],
  usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 7, totalTokenCount: 16 }, modelVersion: "gemini-2.0-flash" }],
  ["gemini-text-only", { role: "model", parts: [{ text: "Hi" }] }],
  ["vercel-assistant-message", { role: "assistant", content: [
    { type: "text", text: "Checking." }, { type: "tool-call", toolCallId: "call_1", toolName: W, input: { city: "Paris" } },
    { type: "tool-call", toolCallId: "call_2", toolName: "get_time", input: { tz: "UTC" } }] }],
  ["langchain-ai-message-anthropic", { content: [{ type: "text", text: "Checking." },
    { type: "tool_use", id: "toolu_1", name: W, input: { city: "Paris" } }], additional_kwargs: {}, response_metadata: {},
  type: "ai", name: null, id: "run-1", tool_calls: [{ name: W, args: { city: "Paris" }, id: "toolu_1", type: "tool_call" }],
  invalid_tool_calls: [] }],
  ["langchain-ai-message-openai", { content: "", type: "ai", id: "run-2",
    tool_calls: [{ name: W, args: { city: "Oslo" }, id: "call_1", type: "tool_call" }, { name: "get_time", args: {}, id: "call_2", type: "tool_call" }] }],
  ["message-without-calls", { role: "assistant", content: "Hello." }],
  ["anthropic-text-only", { role: "assistant", content: [{ type: "text", text: "Hi" }] }],
  ["single-call-is-one", { type: "tool_use", id: "t", name: W, input: { city: "Paris" } }],
  ["error-two-containers", { tool_calls: [], output: [] }],
  ["error-content-and-parts", { role: "model", content: [], parts: [] }],
  ["error-bedrock-output-and-tool-calls", { output: { message: { content: [] } }, tool_calls: [] }],
];

export function buildCallShapesVectors() {
  const cases = CALLS.map(([id, call]) => {
    const text = JSON.stringify(call);
    const r = asRecordingLine(text);
    const expect = r.error ? { code: "bad-call", message: r.error } : explainLine(JSON.stringify(r.line));
    return { id, op: r.error ? "error" : "explain", call: text, expect };
  });
  for (const [id, message] of MESSAGES) {
    const text = JSON.stringify(message);
    const r = callsOfMessage(text);
    const expect = r.error ? { code: "bad-call", message: r.error }
      : r.calls.map((c) => explainLine(JSON.stringify(asRecordingLine(c).line)));
    cases.push({ id: `message-${id}`, op: r.error ? "calls-error" : "calls", call: text, expect });
  }
  return {
    description: "Tool calls in the shapes agents emit, read by the core: each must explain (and fingerprint) as the " +
      "recording line it stands for, or give the error. Expected values from test/reference/shapes.mjs and " +
      "test/reference/diagnostics.mjs (never the core). Generated by scripts/gen-call-shapes-vectors.mjs.",
    version: 1,
    cases,
  };
}

export function renderCallShapesVectors() {
  return JSON.stringify(buildCallShapesVectors(), null, 1) + "\n";
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const text = renderCallShapesVectors();
  if (process.argv.includes("--check")) {
    let now = "";
    try { now = readFileSync(CALL_SHAPES_VECTORS_PATH, "utf8"); } catch { /* missing */ }
    if (now !== text) { console.error("vectors/call-shapes.vectors.json is stale: run node scripts/gen-call-shapes-vectors.mjs"); process.exit(1); }
    console.log("vectors/call-shapes.vectors.json is current");
  } else {
    writeFileSync(CALL_SHAPES_VECTORS_PATH, text);
    console.log(`wrote ${buildCallShapesVectors().cases.length} cases to vectors/call-shapes.vectors.json`);
  }
}
