// The Explanation (F_EXPLAIN): everything a fingerprint is made of, written
// once here as the JSON text both SDKs return as it is (JSON.parse /
// json.loads, nothing added) and the CLI reads. Internal.
//
//   {"version":EXPLANATION_VERSION,"kind":K,"name":N,
//    "selected":{"kept":[…],"dropped":[…],"missing":[…]},
//    "canonical":"<canonical text>","preimage":"<kind \n name \n canonical>",
//    "fingerprint":"<64 hex>","declared":"tools"?}
//   + with F_ECHO_CALL (the CLI's formatters only): "matchOn":[…]?,"ignoreArgs":[…]?,"recorded":"<hex>"?
//
// kept: top-level keys in the canonical text (code point order, D5).
// dropped: keys selection left out that would otherwise be in it (a null
//   value would not: D1), code point order; only when a selection applies.
// missing: matchOn keys not kept (absent or null), in listing order, once each.
// Selection reports need an object at the top level (D10): otherwise all
// three lists are empty. matchOn/ignoreArgs/recorded echo the call's members.
import { EXPLANATION_VERSION } from "../abi";
import { bytes, decimal } from "../json/emit";
import { T_NULL, T_OBJ, T_STR, nodeA, nodeB, nodeFlags, nodeType, subtreeEnd, STR_CLEAN } from "../json/tape";
import { alloc } from "../base/arena";
import { ensure, putByte, sinkBase, sinkLength } from "../json/sink";
import { compareKeys, entryNode, setEntry, sortMembers } from "../json/sort";
import { writeJsonString } from "./canonical";
import { SELECT_MATCH_ON, SELECT_NONE, keepMember } from "./select";
import { DECLARED_TOOLS } from "./tools";
import { lastCall } from "./callnodes";

/**
/**
 * The last Explanation's parts, for a formatter that prints them its own way
 * (cli/readcall.ts) instead of reading the JSON back: kind and name as
 * bytes, the call's recorded fingerprint as a tape node (-1: none), and where
 * the Explanation's pieces lie, as sink offsets (they hold while the sink
 * grows): the lists as JSON arrays (written with echo only), the canonical
 * text and the preimage as bytes.
 */
@unmanaged export class Explained {
  kindP: usize; kindN: usize; nameP: usize; nameN: usize;
  recorded: i32; declared: bool;
  matchOnAt: usize; matchOnEnd: usize; ignoreAt: usize; ignoreEnd: usize;
  keptAt: usize; keptEnd: usize; droppedAt: usize; droppedEnd: usize; missingAt: usize; missingEnd: usize;
  canonAt: usize; canonEnd: usize; preAt: usize;
}

export function explained(): Explained { return changetype<Explained>(memory.data(offsetof<Explained>())); }

/**
 * Appends the Explanation to the sink. kind/name: decoded bytes; lists,
 * recorded: tape nodes or -1 (written with echo only); args: the args root;
 * [canonStart, end) and [preStart, end) are sink offsets of the canonical
 * text and the preimage, end = canonEnd; digest: its 64 hex digits (0: none).
 */
export function writeExplanation(kindP: usize, kindN: usize, nameP: usize, nameN: usize, matchOn: i32,
  ignoreArgs: i32, recorded: i32, args: u32, mode: i32, preStart: usize, canonStart: usize, canonEnd: usize,
  digest: usize, echo: bool): bool {
  const e = explained();
  e.kindP = kindP; e.kindN = kindN; e.nameP = nameP; e.nameN = nameN; e.recorded = recorded;
  e.canonAt = canonStart; e.canonEnd = canonEnd; e.preAt = preStart;
  e.matchOnAt = e.matchOnEnd = e.ignoreAt = e.ignoreEnd = 0;
  if (!lit("{\"version\":") || !decimal(<u64>EXPLANATION_VERSION)) return false;
  if (!lit(",\"kind\":") || !writeJsonString(kindP, kindN, false)) return false;
  if (!lit(",\"name\":") || !writeJsonString(nameP, nameN, false)) return false;
  if (!lit(",\"selected\":") || !selection(args, mode, matchOn)) return false;
  if (!lit(",\"canonical\":") || !sinkSpan(canonStart, canonEnd)) return false;
  if (!lit(",\"preimage\":") || !sinkSpan(preStart, canonEnd)) return false;
  if (digest != 0 && !(lit(",\"fingerprint\":\"") && bytes(digest, 64) && lit("\""))) return false;
  // The tool's declaration chose the selection; absent: the call's own lists, if any.
  e.declared = lastCall().declared == DECLARED_TOOLS;
  if (e.declared && !lit(",\"declared\":\"tools\"")) return false;
  if (echo) {
    if (matchOn >= 0) {
      if (!lit(",\"matchOn\":")) return false;
      e.matchOnAt = sinkLength();
      if (!keyArray(<u32>matchOn)) return false;
      e.matchOnEnd = sinkLength();
    }
    if (ignoreArgs >= 0) {
      if (!lit(",\"ignoreArgs\":")) return false;
      e.ignoreAt = sinkLength();
      if (!keyArray(<u32>ignoreArgs)) return false;
      e.ignoreEnd = sinkLength();
    }
    if (recorded >= 0 && !(lit(",\"recorded\":") && str(<u32>recorded))) return false;
  }
  return lit("}");
}

function selection(args: u32, mode: i32, matchOn: i32): bool {
  // Selection reports need an object (D10): otherwise three empty lists.
  const obj = nodeType(args) == T_OBJ;
  let list: usize = 0, n: i32 = 0;
  if (obj) {
    // Members sorted, last duplicate kept (D5, D13): the writer's own order.
    const count = nodeA(args);
    list = alloc(<usize>count << 4);
    if (count > 0 && list == 0) return false;
    let k = args + 1;
    for (let m: u32 = 0; m < count; m++) {
      setEntry(list + (<usize>m << 4), k);
      k = subtreeEnd(k + 1);
    }
    n = sortMembers(list, count);
    if (n < 0) return false;
  }
  const e = explained();
  if (!lit("{\"kept\":")) return false;
  e.keptAt = sinkLength();
  if (!lit("[") || (obj && !members(list, <u32>n, true)) || !lit("]")) return false;
  e.keptEnd = sinkLength();
  if (!lit(",\"dropped\":")) return false;
  e.droppedAt = sinkLength();
  if (!lit("[") || (obj && mode != SELECT_NONE && !members(list, <u32>n, false)) || !lit("]")) return false;
  e.droppedEnd = sinkLength();
  if (!lit(",\"missing\":")) return false;
  e.missingAt = sinkLength();
  if (!lit("[") || (obj && mode == SELECT_MATCH_ON && !missing(list, <u32>n, <u32>matchOn)) || !lit("]")) return false;
  e.missingEnd = sinkLength();
  return lit("}");
}

/** The non-null members that selection keeps (kept) or leaves out (!kept), as a JSON array body. */
function members(list: usize, n: u32, kept: bool): bool {
  let first = true;
  for (let i: u32 = 0; i < n; i++) {
    const key = entryNode(list, i);
    if (nodeType(key + 1) == T_NULL || keepMember(key) != kept) continue;
    if (!first && !lit(",")) return false;
    first = false;
    if (!str(key)) return false;
  }
  return true;
}

/**
 * matchOn keys that no kept member has, in listing order, once each; n log n
 * in the list's length. The list's entries are sorted in reverse listing
 * order, so the sort's "last duplicate wins" keeps each key's first listing:
 * an element is reported only if it is that one.
 */
function missing(list: usize, n: u32, matchOn: u32): bool {
  const count = nodeA(matchOn);
  const firsts = alloc(<usize>count << 4);
  if (count > 0 && firsts == 0) return false;
  for (let m: u32 = 0; m < count; m++) setEntry(firsts + (<usize>(count - 1 - m) << 4), matchOn + 1 + m);
  const distinct = sortMembers(firsts, count);
  if (distinct < 0) return false;
  let first = true;
  for (let e = matchOn + 1; e <= matchOn + count; e++) {
    if (entryNode(firsts, <u32>find(firsts, <u32>distinct, e)) != e || isKept(list, n, e)) continue;
    if (!first && !lit(",")) return false;
    first = false;
    if (!str(e)) return false;
  }
  return true;
}

/** Index of the entry whose key equals node key's (it is present). */
function find(list: usize, n: u32, key: u32): i32 {
  let lo: i32 = 0, hi: i32 = <i32>n - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeys(entryNode(list, <u32>mid), key) < 0) lo = mid + 1; else hi = mid;
  }
  return lo;
}

function isKept(list: usize, n: u32, key: u32): bool {
  let lo: i32 = 0, hi: i32 = <i32>n - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const k = entryNode(list, <u32>mid);
    const c = compareKeys(k, key);
    if (c == 0) return nodeType(k + 1) != T_NULL;
    if (c < 0) lo = mid + 1; else hi = mid - 1;
  }
  return false;
}

function keyArray(listNode: u32): bool {
  if (!lit("[")) return false;
  const end = subtreeEnd(listNode);
  for (let e = listNode + 1; e < end; e++) {
    if (e > listNode + 1 && !lit(",")) return false;
    if (!str(e)) return false;
  }
  return lit("]");
}

/** A string node as a JSON string, untrimmed. */
function str(i: u32): bool {
  return nodeType(i) == T_STR && writeJsonString(<usize>nodeB(i), <usize>nodeA(i), (nodeFlags(i) & STR_CLEAN) != 0);
}

/** Bytes [from, to) of the sink itself as a JSON string: room first, so the buffer cannot move under them. */
function sinkSpan(from: usize, to: usize): bool {
  const n = to - from;
  if (n > 0x2000_0000 || !ensure(n * 6 + 2)) return false;
  return writeJsonString(sinkBase() + from, n, false);
}

/** Appends an ASCII literal. */
function lit(s: string): bool {
  const n = <usize>s.length;
  if (!ensure(n)) return false;
  for (let i = 0; i < s.length; i++) putByte(<u32>s.charCodeAt(i));
  return true;
}
