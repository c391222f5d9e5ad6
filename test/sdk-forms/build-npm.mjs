// Builds, offline, every form in which the npm provider SDKs hand over a tool
// call: the SDK's own client over a mock `fetch` (openai, @anthropic-ai/sdk),
// `ai/test`'s MockLanguageModelV3 (ai), MCP's in-memory transport
// (@modelcontextprotocol/sdk), LangChain's own message classes
// (@langchain/core). Nothing here is written as JSON by hand except the
// provider's HTTP answer the mock transport returns, which the SDK then
// parses into its own objects. Test-only; read by scripts/gen-sdk-forms.mjs
// (which records the JSON forms in vectors/sdk-forms.npm.json) and by
// test/sdk-forms.test.ts (which also feeds the live objects to the API).
//
// Each form: { sdk, form, value, expect } where expect is
//   { calls: ["get_weather", ...] }  the calls it holds, in order, or
//   { error: "partial-call" | "bad-call" | "unsupported-value" | ... }.
import { readFileSync } from "node:fs";
import OpenAI from "openai";
import Anthropic from "@anthropic-ai/sdk";
import { generateText, streamText, jsonSchema, tool } from "ai";
import { MockLanguageModelV3, convertArrayToReadableStream } from "ai/test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { CallToolRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { AIMessage, AIMessageChunk, mapChatMessagesToStoredMessages } from "@langchain/core/messages";
import { CALLS } from "./calls.mjs";

/** The installed version of a package (the lock file pins it); read from node_modules: not every package exports its package.json. */
export function versionOf(name) {
  return JSON.parse(readFileSync(new URL(`../../node_modules/${name}/package.json`, import.meta.url), "utf8")).version;
}
export const NPM_SDKS = ["openai", "@anthropic-ai/sdk", "ai", "@modelcontextprotocol/sdk", "@langchain/core"];

const W = CALLS.get_weather, T = CALLS.get_time;
const wText = JSON.stringify(W.args), tText = JSON.stringify(T.args);
const BOTH = { calls: ["get_weather", "get_time"] }, ONE = { calls: ["get_weather"] };
const PARTIAL = { error: "partial-call" };

/** A fetch that answers every request with `body` (JSON) or SSE `events`. */
function mockFetch(answer) {
  return async () => {
    const a = answer();
    if (a.events) {
      const sse = a.events.map((e) => (e.event ? `event: ${e.event}\n` : "") + `data: ${JSON.stringify(e.data)}\n\n`).join("") +
        (a.done ? "data: [DONE]\n\n" : "");
      return new Response(sse, { status: 200, headers: { "content-type": "text/event-stream" } });
    }
    return new Response(JSON.stringify(a.body), { status: 200, headers: { "content-type": "application/json", "request-id": "req_1", "x-request-id": "req_1" } });
  };
}

/** Drops what a form should not carry into a fixture: undefined members, by JSON's own rule. */
const plain = (v) => JSON.parse(JSON.stringify(v));

async function openaiChat() {
  const completion = {
    id: "chatcmpl-1", object: "chat.completion", created: 1700000000, model: "gpt-4o-mini",
    choices: [{ index: 0, finish_reason: "tool_calls", logprobs: null, message: { role: "assistant", content: null, refusal: null,
      tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: wText } },
        { id: "call_2", type: "function", function: { name: "get_time", arguments: tText } }] } }],
    usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 },
  };
  // The stream cuts each call's arguments in two, as the API does.
  const chunk = (delta, finish = null) => ({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1700000000, model: "gpt-4o-mini",
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }] });
  const chunks = [
    chunk({ role: "assistant", content: null, tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "get_weather", arguments: "" } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: wText.slice(0, 9) } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: wText.slice(9) } }] }),
    chunk({ tool_calls: [{ index: 1, id: "call_2", type: "function", function: { name: "get_time", arguments: tText } }] }),
    chunk({}, "tool_calls"),
  ];
  let next = () => ({ body: completion });
  const client = new OpenAI({ apiKey: "sk-test", baseURL: "http://mock.invalid/v1", fetch: mockFetch(() => next()), maxRetries: 0 });
  const req = { model: "gpt-4o-mini", messages: [{ role: "user", content: "Weather and time in Paris?" }] };
  const res = await client.chat.completions.create(req);
  const msg = res.choices[0].message;
  const out = [
    ["chat.completions.create() response", res, BOTH],
    ["choices[0].message", msg, BOTH],
    ["message.tool_calls", msg.tool_calls, BOTH],
    ["message.tool_calls[0]", msg.tool_calls[0], ONE],
  ];
  next = () => ({ events: chunks.map((data) => ({ data })), done: true });
  const stream = await client.chat.completions.create({ ...req, stream: true });
  let i = 0;
  for await (const c of stream) out.push([`stream chunk ${i++}`, c, PARTIAL]);
  const runner = client.chat.completions.stream(req);
  out.push(["stream(): finalChatCompletion()", await runner.finalChatCompletion(), BOTH]);
  return out.map(([form, value, expect]) => ({ sdk: "openai", form: `Chat Completions: ${form}`, value, expect }));
}

async function openaiResponses() {
  const item = (id, callId, c) => ({ type: "function_call", id, call_id: callId, name: c.name, arguments: JSON.stringify(c.args), status: "completed" });
  const response = {
    id: "resp_1", object: "response", created_at: 1700000000, status: "completed", model: "gpt-4o-mini", error: null,
    incomplete_details: null, instructions: null, metadata: {}, parallel_tool_calls: true, temperature: 1, tool_choice: "auto", tools: [], top_p: 1,
    output: [item("fc_1", "call_1", W), item("fc_2", "call_2", T)],
    usage: { input_tokens: 10, output_tokens: 20, total_tokens: 30, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
  };
  const inProgress = { ...response, status: "in_progress", output: [], usage: null };
  const first = { ...item("fc_1", "call_1", W), arguments: "", status: "in_progress" };
  const events = [
    { type: "response.created", sequence_number: 0, response: inProgress },
    { type: "response.output_item.added", sequence_number: 1, output_index: 0, item: first },
    { type: "response.function_call_arguments.delta", sequence_number: 2, output_index: 0, item_id: "fc_1", delta: wText.slice(0, 9) },
    { type: "response.function_call_arguments.delta", sequence_number: 3, output_index: 0, item_id: "fc_1", delta: wText.slice(9) },
    { type: "response.function_call_arguments.done", sequence_number: 4, output_index: 0, item_id: "fc_1", name: "get_weather", arguments: wText },
    { type: "response.output_item.done", sequence_number: 5, output_index: 0, item: item("fc_1", "call_1", W) },
    { type: "response.output_item.added", sequence_number: 6, output_index: 1, item: { ...item("fc_2", "call_2", T), arguments: "", status: "in_progress" } },
    { type: "response.function_call_arguments.done", sequence_number: 7, output_index: 1, item_id: "fc_2", name: "get_time", arguments: tText },
    { type: "response.output_item.done", sequence_number: 8, output_index: 1, item: item("fc_2", "call_2", T) },
    { type: "response.completed", sequence_number: 9, response },
  ];
  let next = () => ({ body: response });
  const client = new OpenAI({ apiKey: "sk-test", baseURL: "http://mock.invalid/v1", fetch: mockFetch(() => next()), maxRetries: 0 });
  const req = { model: "gpt-4o-mini", input: "Weather and time in Paris?" };
  const res = await client.responses.create(req);
  const out = [
    ["responses.create() response", res, BOTH],
    ["response.output", res.output, BOTH],
    ["response.output[0]", res.output[0], ONE],
  ];
  next = () => ({ events: events.map((data) => ({ event: data.type, data })) });
  const stream = await client.responses.create({ ...req, stream: true });
  for await (const e of stream) out.push([`stream event ${e.sequence_number} ${e.type}`, e, PARTIAL]);
  out.push(["stream(): finalResponse()", await client.responses.stream(req).finalResponse(), BOTH]);
  return out.map(([form, value, expect]) => ({ sdk: "openai", form: `Responses: ${form}`, value, expect }));
}

async function anthropic() {
  const message = {
    id: "msg_1", type: "message", role: "assistant", model: "claude-mock", stop_reason: "tool_use", stop_sequence: null,
    content: [{ type: "text", text: "Checking." },
      { type: "tool_use", id: "toolu_1", name: "get_weather", input: W.args },
      { type: "tool_use", id: "toolu_2", name: "get_time", input: T.args }],
    usage: { input_tokens: 10, output_tokens: 20 },
  };
  const events = [
    { type: "message_start", message: { ...message, content: [], stop_reason: null } },
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Checking." } },
    { type: "content_block_stop", index: 0 },
    { type: "content_block_start", index: 1, content_block: { type: "tool_use", id: "toolu_1", name: "get_weather", input: {} } },
    { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: wText.slice(0, 9) } },
    { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: wText.slice(9) } },
    { type: "content_block_stop", index: 1 },
    { type: "content_block_start", index: 2, content_block: { type: "tool_use", id: "toolu_2", name: "get_time", input: {} } },
    { type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: tText } },
    { type: "content_block_stop", index: 2 },
    { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 20 } },
    { type: "message_stop" },
  ];
  let next = () => ({ body: message });
  const client = new Anthropic({ apiKey: "sk-ant-test", baseURL: "http://mock.invalid", fetch: mockFetch(() => next()), maxRetries: 0 });
  const req = { model: "claude-mock", max_tokens: 100, messages: [{ role: "user", content: "Weather and time in Paris?" }] };
  const res = await client.messages.create(req);
  const out = [
    ["messages.create() message", res, BOTH],
    ["message.content", res.content, BOTH],
    ["message.content[1] (tool_use block)", res.content[1], ONE],
  ];
  next = () => ({ events: events.map((data) => ({ event: data.type, data })) });
  const stream = await client.messages.create({ ...req, stream: true });
  let i = 0;
  for await (const e of stream) out.push([`stream event ${i++} ${e.type}`, e, PARTIAL]);
  out.push(["stream(): finalMessage()", await client.messages.stream(req).finalMessage(), BOTH]);
  return out.map(([form, value, expect]) => ({ sdk: "@anthropic-ai/sdk", form, value, expect }));
}

async function vercel() {
  const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 20, text: 20, reasoning: undefined } };
  const content = [{ type: "tool-call", toolCallId: "call_1", toolName: "get_weather", input: wText },
    { type: "tool-call", toolCallId: "call_2", toolName: "get_time", input: tText }];
  const response = { id: "resp_1", modelId: "mock-model", timestamp: new Date(0) };
  const parts = [
    { type: "stream-start", warnings: [] },
    { type: "response-metadata", ...response },
    { type: "tool-input-start", id: "call_1", toolName: "get_weather" },
    { type: "tool-input-delta", id: "call_1", delta: wText.slice(0, 9) },
    { type: "tool-input-delta", id: "call_1", delta: wText.slice(9) },
    { type: "tool-input-end", id: "call_1" },
    content[0],
    content[1],
    { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage },
  ];
  const model = new MockLanguageModelV3({
    doGenerate: async () => ({ content, finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [], response }),
    doStream: async () => ({ stream: convertArrayToReadableStream(parts), response: { headers: {} } }),
  });
  const tools = {
    get_weather: tool({ inputSchema: jsonSchema({ type: "object", properties: { city: { type: "string" }, days: { type: "number" } } }) }),
    get_time: tool({ inputSchema: jsonSchema({ type: "object", properties: { tz: { type: "string" } } }) }),
  };
  const opts = { model, tools, prompt: "Weather and time in Paris?" };
  const provider = await model.doGenerate({ prompt: [] });
  const result = await generateText(opts);
  const assistant = result.response.messages[0];
  const out = [
    ["doGenerate() content (provider level, input as JSON text)", provider.content, BOTH],
    ["doGenerate() content[0] (provider-level tool-call)", provider.content[0], ONE],
    ["generateText(): result.toolCalls", result.toolCalls, BOTH],
    ["generateText(): result.toolCalls[0]", result.toolCalls[0], ONE],
    ["generateText(): result.content", result.content, BOTH],
    ["JSON of generateText(): result.steps[0] (a StepResult)", plain(result.steps[0]), BOTH],
    ["JSON of the generateText() result (a GenerateTextResult: {steps, ...})", plain(result), { error: "bad-call" }],
    ["generateText(): result.response.messages[0] (assistant message)", assistant, BOTH],
    ["generateText(): result.response.messages", result.response.messages, BOTH],
  ];
  const s = streamText(opts);
  let i = 0;
  for await (const part of s.fullStream) {
    // A `tool-call` part is a whole call (the assembled one); the others are pieces.
    out.push([`streamText(): fullStream part ${i++} ${part.type}`, part, part.type === "tool-call" ? { calls: [part.toolName] } : PARTIAL]);
  }
  out.push(["streamText(): await toolCalls", await s.toolCalls, BOTH]);
  const raw = await model.doStream({ prompt: [] });
  i = 0;
  for await (const part of raw.stream) {
    out.push([`doStream() part ${i++} ${part.type}`, part, part.type === "tool-call" ? { calls: [part.toolName] } : PARTIAL]);
  }
  return { forms: out.map(([form, value, expect]) => ({ sdk: "ai", form, value, expect })), result };
}

async function mcp() {
  const [clientT, serverT] = InMemoryTransport.createLinkedPair();
  const wire = [];
  const send = clientT.send.bind(clientT);
  clientT.send = async (m, o) => { wire.push(structuredClone(m)); return send(m, o); };
  const server = new Server({ name: "weather", version: "1.0.0" }, { capabilities: { tools: {} } });
  let handled;
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    handled = request;
    return { content: [{ type: "text", text: "18C" }] };
  });
  const client = new Client({ name: "agent", version: "1.0.0" });
  await Promise.all([server.connect(serverT), client.connect(clientT)]);
  await client.callTool({ name: W.name, arguments: W.args });
  await client.close();
  await server.close();
  const request = wire.find((m) => m.method === "tools/call");
  return [
    ["client.callTool(): the JSON-RPC request on the wire", request, ONE],
    ["server handler's request (no JSON-RPC envelope)", handled, ONE],
    ["CallToolRequestSchema.parse() of the wire request", CallToolRequestSchema.parse(request), ONE],
  ].map(([form, value, expect]) => ({ sdk: "@modelcontextprotocol/sdk", form, value, expect }));
}

function langchain() {
  const msg = new AIMessage({ content: "", id: "run-1", tool_calls: [
    { name: W.name, args: W.args, id: "call_1", type: "tool_call" }, { name: T.name, args: T.args, id: "call_2", type: "tool_call" }] });
  const c1 = new AIMessageChunk({ content: "", id: "run-1", tool_call_chunks: [{ name: W.name, args: wText.slice(0, 9), id: "call_1", index: 0, type: "tool_call_chunk" }] });
  const c2 = new AIMessageChunk({ content: "", id: "run-1", tool_call_chunks: [{ args: wText.slice(9), index: 0, type: "tool_call_chunk" }] });
  const whole = c1.concat(c2);
  return [
    ["AIMessage (toJSON: the lc constructor form)", msg, BOTH],
    ["JSON.stringify(AIMessage)", plain(msg), BOTH],
    ["mapChatMessagesToStoredMessages([AIMessage])", mapChatMessagesToStoredMessages([msg]), BOTH],
    ["mapChatMessagesToStoredMessages([AIMessage])[0]", mapChatMessagesToStoredMessages([msg])[0], BOTH],
    ["AIMessage.tool_calls", msg.tool_calls, BOTH],
    ["AIMessage.tool_calls[0]", msg.tool_calls[0], ONE],
    ["AIMessageChunk (stream piece 0)", c1, PARTIAL],
    ["AIMessageChunk (stream piece 1)", c2, PARTIAL],
    ["AIMessageChunk.concat() of the pieces (still a chunk)", whole, PARTIAL],
  ].map(([form, value, expect]) => ({ sdk: "@langchain/core", form, value, expect }));
}

/**
 * Objects a user builds by spreading an SDK's call into a recording line (or
 * the reverse): each matches two shapes, a bad-call naming both (D21), never
 * one of them silently. Built from the SDKs' own objects above.
 */
function spreads(forms) {
  const find = (sdk, form) => forms.find((f) => f.sdk === sdk && f.form === form).value;
  const block = find("@anthropic-ai/sdk", "message.content[1] (tool_use block)");
  const item = find("openai", "Responses: response.output[0]");
  const lc = find("@langchain/core", "AIMessage.tool_calls[0]");
  return [
    ["{ ...tool_use block, args: block.input }", { ...block, args: block.input }],
    ["{ ...Responses function_call item, args: JSON.parse(item.arguments) }", { ...item, args: JSON.parse(item.arguments) }],
    ["{ ...LangChain tool call, type: \"tool_use\" }", { ...lc, type: "tool_use" }],
    ["{ ...LangChain tool call, type: \"function_call\" }", { ...lc, type: "function_call" }],
  ].map(([form, value]) => ({ sdk: "spread (D21)", form, value, expect: { error: "bad-call" } }));
}

/**
 * Every form, in a fixed order. `live` holds the objects that only exist in
 * a running program (class instances): they are fed to the API as they are.
 */
export async function buildNpmForms() {
  const v = await vercel();
  const forms = [...await openaiChat(), ...await openaiResponses(), ...await anthropic(), ...v.forms, ...await mcp(), ...langchain()];
  forms.push(...spreads(forms));
  // Class instances without toJSON are values D15 refuses, with their path.
  const live = [
    { sdk: "ai", form: "generateText() result (a DefaultGenerateTextResult instance)", value: v.result, expect: { error: "unsupported-value" } },
    { sdk: "ai", form: "generateText(): result.steps[0] (a DefaultStepResult instance)", value: v.result.steps[0], expect: { error: "unsupported-value" } },
  ];
  return { forms, live };
}
