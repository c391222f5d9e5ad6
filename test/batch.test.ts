// The batch API: fingerprintBatch / fingerprintBatchJSON give, item
// by item, the contract's answers — the shared vectors (made by the oracle in
// test/reference/) and the reject corpus — whatever the input form (arrays,
// generators, Arrow-style columns), across chunk boundaries, and a bad item
// is never skipped silently: it throws naming its index, or is null.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FingerprintError, fingerprintBatch, fingerprintBatchJSON, fingerprintJSON } from "./helpers/sdk";
// Expected digests from the independent oracle, never from the SDK under test.
import { fingerprintOf, fingerprintOfText } from "./reference/contract.mjs";

interface Vector {
  id: string; name: string; argsJSON?: string; argsBytesHex?: string; kind?: string;
  matchOn?: string[]; ignoreArgs?: string[]; fingerprint?: string; error?: unknown;
}
const vectors = (JSON.parse(readFileSync(new URL("../vectors/fingerprint.vectors.json", import.meta.url), "utf8")) as
  { vectors: Vector[] }).vectors;
const rejects = readFileSync(new URL("../vectors/reject.jsonl", import.meta.url), "utf8").trim().split("\n")
  .map((l) => JSON.parse(l) as { id: string; hex: string });
const enc = new TextEncoder();
const hex = (h: string) => Uint8Array.from(h.match(/../g) ?? [], (b) => parseInt(b, 16));

/** Texts as one Arrow-style column. */
function column(texts: (string | Uint8Array)[]): { offsets: Uint32Array; data: Uint8Array } {
  const parts = texts.map((t) => (typeof t === "string" ? enc.encode(t) : t));
  const offsets = new Uint32Array(parts.length + 1);
  parts.forEach((p, i) => { offsets[i + 1] = offsets[i] + p.length; });
  const data = new Uint8Array(offsets[parts.length]);
  parts.forEach((p, i) => data.set(p, offsets[i]));
  return { offsets, data };
}

describe("fingerprintBatch (calls)", () => {
  it("gives every vector's fingerprint, or null for its error, with per-call kind and selection", () => {
    const vs = vectors.filter((v) => v.argsJSON !== undefined && !(v.name === "" && v.error === undefined));
    const calls = vs.map((v) => ({ name: v.name, argsJSON: v.argsJSON, kind: v.kind, matchOn: v.matchOn, ignoreArgs: v.ignoreArgs }));
    const got = fingerprintBatch(calls, { onError: "null" });
    expect(got.length).toBe(vs.length);
    vs.forEach((v, i) => expect([v.id, got[i]]).toEqual([v.id, v.error === undefined ? v.fingerprint : null]));
    expect(vs.filter((v) => v.error !== undefined).length).toBeGreaterThan(5);
  });

  it("reads recording lines and objects alike, and names a near-miss key with its index", () => {
    const v = vectors.find((x) => x.id === "page-trim-email")!;
    const line = JSON.stringify({ name: v.name, argsJSON: v.argsJSON });
    expect(fingerprintBatch([line, enc.encode(line), { name: v.name, args: JSON.parse(v.argsJSON!) }]))
      .toEqual([v.fingerprint, v.fingerprint, v.fingerprint]);
    let err: unknown;
    try { fingerprintBatch([line, { name: "t", args: {}, match_on: ["a"] }]); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(FingerprintError);
    expect((err as FingerprintError).index).toBe(1);
    expect((err as FingerprintError).message).toMatch(/^item 1: .*matchOn/);
  });

  it("names a value it refuses from the call, as explainCall does (D15): args.x, or a member of the call", () => {
    const at = (calls: unknown[]) => {
      try { fingerprintBatch(calls as object[]); } catch (e) { return [(e as FingerprintError).index, (e as FingerprintError).path]; }
      return null;
    };
    expect(at([{ name: "a", args: {} }, { name: "b", args: { x: [1, 2n] } }])).toEqual([1, "args.x[1]"]);
    expect(at([{ name: "b", x: 2n }])).toEqual([0, "x"]);
  });
});

describe("fingerprintBatchJSON (names + texts)", () => {
  const plain = vectors.filter((v) => v.argsJSON !== undefined && v.kind === undefined && !v.matchOn && !v.ignoreArgs);

  it("matches the vectors from arrays, a generator, and columns", () => {
    const names = plain.map((v) => v.name), texts = plain.map((v) => v.argsJSON!);
    const want = plain.map((v) => (v.error === undefined ? v.fingerprint : null));
    expect(fingerprintBatchJSON(names, texts, { onError: "null" })).toEqual(want);
    function* gen() { yield* texts; }
    expect(fingerprintBatchJSON(new Set(names).size === 1 ? names : names.values(), gen(), { onError: "null" })).toEqual(want);
    // A column is UTF-8 bytes: a lone surrogate cannot be in one (TextEncoder would replace it).
    const utf8 = plain.map((v, i) => [v.name, v.argsJSON!, want[i]] as const)
      .filter(([n, t]) => (n as unknown as { isWellFormed(): boolean }).isWellFormed() && (t as unknown as { isWellFormed(): boolean }).isWellFormed());
    expect(utf8.length).toBeGreaterThan(plain.length - 20);
    const [un, ut, uw] = [utf8.map((x) => x[0]), utf8.map((x) => x[1]), utf8.map((x) => x[2])];
    expect(fingerprintBatchJSON(column(un), column(ut), { onError: "null" })).toEqual(uw);
    expect(fingerprintBatchJSON(un, column(ut), { onError: "null" })).toEqual(uw);
  });

  it("applies shared kind and key lists as fingerprintJSON does (vectors with options)", () => {
    for (const v of vectors.filter((x) => x.argsJSON !== undefined && x.error === undefined && (x.kind || x.matchOn || x.ignoreArgs))) {
      const o = { kind: v.kind, matchOn: v.matchOn, ignoreArgs: v.ignoreArgs };
      expect([v.id, fingerprintBatchJSON([v.name, v.name], [v.argsJSON!, v.argsJSON!], o)]).toEqual([v.id, [v.fingerprint, v.fingerprint]]);
    }
  });

  it("rejects every text of the reject corpus, item by item (bytes may carry a BOM)", () => {
    const texts = rejects.map((r) => hex(r.hex));
    const got = fingerprintBatchJSON(texts.map(() => "t"), texts, { onError: "null" });
    rejects.forEach((r, i) => expect([r.id, got[i]]).toEqual([r.id, null]));
    for (const t of texts.slice(0, 50)) expect(() => fingerprintJSON("t", t)).toThrow(FingerprintError);
  });

  it("encodes ASCII texts a block at a time and the rest item by item, in any mix", () => {
    // Blocks of 32: all ASCII; a non-ASCII item first, last or inside; bytes (Uint8Array) items; a lone
    // surrogate in a str; a long item (the per-item path); an empty text; an item over the byte limit.
    const texts: (string | Uint8Array)[] = [];
    for (let i = 0; i < 200; i++) {
      let t = `{"i":${i},"q":"${"abc".repeat(i % 5)}"}`;
      if (i === 32 || i === 63 || i === 70) t = `{"i":${i},"q":"é${i}"}`;
      if (i === 100) t = `{"i":${i},"q":"\\ud800"}`; // escaped in the JSON text: ASCII
      if (i === 101) t = `{"i":${i},"q":"x\ud83d"}`; // a lone surrogate in the str itself
      if (i === 140) t = `{"i":${i},"q":"${"y".repeat(1500)}"}`;
      if (i === 150) t = "";
      if (i === 160) t = `{"i":${i},"q":"${"z".repeat(2200)}"}`;
      texts.push(i % 45 === 44 ? new TextEncoder().encode(t) : t);
    }
    const names = texts.map((_, i) => `t${i % 3}`);
    const got = fingerprintBatchJSON(names, texts, { onError: "null", limits: { maxInputBytes: 2100 } });
    const want = texts.map((t, i) => {
      if (i === 150 || i === 160) return null; // not JSON; over the byte limit
      return fingerprintOfText({ name: names[i], argsJSON: t as string }).fingerprint;
    });
    expect(got.length).toBe(200);
    for (let i = 0; i < 200; i++) expect([i, got[i]]).toEqual([i, want[i]]);
  });

  it("reports bad names, kinds, limits and host types per item", () => {
    const got = fingerprintBatchJSON(["a", "", "\ud800", "b", "c"], ["1", "1", "1", "[1,2,3]", "{}"],
      { onError: "null", limits: { maxInputBytes: 4 } });
    expect(got).toEqual([fingerprintOfText({ name: "a", argsJSON: "1" }).fingerprint, null, null, null, fingerprintOfText({ name: "c", argsJSON: "{}" }).fingerprint]);
    expect(() => fingerprintBatchJSON(["a"], ["1"], { kind: "" })).toThrow(/item 0: invalid kind/);
    expect(() => fingerprintBatchJSON(["a", 3 as unknown as string], ["1", "1"])).toThrow(/item 1: name must be a string/);
    expect(() => fingerprintBatchJSON(["a", "b"], ["1"])).toThrow(/different lengths/);
    expect(() => fingerprintBatchJSON(column(["a"]), { offsets: new Uint32Array([0, 9]), data: new Uint8Array(2) })).toThrow(/offsets\[1\]/);
  });

  it("checks a shared kind again in the next batch (same address, same length)", () => {
    const want = (kind: string) => ["1", "2"].map((x, i) => fingerprintOfText({ name: "ab"[i], argsJSON: x, kind }).fingerprint);
    expect(fingerprintBatchJSON(["a", "b"], ["1", "2"], { kind: "tool_call" })).toEqual(want("tool_call"));
    for (const bad of ["tool\ncall", "tool\ud800c"]) {
      expect(() => fingerprintBatchJSON(["a", "b"], ["1", "2"], { kind: bad })).toThrow(/item 0: invalid kind/);
      expect(fingerprintBatchJSON(["a", "b"], ["1", "2"], { kind: bad, onError: "null" })).toEqual([null, null]);
    }
    expect(fingerprintBatchJSON(["a", "b"], ["1", "2"], { kind: "tool_cal!" })).toEqual(want("tool_cal!"));
  });

  it("call objects whose args grow wasm memory mid-batch: later items are written to the grown memory", () => {
    // A call's value stream grows memory while it is written; the views taken before are detached then.
    const calls = Array.from({ length: 40 }, (_, i) => ({
      name: `t${i % 3}`,
      args: i % 13 === 5 ? { xs: Array.from({ length: 60_000 + i * 1000 }, (_, k) => `v${k}`) } : { i, q: ` q${i} ` },
    }));
    const want = calls.map((c) => fingerprintOf({ name: c.name, args: c.args }).fingerprint);
    expect(fingerprintBatch(calls)).toEqual(want);
    expect(fingerprintBatch(calls)).toEqual(want); // and again, on the grown instance
  });

  it('onError "null": a name or text of the wrong type is null, as in Python (None), and the rest is computed', () => {
    const fp = (name: string, argsJSON: string) => fingerprintOfText({ name, argsJSON }).fingerprint;
    const names = ["a", 5, "c", null, "e", "f"] as unknown as string[];
    const texts = ["{}", "{}", 7, "{}", new Uint8Array([0x5b, 0x5d]), undefined] as unknown as string[];
    expect(fingerprintBatchJSON(names, texts, { onError: "null" })).toEqual([fp("a", "{}"), null, null, null, fp("e", "[]"), null]);
    expect(fingerprintBatchJSON(column(["a", "b"]), [{}, "[1]"] as unknown as string[], { onError: "null" })).toEqual([null, fp("b", "[1]")]);
    // Without it, the first one throws naming its index.
    expect(() => fingerprintBatchJSON(names, texts)).toThrow(/^item 1: name must be a string/);
    expect(fingerprintBatch([{ name: 5, args: {} }, 5, null, { name: "a", args: {} }] as unknown as object[], { onError: "null" }))
      .toEqual([null, null, null, fp("a", "{}")]);
  });

  it("names the first bad item in order, whether the core or the host finds it wrong (text, name, value)", () => {
    const first = (f: () => unknown) => {
      try { f(); } catch (e) { return [(e as FingerprintError).index, (e as FingerprintError).message]; }
      return null;
    };
    // Before: the host threw for the wrongly typed item 1 before the core had read item 0.
    const eof = (at: number) => `item 0: invalid JSON: the text ends inside a value at byte ${at}`;
    expect(first(() => fingerprintBatchJSON(["a", "b"], ["{", 5 as unknown as string]))).toEqual([0, eof(1)]);
    expect(first(() => fingerprintBatchJSON(["a", 7 as unknown as string], ["[", "1"]))).toEqual([0, eof(1)]);
    expect(first(() => fingerprintBatch(['{"name":"x"', { name: "t", args: { n: 1n } }]))).toEqual([0, eof(11)]);
    // The core words a wrongly typed item with the host's word for its type; the text's error before the name's.
    expect(first(() => fingerprintBatchJSON(["a", 7 as unknown as string], ["1", null as unknown as string])))
      .toEqual([1, "item 1: JSON text must be a string or bytes, got null"]);
    expect(first(() => fingerprintBatchJSON(["a", [] as unknown as string], ["1", "1"]))).toEqual([1, "item 1: name must be a string, got array"]);
  });

  it("reads its options as fingerprintJSON does: own properties of a plain object (a polluted prototype selects nothing)", () => {
    const want = fingerprintOfText({ name: "a", argsJSON: '{"a":1}' }).fingerprint;
    (Object.prototype as Record<string, unknown>).matchOn = ["zz"];
    try {
      expect(fingerprintBatchJSON(["a"], ['{"a":1}'], {})).toEqual([want]);
    } finally {
      delete (Object.prototype as Record<string, unknown>).matchOn;
    }
  });

  it("keeps working after errors, and on items larger than a chunk", () => {
    const big = JSON.stringify({ xs: Array.from({ length: 200_000 }, (_, i) => i) });
    expect(fingerprintBatchJSON(["a", "b"], [big, "2"])).toEqual([fingerprintOfText({ name: "a", argsJSON: big }).fingerprint, fingerprintOfText({ name: "b", argsJSON: "2" }).fingerprint]);
  });
});

// The sources, so the hashing switch is reachable: node:crypto over the core's
// preimages (Node), or the core's own SHA-256 (everywhere else).
import * as src from "../src/index";
import { setHostHashing } from "../src/core";

describe("both hashing paths of a batch", () => {
  const vs = vectors.filter((v) => v.argsJSON !== undefined);
  const calls = vs.map((v) => ({ name: v.name, argsJSON: v.argsJSON, kind: v.kind, matchOn: v.matchOn, ignoreArgs: v.ignoreArgs }));
  const want = vs.map((v) => (v.error === undefined ? v.fingerprint : null));

  for (const host of [true, false]) {
    it(`gives the vectors with ${host ? "node:crypto" : "the core's SHA-256"}`, () => {
      setHostHashing(host);
      try {
        expect(src.fingerprintBatch(calls, { onError: "null" })).toEqual(want);
        const plain = vs.filter((v) => v.kind === undefined && !v.matchOn && !v.ignoreArgs);
        expect(src.fingerprintBatchJSON(plain.map((v) => v.name), plain.map((v) => v.argsJSON!), { onError: "null" }))
          .toEqual(plain.map((v) => (v.error === undefined ? v.fingerprint : null)));
      } finally {
        setHostHashing(true);
      }
    });
  }

  it("four lanes (no node:crypto: the SIMD module): every preimage length to 300 bytes, long items and failures between", () => {
    // Lanes of different block counts finish at different rounds; a long item (over a lane's 4 KiB) is hashed
    // alone; a failure returns mid-queue, so the queued digests must be written first.
    const texts: string[] = [];
    for (let n = 0; n <= 300; n++) texts.push(JSON.stringify("x".repeat(n)));
    texts.splice(7, 0, "{", JSON.stringify("é".repeat(3000)), "[1,]");
    texts.splice(150, 0, JSON.stringify({ a: "y".repeat(5000) }), "nope");
    const names = texts.map((_, i) => `t${i % 7}`);
    const want = texts.map((t, i) => {
      try { return fingerprintOfText({ name: names[i], argsJSON: t }).fingerprint; } catch { return null; }
    });
    expect(want.filter((w) => w === null).length).toBe(3);
    setHostHashing(false);
    try {
      expect(src.fingerprintBatchJSON(names, texts, { onError: "null" })).toEqual(want);
      const calls = texts.map((t, i) => ({ name: names[i], argsJSON: t }));
      expect(src.fingerprintBatch(calls, { onError: "null" })).toEqual(want);
    } finally {
      setHostHashing(true);
    }
  });

  it("four lanes: a preimage that outgrows its lane's 4 KiB buffer while written is moved, never cut", () => {
    // Each preimage is written into its hash lane's buffer when its text is short enough (sinkPreset); numbers
    // that print longer than they read (1e20: 4 bytes in, 21 out) make some outgrow it near the end (copied
    // back into the lane) and others well past it (hashed alone). Short items between keep lanes queued.
    // 185 of them make a preimage of 4,082 bytes + the name's length: names of 1 to 24 bytes end it on
    // each side of 4,096, and a number begun within 32 bytes of the end moves the text out first.
    const texts: string[] = [], names: string[] = [];
    for (const k of [170, 184, 185, 186, 200]) {
      for (let len = 1; len <= 24; len++) {
        texts.push("[" + Array(k).fill("1e20").join(",") + "]", `[${k}]`);
        names.push("n".repeat(len), `m${len}`);
      }
    }
    const want = texts.map((t, i) => fingerprintOfText({ name: names[i], argsJSON: t }).fingerprint);
    setHostHashing(false);
    try {
      expect(src.fingerprintBatchJSON(names, texts)).toEqual(want);
    } finally {
      setHostHashing(true);
    }
  });

  it("keeps a batch's limits when the iterable it reads runs a batch of its own between chunks", () => {
    const deep = "[[[[1]]]]";
    function* items(): Generator<{ name: string; argsJSON: string }> {
      for (let i = 0; i < 5000; i++) {
        if (i === 4096) expect(src.fingerprintBatch([{ name: "inner", argsJSON: deep }])).toHaveLength(1);
        yield { name: "t", argsJSON: i === 4500 ? deep : "1" };
      }
    }
    for (const host of [true, false]) {
      setHostHashing(host);
      try {
        const got = src.fingerprintBatch(items(), { onError: "null", limits: { maxDepth: 3 } });
        expect(got[4500]).toBeNull();
        expect(got.filter((g) => g === null)).toHaveLength(1);
        let err: unknown;
        function* texts() { for (let i = 0; i < 5000; i++) { if (i === 4096) src.fingerprintBatchJSON(["inner"], [deep]); yield i === 4500 ? deep : "1"; } }
        try { src.fingerprintBatchJSON(Array(5000).fill("t"), texts(), { limits: { maxDepth: 3 } }); } catch (e) { err = e; }
        expect((err as FingerprintError).index).toBe(4500);
        expect((err as FingerprintError).code).toBe("limit-exceeded");
      } finally {
        setHostHashing(true);
      }
    }
  });

});
