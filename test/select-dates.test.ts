// Selection decided by the core's keep-mask and dates printed by the core
// (D9, D10, D15): what the host walks, and the ISO text of every Date.
// Oracles: V8's own Date.prototype.toISOString and node:crypto; the contract
// reference (test/reference/contract.mjs) for fingerprints.
import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { canonicalJSON, explain, explainCall, fingerprint, fingerprintCall } from "./helpers/sdk";
import { fingerprintOf } from "./reference/contract.mjs";

const sha = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

describe("dates are printed by the core as toISOString() prints them (D15)", () => {
  const edges = [
    0, -1, 1, 999, -999, 8.64e15, -8.64e15, 8.64e15 - 1, -8.64e15 + 1,
    -62167219200000, // 0000-01-01T00:00:00.000Z (year 0)
    -62167219200001, // the last ms of year -1
    -62198755200000, -62198755199999, // -000001-01-01
    253402300799999, 253402300800000, // the last ms of 9999, then +010000
    951782400000, 951868800000, 4107542400000, // leap days 2000, 2100 (none: March 1)
    -2203891200000, // 1900-03-01
    1.9, -1.9, 0.5, -0.5, 1709164800000.7, // ms truncated toward zero (TimeClip)
  ];
  it("edge time values equal V8's text", () => {
    for (const t of edges) {
      const d = new Date(t);
      expect(canonicalJSON(d), String(t)).toBe(JSON.stringify(d.toISOString()));
      expect(canonicalJSON({ at: [d] }), String(t)).toBe(`{"at":[${JSON.stringify(d.toISOString())}]}`);
    }
  });

  it("100,000 random time values equal V8's text", () => {
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 100_000; i++) {
      const t = Math.trunc((next() * 2 - 1) * (i % 2 ? 8.64e15 : 4e12));
      const d = new Date(t);
      const got = canonicalJSON(d);
      if (got !== JSON.stringify(d.toISOString())) expect(got, String(t)).toBe(JSON.stringify(d.toISOString()));
    }
  });

  it("an invalid Date is null; an override of toISOString on the instance is not called", () => {
    expect(canonicalJSON({ a: new Date(NaN), b: [new Date(8.64e15 + 1), 1], c: new Date(0) }))
      .toBe('{"b":[1],"c":"1970-01-01T00:00:00.000Z"}');
    expect(canonicalJSON(new Date(NaN))).toBe("null");
    const d = new Date(86_400_000);
    d.toISOString = () => "spoofed";
    expect(canonicalJSON(d)).toBe('"1970-01-02T00:00:00.000Z"');
    const args = { when: new Date(-62198755200000), n: 1 };
    expect(fingerprint("t", args)).toBe(fingerprintOf({ name: "t", args }).fingerprint);
  });
});

describe("selection: the core's keep-mask, values left out never walked (D9, D10)", () => {
  it("fingerprint() reads no value that matchOn or ignoreArgs leaves out", () => {
    const read: string[] = [];
    const args = {
      get keep() { read.push("keep"); return 1; },
      get left() { read.push("left"); throw new Error("read"); },
      bad: new Map(),
    };
    expect(fingerprint("t", args, { matchOn: ["keep"] })).toBe(sha('tool_call\nt\n{"keep":1}'));
    expect(fingerprint("t", args, { ignoreArgs: ["left", "bad"], matchOn: ["keep"] })).toBe(sha('tool_call\nt\n{"keep":1}'));
    expect(read).toEqual(["keep", "keep"]);
  });

  it("explain() does not walk a left-out member: its toJSON and its members are not reached", () => {
    let calls = 0;
    const left = { toJSON() { calls++; throw new Error("walked"); } };
    const e = explain("t", { q: "x", left, gone: null }, { ignoreArgs: ["left", "gone"] });
    expect(e.selected).toEqual({ kept: ["q"], dropped: ["left"], missing: [] });
    expect(calls).toBe(0);
    expect(e.fingerprint).toBe(fingerprint("t", { q: "x", left, gone: null }, { ignoreArgs: ["left", "gone"] }));
  });

  it("a tool declaration's selection is decided by the core too: a rejected value it leaves out is no error", () => {
    const call = { name: "search", args: { q: "x", blob: new Set([1]), when: new Date(NaN) } };
    const tools = { search: { ignoreArgs: ["blob", "when"] } };
    expect(fingerprintCall(call, { tools })).toBe(sha('tool_call\nsearch\n{"q":"x"}'));
    expect(explainCall(call, { tools }).selected).toEqual({ kept: ["q"], dropped: ["blob"], missing: [] });
    expect(() => fingerprintCall(call)).toThrow(/a value of type Set at args\.blob/);
  });

  it("args that are not a plain object are not selected from (D10), on both paths", () => {
    class Box { toJSON() { return { a: 1, b: 2 }; } }
    const o = { matchOn: ["a"] };
    expect(fingerprint("t", new Box(), o)).toBe(sha('tool_call\nt\n{"a":1,"b":2}'));
    expect(explain("t", new Box(), o).fingerprint).toBe(fingerprint("t", new Box(), o));
    expect(fingerprint("t", [1, 2], o)).toBe(sha("tool_call\nt\n[1,2]"));
  });
});
