// One line or message holding many tool calls: every operation is linear in
// its size (the core parses a message once for all its calls). Work is timed
// at n and 4n calls, the best of three runs each: linear work grows ~4x,
// quadratic work 16x; the bound (10x) leaves room for caches and a loaded machine.
// Opt-in (npm run test:slow): timing needs a quiet machine.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Recording, explainCalls } from "../dist/index.js";
import { CLI, message } from "./helpers/many-calls";

const N = 8000;

function best(f: () => void, runs = 5): number {
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
  expect(large / Math.max(small, 1)).toBeLessThan(10);
}

describe("a message with many calls", () => {
  it("explainCalls is linear in the calls (text and object)", () => {
    linear((n) => { const m = message(n); return () => explainCalls(m); });
    linear((n) => { const m = JSON.parse(message(n)); return () => explainCalls(m); });
  });

  it("Recording.load, a miss's nearest and unused() are linear; unused shares its line", () => {
    linear((n) => { const m = message(n) + "\n"; return () => Recording.load(m); });
    linear((n) => { const r = Recording.load(message(n) + "\n"); return () => r.answer({ name: "t1", args: { x: 1, v: 2 } }); });
    linear((n) => { const m = message(n) + "\n"; return () => Recording.load(m).unused(); });
    linear((n) => {
      const m = message(n) + "\n", calls = (JSON.parse(m) as { tool_calls: object[] }).tool_calls;
      return () => { const r = Recording.load(m); for (const c of calls) r.answer(c); };
    });
  });

  it("the CLI's run, explain and replay are linear in one line's calls", () => {
    const dir = mkdtempSync(join(tmpdir(), "overturn-many-"));
    try {
      const files = new Map<number, string>();
      for (const n of [N / 2, N * 2]) {
        files.set(n, join(dir, `${n}.jsonl`));
        writeFileSync(files.get(n)!, message(n) + "\n");
      }
      const cli = (args: string[]) => {
        const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", maxBuffer: 1 << 28 });
        expect(r.status, r.stderr).toBe(0);
        return r.stdout;
      };
      for (const args of [(f: string) => [f], (f: string) => ["explain", f], (f: string) => ["replay", f, "--in", f]]) {
        // The process's start is in both: the ratio of whole runs is a lower bound of the work's.
        const small = best(() => cli(args(files.get(N / 2)!)), 2), large = best(() => cli(args(files.get(N * 2)!)), 2);
        expect(large / small).toBeLessThan(10);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
