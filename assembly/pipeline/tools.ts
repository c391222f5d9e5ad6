// Tool declarations: the contract says a *tool* declares
// matchOn or ignoreArgs, so the selection can live once per tool instead of
// on every call. Internal; engine module only.
//
//   {"create_ticket": {"matchOn": ["title", "priority"]}, "search_docs": {"ignoreArgs": ["requestId"]}}
//
// The declarations' JSON text is handed to the core (F_TOOLS per request, or
// kept by a recording, replay.ts) and applies by tool name to every call the
// core reads (call.ts), in any shape (shapes.ts). Decisions:
//   - a call carrying its own matchOn/ignoreArgs that equals its tool's
//     declaration (same strings, same order) is fine; one that differs is
//     E_TOOL_CONFLICT naming both — never a silent choice;
//   - a declaration may hold matchOn, ignoreArgs or both (matchOn wins, D9),
//     null counts as absent (as in a call); `{}` declares "no selection";
//   - any other key is E_BAD_TOOLS; a near miss (match_on, IgnoreArgs…) names
//     the key it should be, as the call reader does;
//   - the text is parsed onto the call's tape for each call (declarations are
//     small; a recording's calls are read once each).
import { E_BAD_TOOLS, E_TOOL_CONFLICT, PART_CALL, PART_TOOLS } from "../abi";
import { alloc } from "../base/arena";
import { putAscii } from "../base/detail";
import { nearSelectionKey } from "./call";
import { CallNodes } from "./callnodes";
import { fail, setErrorDetail, setPart } from "../base/errors";
import { parseText } from "../json/reader";
import { T_ARR, T_NULL, T_OBJ, nodeA, nodeB, nodeType, subtreeEnd } from "../json/tape";
import { isKeyList } from "./select";

/** Which declaration chose the selection of a call read (CallNodes.declared; explain.ts prints it). */
export const DECLARED_NONE: i32 = 0;
export const DECLARED_CALL: i32 = 1;
export const DECLARED_TOOLS: i32 = 2;

let toolsP: usize = 0;
let toolsN: usize = 0;

/** The declarations' JSON text for the calls that follow ([p, p + n); n = 0: none). */
export function setTools(p: usize, n: usize): void {
  toolsP = p;
  toolsN = n;
}

/** Parses and checks declarations text onto the tape; the root node, or -1 (recorded). */
export function readTools(p: usize, n: usize): i32 {
  setPart(PART_TOOLS);
  const root = parseText(p, n, false);
  if (root < 0) return -1;
  if (nodeType(<u32>root) != T_OBJ) return bad("tool declarations must be a JSON object {\"<tool name>\": {\"matchOn\"?, \"ignoreArgs\"?}}", 0, "", 0, "", "");
  const count = nodeA(<u32>root);
  let k = <u32>root + 1;
  for (let m: u32 = 0; m < count; m++) {
    const v = k + 1;
    if (nodeType(v) != T_OBJ) {
      return bad("the declaration of ", k, " must be an object {\"matchOn\"?, \"ignoreArgs\"?}", 0, "", "");
    }
    const dn = nodeA(v);
    let dk = v + 1;
    for (let d: u32 = 0; d < dn; d++) {
      const dv = dk + 1;
      const which = keyIs(dk, "matchOn") ? 1 : keyIs(dk, "ignoreArgs") ? 2 : 0;
      if (which == 0) {
        const near = nearSelectionKey(dk);
        if (near.length > 0) return bad("", dk, " in the declaration of ", k, " should be \"", near);
        return bad("", dk, " in the declaration of ", k, " is not a declaration key (matchOn, ignoreArgs)", "");
      }
      if (nodeType(dv) != T_NULL && (nodeType(dv) != T_ARR || !isKeyList(dv))) {
        return bad("", dk, " in the declaration of ", k, " must be an array of strings", "");
      }
      dk = subtreeEnd(dv);
    }
    k = subtreeEnd(v);
  }
  return root;
}

/**
 * Applies the declaration of the call's tool after readCall: replaces the
 * call's selection, or fails on a conflict. Sets call.declared. False on
 * error (recorded).
 */
export function applyTools(call: CallNodes): bool {
  call.declared = call.matchOn >= 0 || call.ignoreArgs >= 0 ? DECLARED_CALL : DECLARED_NONE;
  if (toolsN == 0) return true;
  const root = readTools(toolsP, toolsN);
  if (root < 0) return false;
  setPart(PART_CALL);
  const name = <u32>call.name;
  let decl: i32 = -1;
  const count = nodeA(<u32>root);
  let k = <u32>root + 1;
  for (let m: u32 = 0; m < count; m++) {
    if (sameBytes(k, name)) decl = <i32>(k + 1); // the last duplicate wins (D13)
    k = subtreeEnd(k + 1);
  }
  if (decl < 0) return true;
  const dm = listOf(<u32>decl, "matchOn"), di = listOf(<u32>decl, "ignoreArgs");
  if (call.declared == DECLARED_CALL && !(sameList(call.matchOn, dm) && sameList(call.ignoreArgs, di))) {
    return conflict(call, dm, di);
  }
  call.matchOn = dm;
  call.ignoreArgs = di;
  call.declared = DECLARED_TOOLS;
  return true;
}

/** The list node of a declaration's key (null or absent: -1). */
function listOf(decl: u32, key: string): i32 {
  let found: i32 = -1;
  const count = nodeA(decl);
  let k = decl + 1;
  for (let m: u32 = 0; m < count; m++) {
    if (keyIs(k, key)) found = nodeType(k + 1) == T_NULL ? -1 : <i32>(k + 1);
    k = subtreeEnd(k + 1);
  }
  return found;
}

function sameList(a: i32, b: i32): bool {
  if (a < 0 || b < 0) return a == b;
  const n = nodeA(<u32>a);
  if (n != nodeA(<u32>b)) return false;
  for (let i: u32 = 1; i <= n; i++) if (!sameBytes(<u32>a + i, <u32>b + i)) return false;
  return true;
}

/** Two string nodes hold the same decoded bytes. */
function sameBytes(a: u32, b: u32): bool {
  const n = nodeA(a);
  return n == nodeA(b) && memory.compare(<usize>nodeB(a), <usize>nodeB(b), <usize>n) == 0;
}

function keyIs(k: u32, s: string): bool {
  if (nodeA(k) != <u32>s.length) return false;
  const p = <usize>nodeB(k);
  for (let j = 0; j < s.length; j++) if (<u32>load<u8>(p + <usize>j) != <u32>s.charCodeAt(j)) return false;
  return true;
}

// ---- Error details: raw decoded bytes between quotes, as call.ts writes them.

let dOut: usize = 0;

function conflict(call: CallNodes, dm: i32, di: i32): bool {
  fail(E_TOOL_CONFLICT, -1);
  const name = <u32>call.name;
  const cap = 160 + <usize>nodeA(name) + listRoom(call.matchOn) + listRoom(call.ignoreArgs) + listRoom(dm) + listRoom(di);
  const out = alloc(cap);
  if (out == 0) return false;
  dOut = out;
  put("the call of "); quoted(name); put(" has "); lists(call.matchOn, call.ignoreArgs);
  put(" but its tool's declaration has "); lists(dm, di);
  setErrorDetail(out, dOut - out);
  return false;
}

function lists(m: i32, i: i32): void {
  if (m >= 0) { put("matchOn "); list(<u32>m); }
  if (m >= 0 && i >= 0) put(" and ");
  if (i >= 0) { put("ignoreArgs "); list(<u32>i); }
  if (m < 0 && i < 0) put("no matchOn or ignoreArgs");
}

function list(l: u32): void {
  put("[");
  const n = nodeA(l);
  for (let i: u32 = 1; i <= n; i++) {
    if (i > 1) put(",");
    quoted(l + i);
  }
  put("]");
}

function listRoom(l: i32): usize {
  if (l < 0) return 0;
  let n: usize = 16;
  const end = subtreeEnd(<u32>l);
  for (let i = <u32>l + 1; i < end; i++) n += <usize>nodeA(i) + 3;
  return n;
}

function quoted(s: u32): void {
  store<u8>(dOut++, 0x22);
  memory.copy(dOut, <usize>nodeB(s), <usize>nodeA(s));
  dOut += <usize>nodeA(s);
  store<u8>(dOut++, 0x22);
}

function put(s: string): void {
  dOut = putAscii(dOut, s);
}

/**
 * E_BAD_TOOLS with the detail a + "key1" + b + "key2" + c + d + ("\"" when d
 * is a key name). Key nodes 0 are left out (a key is never the tape's first node).
 */
function bad(a: string, k1: u32, b: string, k2: u32, c: string, d: string): i32 {
  fail(E_BAD_TOOLS, -1);
  const out = alloc(<usize>(a.length + b.length + c.length + d.length + 1) + (k1 ? <usize>nodeA(k1) + 2 : 0) + (k2 ? <usize>nodeA(k2) + 2 : 0));
  if (out == 0) return -1;
  dOut = out;
  put(a);
  if (k1) quoted(k1);
  put(b);
  if (k2) quoted(k2);
  put(c);
  put(d);
  if (d.length > 0) put("\"");
  setErrorDetail(out, dOut - out);
  return -1;
}
