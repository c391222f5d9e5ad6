/**
 * A recorded line as a JavaScript value, built from the core's items of it
 * (assembly/ops/items.ts) with an explicit stack: any depth the core reads
 * (D19) and bare NaN/Infinity (D12, as JavaScript's NaN and Infinity), where
 * JSON.parse refuses the tokens. Scalars are read by JSON.parse itself, so
 * numbers, escapes and lone surrogates are exactly what it makes of them.
 * Internal; the Python twin is python/overturn/fingerprint/_json_value.py.
 * @module
 */
import { J_ARRAY, J_END, J_NONFINITE, J_OBJECT, J_SCALAR, J_STRING } from "./_abi.gen.js";

type Container = unknown[] | Record<string, unknown>;

/** The value of `text` from its items (tag, from, to; UTF-16 positions); throws on items that do not fit. */
export function buildValue(text: string, items: Uint32Array): unknown {
  const open: Container[] = [];
  let key: string | undefined; // an object's member name, read, its value still to come
  let root: unknown;
  let done = false;
  const place = (v: unknown): void => {
    const d = open.length - 1;
    if (d < 0) {
      if (done) throw new Error("more than one value");
      root = v; done = true;
    } else if (Array.isArray(open[d])) (open[d] as unknown[]).push(v);
    else if (key === undefined) throw new Error("a member name that is not a string");
    else {
      const o = open[d] as Record<string, unknown>;
      // JSON.parse makes "__proto__" an own member; an assignment would set the prototype.
      if (key === "__proto__") Object.defineProperty(o, key, { value: v, writable: true, enumerable: true, configurable: true });
      else o[key] = v;
      key = undefined;
    }
  };
  for (let i = 0; i + 2 < items.length; i += 3) {
    const tag = items[i], from = items[i + 1], to = items[i + 2];
    if (tag === J_ARRAY || tag === J_OBJECT) {
      const c: Container = tag === J_ARRAY ? [] : {};
      place(c);
      open.push(c);
      continue;
    }
    if (tag === J_END) {
      if (open.length === 0 || key !== undefined) throw new Error("an unbalanced close");
      open.pop();
      continue;
    }
    let v: unknown;
    if (tag === J_STRING) v = text.slice(from + 1, to - 1);
    else if (tag === J_SCALAR) v = JSON.parse(text.slice(from, to));
    else if (tag === J_NONFINITE) v = Number(text.slice(from, to));
    else throw new Error(`item tag ${tag}`);
    const d = open.length - 1;
    if (d >= 0 && !Array.isArray(open[d]) && key === undefined) {
      if (typeof v !== "string") throw new Error("a member name that is not a string");
      key = v;
    } else place(v);
  }
  if (!done || open.length !== 0) throw new Error("an incomplete value");
  return root;
}
