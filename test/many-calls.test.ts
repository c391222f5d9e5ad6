// One line or message holding many tool calls: every operation is linear in
// its size (the core parses a message once for all its calls). Work is timed
// at n and 4n calls, the best of three runs each: linear work grows ~4x,
// quadratic work 16x; the bound (8x) leaves room for a loaded machine.
// Digests come from the reference (test/reference/contract.mjs).
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Recording, explainCalls } from "../dist/index.js";
import { fingerprintOf } from "./reference/contract.mjs";

const CLI = join(resolve(__dirname, ".."), "dist", "cli.js");
const N = 2000;

function message(n: number, v = 1): string {
  const calls = Array.from({ length: n }, (_, i) => ({
    id: `call_${i}`, type: "function", function: { name: `t${i % 7}`, arguments: JSON.stringify({ x: i, v }) },
  }));
  return JSON.stringify({ role: "assistant", tool_calls: calls });
}

function best(f: () => void, runs = 3): number {
  let t = Infinity;
  for (let r = 0; r < runs; r++) {
    const s = performance.now();
    f();
    t = Math.min(t, performance.now() - s);
  }
  return t;
}

function linear(work: (n: number) => () => void): void {
  const a = work(N), b = work(4 * N);
  b(); // compiled and warm before either is timed
  const small = best(a), large = best(b);
  expect(large / Math.max(small, 1)).toBeLessThan(8);
}

describe("a message with many calls", () => {
  it("explainCalls gives every call, each with the reference digest", () => {
    const n = 3 * N;
    const got = explainCalls(message(n));
    expect(got).toHaveLength(n);
    for (const i of [0, 1, n >> 1, n - 1]) {
      expect(got[i].fingerprint).toBe(fingerprintOf({ name: `t${i % 7}`, args: { x: i, v: 1 } }).fingerprint);
    }
  });

  it("explainCalls is linear in the calls (text and object)", () => {
    linear((n) => { const m = message(n); return () => explainCalls(m); });
    linear((n) => { const m = JSON.parse(message(n)); return () => explainCalls(m); });
  });

  it("Recording.load, a miss's nearest and unused() are linear; unused shares its line", () => {
    linear((n) => { const m = message(n) + "\n"; return () => Recording.load(m); });
    linear((n) => { const r = Recording.load(message(n) + "\n"); return () => r.answer({ name: "t1", args: { x: 1, v: 2 } }); });
    linear((n) => { const m = message(n) + "\n"; return () => Recording.load(m).unused(); });
    const u = Recording.load(message(50) + "\n").unused();
    expect(u).toHaveLength(50);
    expect(u[49].value).toBe(u[0].value);
    expect(u[49].fingerprint).toBe(fingerprintOf({ name: "t0", args: { x: 49, v: 1 } }).fingerprint);
  });

  it("hits every call of the line in recorded order", () => {
    const r = Recording.load(message(N) + "\n");
    for (const i of [0, 5, N - 1]) {
      const a = r.answer({ name: `t${i % 7}`, args: { x: i, v: 1 } });
      expect(a.hit && a.call).toBe(i);
    }
    expect(r.unused()).toHaveLength(N - 3);
  });

  it("the CLI's run, explain and replay are linear in one line's calls", () => {
    const dir = mkdtempSync(join(tmpdir(), "overturn-many-"));
    try {
      const files = new Map<number, string>();
      for (const n of [N * 2, N * 8]) {
        files.set(n, join(dir, `${n}.jsonl`));
        writeFileSync(files.get(n)!, message(n) + "\n");
      }
      const cli = (args: string[]) => {
        const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", maxBuffer: 1 << 28 });
        expect(r.status, r.stderr).toBe(0);
        return r.stdout;
      };
      const out = cli([files.get(N * 2)!]).split("\n");
      expect(out[7]).toBe(`${fingerprintOf({ name: "t0", args: { x: 7, v: 1 } }).fingerprint}  t0`);
      for (const args of [(f: string) => [f], (f: string) => ["explain", f], (f: string) => ["replay", f, "--in", f]]) {
        // The process's start is in both: the ratio of whole runs is a lower bound of the work's.
        const small = best(() => cli(args(files.get(N * 2)!)), 2), large = best(() => cli(args(files.get(N * 8)!)), 2);
        expect(large / small).toBeLessThan(8);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
