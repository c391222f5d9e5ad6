// One line or message holding 40,000 tool calls, through every operation
// that reads it, in both the API and the CLI: each call with the reference
// digest (test/reference/contract.mjs). Quadratic work here took minutes (the
// test's timeout); the growth itself is timed in slow-many-calls.test.ts.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Recording, explainCalls } from "../dist/index.js";
import { fingerprintOf } from "./reference/contract.mjs";
import { CLI, message } from "./helpers/many-calls";

const N = 40_000;
const digest = (i: number, v = 1) => fingerprintOf({ name: `t${i % 7}`, args: { x: i, v } }).fingerprint;

describe("one line with 40,000 calls", () => {
  const line = message(N);

  it("explainCalls gives every call in order, from its text and from the object", () => {
    for (const got of [explainCalls(line), explainCalls(JSON.parse(line))]) {
      expect(got).toHaveLength(N);
      for (const i of [0, 1, N >> 1, N - 1]) expect(got[i].fingerprint).toBe(digest(i));
    }
  });

  it("Recording: load, hits in order, a miss's nearest, unused() sharing the line's text and value", () => {
    const r = Recording.load(line + "\n");
    for (const i of [0, 5, N - 1]) {
      const a = r.answer({ name: `t${i % 7}`, args: { x: i, v: 1 } });
      expect(a.hit && a.call).toBe(i);
    }
    const miss = r.answer({ name: "t1", args: { x: 1, v: 2 } });
    expect(miss.hit).toBe(false);
    expect(!miss.hit && miss.nearest?.call).toBe(1);
    const u = r.unused();
    expect(u).toHaveLength(N - 3);
    expect(u[N - 4].value).toBe(u[0].value);
    expect(u[N - 4].text).toBe(line);
    expect(u[N - 4].fingerprint).toBe(digest(N - 2));
  });

  it("answers every call of the line, the answers sharing the line's text and value", () => {
    const r = Recording.load(line + "\n");
    const calls = (JSON.parse(line) as { tool_calls: object[] }).tool_calls;
    const first = r.answer(calls[0]);
    for (let i = 1; i < N; i++) {
      const a = r.answer(calls[i]);
      expect(a.hit && a.call).toBe(i);
      if (a.hit && first.hit && i % 9999 === 0) {
        expect(a.value).toBe(first.value);
        expect(a.text).toBe(line);
      }
    }
    expect(r.unused()).toHaveLength(0);
  });

  it("the CLI's run, explain and replay", () => {
    const dir = mkdtempSync(join(tmpdir(), "overturn-many-"));
    try {
      const f = join(dir, "one-line.jsonl");
      writeFileSync(f, line + "\n");
      const cli = (args: string[]) => {
        const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", maxBuffer: 1 << 28 });
        expect(r.status, r.stderr).toBe(0);
        return r.stdout;
      };
      const out = cli([f]).split("\n");
      expect(out).toHaveLength(N + 1);
      expect(out[N - 1]).toBe(`${digest(N - 1)}  t${(N - 1) % 7}`);
      expect(cli(["explain", "--json", f]).split("\n")).toHaveLength(N + 1);
      expect(cli(["replay", f, "--in", f]).trimEnd().split("\n").at(-1)).toBe(`replay: ${N} calls, ${N} hits, 0 misses, 0 unused`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
