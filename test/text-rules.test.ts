// D3–D6 over whole code-point ranges, with V8 as the oracle:
// String.prototype.trim is exactly D4's set, JSON.stringify is exactly D6.
import { describe, expect, it } from "vitest";
import { canonicalJSON, canonicalizeJSON } from "./helpers/sdk";

const cpString = (cp: number) => String.fromCodePoint(cp);

describe("trim set (D3, D4)", () => {
  it("trims exactly what String.prototype.trim trims, for every code point", () => {
    const bad: string[] = [];
    for (let base = 0; base <= 0x10ffff && bad.length < 5; base += 0x4000) {
      const values: string[] = [];
      for (let cp = base; cp < base + 0x4000 && cp <= 0x10ffff; cp++) {
        const c = cpString(cp);
        values.push(`${c}${c}x${c}`);
      }
      const got = canonicalJSON(values);
      const want = JSON.stringify(values.map((s) => s.trim()));
      if (got !== want) {
        const g = JSON.parse(got) as string[], w = JSON.parse(want) as string[];
        for (let i = 0; i < w.length && bad.length < 5; i++) {
          if (g[i] !== w[i]) bad.push(`U+${(base + i).toString(16)}: got ${JSON.stringify(g[i])} want ${JSON.stringify(w[i])}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });

  it("trims string values at every depth but never keys", () => {
    const v = { " k ": [" a ", { " j ": "\u00a0b\u3000" }], s: "\ufeffc\u2029" };
    expect(canonicalJSON(v)).toBe('{" k ":["a",{" j ":"b"}],"s":"c"}');
  });

  it("same through JSON text input, with escaped and raw forms", () => {
    expect(canonicalizeJSON('"\\u0020\\u00a0x\\t\\n"')).toBe('"x"');
    expect(canonicalizeJSON('["\\u001cx\\u0085"]')).toBe(JSON.stringify(["\u001cx\u0085"]));
  });
});

describe("escaping (D6)", () => {
  it("matches JSON.stringify for every code point below U+0080, and U+2028/9", () => {
    const values: string[] = [];
    for (let cp = 0; cp < 0x80; cp++) values.push(`a${cpString(cp)}b`);
    values.push("a\u2028b", "a\u2029b", "a\u007fb");
    expect(canonicalJSON(values)).toBe(JSON.stringify(values));
    // and from JSON text with every char escaped as \uXXXX
    const escaped = "[" + values.map((s) => '"' + [...s].map((c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0")).join("") + '"').join(",") + "]";
    expect(canonicalizeJSON(escaped)).toBe(JSON.stringify(values));
  });

  it("escapes every lone surrogate lowercase and joins pairs (D6, D14)", () => {
    const values: string[] = [];
    for (let cu = 0xd800; cu < 0xe000; cu++) values.push(`a${String.fromCharCode(cu)}b`);
    expect(canonicalJSON(values)).toBe(JSON.stringify(values));
    const text = "[" + values.map((s) => JSON.stringify(s).replace(/\\ud[89a-f][0-9a-f]{2}/g, (m) => m.toUpperCase().replace("\\U", "\\u"))).join(",") + "]";
    expect(canonicalizeJSON(text)).toBe(JSON.stringify(values));
    expect(canonicalizeJSON('"\\ud83d\\ude00"')).toBe('"\u{1f600}"');
    expect(canonicalizeJSON('"\\ude00\\ud83d"')).toBe('"\\ude00\\ud83d"');
  });

  it("joins WTF-8 encoded surrogate pairs in byte input, escaped or encoded (D14)", () => {
    const hi = [0xed, 0xa0, 0xbd], lo = [0xed, 0xb8, 0x80]; // U+D83D, U+DE00
    const q = 0x22;
    expect(canonicalizeJSON(new Uint8Array([q, ...hi, ...lo, q]))).toBe('"\u{1f600}"');
    expect(canonicalizeJSON(new Uint8Array([q, ...hi, q]))).toBe('"\\ud83d"');
    const escLo = [...Buffer.from("\\ude00")];
    expect(canonicalizeJSON(new Uint8Array([q, ...hi, ...escLo, q]))).toBe('"\u{1f600}"');
  });

  it("keeps lone surrogates of a host string given as JSON text", () => {
    expect(canonicalizeJSON('["\ud800", "\udfff\ud800"]')).toBe(JSON.stringify(["\ud800", "\udfff\ud800"]));
  });
});

describe("key order (D5)", () => {
  const byCodePoint = (a: string, b: string) => {
    const x = [...a].map((c) => c.codePointAt(0)!), y = [...b].map((c) => c.codePointAt(0)!);
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
    return x.length - y.length;
  };

  it("orders by code point, not UTF-16 code unit", () => {
    expect(canonicalJSON({ "\u{1F600}": 1, "\uFF01": 2 })).toBe('{"\uFF01":2,"\u{1F600}":1}');
    expect(canonicalizeJSON('{"\\ud83d\\ude00":1,"\\uff01":2,"\\ue000":3,"\\ud800":4,"\\udfff":5}'))
      .toBe('{"\\ud800":4,"\\udfff":5,"\ue000":3,"\uff01":2,"\u{1f600}":1}');
  });

  it("matches a code-point sort on random keys mixing astral, U+E000–U+FFFF and lone surrogates", () => {
    const pool = ["a", "b", "\u00e9", "\ud7ff", "\ue000", "\uffff", "\uff01", "\u{10000}", "\u{1f600}", "\u{10ffff}", "\ud800", "\udbff", "\udc00", "\udfff", "Z", ""];
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    for (let round = 0; round < 200; round++) {
      const obj: Record<string, number> = {};
      const n = 1 + Math.floor(rnd() * 40);
      for (let i = 0; i < n; i++) {
        let k = "";
        const len = 1 + Math.floor(rnd() * 3);
        for (let j = 0; j < len; j++) k += pool[Math.floor(rnd() * pool.length)];
        obj[k] = i;
      }
      const keys = Object.keys(obj).sort(byCodePoint);
      const want = "{" + keys.map((k) => `${JSON.stringify(k)}:${obj[k]}`).join(",") + "}";
      expect(canonicalJSON(obj)).toBe(want);
      expect(canonicalizeJSON(JSON.stringify(obj))).toBe(want);
    }
  });

  it("keeps the last duplicate key, also when it is null (D13)", () => {
    expect(canonicalizeJSON('{"b":1,"a":1,"b":2,"a":null}')).toBe('{"b":2}');
    const many = "{" + Array.from({ length: 100 }, (_, i) => `"k${i % 7}":${i}`).join(",") + "}";
    expect(canonicalizeJSON(many)).toBe(JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(many)).sort(([a], [b]) => byCodePoint(a, b)))));
  });
});
