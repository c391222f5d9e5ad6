// Replay diagnostics (issue 6): explain / explainJSON, diff, nearest.
// Oracles: node:crypto for every digest (sha256 of the preimage), JSON.stringify
// for the canonical text of simple leaves (integers, untrimmable ASCII strings),
// and hand-written expectations for selection and paths. Random cases use the
// seeded splitmix64 from helpers/rng.ts.
import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import {
  FingerprintError, canonicalJSON, diff, explain, explainJSON, fingerprint, fingerprintJSON, nearest,
  type Call, type Explanation,
} from "./helpers/sdk";
import { Rng } from "./helpers/rng";

const sha = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

/** Every explanation must hash to its own preimage and agree with fingerprint(). */
function checkDigest(e: Explanation): void {
  expect(e.preimage).toBe(`${e.kind}\n${e.name}\n${e.canonical}`);
  expect(e.fingerprint).toBe(sha(e.preimage));
}

describe("explain", () => {
  it("reports what matchOn kept, dropped and could not find (noise keys)", () => {
    const args = { title: "  Login page returns 500 ", priority: "P0", requestId: "req-7f3a", tags: ["auth"], cursor: null };
    const options = { matchOn: ["title", "priority", "ticketId", "title"] };
    const e = explain("create_ticket", args, options);
    expect(e).toEqual({
      version: 1,
      kind: "tool_call",
      name: "create_ticket",
      selected: { kept: ["priority", "title"], dropped: ["requestId", "tags"], missing: ["ticketId"] },
      canonical: '{"priority":"P0","title":"Login page returns 500"}',
      preimage: 'tool_call\ncreate_ticket\n{"priority":"P0","title":"Login page returns 500"}',
      fingerprint: sha('tool_call\ncreate_ticket\n{"priority":"P0","title":"Login page returns 500"}'),
    });
    expect(e.fingerprint).toBe(fingerprint("create_ticket", args, options));
  });

  it("reports ignoreArgs; a dropped null was never part of the fingerprint", () => {
    const e = explain("search", { q: " cats ", page: 2, cursor: null, when: undefined }, { ignoreArgs: ["page", "cursor", "when"] });
    expect(e.selected).toEqual({ kept: ["q"], dropped: ["page"], missing: [] });
    expect(e.canonical).toBe('{"q":"cats"}');
    checkDigest(e);
  });

  it("never reads a left-out value, and still names its key (D9)", () => {
    const e = explain("t", { keep: 1, blob: new Map([[1, 2]]) }, { matchOn: ["keep"] });
    expect(e.selected).toEqual({ kept: ["keep"], dropped: ["blob"], missing: [] });
    checkDigest(e);
  });

  it("keeps keys in code point order (D5), as the core does", () => {
    const e = explain("t", { "\u{1F600}": 1, "\uFF01": 2, a: 3, b: null }, { ignoreArgs: ["a", "b"] });
    expect(e.canonical).toBe('{"！":2,"😀":1}');
    expect(e.selected.kept).toEqual(["\uFF01", "\u{1F600}"]);
    expect(e.selected.dropped).toEqual(["a"]);
  });

  it("explainJSON reads text in the core: 1.0, duplicates, BOM in bytes", () => {
    const text = '{"limit": 10.0, "query": " refund policy ", "limit": 1e1, "cursor": null, "page": 3}';
    const e = explainJSON("search_docs", text, { ignoreArgs: ["page"] });
    expect(e.canonical).toBe('{"limit":10,"query":"refund policy"}');
    expect(e.selected).toEqual({ kept: ["limit", "query"], dropped: ["page"], missing: [] });
    expect(e.fingerprint).toBe(fingerprintJSON("search_docs", text, { ignoreArgs: ["page"] }));
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]);
    expect(explainJSON("search_docs", bytes, { ignoreArgs: ["page"] })).toEqual(e);
    checkDigest(e);
  });

  it("selection passes non-objects through (D10): nothing kept or dropped", () => {
    for (const args of [[{ a: 1 }, " x "], " x ", 5, null]) {
      const e = explain("t", args, { matchOn: ["a"] });
      expect(e.selected).toEqual({ kept: [], dropped: [], missing: [] });
      expect(e.canonical).toBe(canonicalJSON(args));
      checkDigest(e);
    }
  });

  it("uses the core's preimage for unusual kinds and names (D17)", () => {
    for (const [kind, name] of [["\uFEFFk", "n"], ["k", "line\nbreak"], ["tool_call", " spaced "], ["x", "\u{1F600}"]]) {
      const e = explain(name, { a: 1 }, { kind });
      expect(e.kind).toBe(kind);
      expect(e.name).toBe(name);
      expect(e.canonical).toBe('{"a":1}');
      checkDigest(e);
      expect(e.fingerprint).toBe(fingerprint(name, { a: 1 }, { kind }));
    }
  });

  it("is right for large args (hashed on the host above 2 KiB)", () => {
    const args = { text: " " + "x".repeat(5000) + " ", n: [1.5, -0, 1e21] };
    const e = explain("big", args, { ignoreArgs: ["n"] });
    expect(e.canonical).toBe(`{"text":"${"x".repeat(5000)}"}`);
    expect(e.selected.dropped).toEqual(["n"]);
    checkDigest(e);
    expect(e.fingerprint).toBe(fingerprint("big", args, { ignoreArgs: ["n"] }));
  });

  it("raises FingerprintError for bad input, like fingerprint()", () => {
    expect(() => explainJSON("t", '{"a":,}')).toThrow(FingerprintError);
    try { explainJSON("t", '{"a":,}'); } catch (e) { expect((e as FingerprintError).offset).toBe(5); }
    expect(() => explain("", 1)).toThrow(FingerprintError);
    expect(() => explain("t", { a: new Set() })).toThrow(/args\.a/);
    expect(() => explain("t", 1, { matchOn: "a" as unknown as string[] })).toThrow(FingerprintError);
  });
});

describe("diff", () => {
  const call = (args: unknown, options?: Partial<Call>): Call => ({ ...options, name: "create_ticket", args });

  it("sees no change in whitespace, nulls, key order or number spelling", () => {
    const a = call({ title: "Login 500", priority: "P0", n: 10, tags: ["a", "b"], deep: { x: 1, y: 2 } });
    const b: Call = {
      name: "create_ticket",
      argsJSON: '{"deep":{"y":2.0,"x":1,"z":null},"tags":[" a ",null,"b\\t"],"n":1e1,"priority":"P0","title":"  Login 500 ","gone":null}',
    };
    expect(diff(a, b)).toEqual({ same: true, changes: [] });
  });

  it("sees no change in noise keys that matchOn leaves out", () => {
    const options = { matchOn: ["title", "priority"] };
    expect(diff(call({ title: "T", priority: "P0", requestId: "r-1" }, options),
      call({ title: "T", priority: "P0", requestId: "r-2", at: 17 }, options))).toEqual({ same: true, changes: [] });
  });

  it("reports a changed priority (the contract page's example)", () => {
    const options = { matchOn: ["ticketId", "priority"] };
    expect(diff(call({ ticketId: "T-1", priority: "P0", requestId: "a" }, options),
      call({ ticketId: "T-1", priority: "P1", requestId: "b" }, options))).toEqual({
      same: false,
      changes: [{ path: "priority", kind: "changed", before: '"P0"', after: '"P1"' }],
    });
  });

  it("reports nested changes with readable paths, depth first in key order", () => {
    const a = { items: [0, 1, 2, { when: "2024-01-01", what: "x" }], "odd key": { "a-b": 1 }, gone: true, arr: [1, 2, 3] };
    const b = { items: [0, 1, 2, { when: "2024-01-02", what: "x", extra: [] }], "odd key": { "a-b": 2 }, added: { k: 1 }, arr: [1, 2] };
    expect(diff(call(a), call(b)).changes).toEqual([
      { path: "added", kind: "added", before: null, after: '{"k":1}' },
      { path: "arr[2]", kind: "removed", before: "3", after: null },
      { path: "gone", kind: "removed", before: "true", after: null },
      { path: "items[3].extra", kind: "added", before: null, after: "[]" },
      { path: "items[3].when", kind: "changed", before: '"2024-01-01"', after: '"2024-01-02"' },
      { path: '["odd key"]["a-b"]', kind: "changed", before: "1", after: "2" },
    ]);
  });

  it("compares keys in code point order, not UTF-16 order (D5)", () => {
    const changes = diff(call({ "\u{1F600}": 1, "\uFF01": 1 }), call({ "\u{1F600}": 2, "\uFF01": 2 })).changes;
    expect(changes.map((c) => c.path)).toEqual(['["！"]', '["😀"]']);
  });

  it("reports a change of type, and of the whole args, at the path where it happens", () => {
    expect(diff(call({ a: [1] }), call({ a: { 0: 1 } })).changes).toEqual([{ path: "a", kind: "changed", before: "[1]", after: '{"0":1}' }]);
    expect(diff(call([1, 2]), call(" x ")).changes).toEqual([{ path: "", kind: "changed", before: "[1,2]", after: '"x"' }]);
    expect(diff(call(null), call({})).changes).toEqual([{ path: "", kind: "changed", before: "null", after: "{}" }]);
  });

  it("reports kind and name, which are part of the preimage", () => {
    const d = diff({ name: "a", args: 1 }, { name: "b", args: 2, kind: "resource" });
    expect(d).toEqual({
      same: false,
      changes: [
        { path: "(kind)", kind: "changed", before: '"tool_call"', after: '"resource"' },
        { path: "(name)", kind: "changed", before: '"a"', after: '"b"' },
        { path: "", kind: "changed", before: "1", after: "2" },
      ],
    });
  });

  it("reports a selection difference as what it does to the canonical text", () => {
    const d = diff(call({ a: 1, b: 2 }, { matchOn: ["a"] }), call({ a: 1, b: 2 }));
    expect(d.changes).toEqual([{ path: "b", kind: "added", before: null, after: "2" }]);
  });

  it("accepts explanations, and same matches fingerprint equality", () => {
    const ea = explain("t", { a: " 1 " }), eb = explainJSON("t", '{"a":"1"}');
    expect(diff(ea, eb)).toEqual({ same: true, changes: [] });
    expect(diff(ea, { name: "t", args: { a: 2 } }).same).toBe(false);
  });

  it("handles deep nesting without recursion (D19)", () => {
    const depth = 5000;
    const deep = (leaf: number) => "[".repeat(depth) + leaf + "]".repeat(depth);
    const d = diff({ name: "t", argsJSON: deep(1) }, { name: "t", argsJSON: deep(2) });
    expect(d.changes).toHaveLength(1);
    expect(d.changes[0].path).toBe("[0]".repeat(depth - 1) + "[0]");
    expect(d.changes[0]).toMatchObject({ kind: "changed", before: "1", after: "2" });
  });

  it("finds exactly the one leaf a random edit changed (seeded)", () => {
    const rng = new Rng(0x6d1ff);
    const keys = ["a", "b", "id", "_x", "$y", "a b", "1", "é", "k-2", ""];
    type Leaf = { path: string; holder: Record<string, unknown> | unknown[]; key: string | number };
    const gen = (depth: number, path: string, leaves: Leaf[]): unknown => {
      const r = rng.int(10);
      if (depth > 3 || r < 4) return rng.int(2) ? rng.int(1000) : `s${rng.int(1000)}`;
      if (r < 7) {
        const arr: unknown[] = [];
        for (let i = 0, n = rng.int(4); i < n; i++) {
          const p = `${path}[${i}]`;
          const v = gen(depth + 1, p, leaves);
          arr.push(v);
          if (typeof v !== "object") leaves.push({ path: p, holder: arr, key: i });
        }
        return arr;
      }
      const obj: Record<string, unknown> = {};
      for (let i = 0, n = rng.int(5); i < n; i++) {
        const k = rng.pick(keys);
        if (k in obj) continue;
        const p = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k) ? (path ? `${path}.${k}` : k) : `${path}[${JSON.stringify(k)}]`;
        const v = gen(depth + 1, p, leaves);
        obj[k] = v;
        if (typeof v !== "object") leaves.push({ path: p, holder: obj, key: k });
      }
      return obj;
    };
    let checked = 0;
    for (let round = 0; round < 300 && checked < 150; round++) {
      const leaves: Leaf[] = [];
      const args = gen(0, "", leaves);
      if (leaves.length === 0 || typeof args !== "object") continue;
      const before = explain("t", args);
      const leaf = rng.pick(leaves);
      const old = (leaf.holder as Record<string | number, unknown>)[leaf.key];
      const next = typeof old === "number" ? old + 1 : `${old}!`;
      (leaf.holder as Record<string | number, unknown>)[leaf.key] = next;
      const d = diff(before, { name: "t", args });
      expect(d).toEqual({ same: false, changes: [{ path: leaf.path, kind: "changed", before: JSON.stringify(old), after: JSON.stringify(next) }] });
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
  });
});

describe("nearest", () => {
  const recording: Call[] = [
    { name: "search_docs", args: { query: "refund policy", limit: 10 } },
    { name: "create_ticket", args: { title: "Login", priority: "P0", tags: ["a", "b"] }, ignoreArgs: ["requestId"] },
    { name: "create_ticket", args: { title: "Login", priority: "P2", tags: ["a"] }, ignoreArgs: ["requestId"] },
    { name: "create_ticket", args: { title: "Login", priority: "P1", tags: ["a", "c"] }, ignoreArgs: ["requestId"] },
    { name: "create_ticket", args: { title: "Login", priority: "P1", tags: ["a", "b"] }, kind: "other" },
  ];
  const unseen: Call = { name: "create_ticket", args: { title: " Login", priority: "P1", tags: ["a", "b"], requestId: "r-9" }, ignoreArgs: ["requestId"] };

  it("finds the recorded call with the fewest changes, among the same kind and name", () => {
    const m = nearest(unseen, recording)!;
    expect(m.index).toBe(1); // one change; index 3 has two, index 4 has another kind
    expect(m.call).toBe(recording[1]);
    expect(m.diff).toEqual({ same: false, changes: [{ path: "priority", kind: "changed", before: '"P0"', after: '"P1"' }] });
    checkDigest(m.explanation);
  });

  it("prefers the first of equals, and returns null without a candidate", () => {
    const two: Call[] = [{ name: "t", args: { a: 1, b: 9 } }, { name: "t", args: { a: 9, b: 2 } }];
    expect(nearest({ name: "t", args: { a: 1, b: 2 } }, two)!.index).toBe(0);
    expect(nearest({ name: "zzz", args: {} }, recording)).toBeNull();
    expect(nearest({ name: "create_ticket", args: {}, kind: "nope" }, recording)).toBeNull();
  });

  it("stops at an exact match and reads a generator once", () => {
    let read = 0;
    function* rec(): Generator<Call> {
      for (let i = 0; i < 10; i++) { read++; yield { name: "t", args: { n: i } }; }
      throw new Error("read past the exact match");
    }
    const m = nearest({ name: "t", args: { n: 3.0 } }, rec())!;
    expect(m.index).toBe(3);
    expect(m.diff).toEqual({ same: true, changes: [] });
    expect(read).toBe(4);
  });

  it("never fingerprints calls of other tools", () => {
    const bad: Call = { name: "other", args: { x: new Map() } };
    expect(nearest({ name: "t", args: 1 }, [bad, { name: "t", args: 2 }])!.index).toBe(1);
  });
});
