// The thin runner of vectors/diagnostics.vectors.json for the TypeScript SDK
// (the Python twin: python/tests/test_diagnostics_vectors.py). Inputs are
// recording lines; expected values come from the independent oracle
// (test/reference/diagnostics.mjs), and the file must be what its generator writes.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DIAGNOSTICS_VECTORS_PATH, renderDiagnosticsVectors } from "../scripts/gen-diagnostics-vectors.mjs";
import { FingerprintError, diff, explainCall, nearest } from "../src/index";

interface Case {
  id: string; op: "explain" | "diff" | "diff-calls" | "diff-mixed" | "nearest" | "nearest-calls" | "error";
  line?: string; a?: string; b?: string; recording?: string[];
  expect: unknown;
}
const file = readFileSync(DIAGNOSTICS_VECTORS_PATH, "utf8");
const { cases } = JSON.parse(file) as { cases: Case[] };

describe("vectors/diagnostics.vectors.json", () => {
  it("is fresh: equals the generator's output (oracle, not core)", () => {
    expect(file).toBe(renderDiagnosticsVectors());
  });

  it.each(cases.map((c) => [c.id, c] as const))("%s", (_id, c) => {
    if (c.op === "explain") expect(explainCall(c.line!)).toEqual(c.expect);
    else if (c.op === "diff") expect(diff(explainCall(c.a!), explainCall(c.b!))).toEqual(c.expect);
    else if (c.op === "diff-calls") expect(diff(JSON.parse(c.a!), JSON.parse(c.b!))).toEqual(c.expect);
    else if (c.op === "diff-mixed") expect(diff(explainCall(c.a!), JSON.parse(c.b!))).toEqual(c.expect);
    else if (c.op === "nearest-calls") {
      const n = nearest(JSON.parse(c.line!), c.recording!.map((l) => JSON.parse(l) as object));
      expect(n && { index: n.index, diff: n.diff }).toEqual(c.expect);
    } else if (c.op === "nearest") {
      const n = nearest(explainCall(c.line!), c.recording!.map((l) => explainCall(l)));
      expect(n && { index: n.index, diff: n.diff }).toEqual(c.expect);
    } else {
      let err: unknown;
      try { explainCall(c.line!); } catch (e) { err = e; }
      expect(err).toBeInstanceOf(FingerprintError);
      expect({ code: (err as FingerprintError).code, message: (err as FingerprintError).message }).toEqual(c.expect);
    }
  });
});
