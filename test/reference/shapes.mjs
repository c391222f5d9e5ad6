// The independent oracle for the tool-call shapes agents emit (issue 12;
// test-only): each provider's call turned into a recording line
// {name, args | argsJSON}, written from the providers' documented formats
// with V8's JSON.parse — never the wasm core (its version: assembly/shapes.ts).
// scripts/gen-call-shapes-vectors.mjs uses it to write
// vectors/call-shapes.vectors.json.
//
//   shape                      marker                         name, args
//   OpenAI Chat Completions    "function" object, type absent function.name, function.arguments
//                              or "function"                  (text; an object as is: Ollama)
//   OpenAI Responses           type "function_call"           name, arguments (text)
//   Anthropic Messages         type "tool_use"                name, input
//   Bedrock Converse           "toolUse"                      toolUse.name, toolUse.input
//   Gemini                     "functionCall"                 functionCall.name, functionCall.args
//   MCP tools/call             "jsonrpc"                      params.name, params.arguments (text or value)
//   Vercel AI SDK              type "tool-call"               toolName, input ?? args
//   LangChain / recording line none                           read as a recording line
// Absent or null args → null (D2). Two markers → an error naming both.
import { parseJSONText } from "./contract.mjs";
import { callError } from "./diagnostics.mjs";

export const ACCEPTED = 'accepted: a recording line {"name", "args" | "argsJSON"}, or a tool call of OpenAI Chat Completions, ' +
  "OpenAI Responses, Anthropic Messages, Bedrock Converse, Gemini, MCP tools/call, Vercel AI SDK or LangChain";

const LABEL = {
  chat: "an OpenAI Chat Completions tool call", responses: "an OpenAI Responses function_call",
  anthropic: "an Anthropic tool_use block", bedrock: "a Bedrock toolUse", gemini: "a Gemini functionCall",
  mcp: "an MCP request", vercel: "a Vercel AI SDK tool-call",
};

const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
const has = (o, k) => Object.hasOwn(o, k);

/** Which shape the call text is in: "line", a LABEL key, or {error}. */
export function shapeOf(text) {
  const c = parseJSONText(text);
  if (!isObject(c)) return { error: "a call must be a JSON object" };
  const byType = { function_call: "responses", tool_use: "anthropic", "tool-call": "vercel" }[c.type];
  let found = [];
  if (isObject(c.function) && (!has(c, "type") || c.type === "function")) found.push("chat");
  else if (byType) found.push(byType);
  // The member markers, in the order the core reports a clash: jsonrpc, functionCall, toolUse.
  for (const [k, s] of [["jsonrpc", "mcp"], ["functionCall", "gemini"], ["toolUse", "bedrock"]]) if (has(c, k)) found.push(s);
  if (found.length > 1) return { error: `this call matches both ${LABEL[found[0]]} and ${LABEL[found[1]]}; ${ACCEPTED}` };
  return { shape: found[0] ?? "line", call: c };
}

/**
 * The recording line equivalent of a call in any shape ({name, args} or
 * {name, argsJSON}), or {error: message} for a bad-call.
 */
export function asRecordingLine(text) {
  const s = shapeOf(text);
  if (s.error) return s;
  const { shape, call: c } = s;
  if (shape === "line") {
    const e = callError(text);
    return e ? { error: e.message } : { line: c };
  }
  const label = LABEL[shape];
  let holder = c, nameKey = "name", argsKeys = ["arguments"];
  if (shape === "chat") holder = c.function;
  else if (shape === "anthropic") argsKeys = ["input"];
  else if (shape === "bedrock") { holder = c.toolUse; argsKeys = ["input"]; }
  else if (shape === "gemini") { holder = c.functionCall; argsKeys = ["args"]; }
  else if (shape === "vercel") { nameKey = "toolName"; argsKeys = ["input", "args"]; }
  else if (shape === "mcp") {
    if (c.method !== "tools/call") return { error: `${label} must be a tools/call ("method": "tools/call")` };
    holder = c.params;
  }
  if (!isObject(holder)) return { error: `${label} must hold its call in an object` };
  if (typeof holder[nameKey] !== "string") return { error: `${label} needs a string "${nameKey}"` };
  const name = holder[nameKey];
  let args = null;
  for (const k of argsKeys) if (holder[k] !== undefined && holder[k] !== null) { args = holder[k]; break; }
  const textual = shape === "chat" || shape === "responses" || shape === "mcp";
  if (textual && typeof args === "string") return { line: { name, argsJSON: args } };
  return { line: { name, args } };
}

const CALL_MARKERS = ["args", "argsJSON", "function", "jsonrpc", "toolUse", "functionCall"];
const CALL_TYPES = ["function_call", "tool_use", "tool-call", "tool_call"];

/**
 * The calls of a message holding several, as JSON texts in order, or
 * {error}: Chat Completions `tool_calls`, a response's `choices[].message.tool_calls`,
 * `content` blocks (Anthropic `tool_use`, Vercel AI SDK `tool-call` and Bedrock `toolUse` blocks),
 * Responses `output` (function_call items), a Bedrock Converse response's
 * `output.message.content`, Gemini `parts` (functionCall parts) and a Gemini
 * response's `candidates[].content.parts`; a LangChain AIMessage dump
 * (`"type": "ai"`) by its `tool_calls` alone. An object with a call's own members
 * is one call; an object with a "role" and no such container holds none.
 */
export function callsOfMessage(text) {
  const m = parseJSONText(text);
  const isCall = isObject(m) && (CALL_MARKERS.some((k) => has(m, k)) || CALL_TYPES.includes(m.type));
  if (!isObject(m) || isCall) return { calls: [text] };
  // Bedrock Converse's response holds its message in an object: {"output": {"message": {"content": [...]}}}.
  const bedrockOutput = (o) => isObject(o) && isObject(o.message) && Array.isArray(o.message.content);
  // A LangChain AIMessage dump ("type": "ai") lists its calls in tool_calls, whatever its content blocks repeat.
  const langchainAi = m.type === "ai" && Array.isArray(m.tool_calls);
  const keys = ["tool_calls", "choices", "content", "output", "parts", "candidates"]
    .filter((k) => Array.isArray(m[k]) || (k === "output" && bedrockOutput(m[k])))
    .filter((k) => !langchainAi || k === "tool_calls");
  if (keys.length > 1) return { error: `this message holds calls in both "${keys[0]}" and "${keys[1]}"` };
  const ofType = (arr, t) => arr.filter((x) => isObject(x) && x.type === t);
  const blocks = (arr) => arr.filter((x) => isObject(x) && (x.type === "tool_use" || x.type === "tool-call" || has(x, "toolUse")));
  const parts = (arr) => arr.filter((x) => isObject(x) && has(x, "functionCall"));
  let calls;
  if (keys[0] === "tool_calls") calls = m.tool_calls;
  else if (keys[0] === "choices") {
    calls = m.choices.flatMap((c) => (isObject(c) && isObject(c.message) && Array.isArray(c.message.tool_calls) ? c.message.tool_calls : []));
  } else if (keys[0] === "content") calls = blocks(m.content);
  else if (keys[0] === "output") calls = Array.isArray(m.output) ? ofType(m.output, "function_call") : blocks(m.output.message.content);
  else if (keys[0] === "parts") calls = parts(m.parts);
  else if (keys[0] === "candidates") {
    calls = m.candidates.flatMap((c) => (isObject(c) && isObject(c.content) && Array.isArray(c.content.parts) ? parts(c.content.parts) : []));
  } else calls = has(m, "role") ? [] : [m];
  return { calls: calls.map((c) => JSON.stringify(c)) };
}
