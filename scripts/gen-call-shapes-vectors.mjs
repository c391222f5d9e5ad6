// Writes vectors/call-shapes.vectors.json: one tool call in each shape agents
// emit, written here by hand from the providers' public formats and the dumps
// their SDKs write (D21–D23), with the explanation (and so the fingerprint)
// each must get, or the error: "error"/"calls-error" hold its code and whole
// message, "error-includes" its code and a part of its message.
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

const chat = (id, name, args) => ({ id, type: "function", function: { name, arguments: JSON.stringify(args) } });
/** A google-genai Part as its default model_dump() writes it: every field, null when unset. */
function genaiPart(key, call, text = null) {
  const none = ["media_resolution", "code_execution_result", "executable_code", "file_data", "function_response",
    "inline_data", "thought", "thought_signature", "video_metadata", "tool_call", "tool_response", "part_metadata"];
  const camel = (k) => (key === "functionCall" ? k.replace(/_([a-z])/g, (_, c) => c.toUpperCase()) : k);
  const part = {};
  for (const k of none) part[camel(k)] = null;
  part[key] = call;
  part.text = text;
  return part;
}

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
  // A line without args may carry its tool's result in "output" or "content": a line, not a message.
  ["line-carries-output-array", { name: "list_files", output: ["a.txt", "b.txt"], content: [{ type: "text", text: "2 files" }] }],
  // D21: one shape or none. A line's args/argsJSON beside a provider's marker names both.
  ["error-line-and-tool-use", { name: W, args: { city: "Rome" }, type: "tool_use" }],
  ["error-line-and-function-call-type", { name: W, args: { city: "Rome" }, type: "function_call" }],
  ["error-line-and-gemini", { name: W, args: { city: "Rome" }, functionCall: { name: W, args: { city: "Paris" } } }],
  ["error-tool-use-with-args", { type: "tool_use", id: "toolu_3", name: W, input: { city: "Paris" }, args: { city: "Rome" } }],
  ["error-vercel-with-args-json", { type: "tool-call", toolCallId: "t2", toolName: W, input: {}, argsJSON: "{}" }],
  ["error-vercel-input-and-args", { type: "tool-call", toolCallId: "t3", toolName: W, input: { city: "Paris" }, args: { city: "Rome" } }],
  ["error-gemini-both-spellings", { functionCall: { name: W, args: {} }, function_call: { name: W, args: {} } }],
  ["error-genai-args-and-arguments", { function_call: { name: W, args: { city: "Paris" }, arguments: '{"city":"Rome"}' } }],
  // A null member is absent: pydantic dumps write every field.
  ["line-null-markers-are-absent", { name: W, args: ARGS, type: null, function: null, jsonrpc: null, toolUse: null, functionCall: null, function_call: null }],
  ["anthropic-with-null-args", { type: "tool_use", id: "toolu_4", name: W, input: ARGS, args: null }],
  // A line may carry members a piece has ("delta", "object", "index") along: only a piece's markers refuse it.
  ["line-carries-delta-object-index", { name: W, args: ARGS, delta: { from: "v1" }, object: "chat.completion", index: 0 }],
  // D22: google-genai's dumps (model_dump(), to_json_dict(); by_alias=True writes functionCall).
  ["genai-part-model-dump", genaiPart("function_call", { id: null, args: ARGS, name: W, partial_args: null, will_continue: null })],
  ["genai-part-by-alias", genaiPart("functionCall", { id: null, args: ARGS, name: W, partialArgs: null, willContinue: null })],
  ["genai-part-to-json-dict", { function_call: { args: ARGS, name: W } }],
  // OpenAI's legacy functions API wrote function_call too, with "arguments" (JSON text).
  ["openai-legacy-function-call", { role: "assistant", content: null, function_call: { name: W, arguments: TEXT }, tool_calls: null }],
  // D22: Vercel's provider-level tool-call (LanguageModelV3ToolCall): input is JSON text.
  ["vercel-provider-input-text", { type: "tool-call", toolCallId: "t4", toolName: W, input: TEXT, providerExecuted: false }],
  // D22: MCP's CallToolRequest without the JSON-RPC envelope (a server handler's request; Python's dump).
  ["mcp-without-envelope", { method: "tools/call", params: { _meta: null, name: W, arguments: ARGS, task: null } }],
  ["mcp-without-envelope-js", { method: "tools/call", params: { name: W, arguments: ARGS } }],
  ["error-mcp-without-envelope-no-name", { method: "tools/call", params: { arguments: ARGS } }],
  // D23: an OpenAI stream's tool call delta ("index" and not whole) is a piece; the assembled call keeps "index".
  ["error-openai-first-delta", { index: 0, id: "call_1", type: "function", function: { name: W, arguments: "" } }],
  ["error-openai-later-delta", { index: 0, function: { arguments: '{"city":"Pa' } }],
  ["openai-assembled-keeps-index", { id: "call_1", function: { arguments: TEXT, name: W, parsed_arguments: null }, type: "function", index: 0 }],
  ["error-gemini-partial-args", { functionCall: { name: W, partialArgs: [{ jsonPath: "$.city", stringValue: "Pa" }], willContinue: true } }],
  ["error-genai-will-continue", { function_call: { name: W, args: null, will_continue: true } }],
  ["error-langchain-tool-call-chunk", { name: W, args: '{"city":"Pa', id: "c1", index: 0, type: "tool_call_chunk" }],
  ["error-vercel-tool-input-delta", { type: "tool-input-delta", id: "t1", delta: '{"city":"Pa' }],
  ["error-vercel-tool-input-start", { type: "tool-input-start", id: "t1", toolName: W }],
  ["error-vercel-finish-step", { type: "finish-step", finishReason: "tool-calls", usage: { inputTokens: 10 } }],
  ["error-vercel-stream-start", { type: "stream-start", warnings: [] }],
  ["error-bedrock-stream-block-start", { contentBlockStart: { start: { toolUse: { toolUseId: "t1", name: W } }, contentBlockIndex: 0 } }],
  ["error-bedrock-stream-delta", { contentBlockDelta: { delta: { toolUse: { input: "{\"city\":" } }, contentBlockIndex: 0 } }],
  ["responses-custom-tool-call", { type: "custom_tool_call", call_id: "call_1", name: W, input: "Paris, 3 days" }],
  ["responses-output-custom-tool-call", { id: "resp_1", output: [{ type: "reasoning", id: "r1", summary: [] },
    { type: "custom_tool_call", call_id: "call_1", name: W, input: "Paris" }, { type: "function_call", call_id: "call_2", name: W, arguments: "{\"city\":\"Rome\"}" }] }],
  ["error-chat-tool-definition", { type: "function", function: { name: W, description: "d", parameters: { type: "object" } } }],
  ["error-anthropic-tool-definition", { name: W, description: "d", input_schema: { type: "object" } }],
  ["error-mcp-tool-definition", { name: W, description: "d", inputSchema: { type: "object" } }],
  ["line-carrying-type-finish", { name: W, args: { city: "Paris" }, type: "finish" }],
  ["error-vercel-v4-tool-call-delta", { type: "tool-call-delta", toolCallType: "function", toolCallId: "t1", toolName: W, argsTextDelta: "{" }],
  ["error-anthropic-content-block-start", { type: "content_block_start", index: 1, content_block: { type: "tool_use", id: "toolu_1", name: W, input: {} } }],
  ["error-anthropic-input-json-delta", { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '{"city": "Pa' } }],
  ["error-responses-arguments-delta", { type: "response.function_call_arguments.delta", item_id: "fc_1", output_index: 0, delta: '{"ci', sequence_number: 4 }],
  ["error-responses-output-item-done", { type: "response.output_item.done", output_index: 0, item: { type: "function_call", name: W, arguments: TEXT, call_id: "c" } }],
  ["error-openai-chunk", { id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "m", choices: [
    { index: 0, delta: { role: "assistant", tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: W, arguments: "" } }] }, finish_reason: null }] }],
  ["error-openai-choice-delta", { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: "{" } }] }, finish_reason: null }],
  // Messages where one call is expected name explainCalls; a missing "name" names the shape nearly matched.
  ["error-message-given-as-one-call", { role: "assistant", tool_calls: [chat("c1", W, { city: "Paris" }), chat("c2", "get_time", {})] }],
  ["error-array-given-as-one-call", [{ name: W, args: ARGS }]],
  ["error-user-message-with-name", { role: "user", name: "alice", content: "What is the weather?" }],
  ["error-langchain-tool-message", { content: "sunny", type: "tool", name: W, tool_call_id: "c1", status: "success", artifact: null }],
  ["error-vercel-without-type", { toolCallId: "t1", toolName: W, input: ARGS }],
  ["error-anthropic-without-type", { id: "toolu_5", input: ARGS }],
  ["error-mcp-params-without-method", { id: 3, params: { name: W, arguments: ARGS } }],
];

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
  // D22: google-genai's dumps of a content and a response (model_dump(): snake_case, every field).
  ["genai-content-model-dump", { parts: [genaiPart("function_call", null, "Checking."),
    genaiPart("function_call", { id: null, args: { city: "Paris" }, name: W, partial_args: null, will_continue: null })], role: "model" }],
  ["genai-content-by-alias", { parts: [genaiPart("functionCall", null, "Checking."),
    genaiPart("functionCall", { id: null, args: { city: "Oslo" }, name: W, partialArgs: null, willContinue: null })], role: "model" }],
  ["genai-response-model-dump", { sdk_http_response: null, candidates: [{ content: { parts: [
    genaiPart("function_call", { id: null, args: { city: "Lima" }, name: W, partial_args: null, will_continue: null }),
    genaiPart("function_call", { id: null, args: null, name: "get_time", partial_args: null, will_continue: null })], role: "model" },
  citation_metadata: null, finish_message: null, token_count: null, finish_reason: "STOP", index: 0 }],
  create_time: null, model_version: null, prompt_feedback: null, response_id: null, usage_metadata: null,
  automatic_function_calling_history: null, parsed: null }],
  ["genai-text-only-model-dump", { parts: [genaiPart("function_call", null, "Hello.")], role: "model" }],
  // D22: LangChain's persisted messages: messages_to_dict and dumpd (Python), JSON.stringify and stored messages (JS).
  ["langchain-messages-to-dict", [
    { type: "human", data: { content: "Weather in Paris?", additional_kwargs: {}, response_metadata: {}, type: "human", name: null, id: null } },
    { type: "ai", data: { content: "", additional_kwargs: {}, response_metadata: {}, type: "ai", name: null, id: null,
      tool_calls: [{ name: W, args: { city: "Paris" }, id: "c1", type: "tool_call" }], invalid_tool_calls: [], usage_metadata: null } },
    { type: "tool", data: { content: "sunny", additional_kwargs: {}, response_metadata: {}, type: "tool", name: W, id: null,
      tool_call_id: "c1", artifact: null, status: "success" } }]],
  ["langchain-dumpd", { lc: 1, type: "constructor", id: ["langchain", "schema", "messages", "AIMessage"], kwargs: { content: "", type: "ai",
    tool_calls: [{ name: W, args: { city: "Paris" }, id: "c1", type: "tool_call" }, { name: "get_time", args: {}, id: "c2", type: "tool_call" }],
    invalid_tool_calls: [] } }],
  ["langchain-dumpd-human", { lc: 1, type: "constructor", id: ["langchain", "schema", "messages", "HumanMessage"], kwargs: { content: "hi", type: "human" } }],
  ["langchain-dumpd-text-only", { lc: 1, type: "constructor", id: ["langchain", "schema", "messages", "AIMessage"], kwargs: { content: "Hello.", type: "ai" } }],
  ["langchain-js-to-json", { lc: 1, type: "constructor", id: ["langchain_core", "messages", "AIMessage"], kwargs: { content: "",
    tool_calls: [{ name: W, args: { city: "Oslo" }, id: "c1" }], invalid_tool_calls: [], additional_kwargs: {}, response_metadata: {} } }],
  ["langchain-js-stored-messages", [{ type: "ai", data: { content: "", tool_calls: [{ name: W, args: { city: "Lima" }, id: "c1" }],
    invalid_tool_calls: [], additional_kwargs: {}, response_metadata: {} } },
  { type: "tool", data: { content: "sunny", tool_call_id: "c1", name: W, additional_kwargs: {}, response_metadata: {} } }]],
  // D22: arrays of calls or messages hold the calls of their elements, in order.
  ["array-responses-output", [{ type: "reasoning", id: "rs_1", summary: [] },
    { type: "function_call", id: "fc_1", call_id: "call_1", name: W, arguments: '{"city":"Lima"}', status: "completed" },
    { type: "message", id: "msg_1", role: "assistant", content: [{ type: "output_text", text: "Checking." }] },
    { type: "function_call", id: "fc_2", call_id: "call_2", name: "get_time", arguments: "{}", status: "completed" }]],
  ["array-vercel-tool-calls", [{ type: "tool-call", toolCallId: "t1", toolName: W, input: { city: "Paris" } },
    { type: "tool-call", toolCallId: "t2", toolName: "get_time", input: { tz: "UTC" } }]],
  ["array-vercel-content-with-results", [{ type: "text", text: "Checking." }, { type: "tool-call", toolCallId: "t1", toolName: W, input: { city: "Paris" } },
    { type: "tool-result", toolCallId: "t1", toolName: W, input: { city: "Paris" }, output: "sunny" }]],
  ["array-vercel-steps", [{ content: [{ type: "tool-call", toolCallId: "t1", toolName: W, input: { city: "Paris" } },
    { type: "tool-result", toolCallId: "t1", toolName: W, input: { city: "Paris" }, output: "sunny" }],
  text: "", toolCalls: [{ type: "tool-call", toolCallId: "t1", toolName: W, input: { city: "Paris" } }], finishReason: "tool-calls" },
  { content: [{ type: "text", text: "It is sunny." }], text: "It is sunny.", toolCalls: [], finishReason: "stop" }]],
  ["array-chat-conversation", [{ role: "user", content: "Weather in Paris and the time?" },
    { role: "assistant", content: null, tool_calls: [chat("c1", W, { city: "Paris" }), chat("c2", "get_time", {})] },
    { role: "tool", tool_call_id: "c1", content: "sunny" }, { role: "tool", tool_call_id: "c2", content: "noon" }]],
  ["array-gemini-parts", [{ text: "Checking." }, { functionCall: { name: W, args: { city: "Rome" } } }]],
  ["array-empty", []],
  ["array-unknown-element-is-read-as-a-call", [{ type: "tool-call", toolCallId: "t1", toolName: W, input: {} }, { city: "Paris" }]],
  ["array-of-strings", ["get_weather"]],
  // The assembled stream results are read (their tool calls keep "index").
  ["openai-final-chat-completion", { id: "x", choices: [{ finish_reason: "tool_calls", index: 0, logprobs: null, message: { content: null,
    refusal: null, role: "assistant", annotations: null, audio: null, function_call: null, tool_calls: [{ id: "c1",
      function: { arguments: '{"city":"Paris"}', name: W, parsed_arguments: null }, type: "function", index: 0 }], parsed: null } }],
  created: 1, model: "m", object: "chat.completion", usage: null }],
  // D23: streaming pieces given as messages.
  ["error-openai-chunk", { id: "x", choices: [{ delta: { audio: null, content: null, function_call: null, refusal: null, role: "assistant",
    tool_calls: [{ index: 0, id: "c1", function: { arguments: "", name: W }, type: "function" }] }, index: 0, finish_reason: null, logprobs: null }],
  created: 1, model: "m", object: "chat.completion.chunk", usage: null }],
  ["error-openai-chunk-without-object", { id: "x", choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: "{" } }] } }] }],
  ["error-openai-bare-delta", { role: "assistant", content: null, tool_calls: [{ index: 0, id: "c1", type: "function", function: { name: W, arguments: "" } }] }],
  ["error-responses-completed-event", { type: "response.completed", sequence_number: 9, response: { id: "resp_1", object: "response",
    output: [{ type: "function_call", call_id: "c", name: W, arguments: "{}" }] } }],
  ["error-anthropic-message-start", { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", content: [] } }],
  ["error-langchain-chunk-model-dump", { content: "", additional_kwargs: {}, response_metadata: {}, type: "AIMessageChunk", name: null, id: null,
    tool_calls: [{ name: W, args: { city: "Pa" }, id: "c1", type: "tool_call" }], invalid_tool_calls: [], usage_metadata: null,
    tool_call_chunks: [{ name: W, args: '{"city":"Pa', id: "c1", index: 0, type: "tool_call_chunk" }], chunk_position: null }],
  ["error-langchain-chunk-dumpd", { lc: 1, type: "constructor", id: ["langchain", "schema", "messages", "AIMessageChunk"], kwargs: {
    content: "", type: "AIMessageChunk", tool_calls: [{ name: W, args: { city: "Pa" }, id: "c1", type: "tool_call" }],
    tool_call_chunks: [{ name: W, args: '{"city":"Pa', id: "c1", index: 0, type: "tool_call_chunk" }], invalid_tool_calls: [] } }],
  ["error-langchain-js-chunk-stored", [{ type: "ai", data: { content: "", tool_call_chunks: [{ name: W, args: '{"city":"Pa', id: "c1", index: 0 }],
    tool_calls: [{ name: W, args: { city: "Pa" }, id: "c1", type: "tool_call" }], invalid_tool_calls: [] } }]],
  ["error-array-with-a-stream-event", [{ type: "tool-call", toolCallId: "t1", toolName: W, input: {} }, { type: "content_block_stop", index: 0 }]],
  // A Vercel UI message's tool parts ("tool-<name>", with a state) are refused, never skipped as zero calls.
  ["error-vercel-ui-message", { id: "m1", role: "assistant", parts: [{ type: "step-start" },
    { type: "tool-get_weather", toolCallId: "t1", state: "input-available", input: { city: "Paris" } }, { type: "text", text: "Checking." }] }],
  ["error-vercel-ui-dynamic-tool-in-array", [{ type: "text", text: "Checking." },
    { type: "dynamic-tool", toolName: W, toolCallId: "t1", state: "input-streaming", input: { city: "Pa" } }]],
  ["vercel-ui-message-without-tools", { id: "m2", role: "assistant", parts: [{ type: "step-start" }, { type: "text", text: "Hello." }] }],
  ["error-vercel-stream-parts", [{ type: "tool-input-start", id: "t1", toolName: W }, { type: "tool-input-delta", id: "t1", delta: "{" }]],
];

// Errors whose message is the host's (a JSON text error at an offset): the vector holds its code and a
// part of its message ("error-includes"); the CLI adds the line and column after it.
const TEXT_ERRORS = [
  // D22: Vercel's provider-level input is JSON text, read (and its errors placed) as argsJSON.
  ["error-vercel-provider-input-bad-text", { type: "tool-call", toolCallId: "t5", toolName: W, input: '{"city": }' },
    { code: "unexpected-character", includes: `argsJSON: invalid JSON: unexpected character at byte ${'{"city": '.length}` }],
  ["error-mcp-without-envelope-bad-text", { method: "tools/call", params: { name: W, arguments: '{"city":"Paris",}' } },
    { code: "unexpected-character", includes: `argsJSON: invalid JSON: unexpected character at byte ${'{"city":"Paris",'.length}` }],
];

/** The explanations of a message's calls, or the first call's error (an error stops explainCalls). */
function explainAll(calls) {
  const out = [];
  for (const c of calls) {
    const r = asRecordingLine(c);
    if (r.error) return { error: { code: r.code, message: r.error } };
    out.push(explainLine(JSON.stringify(r.line)));
  }
  return { explained: out };
}

/** What the CLIs print for the text as a line (a line may be a message, D22): its calls' fingerprints, or the error. */
function cliOf(text) {
  const r = callsOfMessage(text);
  const all = r.error ? { error: { code: r.code, message: r.error } } : explainAll(r.calls);
  return all.error ?? { calls: all.explained.map((e) => ({ name: e.name, fingerprint: e.fingerprint })) };
}

export function buildCallShapesVectors() {
  const cases = CALLS.map(([id, call]) => {
    const text = JSON.stringify(call);
    const r = asRecordingLine(text);
    const expect = r.error ? { code: r.code, message: r.error } : explainLine(JSON.stringify(r.line));
    return { id, op: r.error ? "error" : "explain", call: text, expect, cli: cliOf(text) };
  });
  for (const [id, call, expect] of TEXT_ERRORS) cases.push({ id, op: "error-includes", call: JSON.stringify(call), expect, cli: expect });
  for (const [id, message] of MESSAGES) {
    const text = JSON.stringify(message);
    const r = callsOfMessage(text);
    const all = r.error ? { error: { code: r.code, message: r.error } } : explainAll(r.calls);
    cases.push({ id: `message-${id}`, op: all.error ? "calls-error" : "calls", call: text, expect: all.error ?? all.explained, cli: cliOf(text) });
  }
  return {
    description: "Tool calls in the shapes agents emit, read by the core: each must explain (and fingerprint) as the " +
      "recording line it stands for, or give the error (code and message; error-includes: code and a part of the message). " +
      "cli: what the CLIs print for the call as a line, where a message or an array stands for its calls. " +
      "Expected values from test/reference/shapes.mjs and " +
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
