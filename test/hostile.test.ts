// Hostile host values: re-entrant calls from every callback
// point, polluted prototypes, read-once user code, exceptions that must pass
// through unchanged, Proxies, depth under a small stack, and costs that must
// follow the data present. Expected values come from the independent oracle
// (test/reference/contract.mjs) applied to the equivalent plain value.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import {
  FingerprintError, Recording, canonicalJSON, canonicalizeJSON, explain, explainCall, explainCalls, fingerprint,
  fingerprintBatch, fingerprintJSON,
} from "./helpers/sdk";
import { canonicalValue, fingerprintOf } from "./reference/contract.mjs";

const fp = (name: string, args: unknown, o: { matchOn?: string[]; ignoreArgs?: string[]; kind?: string } = {}) =>
  (fingerprintOf({ name, args, ...o }) as { fingerprint: string }).fingerprint;

/** Every public entry, called from inside a callback; each records its answer and the oracle's. */
function innerCalls(): Array<[string, () => string, () => string]> {
  return [
    ["fingerprint", () => fingerprint("inner", { q: [1, " x "] }, { matchOn: ["q"] }), () => fp("inner", { q: [1, " x "] }, { matchOn: ["q"] })],
    ["fingerprintJSON", () => fingerprintJSON("inner2", '{"z":1,"a":null}'), () => fp("inner2", { z: 1 })],
    ["canonicalJSON", () => canonicalJSON({ b: [2, { c: 3 }], a: "  y " }), () => canonicalValue({ b: [2, { c: 3 }], a: "  y " })],
    ["canonicalizeJSON", () => canonicalizeJSON('{"k":[1.0,{"j":-0}]}'), () => '{"k":[1,{"j":0}]}'],
    ["explain", () => explain("inner3", { a: 1, r: 2 }, { ignoreArgs: ["r"] }).fingerprint, () => fp("inner3", { a: 1 })],
  ];
}

describe("re-entrant calls (a call made from inside a callback of a call in progress)", () => {
  const points: Array<[string, (cb: () => void) => { value: unknown; plain: unknown }]> = [
    ["toJSON", (cb) => ({ value: { a: { toJSON() { cb(); return 7; } }, b: [1, 2] }, plain: { a: 7, b: [1, 2] } })],
    ["toJSON returning undefined", (cb) => ({ value: { a: { toJSON() { cb(); return undefined; } }, b: 1 }, plain: { b: 1 } })],
    ["getter", (cb) => ({ value: { z: 1, get m() { cb(); return { n: "v" }; } }, plain: { z: 1, m: { n: "v" } } })],
    ["array index getter", (cb) => {
      const arr: unknown[] = [1, 2, 3];
      Object.defineProperty(arr, 1, { get() { cb(); return "two"; }, enumerable: true });
      return { value: { arr }, plain: { arr: [1, "two", 3] } };
    }],
    ["Proxy get trap", (cb) => ({ value: new Proxy({ p: 1, q: 2 }, { get(t, k, r) { if (k === "q") cb(); return Reflect.get(t, k, r); } }), plain: { p: 1, q: 2 } })],
    ["Proxy ownKeys trap", (cb) => ({ value: { deep: [new Proxy({ p: 1 }, { ownKeys(t) { cb(); return Reflect.ownKeys(t); } })] }, plain: { deep: [{ p: 1 }] } })],
    ["Proxy getPrototypeOf trap", (cb) => ({ value: { x: new Proxy({ p: 1 }, { getPrototypeOf(t) { cb(); return Reflect.getPrototypeOf(t); } }) }, plain: { x: { p: 1 } } })],
    ["Date subclass toISOString", (cb) => {
      class D extends Date { toISOString() { cb(); return super.toISOString(); } }
      // The Date's own toISOString is the contract's (D15): a user override is not used, so cb may not run.
      return { value: { when: new D(0), k: 1 }, plain: { when: new Date(0).toISOString(), k: 1 } };
    }],
  ];
  for (const [point, make] of points) {
    for (const [entry, inner, oracle] of innerCalls()) {
      it(`${entry} from a ${point}`, () => {
        const got: string[] = [];
        const want: string[] = [];
        const { value, plain } = make(() => { got.push(inner()); want.push(oracle()); });
        expect(fingerprint("outer", value)).toBe(fp("outer", plain));
        expect(canonicalJSON(value)).toBe(canonicalValue(plain));
        expect(got).toEqual(want);
      });
    }
  }

  // The diagnostics module's calls as the outer call: they walk the value into their own instance, and
  // an inner call into the same module meanwhile must run on an instance of its own (exclusive()).
  const diagnosticsOuter: Array<[string, (value: unknown) => unknown, (plain: unknown) => unknown]> = [
    ["explainCall", (v) => explainCall({ name: "outer", args: v }).fingerprint, (p) => fp("outer", p)],
    ["fingerprintBatch", (v) => fingerprintBatch([{ name: "o1", args: { k: 1 } }, { name: "outer", args: v }]),
      (p) => [fp("o1", { k: 1 }), fp("outer", p)]],
    ["explainCalls", (v) => explainCalls({ role: "assistant", content: [{ type: "tool_use", id: "t", name: "outer", input: v }] })
      .map((e) => e.fingerprint), (p) => [fp("outer", p)]],
    ["Recording.answer", (v) => {
      const rec = Recording.load(`${JSON.stringify({ name: "outer", args: { z: 1, m: { n: "v" } } })}\n`.repeat(3));
      const r = rec.answer({ name: "outer", args: v });
      return [r.hit, r.fingerprint];
    }, (p) => [JSON.stringify(p) === JSON.stringify({ z: 1, m: { n: "v" } }), fp("outer", p)]],
  ];
  const diagnosticsInner: Array<[string, () => unknown, () => unknown]> = [
    ...innerCalls(),
    ["explainCall", () => explainCall({ name: "inner", args: { q: [2] } }).fingerprint, () => fp("inner", { q: [2] })],
    ["fingerprintBatch", () => fingerprintBatch([{ name: "inner", args: { q: [2] } }]), () => [fp("inner", { q: [2] })]],
  ];
  for (const [point, make] of points.slice(0, 5)) {
    for (const [outer, run, want] of diagnosticsOuter) {
      for (const [entry, inner, oracle] of diagnosticsInner) {
        it(`${entry} from a ${point} inside ${outer}`, () => {
          const got: unknown[] = [];
          const wanted: unknown[] = [];
          const { value, plain } = make(() => { got.push(inner()); wanted.push(oracle()); });
          expect(run(value)).toEqual(want(plain));
          expect(got).toEqual(wanted);
          expect(run(plain)).toEqual(want(plain)); // and the module answers alike afterwards
        });
      }
    }
  }

  it("a Recording asked from inside its own answer refuses, never a deadlock or another call's answer", () => {
    const rec = Recording.load(`${JSON.stringify({ name: "t", args: { a: 1 }, result: 7 })}\n`.repeat(2));
    const codes: string[] = [];
    const args = { get a() { try { rec.answer({ name: "t", args: { a: 1 } }); } catch (e) { codes.push((e as FingerprintError).code); } return 1; } };
    const r = rec.answer({ name: "t", args });
    expect([r.hit, r.fingerprint, codes]).toEqual([true, fp("t", { a: 1 }), ["invalid-argument"]]);
    expect(rec.answer({ name: "t", args: { a: 1 } }).hit).toBe(true);
  });

  it("nests three levels deep and each level gets its own answer", () => {
    const level3 = { c: { toJSON: () => fingerprint("l3", { v: 3 }) } };
    const level2 = { b: { toJSON: () => canonicalJSON(level3) } };
    const outer = { a: { toJSON: () => canonicalJSON(level2) }, z: 1 };
    const l3 = fp("l3", { v: 3 });
    const l2 = canonicalValue({ c: l3 });
    const l1 = canonicalValue({ b: l2 });
    expect(canonicalJSON(outer)).toBe(canonicalValue({ a: l1, z: 1 }));
  });

  it("a failing inner call leaves the outer call intact", () => {
    const value = { a: { toJSON() { expect(() => canonicalJSON({ m: new Map() })).toThrow(FingerprintError); return 1; } }, b: "x" };
    expect(fingerprint("outer", value)).toBe(fp("outer", { a: 1, b: "x" }));
  });

  it("an inner call inside an options getter", () => {
    const options = { get matchOn() { fingerprint("inner", { q: 1 }); return ["a"]; } };
    expect(fingerprint("outer", { a: 1, b: 2 }, options)).toBe(fp("outer", { a: 1 }));
  });

  it("the issue's examples", () => {
    const args = { a: { toJSON() { fingerprint("bbbb", { q: 1 }); return undefined; } }, b: 1 };
    expect(fingerprint("aaaa", args)).toBe(fp("aaaa", { b: 1 }));
    expect(fingerprint("aaaa", args)).not.toBe(fp("bbbb", { b: 1 }));
    expect(canonicalJSON({ z: 1, a: { toJSON() { canonicalJSON({ q: [1] }); return 1; } } })).toBe('{"a":1,"z":1}');
  });

  it("large inner calls that grow memory do not disturb the outer walk", () => {
    const big = Array.from({ length: 20000 }, (_, i) => ({ i, s: `s${i}` }));
    const value = { first: "a", mid: { toJSON: () => fingerprint("big", big) }, last: Array.from({ length: 3000 }, (_, i) => i) };
    expect(fingerprint("outer", value)).toBe(fp("outer", { first: "a", mid: fp("big", big), last: value.last }));
  });
});

describe("polluted prototypes", () => {
  function polluted<T>(target: object, key: string, v: unknown, run: () => T): T {
    Object.defineProperty(target, key, { value: v, enumerable: true, configurable: true, writable: true });
    try { return run(); } finally { delete (target as Record<string, unknown>)[key]; }
  }

  it("an enumerable key on Object.prototype is not read as a member", () => {
    const got = polluted(Object.prototype, "polluted", "yes", () => [canonicalJSON({ a: 1 }), fingerprint("t", { a: { b: 2 } })]);
    expect(got).toEqual([canonicalValue({ a: 1 }), fp("t", { a: { b: 2 } })]);
  });

  it("options inherited from Object.prototype do not select", () => {
    for (const key of ["matchOn", "ignoreArgs"]) {
      const got = polluted(Object.prototype, key, ["nothing"], () => fingerprint("t", { a: 1 }, {}));
      expect(got).toBe(fp("t", { a: 1 }));
    }
    expect(polluted(Object.prototype, "kind", "evil", () => fingerprint("t", { a: 1 }, {}))).toBe(fp("t", { a: 1 }));
  });

  it("options from a class or a defaults prototype are read", () => {
    const defaults = { matchOn: ["a"] };
    expect(fingerprint("t", { a: 1, b: 2 }, Object.create(defaults))).toBe(fp("t", { a: 1 }));
    class Opts { get ignoreArgs() { return ["b"]; } }
    expect(fingerprint("t", { a: 1, b: 2 }, new Opts() as never)).toBe(fp("t", { a: 1 }));
  });

  // Built-ins a string's bytes depend on, patched after the SDK loaded: what it reads must not change.
  const patches: Array<[string, object, string, (original: Function) => Function]> = [
    ["String.prototype.isWellFormed (a lone surrogate would pass as U+FFFD, D14)", String.prototype, "isWellFormed", () => () => true],
    ["Array.prototype.join", Array.prototype, "join", (f) => function (this: unknown[], ...a: unknown[]) { return String(f.apply(this, a)).toUpperCase(); }],
    ["Array.prototype.slice", Array.prototype, "slice", (f) => function (this: unknown[], ...a: unknown[]) { return (f.apply(this, a) as unknown[]).reverse(); }],
    ["TextEncoder.prototype.encodeInto", TextEncoder.prototype, "encodeInto", (f) => function (this: TextEncoder, s: string, d: Uint8Array) { return f.call(this, s.toLowerCase(), d); }],
    ["RegExp.prototype.exec (a quote would pass unescaped, D6)", RegExp.prototype, "exec", () => () => null],
    ["RegExp.prototype.test", RegExp.prototype, "test", () => () => false],
    ["DataView.prototype.setFloat64", DataView.prototype, "setFloat64", (f) => function (this: DataView, at: number, v: number, le: boolean) { return f.call(this, at, v + 1, le); }],
    ["DataView.prototype.setUint32", DataView.prototype, "setUint32", (f) => function (this: DataView, at: number, v: number, le: boolean) { return f.call(this, at, v === 3 ? 2 : v, le); }],
    ["Uint8Array's subarray", Object.getPrototypeOf(Uint8Array.prototype) as object, "subarray", (f) => function (this: Uint8Array, ...a: unknown[]) { return new Uint8Array((f.apply(this, a) as Uint8Array).length); }],
  ];
  for (const [what, target, key, patch] of patches) {
    it(`a patched ${what} changes nothing`, () => {
      // A long string in place (encoded whole, then checked), strings after the first 256 units (the tail: one
      // join, one encode), and a call from a toJSON whose tail is a slice of the outer one's; once well-formed
      // (TextEncoder's path) and once with lone surrogates (the WTF-8 path, D14).
      const cases = ["", "\ud800"].map((lone) => {
        const inner = { note: `${"n".repeat(30)} "Q"${lone}`, rest: Array.from({ length: 10 }, (_, i) => `${"r".repeat(30)}${i}`) };
        const make = (x: unknown) => ({ long: `${"x".repeat(40)} "quoted"${lone} ${"Yy".repeat(20)}`, n: [1.5, 3, -0.25], abc: { d: 1 },
          tail: Array.from({ length: 12 }, (_, i) => `${"Zz".repeat(15)}${i} "q"${lone}`), x });
        return { inner, value: make({ toJSON: () => fingerprint("inner", inner) }), plain: make(fp("inner", inner)) };
      });
      const want = cases.map((c) => [fp("t", c.plain), canonicalValue(c.plain)]);
      const original = Object.getOwnPropertyDescriptor(target, key)!;
      Object.defineProperty(target, key, { ...original, value: patch(original.value as Function) });
      let got: unknown;
      try { got = cases.map((c) => [fingerprint("t", c.value), canonicalJSON(c.value)]); } finally { Object.defineProperty(target, key, original); }
      expect(got).toEqual(want);
    });
  }

  it("an index on Array.prototype fills holes as JSON.stringify does (the oracle's reading)", () => {
    const holey: unknown[] = [1, , 3]; // eslint-disable-line no-sparse-arrays
    const got = polluted(Array.prototype, "1", "hole", () => [canonicalJSON({ holey }), canonicalValue({ holey })]);
    expect(got[0]).toBe(got[1]);
  });

  it("an inherited toJSON on a class is applied (JSON.stringify semantics), an inherited key is not", () => {
    class Base { toJSON() { return { fromBase: true }; } }
    expect(canonicalJSON({ x: new Base() })).toBe(canonicalValue({ x: new Base() }));
    const proto = { inherited: 1 };
    const child = Object.create(proto);
    child.own = 2;
    // Not a plain object (its prototype is not Object.prototype) and no toJSON: D15 rejects it.
    expect(() => canonicalJSON(child)).toThrow(FingerprintError);
  });
});

describe("selection happens once, on the args, before any toJSON (found by the fuzzer)", () => {
  it("a plain object with a toJSON: its own keys are selected, the result is not selected again", () => {
    const args = { toJSON: () => ({ a: 1, b: 2 }), c: 3 };
    for (const o of [{ ignoreArgs: ["a", "b"] }, { matchOn: ["toJSON"] }, { matchOn: [] as string[] }]) {
      expect(fingerprint("t", args, o)).toBe(fp("t", args, o));
    }
  });

  it("a class instance with toJSON passes through selection whole (D10)", () => {
    class Call { toJSON() { return { a: 1, b: 2 }; } }
    expect(fingerprint("t", new Call(), { matchOn: ["a"] })).toBe(fp("t", { a: 1, b: 2 }));
  });
});

describe("user code runs once per call", () => {
  function counting() {
    const counts = { getter: 0, toJSON: 0, items: 0, matchOn: 0, ignoreArgs: 0, kind: 0, trap: 0 };
    return counts;
  }

  it("getters and toJSON run once, also when the call fails later", () => {
    const c = counting();
    const value = {
      get a() { c.getter++; return 1; },
      b: { toJSON() { c.toJSON++; return [1]; } },
      z: new Map(),
    };
    expect(() => fingerprint("t", value)).toThrow(FingerprintError);
    expect(c).toMatchObject({ getter: 1, toJSON: 1 });
  });

  it("a throwing getter runs once and its error passes through", () => {
    let calls = 0;
    const mine = new Error("mine");
    const value = { get a() { calls++; throw mine; } };
    let caught: unknown;
    try { fingerprint("t", value); } catch (e) { caught = e; }
    expect(caught).toBe(mine);
    expect(calls).toBe(1);
  });

  it("each option is read once, and the value read is the value used", () => {
    const c = counting();
    const lists = [["a"], ["b"]];
    const options = {
      get matchOn() { return lists[c.matchOn++ % 2]; },
      get ignoreArgs() { c.ignoreArgs++; return null; },
      get kind() { c.kind++; return "tool_call"; },
    };
    expect(fingerprint("t", { a: 1, b: 2 }, options)).toBe(fp("t", { a: 1 }));
    expect(c).toMatchObject({ matchOn: 1, ignoreArgs: 1, kind: 1 });
    // ["a"] then 5: the second read used to leak a TypeError
    let n = 0;
    const flip = { get matchOn() { return n++ === 0 ? ["a"] : 5; } };
    expect(fingerprint("t", { a: 1, b: 2 }, flip as never)).toBe(fp("t", { a: 1 }));
  });

  it("a key listed twice in matchOn reads its getter once", () => {
    let calls = 0;
    const args = { get a() { calls++; return 1; } };
    expect(fingerprint("t", args, { matchOn: ["a", "a"] })).toBe(fp("t", { a: 1 }));
    expect(calls).toBe(1);
  });

  it("a Proxy's traps run once per key", () => {
    const counts = new Map<string, number>();
    const bump = (k: string) => counts.set(k, (counts.get(k) ?? 0) + 1);
    const p = new Proxy({ a: 1, b: { c: 2 } }, {
      get(t, k, r) { bump(`get:${String(k)}`); return Reflect.get(t, k, r); },
      ownKeys(t) { bump("ownKeys"); return Reflect.ownKeys(t); },
      getPrototypeOf(t) { bump("getPrototypeOf"); return Reflect.getPrototypeOf(t); },
    });
    expect(canonicalJSON(p)).toBe('{"a":1,"b":{"c":2}}');
    for (const [k, n] of counts) expect([k, n]).toEqual([k, 1]);
  });

  it("the key list is read once even when it is a Proxy", () => {
    let reads = 0;
    const list = new Proxy(["a"], { get(t, k, r) { if (k === "0") reads++; return Reflect.get(t, k, r); } });
    expect(fingerprint("t", { a: 1, b: 2 }, { matchOn: list })).toBe(fp("t", { a: 1 }));
    expect(reads).toBe(1);
  });
});

describe("exceptions pass through or become a FingerprintError with a path", () => {
  it("a user's RangeError is not relabelled as 'too deep'", () => {
    const mine = new RangeError("my own range error");
    let caught: unknown;
    try { canonicalJSON({ a: [{ get b() { throw mine; } }] }); } catch (e) { caught = e; }
    expect(caught).toBe(mine);
  });

  it("a toJSON's own TypeError passes through", () => {
    const mine = new TypeError("from toJSON");
    let caught: unknown;
    try { fingerprint("t", { a: { toJSON() { throw mine; } } }); } catch (e) { caught = e; }
    expect(caught).toBe(mine);
  });

  it("a thrown non-Error passes through", () => {
    let caught: unknown;
    try { canonicalJSON({ get a() { throw 42; } }); } catch (e) { caught = e; }
    expect(caught).toBe(42);
  });

  it("a revoked Proxy is a FingerprintError naming the path, with the engine's error as cause", () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    let caught: unknown;
    try { fingerprint("t", { items: [0, { when: proxy }] }); } catch (e) { caught = e; }
    expect(caught).toBeInstanceOf(FingerprintError);
    const err = caught as FingerprintError & { cause?: unknown };
    expect(err.path).toBe("args.items[1].when");
    expect(err.cause).toBeInstanceOf(TypeError);
  });

  it("an ownKeys trap returning duplicates is a FingerprintError with cause", () => {
    const p = new Proxy({}, { ownKeys: () => ["a", "a"] });
    let caught: unknown;
    try { canonicalJSON({ x: p }); } catch (e) { caught = e; }
    expect(caught).toBeInstanceOf(FingerprintError);
    expect((caught as FingerprintError).path).toBe("args.x");
    expect((caught as { cause?: unknown }).cause).toBeInstanceOf(TypeError);
  });

  it("unsupported values are named with their path, after selection", () => {
    const cases: Array<[unknown, string]> = [
      [{ items: [0, 0, 0, { when: new Map() }] }, "args.items[3].when"],
      [{ "a b": [new Set()] }, 'args["a b"][0]'],
      [[1, 2n], "args[1]"],
      [{ n: new Number(1) }, "args.n"],
      [{ u: new Uint8Array(2) }, "args.u"],
      [new (class Foo {})(), "args"],
    ];
    for (const [value, path] of cases) {
      let caught: unknown;
      try { canonicalJSON(value); } catch (e) { caught = e; }
      expect(caught, path).toBeInstanceOf(FingerprintError);
      expect((caught as FingerprintError).path).toBe(path);
      expect(() => canonicalValue(value)).toThrow(`at ${path}`);
    }
  });

  it("cycles are named where the oracle names them", () => {
    const a: Record<string, unknown> = { n: 1 };
    a.self = a;
    const b: unknown[] = [];
    b.push({ back: b });
    const long: Record<string, unknown> = {};
    let cur = long;
    for (let i = 0; i < 200; i++) { const next = {}; cur.next = next; cur = next; }
    cur.loop = long;
    for (const v of [{ x: [a] }, b, long]) {
      let oracle = "";
      try { canonicalValue(v); } catch (e) { oracle = (e as Error).message; }
      let caught: unknown;
      try { canonicalJSON(v); } catch (e) { caught = e; }
      expect(caught).toBeInstanceOf(FingerprintError);
      expect((caught as FingerprintError).code).toBe("circular-value");
      expect(oracle).toContain(`at ${(caught as FingerprintError).path}`);
    }
  });

  it("the module keeps working after each of these errors", () => {
    expect(fingerprint("t", { a: 1 })).toBe(fp("t", { a: 1 }));
  });
});

describe("depth does not depend on the host stack", () => {
  it("1,000 and 100,000 levels work under node --stack-size=400", () => {
    const script = `
      const f = require(${JSON.stringify(new URL("../dist/index.cjs", import.meta.url).pathname)});
      const out = [];
      for (const depth of [1000, 100000]) {
        let a = 1, o = { v: 1 }, t = 1;
        for (let i = 0; i < depth; i++) { a = [a]; if (i > 0) o = { o }; t = { toJSON: ((x) => () => x)(t) }; }
        out.push(f.canonicalJSON(a).length, f.canonicalJSON(o).length, f.canonicalJSON({ t }).length, f.fingerprint("d", a).length);
      }
      console.log(JSON.stringify(out));`;
    const r = spawnSync(process.execPath, ["--stack-size=400", "-e", script], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    // [[[1]]] has 2·depth + 1 characters; depth objects {"o":…{"v":1}…} have 6·depth + 1; toJSON is applied once per value (as JSON.stringify does), so the chain gives {"t":{}}.
    expect(JSON.parse(r.stdout)).toEqual([2001, 6001, 8, 64, 200001, 600001, 8, 64]);
  });

  it("deeper than 100,000 levels is a clear error, not a crash", () => {
    let a: unknown = 1;
    for (let i = 0; i < 100_001; i++) a = [a];
    expect(() => canonicalJSON(a)).toThrow(expect.objectContaining({ code: "too-deep" }));
    expect(canonicalJSON([1])).toBe("[1]");
  });
});

describe("cost follows the data present", () => {
  it("a sparse array of length 2^32-1 costs its elements", () => {
    const a: unknown[] = [];
    a[3] = "x";
    a[70_000] = { y: 1 };
    a.length = 2 ** 32 - 1;
    expect(canonicalJSON({ a })).toBe(canonicalValue({ a: ["x", { y: 1 }] }));
    expect(fingerprint("t", a)).toBe(fp("t", ["x", { y: 1 }]));
  }, 20_000);

  it("a long array with few holes is walked densely and agrees with the oracle", () => {
    const a: unknown[] = Array.from({ length: 70_000 }, (_, i) => (i % 3 === 0 ? undefined : i));
    delete a[5];
    expect(canonicalJSON(a)).toBe(canonicalValue(a));
  });

  it("selection with long key lists is n log n (200,000 keys, 100,000 listed)", () => {
    const args: Record<string, number> = {};
    const list: string[] = [];
    for (let i = 0; i < 200_000; i++) { args[`k${i}`] = i; if (i % 2 === 0) list.push(`k${i}`); }
    const text = JSON.stringify(args);
    const kept: Record<string, number> = {};
    const rest: Record<string, number> = {};
    for (const [k, v] of Object.entries(args)) (Number(k.slice(1)) % 2 === 0 ? kept : rest)[k] = v;
    expect(fingerprintJSON("t", text, { matchOn: list })).toBe(fp("t", kept));
    expect(fingerprintJSON("t", text, { ignoreArgs: list })).toBe(fp("t", rest));
    expect(fingerprint("t", args, { ignoreArgs: list })).toBe(fp("t", rest));
    expect(explain("t", args, { matchOn: list }).fingerprint).toBe(fp("t", kept));
  }, 60_000);
});
