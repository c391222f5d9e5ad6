// Test-only: a module with the core's ABI whose run() traps, to prove the SDK
// turns a trap into a FingerprintError and rebuilds its instance (D19).
import { ABI_ID } from "../../assembly/_abi_id.gen";

const BLOCK: usize = memory.data(256);
export const FINGERPRINT_VERSION: i32 = 1;
export function version(): i32 { return 1; }
export function abiId(): i32 { return ABI_ID; }
export function reserve(n: usize): usize { return n <= 128 ? BLOCK + 128 : 0; }
export function result(): usize { return BLOCK; }
export function run(len: usize): i32 {
  if (len > 0) unreachable();
  return 0;
}
/** The limits export every module has (assembly/base/limits.ts): none here; the byte limit in force is none. */
export function limits(bytes: u32, depth: u32, members: u32, ownBytes: u32, ownDepth: u32, ownMembers: u32): u32 {
  return 0xFFFF_FFFF;
}
/** The word exports every module has (assembly/base/words.ts): this stand-in words every error "stand-in core". */
const WORDS: usize = memory.data(4096);
export function wordBuf(): usize { return WORDS; }
export function word(id: u32, len: u32): u32 {
  const text = "stand-in core";
  for (let i = 0; i < text.length; i++) store<u8>(WORDS + 1024 + i, <u8>text.charCodeAt(i));
  return <u32>text.length;
}
