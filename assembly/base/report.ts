// An error whose detail is made of ASCII literals (the call readers'
// messages, shapes.ts and pieces.ts): written into the arena, as the result
// block returns a detail by address. Internal.
import { alloc } from "./arena";
import { fail, setErrorDetail } from "./errors";

/** Records code with the detail a + b + c + d + e + f (ASCII literals), written into the arena. */
export function report(code: i32, a: string, b: string, c: string, d: string, e: string, f: string): void {
  fail(code, -1);
  const out = alloc(<usize>(a.length + b.length + c.length + d.length + e.length + f.length));
  if (out == 0) return;
  let o = put(out, a); o = put(o, b); o = put(o, c); o = put(o, d); o = put(o, e); o = put(o, f);
  setErrorDetail(out, o - out);
}

function put(o: usize, s: string): usize {
  for (let i = 0; i < s.length; i++) store<u8>(o++, <u8>s.charCodeAt(i));
  return o;
}
