// Test-only entry over assembly/hash/sha256x4.ts (four messages per call, wasm
// SIMD): the test lays up to four messages in the input region and hashes
// them together. Never shipped.
import { sha256x4Hex, sha256x4Set } from "../../assembly/hash/sha256x4";

/** Up to four 64-byte hex outputs. */
const OUT: usize = memory.data(256, 16);

// @ts-ignore: __heap_base is a compiler builtin
const INPUT: usize = (__heap_base + 0xffff) & ~<usize>0xffff;

export function outPtr(): usize { return OUT; }

/** Returns the input pointer after growing memory so len bytes (+ 64 of slack) fit there. */
export function inputPtr(len: usize): usize {
  const needPages = <i32>((INPUT + len + 64 + 0xffff) >>> 16);
  const have = memory.size();
  if (needPages > have && memory.grow(needPages - have) < 0) unreachable();
  return INPUT;
}

/** Lane j hashes input[off, off + len) into OUT + 64 j. */
export function set(j: u32, off: usize, len: usize): void {
  sha256x4Set(j, INPUT + off, len, OUT + (<usize>j << 6));
}

export function run(count: u32): void {
  sha256x4Hex(count);
}
