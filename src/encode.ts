/**
 * The value side of the SDK around the core: value-side selection (D9), the
 * call that sends a host value as the core's value stream (src/values.ts),
 * and, only after that fast path rejected a value, the slower walk that
 * finds which value D15 rejects and names its path (`args.items[3].when`).
 * Internal.
 * @module
 */
import { F_TEXT, callValue, type Outcome } from "./core.js";
import { FingerprintError } from "./errors.js";
import { Rejected } from "./values.js";

const objectProto = Object.prototype;

function isPlain(v: object): boolean {
  const p = Object.getPrototypeOf(v);
  return p === objectProto || p === null;
}

/** One core call with a host value; a value D15 rejects becomes a FingerprintError with its path. */
export function valueCall(flags: number, kind: string, name: string, matchOn: string, ignoreArgs: string,
  value: unknown): Outcome {
  try {
    return callValue(flags, kind, name, matchOn, ignoreArgs, value);
  } catch (err) {
    if (err instanceof Rejected || err instanceof RangeError) throw describe(value);
    throw err;
  }
}

/**
 * JSON text standing for a host value: its canonical text, which the core
 * reads back to the same canonical text (canonicalization is idempotent).
 * For the diagnostics, which compare texts.
 */
export function toJsonText(value: unknown): string {
  return valueCall(F_TEXT, "", "", "", "", value).text;
}

/**
 * Finds the first value D15 rejects and explains it with its path. Mirrors
 * src/values.ts: Dates are fine, toJSON is applied once with the key,
 * arrays and plain objects are walked, anything else is rejected.
 */
function describe(value: unknown): FingerprintError {
  const stack: object[] = [];
  const walk = (v: unknown, path: string, key: string, applied: boolean): FingerprintError | undefined => {
    if (typeof v === "bigint") return unsupported(path, "a BigInt");
    if (typeof v !== "object" || v === null) return undefined;
    if (v instanceof Date) return undefined;
    const toJSON = (v as { toJSON?: unknown }).toJSON;
    if (!applied && typeof toJSON === "function") return walk((toJSON as (k: string) => unknown).call(v, key), path, key, true);
    if (!Array.isArray(v) && !isPlain(v)) return unsupported(path, typeName(v));
    if (stack.includes(v)) return new FingerprintError("circular-value", `circular reference at ${path}`, { path });
    if (stack.length > 100_000) return new FingerprintError("too-deep", `args are nested too deeply at ${path}`, { path });
    stack.push(v);
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const bad = walk(v[i], `${path}[${i}]`, String(i), false);
        if (bad) return bad;
      }
    } else {
      for (const k in v) {
        const bad = walk((v as Record<string, unknown>)[k], pathOf(path, k), k, false);
        if (bad) return bad;
      }
    }
    stack.pop();
    return undefined;
  };
  try {
    return walk(value, "args", "", false) ??
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
