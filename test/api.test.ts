// The public API's edges: D15 host values (errors with paths), D17 kind/name,
// D9 selection on values, argument validation, init().
import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import {
  FINGERPRINT_VERSION, FingerprintError, canonicalJSON, canonicalizeJSON, fingerprint, fingerprintJSON, init,
} from "./helpers/sdk";

const sha = (s: string) => createHash("sha256").update(s).digest("hex");
const errorOf = (f: () => unknown): FingerprintError => {
  try { f(); } catch (e) { if (e instanceof FingerprintError) return e; throw e; }
  throw new Error("expected a FingerprintError");
};

describe("D15 host values", () => {
  class Point { constructor(public x = 1) {} }
  class WithJSON { toJSON() { return { b: 2, a: " 1 " }; } }
  const cases: Array<[string, unknown, string]> = [
    ["BigInt", { a: [1, 2n] }, "args.a[1]"],
    ["Map", { items: [0, 1, 2, { when: new Map() }] }, "args.items[3].when"],
    ["Set", new Set([1]), "args"],
    ["typed array", { b: new Uint8Array(2) }, "args.b"],
    ["ArrayBuffer", { b: new ArrayBuffer(2) }, "args.b"],
    ["boxed string", { s: new String("x") }, "args.s"],
    ["boxed number", [new Number(1)], "args[0]"],
    ["class instance", { p: new Point() }, "args.p"],
    ["odd key", { "a b": { "c-d": new Point() } }, 'args["a b"]["c-d"]'],
  ];
  for (const [what, value, path] of cases) {
    it(`rejects a ${what} naming its path`, () => {
      const e = errorOf(() => canonicalJSON(value));
      expect(e.code).toBe("unsupported-value");
      expect(e.path).toBe(path);
      expect(e.message).toContain(path);
      expect(() => fingerprint("t", value)).toThrow(FingerprintError);
    });
  }

  it("rejects a circular reference with its path", () => {
    const a: Record<string, unknown> = { x: { y: [] as unknown[] } };
    (a.x as { y: unknown[] }).y.push(a);
    const e = errorOf(() => canonicalJSON(a));
    expect(e.code).toBe("circular-value");
    expect(e.path).toBe("args.x.y[0]");
  });

  it("accepts what JSON.stringify accepts, with the contract's meaning", () => {
    const v = {
      d: new Date(Date.UTC(2024, 4, 6, 7, 8, 9, 123)), bad: new Date(NaN), u: undefined, f: () => 1,
      s: Symbol("x"), arr: [undefined, () => 1, Symbol("y"), NaN, Infinity, -0, 1], j: new WithJSON(),
      n: Object.assign(Object.create(null), { z: 1, y: 2 }),
    };
    expect(canonicalJSON(v)).toBe('{"arr":[0,1],"d":"2024-05-06T07:08:09.123Z","j":{"a":"1","b":2},"n":{"y":2,"z":1}}');
  });

  it("calls toJSON once and checks its result", () => {
    let calls = 0;
    const v = { t: { toJSON(key: string) { calls++; return { key, m: new Map() }; } } };
    const e = errorOf(() => canonicalJSON(v));
    expect(e.path).toBe("args.t.m");
    calls = 0;
    expect(canonicalJSON({ t: { toJSON(key: string) { calls++; return key; } } })).toBe('{"t":"t"}');
    expect(calls).toBe(1);
  });

  it("top level null-likes are null (D2)", () => {
    for (const v of [null, undefined, NaN, Infinity, -Infinity, () => 1, Symbol("s")]) expect(canonicalJSON(v)).toBe("null");
    expect(fingerprint("t", undefined)).toBe(sha("tool_call\nt\nnull"));
  });
});

describe("D9 selection on values", () => {
  it("never reads values that selection leaves out", () => {
    const args = { id: "T-1", junk: new Map(), big: 1n };
    expect(fingerprint("t", args, { matchOn: ["id"] })).toBe(sha('tool_call\nt\n{"id":"T-1"}'));
    expect(fingerprint("t", args, { ignoreArgs: ["junk", "big"] })).toBe(sha('tool_call\nt\n{"id":"T-1"}'));
    expect(() => fingerprint("t", args, { ignoreArgs: ["junk"] })).toThrow(FingerprintError);
  });

  it("matchOn wins, even empty; absent keys are omitted; __proto__ is a key", () => {
    const args = JSON.parse('{"a":1,"__proto__":{"x":1},"b":null}');
    expect(fingerprint("t", args, { matchOn: [], ignoreArgs: ["a"] })).toBe(sha("tool_call\nt\n{}"));
    expect(fingerprint("t", args, { matchOn: ["__proto__", "zz", "b"] })).toBe(sha('tool_call\nt\n{"__proto__":{"x":1}}'));
    expect(fingerprintJSON("t", '{"a":1,"__proto__":{"x":1},"b":null}', { matchOn: ["__proto__", "zz", "b"] }))
      .toBe(sha('tool_call\nt\n{"__proto__":{"x":1}}'));
  });

  it("passes non-objects through (D10)", () => {
    expect(fingerprint("t", [1, { a: 1 }], { matchOn: ["a"] })).toBe(sha('tool_call\nt\n[1,{"a":1}]'));
    expect(fingerprint("t", " s ", { ignoreArgs: ["a"] })).toBe(sha('tool_call\nt\n"s"'));
  });
});

describe("D17 kind and name", () => {
  it("uses the name exactly and validates kind/name", () => {
    expect(fingerprint(" x ", 1)).toBe(sha("tool_call\n x \n1"));
    expect(fingerprint("x", 1, { kind: "resource" })).toBe(sha("resource\nx\n1"));
    expect(fingerprint("x\ny", 1)).toBe(sha("tool_call\nx\ny\n1"));
    expect(errorOf(() => fingerprint("", 1)).code).toBe("bad-name");
    expect(errorOf(() => fingerprint("a\udc00", 1)).code).toBe("bad-name");
    expect(errorOf(() => fingerprint("a", 1, { kind: "" })).code).toBe("bad-kind");
    expect(errorOf(() => fingerprint("a", 1, { kind: "k\n" })).code).toBe("bad-kind");
    expect(errorOf(() => fingerprint("a", 1, { kind: "\ud800" })).code).toBe("bad-kind");
  });
});

describe("text input specifics (D12)", () => {
  it("skips a BOM in bytes only, and reports byte offsets", () => {
    expect(canonicalizeJSON(new Uint8Array([0xef, 0xbb, 0xbf, 0x31]))).toBe("1");
    expect(errorOf(() => canonicalizeJSON("\ufeff1")).code).toBe("unexpected-character");
    const e = errorOf(() => canonicalizeJSON('{"é": tru}'));
    expect(e.offset).toBe(7); // bytes: { " é(2 bytes) " : space, then the bad token at 7
  });
});

describe("module", () => {
  it("exposes version 1 and an idempotent init", async () => {
    expect(FINGERPRINT_VERSION).toBe(1);
    await init();
    await init();
    expect(canonicalizeJSON("[2,1]")).toBe("[2,1]");
  });
});
