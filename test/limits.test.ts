// D19: bad input is an error, never a crash; deep and large input; the arena
// is reset per call so memory stays bounded and errors leave no trace.
import { describe, expect, it } from "vitest";
import { FingerprintError, canonicalJSON, canonicalizeJSON, fingerprint, fingerprintJSON } from "./helpers/sdk";
import { createHash } from "node:crypto";
import { canonicalValue } from "./reference/contract.mjs";

const oracleDigest = (name: string, canonical: string) =>
  createHash("sha256").update(`tool_call\n${name}\n${canonical}`).digest("hex");

describe("nesting (D19)", () => {
  it("handles 1,000-deep values and text on every path", () => {
    let v: unknown = "x";
    for (let i = 0; i < 1000; i++) v = i % 2 ? [v] : { k: v };
    const text = JSON.stringify(v);
    expect(canonicalJSON(v)).toBe(text);
    expect(canonicalizeJSON(text)).toBe(text);
    expect(fingerprint("deep", v)).toBe(oracleDigest("deep", text));
    expect(fingerprintJSON("deep", text)).toBe(oracleDigest("deep", text));
  });

  it("handles 100,000-deep text (iterative core)", () => {
    const text = "[".repeat(100_000) + "1" + "]".repeat(100_000);
    expect(canonicalizeJSON(text)).toBe(text);
    const obj = '{"a":'.repeat(100_000) + "null" + "}".repeat(100_000);
    expect(canonicalizeJSON(obj)).toBe('{"a":'.repeat(99_999) + "{}" + "}".repeat(99_999));
  });

  it("gives a FingerprintError, not a RangeError, for values too deep for the JS stack", () => {
    let v: unknown = 1;
    for (let i = 0; i < 200_000; i++) v = [v];
    let err: unknown;
    try { canonicalJSON(v); } catch (e) { err = e; }
    if (err !== undefined) {
      expect(err).toBeInstanceOf(FingerprintError);
      expect((err as FingerprintError).code).toBe("too-deep");
    }
    expect(canonicalJSON([1])).toBe("[1]");
  });

  it("reports unclosed deep text as an error at the end", () => {
    const text = "[".repeat(50_000);
    expect(() => canonicalizeJSON(text)).toThrow(FingerprintError);
    try { canonicalizeJSON(text); } catch (e) { expect((e as FingerprintError).offset).toBe(50_000); }
  });
});

describe("size and memory", () => {
  const memoryBytes = () => {
    // The wasm memory is not part of the public API; its growth shows as
    // process memory, so watch the module through a probe: a huge input must
    // not make the next small call slower or different.
    return process.memoryUsage().arrayBuffers;
  };

  it("canonicalizes a 50 MB document, then small calls work as before", () => {
    const rec = { id: "r-000000", title: "  a title with spaces ", n: 12.5, tags: ["x", "y"], nested: { ok: true, z: null } };
    const parts: string[] = [];
    let size = 0;
    for (let i = 0; size < 50 * 1024 * 1024; i++) {
      const s = JSON.stringify({ ...rec, id: `r-${i}` });
      parts.push(s);
      size += s.length + 1;
    }
    const text = "[" + parts.join(",") + "]";
    const out = canonicalizeJSON(text);
    // Oracle: the reference canonicalizes the record once with a marker id;
    // records differ only in their id, so each one is the marker replaced.
    const tmpl = canonicalValue({ ...rec, id: "@ID@" });
    const want = "[" + parts.map((_, i) => tmpl.replace('"@ID@"', JSON.stringify(`r-${i}`))).join(",") + "]";
    expect(out.length).toBe(want.length);
    expect(out === want).toBe(true);
    expect(fingerprintJSON("big", text)).toBe(oracleDigest("big", want));
    // Small calls after the big one: same result as before.
    expect(canonicalizeJSON('{"b":1,"a":2}')).toBe('{"a":2,"b":1}');
  });

  it("a million same-size calls do not grow memory", () => {
    const args = { q: " cats ", page: 2, tags: ["a", "b"] };
    fingerprint("search", args);
    const before = memoryBytes();
    let last = "";
    for (let i = 0; i < 1_000_000; i++) last = fingerprintJSON("search", '{"q":" cats ","page":2,"tags":["a","b"]}');
    expect(last).toBe(oracleDigest("search", '{"page":2,"q":"cats","tags":["a","b"]}'));
    expect(memoryBytes() - before).toBeLessThan(1024 * 1024);
  });
});

describe("errors leave the module working (D19)", () => {
  it("recovers after each kind of error", () => {
    const bad: Array<() => unknown> = [
      () => canonicalizeJSON("[1,"),
      () => canonicalizeJSON(new Uint8Array([0x22, 0xff, 0x22])),
      () => canonicalizeJSON('"\\x"'),
      () => canonicalizeJSON("01"),
      () => canonicalizeJSON(""),
      () => fingerprint("", {}),
      () => fingerprint("n", {}, { kind: "a\nb" }),
      () => fingerprint("\ud800", {}),
      () => canonicalJSON(new Map()),
      () => canonicalJSON(10n),
    ];
    for (const f of bad) {
      expect(f).toThrow(FingerprintError);
      expect(canonicalizeJSON('{"z":[1,{"y":" v "}],"a":null}')).toBe('{"z":[1,{"y":"v"}]}');
    }
  });
});
