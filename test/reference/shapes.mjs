// The independent oracle for the tool-call shapes agents emit (test-only):
// each provider's call turned into a recording line {name, args | argsJSON},
// written from the providers' documented formats and contract decisions
// D21–D23 with V8's JSON.parse — never the wasm core (its version:
// assembly/pipeline/shapes.ts, assembly/pipeline/pieces.ts). scripts/gen-call-shapes-vectors.mjs
// uses it to write vectors/call-shapes.vectors.json.
//
//   shape                      marker                         name, args
//   OpenAI Chat Completions    "function" object, type absent function.name, function.arguments
//                              or "function"                  (text; an object as is: Ollama)
//   OpenAI Responses           type "function_call"           name, arguments (text)
//   OpenAI Responses custom    type "custom_tool_call"        name, input (free text: a string value)
//   Anthropic Messages         type "tool_use"                name, input
//   Bedrock Converse           "toolUse"                      toolUse.name, toolUse.input
//   Gemini                     "functionCall"                 functionCall.name, functionCall.args
//   google-genai dumps (D22)   "function_call" without        function_call.name, .args
//                              "arguments" in it
//   OpenAI legacy functions    "function_call" with           function_call.name, .arguments (text)
//                              "arguments"
//   MCP tools/call             "jsonrpc", or "method":        params.name, params.arguments (text or value)
//                              "tools/call" (D22)
//   Vercel AI SDK              type "tool-call"               toolName, input ?? args (text: JSON, D22)
//   LangChain / recording line none                           read as a recording line
// A member whose value is null is absent. Absent args → null (D2). Two
// markers, or a marker beside a line's args/argsJSON, → an error naming
// both (D21). A streaming piece → a partial-call error (D23).
import { parseJSONText } from "./contract.mjs";
import { callError } from "./diagnostics.mjs";

export const ACCEPTED = 'accepted: a recording line {"name", "args" | "argsJSON"}, or a tool call of OpenAI Chat Completions, ' +
  "OpenAI Responses, Anthropic Messages, Bedrock Converse, Gemini, MCP tools/call, Vercel AI SDK or LangChain";

const LABEL = {
  chat: "an OpenAI Chat Completions tool call", responses: "an OpenAI Responses function_call",
  anthropic: "an Anthropic tool_use block", bedrock: "a Bedrock toolUse", gemini: "a Gemini functionCall",
  mcp: "an MCP request", vercel: "a Vercel AI SDK tool-call",
  genai: "a google-genai function_call (snake_case, read as a Gemini functionCall)",
  legacy: "an OpenAI legacy function_call", line: "a recording line",
  custom: "an OpenAI Responses custom_tool_call",
};

export const NOT_ONE_CALL = "this is a message or a response, not one call: read its tool calls with explainCalls " +
  "(Python: explain_calls; the CLI reads a line's calls), or pass one of them";
export const ARRAY_NOT_ONE_CALL = "this is an array, not one call: read the calls of an array of calls or messages with " +
  "explainCalls (Python: explain_calls; the CLI reads a line's calls)";

const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
/** D21 note: a member whose value is null counts as absent (pydantic dumps write every field). */
const present = (o, k) => isObject(o) && Object.hasOwn(o, k) && o[k] !== null;
const str = (v) => typeof v === "string";

// ---- D23: streaming pieces, and what to assemble instead --------------------

const ASSEMBLE = {
  chat: "fingerprint the assembled completion: stream.finalChatCompletion() (Python: stream.get_final_completion(), or ChatCompletionStreamState)",
  responses: 'fingerprint the assembled response: stream.finalResponse() (Python: stream.get_final_response()), or the "response" of the response.completed event',
  anthropic: "fingerprint the assembled message: stream.finalMessage() (Python: stream.get_final_message())",
  langchain: "fingerprint the whole message once the stream has ended: add the chunks up (chunk.concat(next), Python: chunk + next) " +
    "and pass the sum's tool_calls, or message_chunk_to_message(sum) (Python)",
  vercel: 'fingerprint the finished calls: await result.toolCalls, the steps\' toolCalls, or the stream\'s "tool-call" parts',
  gemini: "fingerprint the call once it is whole",
  bedrock: "fingerprint the assembled message: each toolUse block's contentBlockStart name and its contentBlockDelta input text, joined, as the Converse response's output.message",
};
const PIECES = {
  chunk: ["an OpenAI chat.completion.chunk", "chat"],
  delta: ['a tool call delta of an OpenAI Chat Completions stream ("index", without its whole call)', "chat"],
  responses: ['an OpenAI Responses stream event ("type": "response.*")', "responses"],
  anthropic: ["an Anthropic Messages stream event", "anthropic"],
  langchain: ["a LangChain AIMessageChunk (or one of its tool_call_chunks)", "langchain"],
  vercel: ["a Vercel AI SDK stream part", "vercel"],
  gemini: ["a Gemini functionCall streamed in pieces (partialArgs, willContinue)", "gemini"],
  bedrock: ["a Bedrock ConverseStream event", "bedrock"],
};
const BEDROCK_EVENTS = ["messageStart", "contentBlockStart", "contentBlockDelta", "contentBlockStop", "messageStop"];
const partial = (k) => ({
  code: "partial-call",
  error: `this is ${PIECES[k][0]}, a piece of a stream, not a whole call: ${ASSEMBLE[PIECES[k][1]]}`,
});
const ANTHROPIC_EVENTS = ["message_start", "content_block_start", "content_block_delta", "content_block_stop",
  "message_delta", "message_stop", "ping", "input_json_delta"];
const VERCEL_PARTS = ["tool-input-start", "tool-input-delta", "tool-input-end", "tool-input-available",
  "tool-call-delta", "tool-call-streaming-start"];
// The stream's other parts (its lifecycle, text, reasoning): never a call, unless a line carries such a "type" along.
const VERCEL_OTHER_PARTS = ["start", "start-step", "finish-step", "finish", "stream-start", "response-metadata",
  "text-start", "text-delta", "text-end", "reasoning-start", "reasoning-delta", "reasoning-end", "abort"];

/** dumpd's class name: the last element of "id" in {"lc", "type": "constructor", "id": [...]}. */
function lcClass(o) {
  if (!present(o, "lc") || !Array.isArray(o.id) || o.id.length === 0) return undefined;
  const last = o.id[o.id.length - 1];
  return str(last) ? last : undefined;
}

/** Which streaming piece o is (a PIECES key), or undefined. */
function pieceOf(o) {
  if (o.object === "chat.completion.chunk") return "chunk";
  if (present(o, "tool_call_chunks")) return "langchain";
  if (str(o.type)) {
    const t = o.type;
    if (t.startsWith("response.") && t.length > 9) return "responses";
    if (ANTHROPIC_EVENTS.includes(t)) return "anthropic";
    if (t === "AIMessageChunk" || t === "tool_call_chunk") return "langchain";
    if (VERCEL_PARTS.includes(t)) return "vercel";
    if (VERCEL_OTHER_PARTS.includes(t) && !present(o, "args") && !present(o, "argsJSON")) return "vercel";
    if (t === "constructor" && lcClass(o) === "AIMessageChunk") return "langchain";
  }
  if (BEDROCK_EVENTS.some((k) => present(o, k)) && !present(o, "args") && !present(o, "argsJSON")) return "bedrock";
  // A chunk's choice ({"index", "delta"}), not a line carrying a "delta" member along.
  if (present(o, "delta") && !present(o, "type") && !present(o, "args") && !present(o, "argsJSON")) return "delta";
  return undefined;
}

// ---- one call ---------------------------------------------------------------

/** Which shape the call object is in: {shape: "line" | a LABEL key} or {error, code}. */
function shapeOf(c) {
  const p = pieceOf(c);
  if (p) return partial(p);
  const found = [];
  const type = present(c, "type") ? c.type : undefined;
  const chat = isObject(c.function) && (type === undefined || type === "function");
  const byType = { function_call: "responses", custom_tool_call: "custom", tool_use: "anthropic", "tool-call": "vercel" }[type];
  if (chat) found.push("chat");
  else if (byType) found.push(byType);
  // The member markers, in the order a clash names them.
  if (present(c, "jsonrpc") || c.method === "tools/call") found.push("mcp");
  if (present(c, "functionCall")) found.push("gemini");
  if (present(c, "function_call")) found.push(present(c.function_call, "arguments") ? "legacy" : "genai");
  if (present(c, "toolUse")) found.push("bedrock");
  if (found.length > 1) return clash(found[0], found[1]);
  if (found.length === 0) {
    const lcOther = ["human", "system", "tool", "function", "chat", "remove"].includes(type);
    if (lcOther && !present(c, "args") && !present(c, "argsJSON")) return { code: "bad-call", error: NOT_ONE_CALL };
    return { shape: "line" };
  }
  const shape = found[0];
  // D21: a recording line's args/argsJSON beside a shape; Vercel's own v4 "args" only with a "name".
  if (present(c, "argsJSON") || (present(c, "args") && (shape !== "vercel" || present(c, "name")))) return clash("line", shape);
  return { shape };
}

const clash = (a, b) => ({ code: "bad-call", error: `this call matches both ${LABEL[a]} and ${LABEL[b]}; ${ACCEPTED}` });
const bad = (error) => ({ code: "bad-call", error });

/**
 * The recording line equivalent of a call in any shape ({name, args} or
 * {name, argsJSON}), or {error: message, code} for a bad-call or partial-call.
 */
export function asRecordingLine(text) {
  const c = parseJSONText(text);
  if (Array.isArray(c)) return bad(ARRAY_NOT_ONE_CALL);
  if (!isObject(c)) return bad("a call must be a JSON object");
  const s = shapeOf(c);
  if (s.error) return s;
  const { shape } = s;
  if (shape === "line") {
    const e = callError(text);
    return e ? { error: e.message, code: e.code } : { line: c };
  }
  const label = LABEL[shape];
  let holder = c, nameKey = "name", argsKeys = ["arguments"];
  if (shape === "chat") holder = c.function;
  else if (shape === "anthropic" || shape === "custom") argsKeys = ["input"]; // a custom tool's input is free text: a string value
  else if (shape === "bedrock") { holder = c.toolUse; argsKeys = ["input"]; }
  else if (shape === "gemini") { holder = c.functionCall; argsKeys = ["args"]; }
  else if (shape === "genai") { holder = c.function_call; argsKeys = ["args"]; }
  else if (shape === "legacy") holder = c.function_call;
  else if (shape === "vercel") { nameKey = "toolName"; argsKeys = ["input", "args"]; }
  else if (shape === "mcp") {
    if (c.method !== "tools/call") return bad(`${label} must be a tools/call ("method": "tools/call")`);
    holder = c.params;
  }
  if (!isObject(holder)) return bad(`${label} must hold its call in an object`);
  if (shape === "gemini" || shape === "genai") {
    const [more, part] = shape === "gemini" ? ["willContinue", "partialArgs"] : ["will_continue", "partial_args"];
    if (holder[more] === true || present(holder, part)) return partial("gemini");
  }
  if (shape === "legacy" && present(holder, "args")) return clash("genai", "legacy");
  // A tool's definition is not a call: read as one it would be args null.
  if (shape === "chat" && present(holder, "parameters") && !present(holder, "arguments")) return bad(TOOL_DEFINITION);
  // A delta of an OpenAI stream: "index" beside a call that lacks its id, name or arguments.
  if (shape === "chat" && present(c, "index") &&
    !(present(c, "id") && present(holder, "name") && present(holder, "arguments") && holder.arguments !== "")) return partial("delta");
  if (!str(holder[nameKey])) return bad(`${label} needs a string "${nameKey}"`);
  const name = holder[nameKey];
  const given = argsKeys.filter((k) => present(holder, k));
  if (given.length > 1) return bad(`${label} holds both "input" (AI SDK 5) and "args" (AI SDK 4)`);
  const args = given.length ? holder[given[0]] : null;
  const textual = ["chat", "responses", "mcp", "legacy", "vercel"].includes(shape);
  if (textual && str(args)) return { line: { name, argsJSON: args } };
  return { line: { name, args } };
}

const TOOL_DEFINITION = 'this is a tool definition ("function": {"name", "parameters"}), not a call: a Chat Completions tool call has "function": {"name", "arguments"}';

// ---- messages, responses and arrays: their calls ------------------------------

/** A call object: a line's args/argsJSON, a shape's marker or a call type. */
function isCallObject(o) {
  if (["args", "argsJSON", "function", "jsonrpc", "toolUse", "functionCall", "function_call"].some((k) => present(o, k))) return true;
  if (o.method === "tools/call") return true;
  return ["function_call", "custom_tool_call", "tool_use", "tool-call", "tool_call"].includes(o.type);
}

/** LangChain's messages: {kind: "ai" | "other", inner?} for a dump, messages_to_dict's {type, data} or dumpd's envelope. */
function langchainOf(o) {
  if (!str(o.type)) return undefined;
  if (o.type === "constructor") {
    const cls = lcClass(o);
    const inner = present(o, "kwargs") ? o.kwargs : o.data;
    if (cls === undefined || !isObject(inner)) return undefined;
    if (cls === "AIMessage") return { kind: "ai", inner };
    return cls.length > 7 && cls.endsWith("Message") ? { kind: "other", inner } : undefined;
  }
  const inner = isObject(o.data) ? o.data : undefined;
  if (o.type === "ai") return { kind: "ai", inner };
  if (["human", "system", "tool", "function", "chat", "remove"].includes(o.type)) return { kind: "other", inner };
  return undefined;
}

const CONTAINERS = ["tool_calls", "choices", "content", "output", "parts", "candidates"];
/** Bedrock Converse's response holds its message in an object: {"output": {"message": {"content": [...]}}}. */
const bedrockContent = (o) => (isObject(o) && isObject(o.message) && present(o.message, "content") ? o.message.content : undefined);

/** A line carrying other members along: a string "name" and no "role" (no provider's message has that). */
const lineLike = (o) => str(o.name) && !present(o, "role");

/** The object is a message, a response or a LangChain message, not one call. */
export function isMessageObject(o) {
  if (!isObject(o) || isCallObject(o)) return false;
  if (langchainOf(o) || present(o, "role")) return true;
  if (lineLike(o)) return false;
  return CONTAINERS.some((k) => Array.isArray(o[k]) || (k === "output" && bedrockContent(o[k]) !== undefined));
}

class Refused { constructor(r) { this.r = r; } }

export const UI_MESSAGE = 'this is a Vercel AI SDK UI message (its parts hold "tool-*" parts, whose input may still be streaming): ' +
  "fingerprint the model's calls instead: await result.toolCalls, or the messages of convertToModelMessages(messages)";
/** A UI message's tool part ("tool-<name>" or "dynamic-tool", with a "state"): refused, never skipped. */
function refuseUiToolPart(x) {
  if (isObject(x) && str(x.type) && present(x, "state") && (x.type === "dynamic-tool" || (x.type.length > 5 && x.type.startsWith("tool-")))) {
    throw new Refused(bad(UI_MESSAGE));
  }
}

const isToolBlock = (x) => isObject(x) && (x.type === "tool_use" || x.type === "tool-call" || present(x, "toolUse"));
const isCallPart = (x) => {
  if (isObject(x) && (present(x, "functionCall") || present(x, "function_call"))) return true;
  refuseUiToolPart(x);
  return false;
};

/** The calls of one element (a call, or a message), as values in order; throws Refused. */
function callsOf(e, inArray) {
  if (!isObject(e)) return [e];
  const p = pieceOf(e);
  if (p) throw new Refused(partial(p));
  if (isCallObject(e)) return [e];
  const lc = langchainOf(e);
  let m = e;
  if (lc?.inner) {
    m = lc.inner;
    const q = pieceOf(m);
    if (q) throw new Refused(partial(q));
  }
  if (lc?.kind === "other") return [];
  if (!lc && lineLike(e)) return [e];
  const keys = CONTAINERS
    .filter((k) => !lc || k === "tool_calls") // a LangChain AIMessage: its tool_calls alone (content blocks may repeat them)
    .filter((k) => Array.isArray(m[k]) || (k === "output" && Array.isArray(bedrockContent(m[k]))));
  if (keys.length > 1) throw new Refused(bad(`this message holds calls in both "${keys[0]}" and "${keys[1]}"`));
  if (keys.length === 0) {
    if (lc || present(e, "role")) return [];
    if (inArray) refuseUiToolPart(e);
    if (inArray && (present(e, "text") || str(e.type))) return []; // a text part, a reasoning item, a tool result…
    return [e];
  }
  const k = keys[0];
  if (k === "tool_calls") return m.tool_calls;
  if (k === "choices") {
    return m.choices.flatMap((c) => {
      if (!isObject(c)) return [];
      if (!present(c, "message") && present(c, "delta")) throw new Refused(partial("delta"));
      return isObject(c.message) && Array.isArray(c.message.tool_calls) ? c.message.tool_calls : [];
    });
  }
  if (k === "content") return m.content.filter(isToolBlock);
  if (k === "output") return Array.isArray(m.output) ? m.output.filter((x) => isObject(x) && (x.type === "function_call" || x.type === "custom_tool_call")) : bedrockContent(m.output).filter(isToolBlock);
  if (k === "parts") return m.parts.filter(isCallPart);
  return m.candidates.flatMap((c) => (isObject(c) && isObject(c.content) && Array.isArray(c.content.parts) ? c.content.parts.filter(isCallPart) : []));
}

/**
 * The calls of a message, a response, an array of calls or messages (D22),
 * or a single call, as JSON texts in order; or {error, code} when the whole
 * is refused (a streaming piece anywhere, two containers). Chat Completions
 * `tool_calls` and `choices[].message.tool_calls`; `content` blocks
 * (Anthropic `tool_use`, Vercel `tool-call`, Bedrock `toolUse`); Responses
 * `output` (function_call items); a Bedrock response's
 * `output.message.content`; Gemini `parts` and `candidates[].content.parts`
 * (functionCall or function_call parts); a LangChain AIMessage (its
 * `tool_calls` alone, also inside messages_to_dict's and dumpd's envelopes).
 * A message with a "role", or a LangChain message of another type, and no
 * container holds none; in an array a typed item or a text part that is
 * neither a call nor a message is skipped, anything else is read as a call.
 */
export function callsOfMessage(text) {
  const m = parseJSONText(text);
  try {
    const calls = Array.isArray(m) ? m.flatMap((e) => callsOf(e, true)) : callsOf(m, false);
    return { calls: calls.map((c) => JSON.stringify(c)) };
  } catch (e) {
    if (e instanceof Refused) return e.r;
    throw e;
  }
}

/** The hint of a missing "name": the shape the object nearly matched. */
export function nearShape(c) {
  if (present(c, "toolName")) return 'it nearly matches a Vercel AI SDK tool-call, which needs "type": "tool-call"; ';
  if (present(c, "params")) return 'it nearly matches an MCP request, which needs "method": "tools/call"; ';
  if (present(c, "input")) return 'it nearly matches an Anthropic tool_use block, which needs "type": "tool_use" and "name"; ';
  if (present(c, "arguments")) {
    return 'it nearly matches an OpenAI Responses function_call, which needs "type": "function_call" and "name" ' +
      '(a Chat Completions call holds them in "function"); ';
  }
  return "";
}
