// The tool-call shapes agents emit, read by the core so every SDK and CLI
// accepts them alike. Internal; called by readCall (call.ts) before it reads
// a recording line.
//
//   OpenAI Chat Completions  {"type": "function"?, "function": {"name", "arguments"}}
//                            (Ollama omits type and gives arguments as an object)
//   OpenAI legacy functions  {"function_call": {"name", "arguments"}} (a message of the old API)
//   OpenAI Responses         {"type": "function_call", "name", "arguments"}, or a custom tool's
//                            {"type": "custom_tool_call", "name", "input"} (free text: a string value)
//   Anthropic Messages       {"type": "tool_use", "name", "input"}
//   Bedrock Converse         {"toolUse": {"name", "input"}}
//   Gemini                   {"functionCall": {"name", "args"?}}, and google-genai's
//                            snake_case dumps {"function_call": {"name", "args"?}} (D22)
//   MCP                      {"jsonrpc"?, "method": "tools/call", "params": {"name", "arguments"?}}
//                            (without the envelope: what a server handler receives, D22)
//   Vercel AI SDK            {"type": "tool-call", "toolName", "input" | "args"}; a string
//                            is the provider level's JSON text (D22)
//   LangChain                {"name", "args", "type": "tool_call"}: a recording
//                            line already, read by call.ts as one.
//
// D21, one shape or none: detection is exact, by markers that no recording
// line needs: a "type" of one of the values above, or a "jsonrpc", "method":
// "tools/call", "toolUse", "functionCall" or "function_call" member. A member
// whose value is null is absent (pydantic dumps write every field). Two
// markers at once, or a marker beside a recording line's "args"/"argsJSON",
// is an error naming both; no marker → the recording line reader.
// Streaming pieces are refused first (pieces.ts, D23). Decisions where the
// providers are silent:
//   - `arguments` given as a string is JSON text and goes through the text
//     path (PART_ARGS_JSON offsets), as argsJSON does; any other value is the
//     args as is (Ollama). Vercel's input/args likewise; the other shapes'
//     args are values as is;
//   - absent (or null) arguments/input/args → args null (D2), like a line;
//   - a google-genai function_call holding "arguments" (no "args") is
//     OpenAI's legacy function_call: both APIs wrote that member name;
//   - a shape carries no kind or selection: the default kind, the tool's
//     declaration (tools.ts) decides the selection.
import { E_BAD_CALL, E_NO_CALLS, OK, PART_ARGS_JSON, PART_CALL } from "../abi";
import { alloc } from "../base/arena";
import { fail, failCode, resetErrors, setTextPart } from "../base/errors";
import { parseText } from "../json/reader";
import { T_ARR, T_NULL, T_OBJ, T_STR, T_TRUE, nodeA, nodeB, nodeType, subtreeEnd, tapePush } from "../json/tape";
import { PIECE_GEMINI, PIECE_OPENAI_DELTA, isPiece, lcClass, piece } from "./pieces";
import {
  K_ARGS, K_ARGS_JSON, K_BEDROCK_EVENT, K_CHUNKS, K_DELTA, K_FUNCTION, K_FUNCTION_CALL, K_GENAI, K_JSONRPC, K_METHOD, K_OBJECT,
  K_TOOL_USE, K_TYPE, callKeys,
} from "./callkeys";
import { hasMemberNN, member, memberNN, strIs } from "../json/members";
import { failWith } from "../base/detail";
import { CallNodes } from "./callnodes";

export const SHAPE_ERROR: i32 = -1;
export const SHAPE_NONE: i32 = 0; // no marker: a recording line
const CHAT = 1, RESPONSES = 2, ANTHROPIC = 3, BEDROCK = 4, GEMINI = 5, MCP = 6, VERCEL = 7;
const GENAI = 8, LEGACY = 9, LINE = 10, CUSTOM = 11;

// String literals only, never concatenated: they live in static data (the
// stub runtime's heap would overlap the arena, arena.ts).
// A function, not a const: a module-level string is emitted even into the
// fingerprint module, which never reads calls (40 KiB budget).
export function accepted(): string {
  return "accepted: a recording line {\"name\", \"args\" | \"argsJSON\"}, or a tool call of OpenAI Chat Completions, OpenAI Responses, Anthropic Messages, Bedrock Converse, Gemini, MCP tools/call, Vercel AI SDK or LangChain";
}

function shapeLabel(s: i32): string {
  switch (s) {
    case CHAT: return "an OpenAI Chat Completions tool call";
    case RESPONSES: return "an OpenAI Responses function_call";
    case ANTHROPIC: return "an Anthropic tool_use block";
    case BEDROCK: return "a Bedrock toolUse";
    case GEMINI: return "a Gemini functionCall";
    case MCP: return "an MCP request";
    case GENAI: return "a google-genai function_call (snake_case, read as a Gemini functionCall)";
    case LEGACY: return "an OpenAI legacy function_call";
    case CUSTOM: return "an OpenAI Responses custom_tool_call";
    case LINE: return "a recording line";
    default: return "a Vercel AI SDK tool-call";
  }
}

// The shape markers among callKeys()' bits (callkeys.ts).
const MARKERS = K_FUNCTION | K_JSONRPC | K_TOOL_USE | K_FUNCTION_CALL | K_GENAI;
// Any of these makes readShape look further (a streaming piece or a shape).
const LOOK = K_TYPE | MARKERS | K_METHOD | K_OBJECT | K_DELTA | K_CHUNKS | K_BEDROCK_EVENT;

/** Reads the shape of the call object at root: SHAPE_NONE, SHAPE_ERROR (recorded), or the shape with call.name and call.args set. */
export function readShape(root: u32, call: CallNodes): i32 {
  const mask = callKeys(root);
  if ((mask & LOOK) == 0) return SHAPE_NONE;
  if (isPiece(root, mask)) return SHAPE_ERROR; // D23, before any shape: a piece looks like a call
  const type = (mask & K_TYPE) != 0 ? memberNN(root, "type") : -1;
  let shape = 0;
  if (type >= 0 && nodeType(<u32>type) == T_STR) {
    if (strIs(<u32>type, "function_call")) shape = RESPONSES;
    else if (strIs(<u32>type, "custom_tool_call")) shape = CUSTOM;
    else if (strIs(<u32>type, "tool_use")) shape = ANTHROPIC;
    else if (strIs(<u32>type, "tool-call")) shape = VERCEL;
  }
  const fn = (mask & K_FUNCTION) != 0 ? member(root, "function") : -1;
  const chatType = type < 0 || (nodeType(<u32>type) == T_STR && strIs(<u32>type, "function"));
  if (fn >= 0 && nodeType(<u32>fn) == T_OBJ && chatType) shape = CHAT;
  // The member markers, in the order a clash names them.
  if ((mask & K_JSONRPC) != 0 || isToolsCall(root, mask)) {
    if (shape != 0) return clash(shape, MCP);
    shape = MCP;
  }
  if ((mask & K_FUNCTION_CALL) != 0) {
    if (shape != 0) return clash(shape, GEMINI);
    shape = GEMINI;
  }
  if ((mask & K_GENAI) != 0) {
    const s = hasMemberNN(member(root, "function_call"), "arguments") ? LEGACY : GENAI;
    if (shape != 0) return clash(shape, s);
    shape = s;
  }
  if ((mask & K_TOOL_USE) != 0) {
    if (shape != 0) return clash(shape, BEDROCK);
    shape = BEDROCK;
  }
  if (shape == 0) return lcMessageType(type) && (mask & (K_ARGS | K_ARGS_JSON)) == 0 ? notOneCall() : SHAPE_NONE;
  // D21: a recording line's members beside a shape (Vercel v4's own "args" is no line without "name").
  if ((mask & K_ARGS_JSON) != 0 || ((mask & K_ARGS) != 0 && (shape != VERCEL || hasMemberNN(root, "name")))) {
    return clash(LINE, shape);
  }
  let holder = <i32>root, nameKey = "name", argsKey = "arguments", altKey = "";
  if (shape == CHAT) holder = fn;
  else if (shape == ANTHROPIC || shape == CUSTOM) argsKey = "input"; // a custom tool's input is free text: a string value
  else if (shape == BEDROCK) { holder = member(root, "toolUse"); argsKey = "input"; }
  else if (shape == GEMINI || shape == GENAI) { holder = member(root, shape == GEMINI ? "functionCall" : "function_call"); argsKey = "args"; }
  else if (shape == LEGACY) holder = member(root, "function_call");
  else if (shape == VERCEL) { nameKey = "toolName"; argsKey = "input"; altKey = "args"; }
  else if (shape == MCP) {
    const method = member(root, "method");
    if (method < 0 || nodeType(<u32>method) != T_STR || !strIs(<u32>method, "tools/call")) {
      return bad(shapeLabel(shape), " must be a tools/call (\"method\": \"tools/call\")", "", "", "", "");
    }
    holder = member(root, "params");
  }
  if (holder < 0 || nodeType(<u32>holder) != T_OBJ) return bad(shapeLabel(shape), " must hold its call in an object", "", "", "", "");
  if (shape == GEMINI || shape == GENAI) { // Gemini streams a call's arguments in pieces (D23)
    const more = memberNN(<u32>holder, shape == GEMINI ? "willContinue" : "will_continue");
    if ((more >= 0 && nodeType(<u32>more) == T_TRUE) || hasMemberNN(holder, shape == GEMINI ? "partialArgs" : "partial_args")) {
      piece(PIECE_GEMINI);
      return SHAPE_ERROR;
    }
  }
  if (shape == LEGACY && hasMemberNN(holder, "args")) return clash(GENAI, LEGACY);
  // A tool's definition is not a call: read as one it would be args null.
  if (shape == CHAT && hasMemberNN(holder, "parameters") && !hasMemberNN(holder, "arguments")) {
    return bad("this is a tool definition (\"function\": {\"name\", \"parameters\"}), not a call: a Chat Completions tool call has \"function\": {\"name\", \"arguments\"}", "", "", "", "", "");
  }
  const name = memberNN(<u32>holder, nameKey);
  if (shape == CHAT && openaiDelta(root, <u32>holder, name)) return SHAPE_ERROR;
  if (name < 0 || nodeType(<u32>name) != T_STR) return bad(shapeLabel(shape), " needs a string \"", nameKey, "\"", "", "");
  let args = memberNN(<u32>holder, argsKey);
  if (altKey.length > 0) {
    const alt = memberNN(<u32>holder, altKey);
    if (args >= 0 && alt >= 0) return bad(shapeLabel(shape), " holds both \"input\" (AI SDK 5) and \"args\" (AI SDK 4)", "", "", "", "");
    if (args < 0) args = alt;
  }
  if (args >= 0 && nodeType(<u32>args) == T_STR && (shape == CHAT || shape == RESPONSES || shape == MCP || shape == LEGACY || shape == VERCEL)) {
    setTextPart(PART_ARGS_JSON, <usize>nodeB(<u32>args), <usize>nodeA(<u32>args)); // arguments as JSON text: the text path, never a host parse
    args = parseText(<usize>nodeB(<u32>args), <usize>nodeA(<u32>args), false);
    if (args < 0) return SHAPE_ERROR;
  } else if (args < 0) {
    args = tapePush(T_NULL, 0, 0, 0); // no args: null (D2)
    if (args < 0) return SHAPE_ERROR;
  }
  call.name = name;
  call.args = args;
  return shape;
}

/** MCP's request without the JSON-RPC envelope: "method": "tools/call" (D22). */
function isToolsCall(root: u32, mask: u32): bool {
  if ((mask & K_METHOD) == 0) return false;
  const m = member(root, "method");
  return nodeType(<u32>m) == T_STR && strIs(<u32>m, "tools/call");
}

/**
 * A piece of an OpenAI Chat Completions stream (choices[].delta.tool_calls[]):
 * it has "index" and lacks its id, its name or its arguments. The assembled
 * completion's calls keep "index" too (both SDKs' accumulators copy it), but
 * they are whole. Recorded as a partial-call (D23). name: the call's "name" node, or -1.
 */
function openaiDelta(root: u32, fn: u32, name: i32): bool {
  if (!hasMemberNN(<i32>root, "index")) return false;
  const args = memberNN(fn, "arguments");
  const whole = hasMemberNN(<i32>root, "id") && name >= 0
    && args >= 0 && !(nodeType(<u32>args) == T_STR && nodeA(<u32>args) == 0);
  if (whole) return false;
  piece(PIECE_OPENAI_DELTA);
  return true;
}

/** The string node i starts with the ASCII string s. */
function strStarts(i: u32, s: string): bool {
  if (nodeA(i) < <u32>s.length) return false;
  const p = <usize>nodeB(i);
  for (let j = 0; j < s.length; j++) if (<u32>load<u8>(p + <usize>j) != <u32>s.charCodeAt(j)) return false;
  return true;
}

/** "this call matches both <a> and <b>; accepted: …" (D21). */
function clash(a: i32, b: i32): i32 {
  return bad("this call matches both ", shapeLabel(a), " and ", shapeLabel(b), "; ", accepted());
}

/** E_BAD_CALL with the detail a + b + c + d + e + f (ASCII literals), written into the arena. */
function bad(a: string, b: string, c: string, d: string, e: string, f: string): i32 {
  failWith(E_BAD_CALL, a, b, c, d, e, f);
  return SHAPE_ERROR;
}

/** A message where one call is expected: the error that names explainCalls (SHAPE_ERROR). */
export function notOneCall(): i32 {
  return bad("this is a message or a response, not one call: read its tool calls with explainCalls ",
    "(Python: explain_calls; the CLI reads a line's calls), or pass one of them", "", "", "", "");
}

/** An array where one call is expected (SHAPE_ERROR). */
export function arrayNotOneCall(): i32 {
  return bad("this is an array, not one call: read the calls of an array of calls or messages with explainCalls ",
    "(Python: explain_calls; the CLI reads a line's calls)", "", "", "", "");
}

/** The missing-"name" error, naming the shape the object nearly matched. */
export function missingName(root: u32): void {
  let near = "";
  if (hasMemberNN(<i32>root, "toolName")) near = "it nearly matches a Vercel AI SDK tool-call, which needs \"type\": \"tool-call\"; ";
  else if (hasMemberNN(<i32>root, "params")) near = "it nearly matches an MCP request, which needs \"method\": \"tools/call\"; ";
  else if (hasMemberNN(<i32>root, "input")) near = "it nearly matches an Anthropic tool_use block, which needs \"type\": \"tool_use\" and \"name\"; ";
  else if (hasMemberNN(<i32>root, "arguments")) {
    near = "it nearly matches an OpenAI Responses function_call, which needs \"type\": \"function_call\" and \"name\" (a Chat Completions call holds them in \"function\"); ";
  }
  failWith(E_BAD_CALL, "missing \"name\"; ", near, accepted(), "", "", "");
}

// ---- Messages holding several calls (F_NTH_CALL) ----------------------------
//   Chat Completions message   {"tool_calls": [call...]}
//   Chat Completions response  {"choices": [{"message": {"tool_calls": [...]}}...]}
//   Anthropic, Vercel AI SDK   {"content": [block...]}: its "tool_use" blocks
//   or Bedrock message         (Anthropic), "tool-call" parts (Vercel) and
//                              "toolUse" blocks (Bedrock)
//   OpenAI Responses response  {"output": [item...]}: its "function_call" items
//   Bedrock Converse response  {"output": {"message": {"content": [block...]}}}
//   Gemini content             {"parts": [part...]}: its "functionCall" parts
//                              (or "function_call": google-genai's dumps, D22)
//   Gemini response            {"candidates": [{"content": {"parts": [...]}}...]}
//   LangChain AIMessage        {"type": "ai", "tool_calls": [...]}: those alone
//                              (its content blocks, if any, repeat them); also
//                              messages_to_dict's {"type": "ai", "data": {...}}
//                              and dumpd's {"lc": 1, "type": "constructor",
//                              "id": [..., "AIMessage"], "kwargs": {...}} (D22)
//   A JSON array               the calls of its elements, in order (D22)
// A message is an object with one of these containers and none of a call's own
// members (args, argsJSON, or a shape's marker), nor a string "name" without a
// "role" (a line carrying a tool's result along); anything else is one call.
// Calls come out in order; text blocks, reasoning items etc. are skipped.
// A message with a "role", or a LangChain message of another type (human,
// tool, …), and none of these containers holds no calls. In an array, an
// element that is neither a call nor a message is skipped when it is typed
// ("type": a Responses reasoning or message item, a content block or a
// tool result: what the containers above skip too) or a text part/block
// ({"text"}, Gemini, Bedrock); any other element is read as a call, so what
// could be a call is an error, never silently dropped. A Vercel UI message's
// tool part ("tool-<name>" with a "state") is refused wherever it is found.

/** The calls of one message, as listCalls found them. */
@unmanaged export class CallList {
  /** The call nodes (u32 each, in order), valid while the arena keeps them. */
  nodes: usize;
  /** How many (0 when the message holds none). */
  count: u32;
}

/** pickCall's count of the calls in the message (1 for a single call). */
let callCount: u32 = 0;
/** Where every call counted is recorded (listCalls; 0: only the one asked for is kept). */
let listing: usize = 0;

/** Counts e as call number n: its node if n is the one asked for, else -1; listed when listing. */
@inline function at(n: u32, index: u32, e: u32): i32 {
  if (listing != 0) store<u32>(listing + (<usize>n << 2), e);
  return n == index ? <i32>e : -1;
}

/**
 * Every call of the message, array or single call at root, listed in one pass
 * into `into`: a caller reading call after call of one line then costs
 * O(line), not O(calls x line). False with the error recorded (E_NO_CALLS
 * with a count of 0 when it holds none; the count so far on another error).
 */
export function listCalls(root: u32, into: CallList): bool {
  into.count = 0;
  // A node per call at most: the subtree's node count bounds the list.
  into.nodes = alloc(<usize>(subtreeEnd(root) - root) << 2);
  if (into.nodes == 0) return false;
  listing = into.nodes;
  pickCall(root, 0xFFFF_FFFF);
  listing = 0;
  into.count = callCount;
  if (callCount > 0 && failCode() == E_NO_CALLS) resetErrors(PART_CALL); // listed: no index was asked for
  return failCode() == OK;
}

const M_TOOL_CALLS = 1, M_CHOICES = 2, M_CONTENT = 3, M_OUTPUT = 4, M_PARTS = 5, M_CANDIDATES = 6;
// Which elements of a container are calls (scan).
const ALL = 0, FUNCTION_CALL_ITEMS = 1, TOOL_BLOCKS = 2, FUNCTION_CALL_PARTS = 3;
const FAILED: i32 = -2; // callsOf: an error was recorded

function containerKey(m: i32): string {
  switch (m) {
    case M_TOOL_CALLS: return "tool_calls";
    case M_CHOICES: return "choices";
    case M_CONTENT: return "content";
    case M_OUTPUT: return "output";
    case M_PARTS: return "parts";
    default: return "candidates";
  }
}

/** The node of the call at index in root (a message, an array or a single call), or -1 (recorded: E_NO_CALLS or an error). */
function pickCall(root: u32, index: u32): i32 {
  callCount = 1;
  let found: i32 = -1;
  if (nodeType(root) == T_ARR) {
    let n: u32 = 0;
    const count = nodeA(root);
    let e = root + 1;
    for (let i: u32 = 0; i < count; i++) {
      const r = callsOf(e, index, n, true);
      if (r == FAILED) return -1;
      if (r >= 0 && found < 0) found = r;
      n = scanned;
      e = subtreeEnd(e);
    }
    callCount = n;
  } else {
    found = callsOf(root, index, 0, false);
    if (found == FAILED) return -1;
    callCount = scanned;
  }
  if (found < 0) fail(E_NO_CALLS, -1);
  return found;
}

/**
 * Counts the calls of e (a call, or a message) from n into `scanned`; returns
 * the node of call number index if e holds it, else -1, or FAILED (recorded).
 */
function callsOf(e: u32, index: u32, n: u32, inArray: bool): i32 {
  scanned = n + 1;
  if (nodeType(e) != T_OBJ) return at(n, index, e); // one call: readCall says what is wrong with it
  const mask = callKeys(e);
  if (isPiece(e, mask)) return FAILED;
  if (isCallObject(e, mask)) return at(n, index, e);
  let msg = e, lc = lcKind(e, mask);
  if (lc == LC_ENVELOPE_AI || lc == LC_ENVELOPE_OTHER) { // messages_to_dict's data, dumpd's kwargs
    const inner = lcInner(e);
    msg = <u32>inner;
    if (isPiece(msg, callKeys(msg))) return FAILED;
  }
  if (lc == LC_ENVELOPE_OTHER || lc == LC_OTHER) { scanned = n; return -1; } // a human, system or tool message: no calls
  if (lc == 0 && lineLike(e)) return at(n, index, e); // {"name", "output": [...]}: a line without args
  let kind = 0, arr: i32 = -1, which = ALL;
  const last = lc != 0 ? M_TOOL_CALLS : M_CANDIDATES; // a LangChain AIMessage: its tool_calls alone
  for (let m = M_TOOL_CALLS; m <= last; m++) {
    let a = memberNN(msg, containerKey(m)), w = callsIn(m);
    if (a >= 0 && m == M_OUTPUT && nodeType(<u32>a) == T_OBJ) { // Bedrock's response
      a = bedrockContent(<u32>a);
      w = TOOL_BLOCKS;
    }
    if (a < 0 || nodeType(<u32>a) != T_ARR) continue;
    if (kind != 0) {
      bad("this message holds calls in both \"", containerKey(kind), "\" and \"", containerKey(m), "\"", "");
      return FAILED;
    }
    kind = m; arr = a; which = w;
  }
  if (kind == 0) {
    scanned = n;
    if (lc != 0 || hasMemberNN(<i32>e, "role")) return -1; // a message without calls
    if (inArray && uiToolPart(e)) return FAILED;
    if (inArray && (hasMemberNN(<i32>e, "text") || isTyped(e, mask))) return -1; // a text part, a reasoning item, a result…
    scanned = n + 1;
    return at(n, index, e); // one call: readCall names what it lacks
  }
  let found: i32 = -1;
  if (kind == M_CHOICES || kind == M_CANDIDATES) {
    // Each choice's message.tool_calls, or each candidate's content.parts, in turn.
    const count = nodeA(<u32>arr);
    let c = <u32>arr + 1;
    for (let i: u32 = 0; i < count; i++) {
      if (nodeType(c) == T_OBJ) {
        const holder = memberNN(c, kind == M_CHOICES ? "message" : "content");
        if (holder < 0 && kind == M_CHOICES && hasMemberNN(<i32>c, "delta")) { // a chunk's choice (D23)
          piece(PIECE_OPENAI_DELTA);
          return FAILED;
        }
        const calls = holder >= 0 && nodeType(<u32>holder) == T_OBJ
          ? memberNN(<u32>holder, kind == M_CHOICES ? "tool_calls" : "parts") : -1;
        if (calls >= 0 && nodeType(<u32>calls) == T_ARR) {
          const r = scan(<u32>calls, kind == M_CHOICES ? ALL : FUNCTION_CALL_PARTS, index, n);
          if (r == FAILED) return FAILED;
          if (r >= 0 && found < 0) found = r;
          n = scanned;
        }
      }
      c = subtreeEnd(c);
    }
    scanned = n;
  } else {
    found = scan(<u32>arr, which, index, n);
  }
  return found;
}

/** Which elements of container m are calls (scan). */
function callsIn(m: i32): i32 {
  return m == M_CONTENT ? TOOL_BLOCKS : m == M_OUTPUT ? FUNCTION_CALL_ITEMS : m == M_PARTS ? FUNCTION_CALL_PARTS : ALL;
}

// LangChain's messages (lcKind): a dump of an AIMessage read by its tool_calls alone (with Anthropic
// models its content blocks repeat them), of another message type, or either in an envelope (D22).
const LC_AI = 1, LC_OTHER = 2, LC_ENVELOPE_AI = 3, LC_ENVELOPE_OTHER = 4;

/**
 * A string "name" without a "role" (and not a LangChain message): a recording line whose other
 * members (an "output" or "content" array: a tool's result) are carried along, not a message's
 * containers. No message form of the providers has a "name" without a "role".
 */
function lineLike(o: u32): bool {
  const name = memberNN(o, "name");
  return name >= 0 && nodeType(<u32>name) == T_STR && !hasMemberNN(<i32>o, "role");
}

/** Which LangChain message o is, if any (0: none). */
function lcKind(o: u32, mask: u32): i32 {
  if ((mask & K_TYPE) == 0) return 0;
  const t = member(o, "type");
  if (nodeType(<u32>t) != T_STR) return 0;
  if (strIs(<u32>t, "constructor")) { // dumpd: {"lc", "type": "constructor", "id": [..., class], "kwargs"}
    const c = lcClass(o);
    if (c < 0 || lcInner(o) < 0) return 0;
    if (strIs(<u32>c, "AIMessage")) return LC_ENVELOPE_AI;
    // HumanMessage, SystemMessage, ToolMessage, …: a message, without calls.
    return endsWithMessage(<usize>nodeB(<u32>c), <usize>nodeA(<u32>c)) ? LC_ENVELOPE_OTHER : 0;
  }
  const envelope = hasMemberNN(<i32>o, "data") && nodeType(<u32>member(o, "data")) == T_OBJ; // messages_to_dict
  if (strIs(<u32>t, "ai")) return envelope ? LC_ENVELOPE_AI : LC_AI;
  if (lcMessageType(t)) return envelope ? LC_ENVELOPE_OTHER : LC_OTHER;
  return 0;
}

/** The class name at p (n bytes) ends with "Message". */
function endsWithMessage(p: usize, n: usize): bool {
  if (n <= 7) return false;
  const s = "Message";
  for (let j = 0; j < 7; j++) if (<u32>load<u8>(p + n - 7 + <usize>j) != <u32>s.charCodeAt(j)) return false;
  return true;
}

/** LangChain's type of a message other than an AIMessage (a "type" node, or -1). */
function lcMessageType(t: i32): bool {
  if (t < 0 || nodeType(<u32>t) != T_STR) return false;
  const u = <u32>t;
  return strIs(u, "human") || strIs(u, "system") || strIs(u, "tool") || strIs(u, "function") || strIs(u, "chat") || strIs(u, "remove");
}

/** The message inside a LangChain envelope: dumpd's "kwargs" or messages_to_dict's "data" (an object), or -1. */
function lcInner(o: u32): i32 {
  let inner = memberNN(o, "kwargs");
  if (inner < 0) inner = memberNN(o, "data");
  return inner >= 0 && nodeType(<u32>inner) == T_OBJ ? inner : -1;
}

/** A typed element: {"type": "<string>"}. */
function isTyped(e: u32, mask: u32): bool {
  if ((mask & K_TYPE) == 0) return false;
  return nodeType(<u32>member(e, "type")) == T_STR;
}

/** Bedrock Converse's response: the content array of output.message, or -1. */
function bedrockContent(output: u32): i32 {
  const msg = memberNN(output, "message");
  if (msg < 0 || nodeType(<u32>msg) != T_OBJ) return -1;
  return memberNN(<u32>msg, "content");
}

/** scan's running count (a second return value). */
let scanned: u32 = 0;

/** The element of arr that is call number index (counting from n), keeping only the elements `which` says are calls. */
function scan(arr: u32, which: i32, index: u32, n: u32): i32 {
  let found: i32 = -1;
  const count = nodeA(arr);
  let e = arr + 1;
  for (let i: u32 = 0; i < count; i++) {
    let keep = which == ALL;
    if (!keep && nodeType(e) == T_OBJ) {
      if (which == FUNCTION_CALL_PARTS) {
        keep = memberNN(e, "functionCall") >= 0 || memberNN(e, "function_call") >= 0;
        if (!keep && uiToolPart(e)) return FAILED;
      } else {
        const t = memberNN(e, "type");
        const typed = t >= 0 && nodeType(<u32>t) == T_STR;
        keep = which == FUNCTION_CALL_ITEMS ? typed && (strIs(<u32>t, "function_call") || strIs(<u32>t, "custom_tool_call"))
          : (typed && (strIs(<u32>t, "tool_use") || strIs(<u32>t, "tool-call"))) || memberNN(e, "toolUse") >= 0;
      }
    }
    if (keep) {
      if (at(n, index, e) >= 0) found = <i32>e;
      n++;
    }
    e = subtreeEnd(e);
  }
  scanned = n;
  return found;
}

/**
 * A Vercel AI SDK UI message part of a tool ({"type": "tool-<name>" or "dynamic-tool", "state", "input"?}):
 * its input may still be streaming, and the model's calls are elsewhere; refused (recorded), never skipped.
 */
function uiToolPart(e: u32): bool {
  const t = memberNN(e, "type");
  if (t < 0 || nodeType(<u32>t) != T_STR || memberNN(e, "state") < 0) return false;
  if (!strIs(<u32>t, "dynamic-tool") && !(nodeA(<u32>t) > 5 && strStarts(<u32>t, "tool-"))) return false;
  bad("this is a Vercel AI SDK UI message (its parts hold \"tool-*\" parts, whose input may still be streaming): ",
    "fingerprint the model's calls instead: await result.toolCalls, or the messages of convertToModelMessages(messages)", "", "", "", "");
  return true;
}

/** The object has a call's own members: args/argsJSON, or a shape marker (mask: its callKeys()). */
function isCallObject(o: u32, mask: u32): bool {
  if ((mask & (MARKERS | K_ARGS | K_ARGS_JSON)) != 0) return true;
  if (isToolsCall(o, mask)) return true;
  if ((mask & K_TYPE) == 0) return false;
  const t = member(o, "type");
  return nodeType(<u32>t) == T_STR &&
    (strIs(<u32>t, "function_call") || strIs(<u32>t, "custom_tool_call") || strIs(<u32>t, "tool_use") || strIs(<u32>t, "tool-call")
      || strIs(<u32>t, "tool_call"));
}

/** The object is a message (or a response, or a LangChain message) rather than one call: readCall's error then names explainCalls. */
export function isMessage(o: u32): bool {
  const mask = callKeys(o);
  if (isCallObject(o, mask)) return false;
  const lc = lcKind(o, mask);
  if (lc != 0 || hasMemberNN(<i32>o, "role")) return true;
  if (lineLike(o)) return false;
  for (let m = M_TOOL_CALLS; m <= M_CANDIDATES; m++) {
    const a = memberNN(o, containerKey(m));
    if (a >= 0 && (nodeType(<u32>a) == T_ARR || (m == M_OUTPUT && bedrockContent(<u32>a) >= 0))) return true;
  }
  return false;
}
