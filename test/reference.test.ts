// Checks the test-only oracle (test/reference/contract.mjs) against the
// contract's own words: the three examples of the contract page and every
// example quoted in ../shared/contract-decisions.md (D1–D19). This is the
// one place where expectations are written by hand, because they are the
// contract's text; everything else derives from the oracle.

import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  FINGERPRINT_VERSION,
  canonicalValue,
  compareCodePoints,
  fingerprintOf,
  fingerprintOfText,
  parseJSONText,
  select,
  sha256Hex,
} from "./reference/contract.mjs";

const canonText = (text: string | Uint8Array, sel = {}) => canonicalValue(select(parseJSONText(text), sel));
const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "utf8") : Buffer.from(p)))));

describe("contract page examples", () => {
  it("trims string values", () => {
    expect(canonicalValue({ email: " a@b.c ", plan: "pro" })).toBe('{"email":"a@b.c","plan":"pro"}');
  });
  it("matchOn keeps only the listed keys", () => {
    const args = { ticketId: "T-1", priority: "P0", requestId: "x" };
    expect(canonicalValue(select(args, { matchOn: ["ticketId"] }))).toBe('{"ticketId":"T-1"}');
  });
  it("prints 1.0 as 1, -0 as 0 and drops null", () => {
    expect(canonicalValue({ a: 1.0, b: -0, c: null })).toBe('{"a":1,"b":0}');
  });
  it("page number forms: 1e+21, 1e-7, 0.00001, 1.5e+300", () => {
    expect(canonicalValue([1e21, 1e-7, 0.00001, 1.5e300])).toBe("[1e+21,1e-7,0.00001,1.5e+300]");
  });
  it("ignoreArgs drops listed keys; matchOn wins when both are set", () => {
    expect(canonicalValue(select({ a: 1, b: 2 }, { ignoreArgs: ["b"] }))).toBe('{"a":1}');
    expect(canonicalValue(select({ a: 1, b: 2 }, { matchOn: ["b"], ignoreArgs: ["b"] }))).toBe('{"b":2}');
  });
});

describe("values D1–D8", () => {
  it("D1: NaN and infinities are null, null is dropped", () => {
    expect(canonicalValue({ a: NaN, b: [1, Infinity] })).toBe('{"b":[1]}');
  });
  it("D2: a dropped top-level value prints null", () => {
    for (const v of [null, undefined, NaN, Infinity, -Infinity, () => 1, Symbol("s")]) expect(canonicalValue(v)).toBe("null");
  });
  it("D3: string values trimmed at every depth, keys never", () => {
    expect(canonicalValue({ " k ": [" v ", { w: " x " }] })).toBe('{" k ":["v",{"w":"x"}]}');
    expect(canonicalValue("  top  ")).toBe('"top"');
  });
  it("D4: the trim set is exactly String.prototype.trim's", () => {
    const trimmed = ["\u0009", "\u000a", "\u000b", "\u000c", "\u000d", "\u0020", "\u00a0", "\u1680", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\ufeff"];
    for (let c = 0x2000; c <= 0x200a; c++) trimmed.push(String.fromCharCode(c));
    for (const c of trimmed) expect(canonicalValue(`${c}x${c}`)).toBe('"x"');
    expect(canonicalValue("\u001cx\u001d")).toBe('"\\u001cx\\u001d"');
    expect(canonicalValue("\u001ex\u001f")).toBe('"\\u001ex\\u001f"');
    expect(canonicalValue("\u0085x\u0085")).toBe('"\u0085x\u0085"');
  });
  it("D5: code point order, not UTF-16 order", () => {
    expect(canonicalValue({ "\u{1F600}": 1, "\uFF01": 2 })).toBe('{"\uFF01":2,"\u{1F600}":1}');
    expect(compareCodePoints("\uFF01", "\u{1F600}")).toBeLessThan(0);
    // A lone surrogate sorts by its own value as if it were a code point.
    expect(compareCodePoints("\uDC00", "\u{10000}")).toBeLessThan(0);
    expect(compareCodePoints("\uD7FF", "\uD800")).toBeLessThan(0);
    expect(compareCodePoints("\uDFFF", "\uE000")).toBeLessThan(0);
  });
  it("D6: JSON.stringify escaping, lowercase hex, raw everything else", () => {
    expect(canonicalValue('a"b\\c\bd\te\nf\fg\rh')).toBe('"a\\"b\\\\c\\bd\\te\\nf\\fg\\rh"');
    expect(canonicalValue("a\u0000b\u001fc\u000bd")).toBe('"a\\u0000b\\u001fc\\u000bd"');
    expect(canonicalValue("\uD83D")).toBe('"\\ud83d"');
    expect(canonicalValue("a\uDABCb")).toBe('"a\\udabcb"');
    expect(canonicalValue("a\u007f\u2028\u2029b")).toBe('"a\u007f\u2028\u2029b"');
    expect(canonicalValue("é😀")).toBe('"é😀"');
    // Trimming happens before escaping.
    expect(canonicalValue("\t\u0001\t")).toBe('"\\u0001"');
  });
  it("D7: Number::toString", () => {
    const cases: [number, string][] = [
      [1e21, "1e+21"], [1e-7, "1e-7"], [0.00001, "0.00001"], [1.5e300, "1.5e+300"], [5e-324, "5e-324"],
      [0.1 + 0.2, "0.30000000000000004"], [2 ** 53 + 2, "9007199254740994"], [-0, "0"],
    ];
    for (const [x, s] of cases) expect(canonicalValue(x)).toBe(s);
  });
  it("D8: empty containers stay, also when emptied by dropping", () => {
    expect(canonicalValue({ a: { b: null } })).toBe('{"a":{}}');
    expect(canonicalValue([{}, []])).toBe("[{},[]]");
  });
});

describe("selection D9–D10", () => {
  const args = { a: 1, A: 2, " b": 3, n: null };
  it("D9: matchOn [] selects {}", () => {
    expect(canonicalValue(select(args, { matchOn: [] }))).toBe("{}");
  });
  it("D9: exact keys, absent omitted, null dropped, duplicates harmless", () => {
    expect(canonicalValue(select(args, { matchOn: ["a", "zz"] }))).toBe('{"a":1}');
    expect(canonicalValue(select(args, { matchOn: ["b", " b "] }))).toBe("{}");
    expect(canonicalValue(select(args, { matchOn: [" b", " b"] }))).toBe('{" b":3}');
    expect(canonicalValue(select(args, { matchOn: ["n"] }))).toBe("{}");
    expect(canonicalValue(select({ o: { a: 1 } }, { matchOn: ["a"] }))).toBe("{}");
  });
  it("D9: unselected values are never read", () => {
    const withMap = { id: "x", cache: new Map([[1, 2]]) };
    expect(canonicalValue(select(withMap, { matchOn: ["id"] }))).toBe('{"id":"x"}');
    expect(canonicalValue(select(withMap, { ignoreArgs: ["cache"] }))).toBe('{"id":"x"}');
    expect(() => canonicalValue(select(withMap, {}))).toThrow(/args\.cache/);
  });
  it("D10: non-objects pass through", () => {
    for (const [v, s] of [[[{ a: 1 }], '[{"a":1}]'], [" s ", '"s"'], [5, "5"], [true, "true"], [null, "null"]] as const) {
      expect(canonicalValue(select(v, { matchOn: [] }))).toBe(s);
    }
  });
});

describe("JSON text D11–D14", () => {
  it("D11: nearest double", () => {
    expect(canonText('{"a":1.0,"b":1E2,"c":-0,"d":1e400,"e":1e-400}')).toBe('{"a":1,"b":100,"c":0,"e":0}');
  });
  it("D12: BOM in bytes and NaN/Infinity/-Infinity tokens tolerated", () => {
    expect(canonText(bytes([0xef, 0xbb, 0xbf], '{"a":1}'))).toBe('{"a":1}');
    expect(canonText("[NaN,Infinity,-Infinity,1]")).toBe("[1]");
    expect(canonText('["NaN"]')).toBe('["NaN"]');
  });
  it("D12: everything else is an error", () => {
    const bad = ['{"a":1} // c', "/* c */ 1", "[1,]", '{"a":1,}', "{'a':1}", '{"a":1} x', "", '"a\u0001b"', "01", "\uFEFF{}"];
    for (const t of bad) expect(() => parseJSONText(t), JSON.stringify(t)).toThrow();
    expect(() => parseJSONText(bytes('"', [0xff], '"'))).toThrow();
    expect(() => parseJSONText(bytes('"', [0xc0, 0x80], '"'))).toThrow();
  });
  it("D13: the last duplicate wins", () => {
    expect(canonText('{"a":1,"a":2}')).toBe('{"a":2}');
    expect(canonText('{"a":1,"a":null}')).toBe("{}");
  });
  it("D14: surrogates, escaped or encoded", () => {
    expect(canonText('"\\ud83d"')).toBe('"\\ud83d"');
    expect(canonText('"\\ud83d\\ude00"')).toBe('"😀"');
    expect(canonText(bytes('"', [0xed, 0xa0, 0xbd], '"'))).toBe('"\\ud83d"');
    expect(canonText(bytes('"', [0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80], '"'))).toBe('"😀"');
  });
});

describe("host values D15–D16", () => {
  it("D15: Date, invalid Date, toJSON", () => {
    expect(canonicalValue({ d: new Date("2024-05-06T07:08:09.123Z") })).toBe('{"d":"2024-05-06T07:08:09.123Z"}');
    expect(canonicalValue({ d: new Date(NaN), e: 1 })).toBe('{"e":1}');
    class Money {
      toJSON() {
        return { cents: 5 };
      }
    }
    expect(canonicalValue({ m: new Money() })).toBe('{"m":{"cents":5}}');
    expect(canonicalValue(Object.assign(Object.create(null), { z: 1, a: 2 }))).toBe('{"a":2,"z":1}');
  });
  it("D15: unsupported values are errors naming the path", () => {
    class Plain {}
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const bad = [
      BigInt(1), new Map(), new Set(), new Uint8Array(1), new ArrayBuffer(1), new String("x"), new Number(1), new Plain(), cyclic.self,
    ];
    for (const v of bad) expect(() => canonicalValue({ items: [0, 1, 2, { when: v }] })).toThrow(/args\.items\[3\]\.when/);
  });
  it("D16: the shared date format", () => {
    expect(canonicalValue(new Date(Date.UTC(2024, 4, 6, 7, 8, 9, 123)))).toBe('"2024-05-06T07:08:09.123Z"');
  });
});

describe("digest D17–D19", () => {
  const sha = (s: string) => createHash("sha256").update(Buffer.from(s, "utf8")).digest("hex");
  it("D17: preimage kind\\nname\\ncanonical, kind defaults to tool_call", () => {
    const r = fingerprintOf({ name: "search", args: { q: " x " } });
    expect(r).toEqual({ canonical: '{"q":"x"}', fingerprint: sha('tool_call\nsearch\n{"q":"x"}') });
    expect(fingerprintOf({ kind: "k", name: " n ", args: 1 }).fingerprint).toBe(sha("k\n n \n1"));
    expect(fingerprintOfText({ name: "search", argsJSON: '{"q":" x "}' })).toEqual(r);
  });
  it("D17: invalid kind or name is an error", () => {
    expect(() => fingerprintOf({ name: "", args: {} })).toThrow();
    expect(() => fingerprintOf({ kind: "", name: "n", args: {} })).toThrow();
    expect(() => fingerprintOf({ kind: "a\nb", name: "n", args: {} })).toThrow();
    expect(() => fingerprintOf({ name: "\uD800", args: {} })).toThrow();
    expect(() => fingerprintOf({ kind: "\uDC00", name: "n", args: {} })).toThrow();
  });
  it("D18: 64 lowercase hex digits; version 1; SHA-256 itself (FIPS 180-4 'abc')", () => {
    expect(fingerprintOf({ name: "t", args: {} }).fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(FINGERPRINT_VERSION).toBe(1);
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
  it("D19: 1,000 levels of nesting work", () => {
    const deep = `${"[".repeat(1000)}" x "${"]".repeat(1000)}`;
    expect(canonText(deep)).toBe(`${"[".repeat(1000)}"x"${"]".repeat(1000)}`);
    let v: unknown = { a: null };
    for (let i = 0; i < 999; i++) v = { a: v };
    expect(canonicalValue(v)).toBe(`${'{"a":'.repeat(999)}{}${"}".repeat(999)}`);
  });
});
