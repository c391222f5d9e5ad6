// The tool-call shapes agents emit, read by the core so every SDK and CLI
// accepts them alike (issue 12). Internal; called by readCall (call.ts)
// before it reads a recording line.
//
//   OpenAI Chat Completions  {"type": "function"?, "function": {"name", "arguments"}}
//                            (Ollama omits type and gives arguments as an object)
//   OpenAI Responses         {"type": "function_call", "name", "arguments"}
//   Anthropic Messages       {"type": "tool_use", "name", "input"}
//   Bedrock Converse         {"toolUse": {"name", "input"}}
//   Gemini                   {"functionCall": {"name", "args"?}}
//   MCP                      {"jsonrpc", "method": "tools/call", "params": {"name", "arguments"?}}
//   Vercel AI SDK            {"type": "tool-call", "toolName", "input" | "args"}
//   LangChain                {"name", "args", "type": "tool_call"}: a recording
//                            line already, read by call.ts as one.
//
// Detection is exact, by markers that no recording line needs: a "type" of
// one of the values above, or a "jsonrpc", "toolUse" or "functionCall"
// member. Two markers at once is an error naming both; no marker → the
// recording line reader. Decisions where the providers are silent:
//   - `arguments` given as a string is JSON text and goes through the text
//     path (PART_ARGS_JSON offsets), as argsJSON does; any other value is the
//     args as is (Ollama). input/args of the other shapes are values as is;
//   - absent (or null) arguments/input/args → args null (D2), like a line;
//   - a shape carries no kind or selection: the default kind, the tool's
//     declaration (issue 12, slice 2) decides the selection.
import { E_BAD_CALL, E_NO_CALLS, PART_ARGS_JSON } from "./abi";
import { alloc } from "./arena";
import { fail, setErrorDetail, setPart, setTextPart } from "./errors";
import { parseText } from "./json/reader";
import { T_ARR, T_NULL, T_OBJ, T_STR, nodeA, nodeB, nodeType, subtreeEnd, tapePush } from "./json/tape";

/** readShape results: the name and args nodes of a call in one of the shapes. */
export let shapeName: i32 = -1;
export let shapeArgs: i32 = -1;

export const SHAPE_ERROR: i32 = -1;
export const SHAPE_NONE: i32 = 0; // no marker: a recording line
const CHAT = 1, RESPONSES = 2, ANTHROPIC = 3, BEDROCK = 4, GEMINI = 5, MCP = 6, VERCEL = 7;

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
    default: return "a Vercel AI SDK tool-call";
  }
}

// Bits of keyMask: which of the keys that decide a call's reading an object has.
const K_TYPE: u32 = 1, K_FUNCTION: u32 = 2, K_JSONRPC: u32 = 4, K_TOOL_USE: u32 = 8, K_FUNCTION_CALL: u32 = 16;
const K_ARGS: u32 = 32, K_ARGS_JSON: u32 = 64;
const SHAPE_KEYS = K_TYPE | K_FUNCTION | K_JSONRPC | K_TOOL_USE | K_FUNCTION_CALL;

/** The K_* keys among obj's members, in one pass: a recording line then skips every marker lookup (issue 13). */
function keyMask(obj: u32): u32 {
  let mask: u32 = 0;
  const count = nodeA(obj);
  let k = obj + 1;
  for (let m: u32 = 0; m < count; m++) {
    const n = nodeA(k); // a key's byte length: most keys are ruled out by it alone
    if (n == 4) { if (strIs(k, "type")) mask |= K_TYPE; else if (strIs(k, "args")) mask |= K_ARGS; }
    else if (n == 8) { if (strIs(k, "function")) mask |= K_FUNCTION; else if (strIs(k, "argsJSON")) mask |= K_ARGS_JSON; }
    else if (n == 7) { if (strIs(k, "jsonrpc")) mask |= K_JSONRPC; else if (strIs(k, "toolUse")) mask |= K_TOOL_USE; }
    else if (n == 12 && strIs(k, "functionCall")) mask |= K_FUNCTION_CALL;
    k = subtreeEnd(k + 1);
  }
  return mask;
}

/** Reads the shape of the call object at root: SHAPE_NONE, SHAPE_ERROR (recorded), or the shape with shapeName/shapeArgs set. */
export function readShape(root: u32): i32 {
  shapeName = shapeArgs = -1;
  if ((keyMask(root) & SHAPE_KEYS) == 0) return SHAPE_NONE; // every shape needs one of these keys
  const type = member(root, "type");
  let byType = 0;
  if (type >= 0 && nodeType(<u32>type) == T_STR) {
    if (strIs(<u32>type, "function_call")) byType = RESPONSES;
    else if (strIs(<u32>type, "tool_use")) byType = ANTHROPIC;
    else if (strIs(<u32>type, "tool-call")) byType = VERCEL;
  }
  const fn = member(root, "function");
  const chatType = type < 0 || (nodeType(<u32>type) == T_STR && strIs(<u32>type, "function"));
  if (fn >= 0 && nodeType(<u32>fn) == T_OBJ && chatType) byType = CHAT;
  let shape = byType;
  for (let m = MCP; m >= BEDROCK; m--) { // the member markers (no array: no runtime allocation)
    if (member(root, m == MCP ? "jsonrpc" : m == BEDROCK ? "toolUse" : "functionCall") < 0) continue;
    if (shape != 0) return bad("this call matches both ", shapeLabel(shape), " and ", shapeLabel(m), "; ", accepted());
    shape = m;
  }
  if (shape == 0) return SHAPE_NONE;
  let holder = <i32>root, nameKey = "name", argsKey = "arguments", altKey = "";
  if (shape == CHAT) holder = fn;
  else if (shape == ANTHROPIC) argsKey = "input";
  else if (shape == BEDROCK) { holder = member(root, "toolUse"); argsKey = "input"; }
  else if (shape == GEMINI) { holder = member(root, "functionCall"); argsKey = "args"; }
  else if (shape == VERCEL) { nameKey = "toolName"; argsKey = "input"; altKey = "args"; }
  else if (shape == MCP) {
    const method = member(root, "method");
    if (method < 0 || nodeType(<u32>method) != T_STR || !strIs(<u32>method, "tools/call")) {
      return bad(shapeLabel(shape), " must be a tools/call (\"method\": \"tools/call\")", "", "", "", "");
    }
    holder = member(root, "params");
  }
  if (holder < 0 || nodeType(<u32>holder) != T_OBJ) return bad(shapeLabel(shape), " must hold its call in an object", "", "", "", "");
  shapeName = member(<u32>holder, nameKey);
  if (shapeName < 0 || nodeType(<u32>shapeName) != T_STR) return bad(shapeLabel(shape), " needs a string \"", nameKey, "\"", "", "");
  let args = member(<u32>holder, argsKey);
  if ((args < 0 || nodeType(<u32>args) == T_NULL) && altKey.length > 0) args = member(<u32>holder, altKey);
  if (args >= 0 && nodeType(<u32>args) == T_STR && (shape == CHAT || shape == RESPONSES || shape == MCP)) {
    setTextPart(PART_ARGS_JSON, <usize>nodeB(<u32>args), <usize>nodeA(<u32>args)); // arguments as JSON text: the text path, never a host parse
    args = parseText(<usize>nodeB(<u32>args), <usize>nodeA(<u32>args), false);
    if (args < 0) return SHAPE_ERROR;
  } else if (args < 0) {
    args = tapePush(T_NULL, 0, 0, 0); // no args: null (D2)
    if (args < 0) return SHAPE_ERROR;
  }
  shapeArgs = args;
  return shape;
}

/** The value node of obj's member named key (the last of duplicates, D13), or -1. */
function member(obj: u32, key: string): i32 {
  let found: i32 = -1;
  const count = nodeA(obj);
  let k = obj + 1;
  for (let m: u32 = 0; m < count; m++) {
    if (strIs(k, key)) found = <i32>(k + 1);
    k = subtreeEnd(k + 1);
  }
  return found;
}

/** The string node i spells the ASCII string s exactly. */
function strIs(i: u32, s: string): bool {
  if (nodeA(i) != <u32>s.length) return false;
  const p = <usize>nodeB(i);
  for (let j = 0; j < s.length; j++) {
    if (<u32>load<u8>(p + <usize>j) != <u32>s.charCodeAt(j)) return false;
  }
  return true;
}

/** E_BAD_CALL with the detail a + b + c + d + e + f (ASCII literals), written into the arena. */
function bad(a: string, b: string, c: string, d: string, e: string, f: string): i32 {
  fail(E_BAD_CALL, -1);
  const out = alloc(<usize>(a.length + b.length + c.length + d.length + e.length + f.length));
  if (out == 0) return SHAPE_ERROR;
  let o = put(out, a); o = put(o, b); o = put(o, c); o = put(o, d); o = put(o, e); o = put(o, f);
  setErrorDetail(out, o - out);
  return SHAPE_ERROR;
}

function put(o: usize, s: string): usize {
  for (let i = 0; i < s.length; i++) store<u8>(o++, <u8>s.charCodeAt(i));
  return o;
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
//   Gemini response            {"candidates": [{"content": {"parts": [...]}}...]}
//   LangChain AIMessage dump   {"type": "ai", "tool_calls": [...]}: those alone
//                              (its content blocks, if any, repeat them)
// A message is an object with one of these containers and none of a call's own
// members (args, argsJSON, or a shape's marker); anything else is one call.
// Calls come out in order; text blocks, reasoning items etc. are skipped.

/** pickCall's count of the calls in the message (1 for a single call). */
export let callCount: u32 = 0;

/** listCalls' array of the message's call nodes (u32 each, in order), valid while the arena keeps it. */
export let callList: usize = 0;
/** Where scan records every call node it keeps (0: only the one asked for). */
let listing: usize = 0;

/**
 * Every call of the message (or single call) at root, listed in one pass at
 * callList, callCount of them: a caller reading call after call of one line
 * then costs O(line), not O(calls x line). False with the error recorded
 * (E_NO_CALLS with callCount 0 for a message without calls).
 */
export function listCalls(root: u32): bool {
  // A node per call at most: the subtree's node count bounds the list.
  callList = alloc(<usize>(subtreeEnd(root) - root) << 2);
  if (callList == 0) return false;
  listing = callList;
  const first = pickCall(root, 0xFFFF_FFFF);
  listing = 0;
  if (first == -2) return true;
  if (first >= 0) { store<u32>(callList, <u32>first); return true; } // a single call
  return false;
}

const M_TOOL_CALLS = 1, M_CHOICES = 2, M_CONTENT = 3, M_OUTPUT = 4, M_PARTS = 5, M_CANDIDATES = 6;
// Which elements of a container are calls (scan).
const ALL = 0, FUNCTION_CALL_ITEMS = 1, TOOL_BLOCKS = 2, FUNCTION_CALL_PARTS = 3;

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

/** The node of the call at index in root (a message or a single call), or -1 (recorded: E_NO_CALLS or a clash). */
export function pickCall(root: u32, index: u32): i32 {
  callCount = 1;
  const message = nodeType(root) == T_OBJ && !isCallObject(root); // read once: a CLI line asks for every line
  let kind = 0, arr: i32 = -1, which = ALL;
  if (message) {
    const last = isLangchainAi(root) ? M_TOOL_CALLS : M_CANDIDATES;
    for (let m = M_TOOL_CALLS; m <= last; m++) {
      let a = member(root, containerKey(m)), w = callsIn(m);
      if (a >= 0 && m == M_OUTPUT && nodeType(<u32>a) == T_OBJ) { // Bedrock's response
        a = bedrockContent(<u32>a);
        w = TOOL_BLOCKS;
      }
      if (a < 0 || nodeType(<u32>a) != T_ARR) continue;
      if (kind != 0) {
        bad("this message holds calls in both \"", containerKey(kind), "\" and \"", containerKey(m), "\"", "");
        return -1;
      }
      kind = m; arr = a; which = w;
    }
  }
  if (kind == 0) {
    // An assistant message without calls (a "role" and text content): none.
    if (message && member(root, "role") >= 0) callCount = 0;
    else if (index == 0 || listing != 0) return <i32>root;
    fail(E_NO_CALLS, -1);
    return -1;
  }
  let n: u32 = 0, found: i32 = -1;
  if (kind == M_CHOICES || kind == M_CANDIDATES) {
    // Each choice's message.tool_calls, or each candidate's content.parts, in turn.
    const count = nodeA(<u32>arr);
    let c = <u32>arr + 1;
    for (let i: u32 = 0; i < count; i++) {
      if (nodeType(c) == T_OBJ) {
        const holder = member(c, kind == M_CHOICES ? "message" : "content");
        const calls = holder >= 0 && nodeType(<u32>holder) == T_OBJ
          ? member(<u32>holder, kind == M_CHOICES ? "tool_calls" : "parts") : -1;
        if (calls >= 0 && nodeType(<u32>calls) == T_ARR) {
          const r = scan(<u32>calls, kind == M_CHOICES ? ALL : FUNCTION_CALL_PARTS, index, n);
          if (r >= 0 && found < 0) found = r;
          n = scanned;
        }
      }
      c = subtreeEnd(c);
    }
  } else {
    found = scan(<u32>arr, which, index, 0);
    n = scanned;
  }
  callCount = n;
  if (listing != 0 && n > 0) return -2; // listed: every call is at callList
  if (found < 0) fail(E_NO_CALLS, -1);
  return found;
}

/** Which elements of container m are calls (scan). */
function callsIn(m: i32): i32 {
  return m == M_CONTENT ? TOOL_BLOCKS : m == M_OUTPUT ? FUNCTION_CALL_ITEMS : m == M_PARTS ? FUNCTION_CALL_PARTS : ALL;
}

/** A LangChain AIMessage dump ("type": "ai" and a tool_calls array): its calls are those alone, whatever
 *  content blocks repeat them (with Anthropic models). */
function isLangchainAi(root: u32): bool {
  const t = member(root, "type"), calls = member(root, "tool_calls");
  return t >= 0 && nodeType(<u32>t) == T_STR && strIs(<u32>t, "ai")
    && calls >= 0 && nodeType(<u32>calls) == T_ARR;
}

/** Bedrock Converse's response: the content array of output.message, or -1. */
function bedrockContent(output: u32): i32 {
  const msg = member(output, "message");
  if (msg < 0 || nodeType(<u32>msg) != T_OBJ) return -1;
  return member(<u32>msg, "content");
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
      if (which == FUNCTION_CALL_PARTS) keep = member(e, "functionCall") >= 0;
      else {
        const t = member(e, "type");
        const typed = t >= 0 && nodeType(<u32>t) == T_STR;
        keep = which == FUNCTION_CALL_ITEMS ? typed && strIs(<u32>t, "function_call")
          : (typed && (strIs(<u32>t, "tool_use") || strIs(<u32>t, "tool-call"))) || member(e, "toolUse") >= 0;
      }
    }
    if (keep) {
      if (n == index) found = <i32>e;
      if (listing != 0) store<u32>(listing + (<usize>n << 2), e);
      n++;
    }
    e = subtreeEnd(e);
  }
  scanned = n;
  return found;
}

/** The object has a call's own members: args/argsJSON, or a shape marker. */
function isCallObject(o: u32): bool {
  const mask = keyMask(o);
  if ((mask & ~K_TYPE) != 0) return true; // args, argsJSON, function, jsonrpc, toolUse or functionCall
  if (mask == 0) return false;
  const t = member(o, "type");
  return t >= 0 && nodeType(<u32>t) == T_STR &&
    (strIs(<u32>t, "function_call") || strIs(<u32>t, "tool_use") || strIs(<u32>t, "tool-call") || strIs(<u32>t, "tool_call"));
}
