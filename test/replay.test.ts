// Replay's transport edges (the answers themselves: test/replay-vectors.test.ts).
// Expected values from V8 (JSON.parse of the recorded line) and the
// reference fingerprint (test/reference/contract.mjs), never the core.
import { describe, expect, it } from "vitest";
import { fingerprintOf } from "./reference/contract.mjs";
import { FingerprintError, Recording } from "../src/index";

const line = (i: number) => JSON.stringify({ name: "t", args: { i }, result: i });

describe("Recording", () => {
  it("keeps its index when a large call makes the core's input region grow", () => {
    const rec = Recording.load(Array.from({ length: 1000 }, (_, i) => line(i)).join("\n"));
    // Another tool: no nearest to look for (3 MB > the 1.3 MB the load left the region at).
    const big = { name: "u", args: { pad: "x".repeat(3 << 20) } };
    const miss = rec.answer(big);
    expect(miss.hit).toBe(false);
    expect(miss.fingerprint).toBe(fingerprintOf({ name: "u", args: big.args }).fingerprint);
    // Every recorded call is still found, with its line, after the region moved.
    for (const i of [0, 1, 500, 999]) {
      const a = rec.answer({ name: "t", args: { i } });
      expect(a.hit && a.value).toEqual(JSON.parse(line(i)));
      expect(a.hit && a.recordedLine).toBe(i + 1);
    }
    expect(rec.unused().length).toBe(996);
  });

  it("loads a line longer than a load chunk (1 MiB), cut anywhere", () => {
    const long = JSON.stringify({ name: "t", args: { s: "y".repeat((1 << 20) + 17) }, result: "long" });
    const bytes = new TextEncoder().encode(`${line(1)}\n${long}\n${line(2)}`);
    const rec = Recording.load([bytes.subarray(0, 100), bytes.subarray(100, (1 << 20) + 5), bytes.subarray((1 << 20) + 5)]);
    expect(rec.size).toBe(3);
    const a = rec.answer({ name: "t", args: { s: "y".repeat((1 << 20) + 17) } });
    expect(a.hit && a.value).toEqual(JSON.parse(long));
    expect(a.hit && a.recordedLine).toBe(2);
  });

  it("streams from an async iterable (a file stream's chunks)", async () => {
    async function* chunks() { yield new TextEncoder().encode(line(7) + "\n" + line(8).slice(0, 5)); yield new TextEncoder().encode(line(8).slice(5)); }
    const rec = await Recording.loadAsync(chunks());
    expect(rec.size).toBe(2);
    expect(rec.answer(JSON.stringify({ name: "t", args: { i: 8 } })).hit).toBe(true);
  });

  it("refuses what is not a recording or a call, and keeps working", () => {
    expect(() => Recording.load(42 as never)).toThrow(FingerprintError);
    const rec = Recording.load(line(1));
    expect(() => rec.answer(42 as never)).toThrow(FingerprintError);
    expect(() => rec.answer("{")).toThrow(FingerprintError);
    expect(rec.answer({ name: "t", args: { i: 1 } }).hit).toBe(true);
  });
});

describe("Recording text with a lone surrogate", () => {
  it("is a bad line (not UTF-8), never a silently replaced character", () => {
    const rec = Recording.load(`${line(1)}\n{"name":"t","args":{"s":"\ud800"}}\n${line(2)}\n`);
    expect(rec.badLines.map((b) => [b.line, b.error.code])).toEqual([[2, "invalid-utf8"]]);
    expect(rec.size).toBe(2);
  });
});
