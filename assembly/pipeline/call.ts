// The call reader: one call, as a recording line holds it, read from the
// tape (JSON text or the host-value stream, F_CALL). Internal.
//
//   {"name", "args" | "argsJSON", "kind"?, "matchOn"?, "ignoreArgs"?, "fingerprint"?}
//
// plus any other members, which are carried along and never read. This is
// the one call model of every SDK and CLI: the same camelCase keys
// everywhere. Decisions where the contract is silent:
//   - a member that is null counts as absent (name, kind, matchOn, ignoreArgs,
//     argsJSON, fingerprint), as `matchOn: null` already does for selection;
//   - a message, a response or an array where one call is expected is an
//     error naming explainCalls, never a call with args null (D22);
//   - argsJSON wins over args when both are present; neither → args null (D2);
//   - argsJSON's string is read as JSON text from a host string (no BOM, D12),
//     errors are offsets into its decoded bytes (PART_ARGS_JSON);
//   - a near miss of a reserved key (args_json, match_on, MatchOn, ignore-args,
//     Name…: equal after lowercasing and dropping "_" and "-"), and `options`
//     (the old SDK shape), is an error naming the key to use — never ignored;
//   - duplicate members: the last wins (D13), as for args;
//   - a line without args or argsJSON (or with them null) but with "arguments", "input" or
//     "parameters" not null (a provider's call taken out of its shape, e.g. OpenAI's
//     `function` object, or Llama's {"name", "parameters"}) is an error naming
//     that key: read as a line it would silently fingerprint args null (D2).
import { E_BAD_CALL, PART_ARGS_JSON, PART_CALL } from "../abi";
import { alloc } from "../base/arena";
import { putAscii } from "../base/detail";
import { fail, setErrorDetail, setPart, setTextPart } from "../base/errors";
import { parseText } from "../json/reader";
import { STR_CLEAN, T_ARR, T_NULL, T_OBJ, T_STR, nodeA, nodeB, nodeFlags, nodeType, subtreeEnd, tapePush } from "../json/tape";
import { isKeyList } from "./select";
import { accepted, arrayNotOneCall, isMessage, missingName, notOneCall, SHAPE_ERROR, SHAPE_NONE, readShape } from "./shapes";
import { CallNodes, lastCall } from "./callnodes";

const K_NAME = 0, K_ARGS = 1, K_ARGS_JSON = 2, K_KIND = 3, K_MATCH_ON = 4, K_IGNORE = 5, K_FINGERPRINT = 6, K_OPTIONS = 7;
const K_ARGS_LIKE = 8; // badKey's code for isArgsLike keys (never a reserved key)

/** The reserved key a declaration key nearly spells (tools.ts): "matchOn", "ignoreArgs", or "" (none of them). */
export function nearSelectionKey(k: u32): string {
  const near = nearMiss(k);
  return near == K_MATCH_ON || near == K_IGNORE ? keyName(near) : "";
}

/** The reserved keys by index. String literals only: they live in static data (no runtime allocation). */
function keyName(i: i32): string {
  switch (i) {
    case K_NAME: return "name";
    case K_ARGS: return "args";
    case K_ARGS_JSON: return "argsJSON";
    case K_KIND: return "kind";
    case K_MATCH_ON: return "matchOn";
    case K_IGNORE: return "ignoreArgs";
    case K_FINGERPRINT: return "fingerprint";
    default: return "options";
  }
}

/**
 * Reads the call at tape node root into lastCall(). textBase: start of the
 * call's JSON text (error offsets), 0 for the value stream. The record, or
 * null on error (recorded).
 */
export function readCall(root: u32, textBase: usize, textLen: usize): CallNodes | null {
  const call = lastCall();
  call.clear();
  setPart(PART_CALL);
  if (nodeType(root) == T_ARR) { arrayNotOneCall(); return null; }
  if (nodeType(root) != T_OBJ) return bad(-1, "a call must be a JSON object");
  // A provider's tool call (shapes.ts): name and args only, no kind or selection.
  const shape = readShape(root, call);
  if (shape == SHAPE_ERROR) return null;
  if (shape != SHAPE_NONE) {
    setPart(PART_CALL);
    return call;
  }
  let argsJson: i32 = -1, argsLike: i32 = -1;
  const count = nodeA(root);
  let k = root + 1;
  for (let m: u32 = 0; m < count; m++) {
    const v = k + 1;
    const which = keyOf(k);
    const isNull = nodeType(v) == T_NULL;
    if (which == K_NAME) call.name = isNull ? -1 : <i32>v;
    else if (which == K_ARGS) call.args = <i32>v;
    else if (which == K_ARGS_JSON) argsJson = isNull ? -1 : <i32>v;
    else if (which == K_KIND) call.kind = isNull ? -1 : <i32>v;
    else if (which == K_MATCH_ON) call.matchOn = isNull ? -1 : <i32>v;
    else if (which == K_IGNORE) call.ignoreArgs = isNull ? -1 : <i32>v;
    else if (which == K_FINGERPRINT) call.recorded = isNull ? -1 : <i32>v;
    else if (which < 0) {
      const near = nearMiss(k);
      if (near >= 0) return badKey(k, textBase, textLen, near);
      if (argsLike < 0 && !isNull && isArgsLike(k)) argsLike = <i32>k; // null: absent, as a host value's (D1)
    }
    k = subtreeEnd(v);
  }
  // A message (or a role-bearing object: a user message's "name") read as a line would be one call
  // with args null: the error names explainCalls. Looked at only when no args were given.
  if ((call.name < 0 || (argsJson < 0 && (call.args < 0 || nodeType(<u32>call.args) == T_NULL))) && isMessage(root)) {
    notOneCall();
    return null;
  }
  if (call.name < 0) {
    missingName(root);
    return null;
  }
  if (nodeType(<u32>call.name) != T_STR) return bad(-1, "\"name\" must be a string");
  if (call.kind >= 0 && nodeType(<u32>call.kind) != T_STR) return bad(-1, "\"kind\" must be a string");
  if (!keyListOrAbsent(call.matchOn)) return bad(-1, "\"matchOn\" must be an array of strings");
  if (!keyListOrAbsent(call.ignoreArgs)) return bad(-1, "\"ignoreArgs\" must be an array of strings");
  if (call.recorded >= 0 && !isDigestString(<u32>call.recorded)) {
    return bad(-1, "\"fingerprint\" must be 64 lowercase hex digits");
  }
  if (argsJson >= 0) {
    if (nodeType(<u32>argsJson) != T_STR) return bad(-1, "\"argsJSON\" must be a string");
    setTextPart(PART_ARGS_JSON, <usize>nodeB(<u32>argsJson), <usize>nodeA(<u32>argsJson));
    const r = parseText(<usize>nodeB(<u32>argsJson), <usize>nodeA(<u32>argsJson), false);
    if (r < 0) return null;
    call.args = r;
  } else {
    // "args": null counts as absent here too: a host value's null member is dropped (D1) before this reads it.
    if (argsLike >= 0 && (call.args < 0 || nodeType(<u32>call.args) == T_NULL)) {
      return badKey(<u32>argsLike, textBase, textLen, K_ARGS_LIKE);
    }
    if (call.args >= 0) return call;
    const r = tapePush(T_NULL, 0, 0, 0); // no args: null (D2)
    if (r < 0) return null;
    call.args = r;
  }
  return call;
}

function keyListOrAbsent(node: i32): bool {
  return node < 0 || (nodeType(<u32>node) == T_ARR && isKeyList(<u32>node));
}

function isDigestString(i: u32): bool {
  if (nodeType(i) != T_STR || nodeA(i) != 64) return false;
  const p = <usize>nodeB(i);
  for (let j: usize = 0; j < 64; j++) {
    const c = <u32>load<u8>(p + j);
    if (!(c - 0x30 < 10 || c - 0x61 < 6)) return false;
  }
  return true;
}

/** A provider's name for a call's args, which a recording line does not read. */
function isArgsLike(k: u32): bool {
  const p = <usize>nodeB(k), n = nodeA(k);
  // input_schema / inputSchema: an Anthropic or MCP tool's definition, not a call of it
  return n == 9 && asciiEq(p, "arguments", false) || n == 5 && asciiEq(p, "input", false)
    || n == 10 && asciiEq(p, "parameters", false) || n == 12 && asciiEq(p, "input_schema", false)
    || n == 11 && asciiEq(p, "inputSchema", false);
}

/** Index in KEYS of the key node k's exact bytes, or -1. */
function keyOf(k: u32): i32 {
  const p = <usize>nodeB(k), n = <i32>nodeA(k);
  for (let i = 0; i < K_OPTIONS; i++) {
    const ref = keyName(i);
    if (ref.length == n && asciiEq(p, ref, false)) return i;
  }
  return -1;
}

/** Index of the reserved key that k nearly spells (see the module comment), or -1. */
function nearMiss(k: u32): i32 {
  const p = <usize>nodeB(k), n = <usize>nodeA(k);
  if (n > 32) return -1;
  for (let i = 0; i <= K_OPTIONS; i++) {
    if (normalizedEq(p, n, keyName(i))) return i;
  }
  return -1;
}

/** Bytes at p equal the ASCII string ref (lowercased on both sides when fold). */
function asciiEq(p: usize, ref: string, fold: bool): bool {
  for (let j = 0; j < ref.length; j++) {
    let c = <u32>load<u8>(p + <usize>j);
    let r = <u32>ref.charCodeAt(j);
    if (fold) { c = lower(c); r = lower(r); }
    if (c != r) return false;
  }
  return true;
}

@inline function lower(c: u32): u32 {
  return c - 0x41 < 26 ? c | 0x20 : c;
}

/** Key bytes equal ref after lowercasing both and dropping "_" and "-" from the key. */
function normalizedEq(p: usize, n: usize, ref: string): bool {
  let j = 0;
  for (let i: usize = 0; i < n; i++) {
    const c = <u32>load<u8>(p + i);
    if (c == 0x5F || c == 0x2D) continue;
    if (j >= ref.length || lower(c) != lower(<u32>ref.charCodeAt(j))) return false;
    j++;
  }
  return j == ref.length;
}

function bad(offset: i32, detail: string): CallNodes | null {
  fail(E_BAD_CALL, offset);
  setDetail(0, 0, detail, "", "");
  return null;
}

/** `"<key>" should be "<reserved>"` (the key is ASCII: it nearly spells one). */
function badKey(k: u32, textBase: usize, textLen: usize, near: i32): CallNodes | null {
  const p = <usize>nodeB(k);
  // A clean key is a slice of the text: its opening quote is one byte before.
  const inText = textLen > 0 && (nodeFlags(k) & STR_CLEAN) != 0 && p > textBase && p <= textBase + textLen;
  fail(E_BAD_CALL, inText ? <i32>(p - 1 - textBase) : -1);
  if (near == K_OPTIONS) {
    setDetail(p, <usize>nodeA(k), " is not a call key: put kind, matchOn and ignoreArgs at the top level of the call", "", "");
  } else if (near == K_ARGS_LIKE) {
    setDetail(p, <usize>nodeA(k), " is not read as args: a recording line has \"args\" (a value) or \"argsJSON\" (JSON text);",
      " a provider's tool call goes in whole; ", accepted());
  } else {
    setDetail(p, <usize>nodeA(k), " should be \"", keyName(near), "\" (call keys are camelCase)");
  }
  return null;
}

/** Detail = ("<key bytes>" when n > 0) + a + b + c, as UTF-8 in the arena (a, b, c are ASCII). */
function setDetail(p: usize, n: usize, a: string, b: string, c: string): void {
  const quoted = n > 0 ? n + 2 : 0;
  const out = alloc(quoted + <usize>(a.length + b.length + c.length));
  if (out == 0) return;
  let o = out;
  if (n > 0) {
    store<u8>(o++, 0x22);
    memory.copy(o, p, n); o += n;
    store<u8>(o++, 0x22);
  }
  o = putAscii(o, a); o = putAscii(o, b); o = putAscii(o, c);
  setErrorDetail(out, o - out);
}
