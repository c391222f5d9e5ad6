// Replay diagnostics through JavaScript's own values: what only this host can
// show. The cases that are data (explain / diff / nearest of recording lines)
// live in vectors/diagnostics.vectors.json (diagnostics-vectors.test.ts).
// Here: the options API, D15 values left out by selection (never an error,
// D9), host hashing, argument errors, explanations passed back in, iterables
// read once. Oracles: node:crypto and hand-written values.
import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import {
  diff, explain, explainJSON, fingerprint, fingerprintJSON, nearest,
  type Call, type Explanation,
} from "./helpers/sdk";

import "../src/index"; // the embedded engine, for the internal protocol below
import { nearSearch } from "../src/_engine";
import { NEAR_BEST, NEAR_EXACT, NEAR_SEND_CALL } from "../src/_abi.gen";

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

  it("is right for large args (hashed on the host above 2 KiB)", () => {
    const args = { text: " " + "x".repeat(5000) + " ", n: [1.5, -0, 1e21] };
    const e = explain("big", args, { ignoreArgs: ["n"] });
    expect(e.canonical).toBe(`{"text":"${"x".repeat(5000)}"}`);
    expect(e.selected.dropped).toEqual(["n"]);
    checkDigest(e);
    expect(e.fingerprint).toBe(fingerprint("big", args, { ignoreArgs: ["n"] }));
  });
});

describe("explain agrees with fingerprint()", () => {
  it("selects only from plain objects (D10): a toJSON result or a Date passes through whole", () => {
    class Odd { toJSON() { return { a: 1, b: 2 }; } }
    const odd = new Odd();
    for (const args of [odd, new Date(0), [{ a: 1 }]]) {
      const e = explain("t", args, { matchOn: ["a"] });
      expect(e.fingerprint).toBe(fingerprint("t", args, { matchOn: ["a"] }));
      checkDigest(e);
    }
    expect(explain("t", odd, { matchOn: ["a"] }).canonical).toBe('{"a":1,"b":2}');
  });
});

describe("diff", () => {
  const call = (args: unknown, options?: Partial<Call>): Call => ({ ...options, name: "create_ticket", args });

  it("handles deep nesting without recursion (D19)", () => {
    const depth = 5000;
    const deep = (leaf: number) => "[".repeat(depth) + leaf + "]".repeat(depth);
    const d = diff({ name: "t", argsJSON: deep(1) }, { name: "t", argsJSON: deep(2) });
    expect(d.changes).toHaveLength(1);
    expect(d.changes[0].path).toBe("[0]".repeat(depth - 1) + "[0]");
    expect(d.changes[0]).toMatchObject({ kind: "changed", before: "1", after: "2" });
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

  it("returns a recorded explanation as it was passed, and a recorded call's explanation from the core", () => {
    const e = explain("t", { n: 1 }), c = { name: "t", args: { n: 2 } };
    expect(nearest({ name: "t", args: { n: 1 } }, [e])!.explanation).toBe(e);
    expect(nearest({ name: "t", args: { n: 3 } }, [c])!.explanation).toEqual(explain("t", { n: 2 }));
  });

  it("never fingerprints calls of other tools", () => {
    const bad: Call = { name: "other", args: { x: new Map() } };
    expect(nearest({ name: "t", args: 1 }, [bad, { name: "t", args: 2 }])!.index).toBe(1);
  });

  it("keeps its target in the instance it holds: searches, diffs and explains run from the recording's iterator leave it alone", () => {
    function* rec(): Generator<Call> {
      for (let i = 0; i < 4; i++) {
        // Another search, a diff and an explain between the outer search's steps (each on a spare instance).
        expect(nearest({ name: "u", args: { m: 9 } }, [{ name: "u", args: { m: 1 } }, { name: "u", args: { m: 9 } }])!.index).toBe(1);
        expect(diff({ name: "u", args: { m: 1 } }, { name: "u", args: { m: 2 } }).changes).toHaveLength(1);
        expect(explain("u", { m: i }).canonical).toBe(`{"m":${i}}`);
        yield { name: "t", args: { n: i, k: i === 2 ? "x" : "y" } };
      }
    }
    const m = nearest({ name: "t", args: { n: 2, k: "z" } }, rec())!;
    expect(m.index).toBe(2);
    expect(m.diff.changes).toEqual([{ path: "k", kind: "changed", before: '"x"', after: '"z"' }]);
  });

  it("sends the target once: each step carries a recorded call only (the engine keeps the rest)", () => {
    const out = nearSearch({ name: "t", args: { n: 1 } }, (step) =>
      [step({ name: "t", args: { n: 2 } }, false), step("t", true), step({ name: "t", args: { n: 1 } }, false)]);
    expect(out.map(([s]) => s)).toEqual([NEAR_BEST, NEAR_SEND_CALL, NEAR_EXACT]);
    expect(JSON.parse(out[2][1]).index).toBe(1); // the name-only step is not counted
  });
});
