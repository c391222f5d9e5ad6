// The path of a refused value is written by the core (abi.ts F_PATH) from the
// keys and indices the host sends: every key that needs quoting, every index,
// and the whole call's root, against the reference's notation (D15:
// identifier keys as `.key`, others as JSON.stringify's literal in brackets).
import { describe, expect, it } from "vitest";
import { FingerprintError, canonicalJSON, explainCall, fingerprint } from "./helpers/sdk";
import { OracleError, canonicalValue } from "./reference/contract.mjs";

/** The error a call raises (it must raise a FingerprintError). */
function caught(f: () => unknown): FingerprintError {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(FingerprintError);
    return err as FingerprintError;
  }
  throw new Error("no error");
}

/** The path the reference names for a value it refuses. */
function oraclePath(value: unknown, root = "args"): string {
  try {
    canonicalValue(value, root);
  } catch (err) {
    expect(err).toBeInstanceOf(OracleError);
    return / at (.*)$/s.exec((err as Error).message)![1];
  }
  throw new Error("the reference took it");
}

const ALLOWED = "only plain objects, arrays, strings, numbers, booleans, null, Dates and objects with toJSON are allowed (D15)";
const KEYS = ["a b", "", "1a", "a1", "$_x9", "é", "a\nb", "q\"\\", "\u0001\u001f\u007f", "\ud800", "x\udc00y",
  "😀", "\u2028", "a.b", "[0]"];

describe("paths of refused values (the core writes them)", () => {
  for (const key of KEYS) {
    it(`a key ${JSON.stringify(key)}`, () => {
      const value = { outer: [0, { [key]: [1, 2, new Set([1])] }] };
      const err = caught(() => canonicalJSON(value));
      expect(err.code).toBe("unsupported-value");
      expect(err.path).toBe(oraclePath(value));
      expect(err.message).toBe(`cannot fingerprint a value of type Set at ${err.path}: ${ALLOWED}`);
    });
  }

  it("an index past 2^31 in a sparse array", () => {
    const a: unknown[] = [];
    a[2 ** 32 - 2] = new Map();
    const err = caught(() => fingerprint("t", { a }));
    expect(err.path).toBe("args.a[4294967294]");
  });

  it("the top level, and a cycle's first repeated container", () => {
    expect(caught(() => canonicalJSON(new Map())).path).toBe("args");
    const o: Record<string, unknown> = { "x y": {} };
    (o["x y"] as Record<string, unknown>).back = o;
    let v: unknown = o;
    for (let i = 0; i < 70; i++) v = { n: v };
    const err = caught(() => canonicalJSON(v));
    expect(err.code).toBe("circular-value");
    expect(err.path).toBe("args" + ".n".repeat(70) + "[\"x y\"].back");
    expect(err.message).toBe(`circular reference at ${err.path}`);
  });

  it("a whole call: its args are args…", () => {
    expect(caught(() => explainCall({ name: "t", args: { "k-1": 1n } })).path).toBe("args[\"k-1\"]");
    expect(caught(() => explainCall({ name: "t", args: { k: 1n } })).message)
      .toBe(`cannot fingerprint a value of type BigInt at args.k: ${ALLOWED}`);
  });

  it("each refused object named by its type; one with a prototype of its own but no class, as non-plain", () => {
    class Point { x = 1; }
    const proto = { shared: true };
    const named: [unknown, string][] = [[new Map(), "Map"], [new Uint8Array(2), "Uint8Array"], [new ArrayBuffer(1), "ArrayBuffer"],
      [new String("s"), "String"], [new Point(), "Point"], [new WeakMap(), "WeakMap"]];
    for (const [v, type] of named) {
      expect(caught(() => fingerprint("t", { v })).message).toBe(`cannot fingerprint a value of type ${type} at args.v: ${ALLOWED}`);
    }
    for (const v of [Object.create(proto), Object.create(Object.create(null))]) {
      expect(caught(() => fingerprint("t", { v })).message).toBe(`cannot fingerprint a non-plain object at args.v: ${ALLOWED}`);
    }
    // A constructor getter that throws leaves the type unnamed, never an escaping exception.
    const hostile = Object.create(Object.defineProperty({}, "constructor", { get() { throw new Error("boom"); } }));
    expect(caught(() => fingerprint("t", { v: hostile })).code).toBe("unsupported-value");
  });

  it("a long path is whole in the error, under any limit of the call", () => {
    let v: unknown = [new Set()];
    for (let i = 0; i < 3000; i++) v = { "k k": v };
    const err = caught(() => fingerprint("t", v, { limits: { maxDepth: 5 } }));
    expect(err.code).toBe("unsupported-value");
    expect(err.path).toBe("args" + "[\"k k\"]".repeat(3000) + "[0]");
  });
});
