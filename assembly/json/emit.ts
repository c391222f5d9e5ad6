// Sink helpers for the CLI formatters (help.ts, line.ts): a static ASCII
// literal, or bytes from the request. Internal; false on out of memory.
import { ensure, putByte, putBytes } from "./sink";

/** A static ASCII literal into the sink. */
export function lit(s: string): bool {
  if (!ensure(<usize>s.length)) return false;
  for (let i = 0; i < s.length; i++) putByte(<u32>s.charCodeAt(i));
  return true;
}

/** n bytes at p into the sink. */
export function bytes(p: usize, n: usize): bool {
  if (!ensure(n)) return false;
  putBytes(p, n);
  return true;
}
