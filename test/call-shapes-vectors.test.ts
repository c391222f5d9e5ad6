// The thin runner of vectors/call-shapes.vectors.json for the TypeScript SDK
// and CLI (the Python twin: python/tests/test_call_shapes_vectors.py). Each
// call goes in as JSON text, as a JavaScript object (the value stream) and
// as a line of a file for the CLI; expected values come from the independent
// oracles (test/reference/shapes.mjs, diagnostics.mjs), never from the core.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { CALL_SHAPES_VECTORS_PATH, renderCallShapesVectors } from "../scripts/gen-call-shapes-vectors.mjs";
import { FingerprintError, explainCall, explainCalls, type Call } from "../src/index";

interface Case {
  id: string; op: "explain" | "error" | "error-includes" | "calls" | "calls-error"; call: string;
  expect: Record<string, unknown>; cli: Record<string, unknown>;
}
const file = readFileSync(CALL_SHAPES_VECTORS_PATH, "utf8");
const { cases } = JSON.parse(file) as { cases: Case[] };

function errorOf(f: () => unknown): { code: string; message: string } {
  try { f(); } catch (e) {
    expect(e).toBeInstanceOf(FingerprintError);
    return { code: (e as FingerprintError).code, message: (e as FingerprintError).message };
  }
  throw new Error("no error");
}

describe("vectors/call-shapes.vectors.json", () => {
  it("is fresh: equals the generator's output (oracle, not core)", () => {
    expect(file).toBe(renderCallShapesVectors());
  });

  it.each(cases.map((c) => [c.id, c] as const))("%s", (_id, c) => {
    const value = JSON.parse(c.call) as Call;
    if (c.op === "calls") {
      expect(explainCalls(c.call)).toEqual(c.expect);
      expect(explainCalls(value)).toEqual(c.expect);
    } else if (c.op === "calls-error") {
      expect(errorOf(() => explainCalls(c.call))).toEqual(c.expect);
      expect(errorOf(() => explainCalls(value))).toEqual(c.expect);
    } else if (c.op === "error-includes") {
      // The code, and a part of the message (the host words JSON text errors; the CLI adds line and column).
      for (const got of [errorOf(() => explainCall(c.call)), errorOf(() => explainCall(value))]) {
        expect(got.code).toBe(c.expect.code);
        expect(got.message).toContain(c.expect.includes);
      }
    } else if (c.op === "explain") {
      expect(explainCall(c.call)).toEqual(c.expect);
      expect(explainCall(value)).toEqual(c.expect);
    } else {
      expect(errorOf(() => explainCall(c.call))).toEqual(c.expect);
      expect(errorOf(() => explainCall(value))).toEqual(c.expect);
    }
  });

  it("the CLI fingerprints every shape and message as the oracle does, and reports the bad ones", () => {
    const dir = mkdtempSync(join(tmpdir(), "overturn-shapes-"));
    try {
      const p = join(dir, "calls.jsonl");
      // Every case is a line: a message expands to one record per call, in order.
      writeFileSync(p, cases.map((c) => c.call).join("\n") + "\n");
      const r = spawnSync(process.execPath, [resolve(__dirname, "..", "dist", "cli.js"), "--json", p], { encoding: "utf8" });
      const got = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
      // --json writes a bad line as a record too (its code and error).
      const want = cases.flatMap((c, i) => {
        const line = i + 1;
        const cli = c.cli as { calls?: { name: string; fingerprint: string }[]; code?: string; message?: string; includes?: string };
        if (cli.calls) return cli.calls.map((e) => ({ file: p, line, name: e.name, fingerprint: e.fingerprint }));
        // The CLI adds line and column to a JSON text error.
        return [{ file: p, line, code: cli.code, error: cli.includes !== undefined ? expect.stringContaining(cli.includes) : cli.message }];
      });
      expect(got).toEqual(want);
      expect(r.status).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
