// Memory that comes back, and limits. RSS is measured in a fresh
// child process (--expose-gc), so the test runner's own heap cannot blur it.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { FingerprintError, configure, fingerprint, fingerprintJSON } from "./helpers/sdk";
import { fingerprintOf, fingerprintOfText } from "./reference/contract.mjs";

const DIST = new URL("../dist/index.cjs", import.meta.url).pathname;

function child(script: string): Record<string, number> {
  const r = spawnSync(process.execPath, ["--expose-gc", "-e", script], { encoding: "utf8", maxBuffer: 1 << 20 });
  expect(r.stderr).toBe("");
  return JSON.parse(r.stdout);
}

describe("memory comes back", () => {
  it("after a 30 MB text call and a 30 MB value call, RSS returns to within 20 MB of the start", () => {
    const out = child(`
      const f = require(${JSON.stringify(DIST)});
      const rss = () => (global.gc(), global.gc(), process.memoryUsage().rss / 2 ** 20);
      const rows = []; for (let i = 0; i < 450000; i++) rows.push({ id: "row-" + i, v: i / 7, tags: ["a", " b "], n: null });
      let value = { rows };
      let text = JSON.stringify(value);
      const mb = Buffer.byteLength(text) / 2 ** 20;
      f.fingerprint("warm", { a: 1 });
      const start = rss();
      f.fingerprintJSON("big", text);
      f.fingerprint("big", value);
      for (let i = 0; i < 1000; i++) f.fingerprint("small", { i });
      // V8 frees a collected wasm memory in a task of its own: measured once the event loop ran
      // (value and text still alive, as at the start).
      setTimeout(() => console.log(JSON.stringify({ mb, start, end: rss(), kept: text.length + value.rows.length })), 100);`);
    expect(out.mb).toBeGreaterThan(29);
    expect(out.end - out.start).toBeLessThan(20);
  }, 60_000);

  it("retainMemoryBytes decides: with a high threshold the memory is kept", () => {
    const script = (retain: number) => `
      const f = require(${JSON.stringify(DIST)});
      f.configure({ retainMemoryBytes: ${retain} });
      const rss = () => (global.gc(), global.gc(), process.memoryUsage().rss / 2 ** 20);
      let text = JSON.stringify({ s: "x".repeat(40 * 2 ** 20) });
      f.fingerprint("warm", { a: 1 });
      const start = rss();
      f.fingerprintJSON("big", text);
      text = null;
      console.log(JSON.stringify({ grew: rss() - start }));`;
    const kept = child(script(2 ** 40)).grew;
    const given = child(script(64 * 2 ** 20)).grew;
    expect(kept).toBeGreaterThan(given + 40);
  }, 60_000);
});

describe("limits", () => {
  const text = JSON.stringify({ a: [[1, 2], { b: { c: 3 } }], d: "x".repeat(100), e: 1, f: 2 });
  const value = JSON.parse(text);
  const want = fingerprintOfText({ name: "t", argsJSON: text }).fingerprint;

  it("a call within its limits gives the oracle's fingerprint", () => {
    const limits = { maxInputBytes: text.length, maxDepth: 4, maxMembers: 5 };
    expect(fingerprintJSON("t", text, { limits })).toBe(want);
    expect(fingerprint("t", value, { limits: { maxDepth: 4, maxMembers: 5 } })).toBe(want);
  });

  it("each limit, one over, is a FingerprintError 'limit-exceeded' naming the limit and its value", () => {
    const over = (run: () => unknown, named: string) => {
      let caught: unknown;
      try { run(); } catch (e) { caught = e; }
      expect(caught).toBeInstanceOf(FingerprintError);
      expect((caught as FingerprintError).code).toBe("limit-exceeded");
      expect((caught as FingerprintError).message).toContain(named);
    };
    over(() => fingerprintJSON("t", text, { limits: { maxInputBytes: text.length - 1 } }), `maxInputBytes is ${text.length - 1}`);
    over(() => fingerprintJSON("t", new TextEncoder().encode(text), { limits: { maxInputBytes: text.length - 1 } }), "maxInputBytes");
    // A host value counts the bytes of the value stream it becomes (a little less than its JSON text here).
    over(() => fingerprint("t", value, { limits: { maxInputBytes: 50 } }), "maxInputBytes is 50");
    for (const run of [(limits: object) => fingerprintJSON("t", text, { limits }), (limits: object) => fingerprint("t", value, { limits })]) {
      over(() => run({ maxDepth: 3 }), "maxDepth is 3");
      over(() => run({ maxMembers: 3 }), "maxMembers is 3");
    }
    expect(fingerprintJSON("t", text)).toBe(want); // the next call without limits is unaffected
  });

  it("configure() sets limits that a call's own can only tighten, and configure's Infinity lifts them", () => {
    try {
      configure({ limits: { maxDepth: 2 } });
      expect(() => fingerprint("t", { a: [[1]] })).toThrow(expect.objectContaining({ code: "limit-exceeded" }));
      // A looser own limit (or null, or Infinity) keeps the configured one; a tighter one applies.
      for (const maxDepth of [3, null, Infinity]) {
        expect(() => fingerprint("t", { a: [[1]] }, { limits: { maxDepth } })).toThrow(expect.objectContaining({ code: "limit-exceeded" }));
      }
      expect(() => fingerprint("t", { a: [1] }, { limits: { maxDepth: 1 } })).toThrow(expect.objectContaining({ code: "limit-exceeded" }));
      expect(fingerprint("t", { a: [1] }, { limits: { maxDepth: 3 } })).toBe(fingerprintOf({ name: "t", args: { a: [1] } }).fingerprint);
    } finally {
      configure({ limits: { maxDepth: Infinity } });
    }
    expect(fingerprint("t", { a: [[[1]]] })).toBe(fingerprintOf({ name: "t", args: { a: [[[1]]] } }).fingerprint);
  });

  it("a call that fits its byte limit still fits when its keys come from the key cache", () => {
    // {"": true} as a value stream (assembly/json/values.ts): object 5 + key 5 + true 1 = 11 bytes.
    // From the second call on, src/values.ts writes the cached key in whole words, 3 bytes past it.
    const want = fingerprintOf({ name: "t", args: { "": true } }).fingerprint;
    for (let i = 0; i < 3; i++) expect(fingerprint("t", { "": true }, { limits: { maxInputBytes: 11 } })).toBe(want);
  });

  it("the byte limit stops a value before it is written whole", () => {
    const huge = { s: "y".repeat(5_000_000) };
    expect(() => fingerprint("t", huge, { limits: { maxInputBytes: 1000 } })).toThrow(expect.objectContaining({ code: "limit-exceeded" }));
    const big = Array.from({ length: 100_000 }, (_, i) => i);
    expect(() => fingerprint("t", big, { limits: { maxInputBytes: 10_000 } })).toThrow(expect.objectContaining({ code: "limit-exceeded" }));
  });

  it("bad limit values are invalid-argument errors", () => {
    for (const limits of [{ maxDepth: -1 }, { maxMembers: 1.5 }, { maxInputBytes: "10" }, 5]) {
      expect(() => fingerprint("t", {}, { limits: limits as never })).toThrow(expect.objectContaining({ code: "invalid-argument" }));
    }
  });
});
