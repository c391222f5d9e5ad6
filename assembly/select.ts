// Argument selection (D9, D10). Internal.
// matchOn keeps only the listed top-level keys and wins over ignoreArgs, even
// when empty; ignoreArgs drops the listed keys. Keys match exactly (byte
// equality of the decoded keys: case-sensitive, untrimmed). Only a JSON
// object is selected from; any other top-level value passes through.
import { T_STR, nodeA, nodeB, nodeType, subtreeEnd } from "./json/tape";

export const SELECT_NONE: i32 = 0;
export const SELECT_MATCH_ON: i32 = 1;
export const SELECT_IGNORE: i32 = 2;

let mode: i32 = SELECT_NONE;
let listNode: u32 = 0; // the ARR node holding the key list

export function setSelection(m: i32, list: u32): void {
  mode = m;
  listNode = list;
}

/** True when every element of the list node is a string (the request is well-formed). */
export function isKeyList(list: u32): bool {
  const end = subtreeEnd(list);
  for (let i = list + 1; i < end; i++) {
    if (nodeType(i) != T_STR) return false;
  }
  return true;
}

/** Whether the top-level member with key node k survives selection. */
export function keepMember(k: u32): bool {
  if (mode == SELECT_NONE) return true;
  const listed = isListed(k);
  return mode == SELECT_MATCH_ON ? listed : !listed;
}

function isListed(k: u32): bool {
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
