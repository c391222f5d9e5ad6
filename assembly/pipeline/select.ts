// Argument selection (D9, D10). Internal.
// matchOn keeps only the listed top-level keys and wins over ignoreArgs, even
// when empty; ignoreArgs drops the listed keys. Keys match exactly (byte
// equality of the decoded keys: case-sensitive, untrimmed). Only a JSON
// object is selected from; any other top-level value passes through.
import { alloc } from "../base/arena";
import { compareKeys, entryNode, setEntry, sortMembers } from "../json/sort";
import { T_OBJ, T_STR, nodeA, nodeB, nodeType, subtreeEnd } from "../json/tape";
import { ensure, putBytes } from "../json/sink";

export const SELECT_NONE: i32 = 0;
export const SELECT_MATCH_ON: i32 = 1;
export const SELECT_IGNORE: i32 = 2;

/** Up to this many listed keys a linear scan is cheapest; longer lists are sorted once. */
const LINEAR_MAX: u32 = 16;

let mode: i32 = SELECT_NONE;
let listNode: u32 = 0; // the ARR node holding the key list
let sorted: usize = 0; // sort entries (json/sort.ts) of a long list, 0 for a short one
let sortedCount: u32 = 0;

/**
 * Sets the selection for the next write. A long list is sorted once, so
 * each member costs O(log list) and selecting n keys with a list of m costs
 * O((n + m) log m), not O(n × m). False on out of memory.
 */
export function setSelection(m: i32, list: u32): bool {
  mode = m;
  listNode = list;
  sorted = 0;
  if (m == SELECT_NONE) return true;
  const n = subtreeEnd(list) - list - 1; // one node per string (isKeyList)
  if (n <= LINEAR_MAX) return true;
  const entries = alloc(<usize>n << 4);
  if (entries == 0) return false;
  for (let i: u32 = 0; i < n; i++) setEntry(entries + (<usize>i << 4), list + 1 + i);
  const kept = sortMembers(entries, n); // also drops repeats: listing a key twice changes nothing (D9)
  if (kept < 0) return false;
  sorted = entries;
  sortedCount = <u32>kept;
  return true;
}

/** True when every element of the list node is a string (the request is well-formed). */
export function isKeyList(list: u32): bool {
  const end = subtreeEnd(list);
  for (let i = list + 1; i < end; i++) {
    if (nodeType(i) != T_STR) return false;
  }
  return true;
}

/** Whether a selection is set (the writer asks before calling keepMember for each member). */
@inline export function selecting(): bool {
  return mode != SELECT_NONE;
}

/** Whether the top-level member with key node k survives selection. */
export function keepMember(k: u32): bool {
  if (mode == SELECT_NONE) return true;
  const listed = isListed(k);
  return mode == SELECT_MATCH_ON ? listed : !listed;
}

function isListed(k: u32): bool {
  if (sorted != 0) {
    let lo: u32 = 0, hi = sortedCount;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = compareKeys(entryNode(sorted, mid), k);
      if (c == 0) return true;
      if (c < 0) lo = mid + 1; else hi = mid;
    }
    return false;
  }
  const p = <usize>nodeB(k), n = nodeA(k);
  const end = subtreeEnd(listNode);
  for (let i = listNode + 1; i < end; i++) {
    if (nodeA(i) == n && memEq(<usize>nodeB(i), p, n)) return true;
  }
  return false;
}

function memEq(a: usize, b: usize, n: usize): bool {
  let k: usize = 0;
  while (k + 8 <= n) {
    if (load<u64>(a + k) != load<u64>(b + k)) return false;
    k += 8;
  }
  while (k < n) {
    if (load<u8>(a + k) != load<u8>(b + k)) return false;
    k++;
  }
  return true;
}

// "0", "1", "M", "I": the keep-mask's characters (abi.ts F_KEEP_MASK).
const MASK_CHARS: usize = memory.data<u8>([0x30, 0x31, 0x4D, 0x49]);

/**
 * The keep-mask (F_KEEP_MASK): the host sends an object of the args'
 * top-level keys, never their values, and walks only the members this keeps,
 * so a value selection leaves out is never read (D9). Nothing when no
 * selection applies (D10: only an object is selected from); else "M" or "I"
 * (which list governs: a key the host cannot name is kept only under
 * ignoreArgs, where it is then the host's error) and "1"/"0" per member.
 */
export function writeKeepMask(root: u32): bool {
  if (mode == SELECT_NONE || nodeType(root) != T_OBJ) return true;
  const count = nodeA(root);
  if (!ensure(<usize>count + 1)) return false;
  putBytes(MASK_CHARS + (mode == SELECT_MATCH_ON ? 2 : 3), 1);
  let k = root + 1;
  for (let m: u32 = 0; m < count; m++) {
    putBytes(MASK_CHARS + (keepMember(k) ? 1 : 0), 1);
    k = subtreeEnd(k + 1);
  }
  return true;
}
