// An object's members on the tape (json/tape.ts), looked up by an ASCII key:
// what the call readers (shapes.ts, pieces.ts, callkeys.ts) ask of the
// objects they look at. Internal.
import { T_NULL, T_OBJ, nodeA, nodeB, nodeType, subtreeEnd } from "./tape";

/** The value node of obj's member named key (the last of duplicates, D13), or -1. */
export function member(obj: u32, key: string): i32 {
  let found: i32 = -1;
  const count = nodeA(obj);
  let k = obj + 1;
  for (let m: u32 = 0; m < count; m++) {
    if (strIs(k, key)) found = <i32>(k + 1);
    k = subtreeEnd(k + 1);
  }
  return found;
}

/** member(), with a null value as absent. */
export function memberNN(obj: u32, key: string): i32 {
  const v = member(obj, key);
  return v >= 0 && nodeType(<u32>v) == T_NULL ? -1 : v;
}

/** obj (a node or -1) is an object with a member key that is not null. */
export function hasMemberNN(obj: i32, key: string): bool {
  return obj >= 0 && nodeType(<u32>obj) == T_OBJ && memberNN(<u32>obj, key) >= 0;
}

/** The string node i spells the ASCII string s exactly. */
export function strIs(i: u32, s: string): bool {
  if (nodeA(i) != <u32>s.length) return false;
  const p = <usize>nodeB(i);
  for (let j = 0; j < s.length; j++) {
    if (<u32>load<u8>(p + <usize>j) != <u32>s.charCodeAt(j)) return false;
  }
  return true;
}
