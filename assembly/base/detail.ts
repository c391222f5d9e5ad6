// Failures whose detail is made of ASCII literals (the call readers'
// messages: shapes.ts, pieces.ts, call.ts, tools.ts), written into the
// arena, as the result block returns a detail by address. Internal.
import { alloc } from "./arena";
import { fail, setErrorDetail } from "./errors";

/** Records code with the detail a + b + c + d + e + f (ASCII literals), written into the arena. */
export function failWith(code: i32, a: string, b: string, c: string, d: string, e: string, f: string): void {
  fail(code, -1);
  const out = alloc(<usize>(a.length + b.length + c.length + d.length + e.length + f.length));
  if (out == 0) return;
  let o = putAscii(out, a); o = putAscii(o, b); o = putAscii(o, c); o = putAscii(o, d); o = putAscii(o, e); o = putAscii(o, f);
  setErrorDetail(out, o - out);
}

/** Writes the ASCII literal s at o; returns the end. */
export function putAscii(o: usize, s: string): usize {
  for (let i = 0; i < s.length; i++) store<u8>(o++, <u8>s.charCodeAt(i));
  return o;
}
