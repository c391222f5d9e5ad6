/**
 * Host values → JSON text for the core (D15), and value-side selection (D9).
 * Internal. The fast path checks the value in one walk and lets the engine's
 * JSON.stringify write it: for every type D15 admits, JSON.stringify already
 * has the contract's meaning (undefined/functions/symbols dropped or null,
 * which the core drops; NaN/±Infinity → null; Date → toISOString(), invalid
 * Date → null; toJSON honoured). Everything the contract still has to decide
 * (trimming, key order, number text) happens in the core.
 * Values D15 rejects (BigInt, Map, Set, typed arrays, boxed primitives, class
 * instances, cycles) are found by the walk; the error names their path,
 * found by a second, slower walk that runs only after a failure.
 * @module
 */
import { FingerprintError } from "./errors.js";

const objectProto = Object.prototype;
const dateProtoToJSON = Date.prototype.toJSON;

/** Thrown inside the fast walk; converted to a FingerprintError with a path. */
class Unsupported {
  constructor(readonly cycle: boolean) {}
}

function isPlain(v: object): boolean {
  const p = Object.getPrototypeOf(v);
  return p === objectProto || p === null;
}

/**
 * Fast check. Returns false when the value holds a toJSON other than
 * Date's (its result must be computed once and checked, see toJsonText).
 * Throws Unsupported for a value D15 rejects, RangeError when too deep.
 */
function check(v: unknown, depth: number): boolean {
  if (typeof v !== "object" || v === null) {
    if (typeof v === "bigint") throw new Unsupported(false);
    return true;
  }
  // JSON.stringify nests at most this deep before its own RangeError on most
  // stacks; a cycle ends here too and is told apart by describe().
  if (depth > 4000) throw new Unsupported(true);
  const toJSON = (v as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === "function") return toJSON === dateProtoToJSON && v instanceof Date;
  if (Array.isArray(v)) {
    let ok = true;
    for (let i = 0; i < v.length; i++) ok = check(v[i], depth + 1) && ok;
    return ok;
  }
  if (!isPlain(v)) throw new Unsupported(false);
  let ok = true;
  // for-in uses V8's enum cache: fastest on small and on 2,000-key objects
  // (bench: 138 µs vs 159 Object.keys vs 522 Object.values). It also visits
  // inherited enumerable keys, which a plain object has only if
  // Object.prototype was polluted — then at worst a value JSON.stringify
  // skips is checked too; the fingerprint never changes.
  for (const k in v) ok = check((v as Record<string, unknown>)[k], depth + 1) && ok;
  return ok;
}

/** JSON text of a host value, checked against D15. `undefined` at top level → "null" (D2). */
export function toJsonText(value: unknown): string {
  let simple: boolean;
  try {
    simple = check(value, 0);
  } catch (err) {
    if (err instanceof Unsupported || err instanceof RangeError) throw describe(value);
    throw err;
  }
  let text: string | undefined;
  try {
    text = simple ? JSON.stringify(value) : JSON.stringify(resolve(value, "args", []));
  } catch (err) {
    if (err instanceof FingerprintError) throw err;
    if (err instanceof RangeError) throw new FingerprintError("too-deep", "args are nested too deeply for this JavaScript engine's stack", { path: "args" });
    throw describe(value);
  }
  return text === undefined ? "null" : text;
}

/**
 * Slow path for values with custom toJSON: calls each toJSON exactly once
 * (as JSON.stringify would, with the property key), checks the result, and
 * returns a toJSON-free copy.
 */
function resolve(v: unknown, path: string, stack: object[], key = ""): unknown {
  if (typeof v === "bigint") throw unsupported(path, "a BigInt");
  if (typeof v !== "object" || v === null) return v;
  const toJSON = (v as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === "function") {
    return resolve((toJSON as (k: string) => unknown).call(v, key), path, stack, key);
  }
  if (stack.includes(v)) throw new FingerprintError("circular-value", `circular reference at ${path}`, { path });
  stack.push(v);
  let out: unknown;
  if (Array.isArray(v)) {
    out = v.map((x, i) => resolve(x, `${path}[${i}]`, stack, String(i)));
  } else if (isPlain(v)) {
    const o: Record<string, unknown> = {};
    for (const k of Object.keys(v)) o[k] = resolve((v as Record<string, unknown>)[k], pathOf(path, k), stack, k);
    out = o;
  } else {
    throw unsupported(path, typeName(v));
  }
  stack.pop();
  return out;
}

/** The error for a value the fast path rejected: the first value D15 rejects, with its path. */
export function explainRejected(value: unknown): FingerprintError {
  return describe(value);
}

/** Finds the first value D15 rejects and explains it with its path. */
function describe(value: unknown): FingerprintError {
  const stack: object[] = [];
  const walk = (v: unknown, path: string, key: string): FingerprintError | undefined => {
    if (typeof v === "bigint") return unsupported(path, "a BigInt");
    if (typeof v !== "object" || v === null) return undefined;
    if (stack.includes(v)) return new FingerprintError("circular-value", `circular reference at ${path}`, { path });
    const toJSON = (v as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") {
      if (v instanceof Date) return undefined;
      return walk((toJSON as (k: string) => unknown).call(v, key), path, key);
    }
    if (!Array.isArray(v) && !isPlain(v)) return unsupported(path, typeName(v));
    if (stack.length > 100_000) return new FingerprintError("too-deep", `args are nested too deeply at ${path}`, { path });
    stack.push(v);
    const keys = Array.isArray(v) ? v.map((_, i) => i) : Object.keys(v);
    for (const k of keys) {
      const sub = typeof k === "number" ? `${path}[${k}]` : pathOf(path, k);
      const bad = walk((v as Record<string | number, unknown>)[k], sub, String(k));
      if (bad) return bad;
    }
    stack.pop();
    return undefined;
  };
  try {
    return walk(value, "args", "") ??
      new FingerprintError("too-deep", "args are nested too deeply for this JavaScript engine's stack", { path: "args" });
  } catch (err) {
    if (err instanceof RangeError) {
      return new FingerprintError("too-deep", "args are nested too deeply for this JavaScript engine's stack", { path: "args" });
    }
    throw err;
  }
}

function unsupported(path: string, what: string): FingerprintError {
  return new FingerprintError("unsupported-value",
    `cannot fingerprint ${what} at ${path}: only plain objects, arrays, strings, numbers, booleans, null, Dates and objects with toJSON are allowed (D15)`,
    { path });
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
function pathOf(base: string, key: string): string {
  return IDENT.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}

function typeName(v: object): string {
  if (v instanceof Map) return "a Map";
  if (v instanceof Set) return "a Set";
  if (ArrayBuffer.isView(v)) return `a ${v.constructor?.name ?? "typed array"}`;
  if (v instanceof ArrayBuffer) return "an ArrayBuffer";
  if (v instanceof String || v instanceof Number || v instanceof Boolean) return `a boxed ${typeof v.valueOf()} (new ${v.constructor.name}(…))`;
  const name = (v as { constructor?: { name?: string } }).constructor?.name;
  return name ? `an instance of ${name}` : "a non-plain object";
}

/**
 * Narrows the top level before anything is read (D9): values that matchOn or
 * ignoreArgs leave out are never inspected. Only a plain object is selected
 * from; anything else — arrays, strings, Dates, class instances with toJSON —
 * passes through untouched (D10). Keys are own enumerable properties, as
 * JSON.stringify sees them.
 */
export function selectValue(args: unknown, matchOn?: readonly string[] | null, ignoreArgs?: readonly string[] | null): unknown {
  if (!matchOn && !ignoreArgs) return args;
  if (typeof args !== "object" || args === null || Array.isArray(args) || !isPlain(args)) return args;
  const src = args as Record<string, unknown>;
  // Null prototype: a "__proto__" key stays an ordinary key.
  const out = Object.create(null) as Record<string, unknown>;
  if (matchOn) {
    for (const k of matchOn) if (Object.prototype.propertyIsEnumerable.call(src, k)) out[k] = src[k];
  } else {
    const drop = new Set(ignoreArgs);
    for (const k of Object.keys(src)) if (!drop.has(k)) out[k] = src[k];
  }
  return out;
}
