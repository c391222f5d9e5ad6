// Property tests (fast-check): for arbitrary JSON-like values the SDK equals
// the oracle, and value input equals text input.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  canonicalJSON, canonicalizeJSON, explain, fingerprint, fingerprintBatch, fingerprintBatchJSON, fingerprintJSON,
} from "./helpers/sdk";
import { canonicalValue, fingerprintOf } from "./reference/contract.mjs";

const key = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.string({ unit: "binary", maxLength: 4 }),
  fc.constantFrom("\uff01", "\u{1f600}", "\ue000", "\ud800", "a", "b", " a "),
);
const str = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: "binary", maxLength: 8 }),
  fc.string({ unit: fc.constantFrom(" ", "\t", "\u00a0", "\u2028", "\ufeff", "\u0085", "\u001c", "x", "\ud800", "\udc00", "é"), maxLength: 8 }),
);
const num = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(0, -0, 1e21, 1e-7, 5e-324, 2 ** 53, 0.1 + 0.2));
const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    str, num, fc.boolean(), fc.constant(null),
    fc.array(tie("value"), { maxLength: 5 }),
    fc.dictionary(key, tie("value"), { maxKeys: 6 }),
  ),
}));

describe("properties", () => {
  // First in the file, so that the walk's key slots are fresh: each starts as the empty key (src/values.ts).
  it("the empty key at any depth and position equals the oracle, first met there or after other keys", () => {
    for (const round of [1, 2]) {
      for (let depth = 0; depth < 18; depth++) {
        for (let at = 0; at < 18; at++) {
          let v: unknown = Object.fromEntries([...Array.from({ length: at }, (_, k) => [`k${k}`, k]), ["", round]]);
          for (let d = 0; d < depth; d++) v = { n: v };
          expect(canonicalJSON(v)).toBe(canonicalValue(v));
        }
      }
    }
  });

  it("canonicalJSON(v) equals the oracle", () => {
    fc.assert(fc.property(value, (v) => { expect(canonicalJSON(v)).toBe(canonicalValue(v)); }), { numRuns: 3000, seed: 42 });
  });

  it("canonicalizeJSON(JSON.stringify(v)) equals canonicalJSON(v)", () => {
    fc.assert(fc.property(value, (v) => {
      expect(canonicalizeJSON(JSON.stringify(v))).toBe(canonicalJSON(v));
    }), { numRuns: 3000, seed: 43 });
  });

  it("fingerprints equal the oracle's, with selection", () => {
    const keys = fc.array(key, { maxLength: 3 });
    fc.assert(fc.property(fc.dictionary(key, value, { maxKeys: 6 }), fc.option(keys), fc.option(keys), (args, matchOn, ignoreArgs) => {
      const opts = { matchOn, ignoreArgs };
      const want = fingerprintOf({ name: "tool", args, ...opts }).fingerprint;
      expect(fingerprint("tool", args, opts)).toBe(want);
      expect(fingerprintJSON("tool", JSON.stringify(args), opts)).toBe(want);
    }), { numRuns: 2000, seed: 44 });
  });
});

describe("requests in any order on one instance", () => {
  // A request with only a name finds the header of the last one in place when its name is the same
  // (src/core.ts putLiterals): every other kind of request in between must leave no stale header.
  it("each answer equals the oracle's, whatever came before", () => {
    const name = fc.constantFrom("search", "search", "get_weather", "a\"b", "\u00e9t\u00e9", "x");
    const args = fc.dictionary(key, value, { maxKeys: 4 });
    const step = fc.oneof(
      fc.record({ op: fc.constant("value"), name, args }),
      fc.record({ op: fc.constant("text"), name, args }),
      fc.record({ op: fc.constant("kind"), name, args }),
      fc.record({ op: fc.constant("selected"), name, args }),
      fc.record({ op: fc.constant("canonical"), name, args }),
      fc.record({ op: fc.constant("batch"), name, args }),
      fc.record({ op: fc.constant("batchJSON"), name, args }),
      fc.record({ op: fc.constant("explain"), name, args }),
    );
    fc.assert(fc.property(fc.array(step, { minLength: 1, maxLength: 12 }), (steps) => {
      for (const { op, name: n, args: a } of steps) {
        const want = fingerprintOf({ name: n, args: a }).fingerprint;
        if (op === "value") expect(fingerprint(n, a)).toBe(want);
        else if (op === "text") expect(fingerprintJSON(n, JSON.stringify(a))).toBe(want);
        else if (op === "kind") expect(fingerprint(n, a, { kind: "k" })).toBe(fingerprintOf({ kind: "k", name: n, args: a }).fingerprint);
        else if (op === "selected") {
          expect(fingerprint(n, a, { ignoreArgs: ["a"] })).toBe(fingerprintOf({ name: n, args: a, ignoreArgs: ["a"] }).fingerprint);
        } else if (op === "canonical") expect(canonicalJSON(a)).toBe(canonicalValue(a));
        else if (op === "batch") expect(fingerprintBatch([{ name: n, args: a }, { name: "other", args: a }])[0]).toBe(want);
        else if (op === "batchJSON") expect(fingerprintBatchJSON([n, n], [JSON.stringify(a), "{}"])[0]).toBe(want);
        else expect(explain(n, a).fingerprint).toBe(want);
      }
    }), { numRuns: 1500, seed: 47 });
  });
});

describe("value stream edges (src/values.ts)", () => {
  it("long and short strings, clean or not, equal the oracle", () => {
    const long = fc.oneof(
      fc.string({ minLength: 40, maxLength: 300 }),
      fc.string({ unit: "binary", minLength: 40, maxLength: 120 }),
      fc.string({ unit: fc.constantFrom("a", "é", "\u{1f600}", "\ud800", "\udc00", '"', "\\", "\n", " ", "\u2028"), minLength: 30, maxLength: 80 }),
      // Short ones: a quote, control or lone surrogate after a non-ASCII character (writeWtf8 tells clean from not).
      fc.string({ unit: fc.constantFrom("a", "é", "\u{1f600}", "\ud800", "\udc00", '"', "\\", "\n", "\u0001"), maxLength: 10 }),
    );
    fc.assert(fc.property(fc.array(long, { maxLength: 4 }), fc.dictionary(long, long, { maxKeys: 3 }), (a, o) => {
      expect(canonicalJSON(a)).toBe(canonicalValue(a));
      expect(canonicalJSON(o)).toBe(canonicalValue(o));
    }), { numRuns: 1500, seed: 45 });
  });

  it("strings after the first 256 units (the stream's tail) equal the oracle", () => {
    // A long first string spends the in-place budget: every later string over 8 units goes to the tail.
    const pad = "p".repeat(300);
    const s = fc.oneof(
      fc.string({ minLength: 9, maxLength: 40 }),
      fc.string({ unit: "binary", minLength: 9, maxLength: 40 }),
      fc.string({ unit: fc.constantFrom("a", "é", "\u{1f600}", "\ud800", "\udc00", "\ud83d", "\ude00", '"', "\\", "\n", "\u0000", " "), minLength: 1, maxLength: 16 }),
    );
    fc.assert(fc.property(fc.array(s, { maxLength: 12 }), fc.dictionary(s, s, { maxKeys: 4 }), (a, o) => {
      const v = { pad, a, o };
      expect(canonicalJSON(v)).toBe(canonicalValue(v));
      expect(fingerprint("t", v)).toBe(fingerprintJSON("t", JSON.stringify(v)));
    }), { numRuns: 1500, seed: 46 });
  });

  it("tail strings keep lone surrogates apart from their neighbours (D14)", () => {
    // Each alone is a lone surrogate; side by side in one text they would be a pair.
    const v = ["x".repeat(300), "high end \ud83d", "\ude00 low start", "\ud83d".padStart(12, "h"), "\ude00".padEnd(12, "l")];
    expect(canonicalJSON(v)).toBe(canonicalValue(v));
    expect(canonicalJSON(v)).toContain("high end \\ud83d\",\"\\ude00 low start");
  });

  it("a call from inside toJSON keeps both walks' tail strings", () => {
    const pad = "q".repeat(300);
    const inner = { pad, s: "inner string one", t: "inner string two" };
    let nested = "";
    const v = { pad, a: "outer string one", x: { toJSON: () => { nested = canonicalJSON(inner); return "from toJSON ok"; } }, b: "outer string two" };
    expect(canonicalJSON(v)).toBe(canonicalValue({ pad, a: "outer string one", x: "from toJSON ok", b: "outer string two" }));
    expect(nested).toBe(canonicalValue(inner));
  });

  it("grows the input region mid-value and agrees with the text path", () => {
    const big = { rows: Array.from({ length: 30_000 }, (_, i) => ({ i, s: `row ${i} ` + "x".repeat(i % 97), f: i / 7 })) };
    expect(canonicalJSON(big)).toBe(canonicalizeJSON(JSON.stringify(big)));
    expect(fingerprint("t", big)).toBe(fingerprintJSON("t", JSON.stringify(big)));
  });

  it("array holes, sparse arrays and dropped members keep counts right", () => {
    // eslint-disable-next-line no-sparse-arrays
    const v = { a: [1, , 3, undefined, () => 1], b: undefined, c: { d: Symbol("x"), e: 1 }, f: [] as unknown[] };
    (v.f as unknown[])[5] = "z";
    expect(canonicalJSON(v)).toBe(canonicalValue(v));
  });

  it("toJSON gets the property key and is applied once; Dates print ISO", () => {
    const seen: string[] = [];
    const tj = { toJSON(k: string) { seen.push(k); return { inner: { toJSON: () => "never" }, k }; } };
    const v = { x: tj, list: [tj], d: new Date(0), bad: new Date(NaN) };
    expect(canonicalJSON(v)).toBe(canonicalValue(v));
    // Each toJSON ran once per value, with its key, in ours (first two) and in the oracle (last two).
    expect(seen.length).toBe(4);
    expect(seen.slice(0, 2).sort()).toEqual(["0", "x"]);
    expect(seen.slice(2).sort()).toEqual(["0", "x"]);
  });
});
