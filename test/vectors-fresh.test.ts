// The committed shared vectors must be exactly what their generators produce
// from the oracle today (no stale or hand-edited files), and must keep the
// shape both SDK suites rely on. Regenerate with
// `node scripts/gen-vectors.mjs && node scripts/gen-reject.mjs`.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { VECTORS_PATH, buildVectorsText } from "../scripts/gen-vectors.mjs";
import { REJECT_PATH, buildRejectText } from "../scripts/gen-reject.mjs";
import { parseJSONText } from "./reference/contract.mjs";

interface Vector {
  id: string;
  decision: string;
  canonical?: string;
  fingerprint?: string;
  error?: boolean;
  argsJSON?: string;
  argsBytesHex?: string;
  args?: unknown;
}

describe("vectors/fingerprint.vectors.json", () => {
  const committed = readFileSync(VECTORS_PATH, "utf8");

  it("is fresh: equals the generator's output", () => {
    const fresh = buildVectorsText();
    expect(committed === fresh, "stale: run node scripts/gen-vectors.mjs").toBe(true);
  });

  it("has the shared shape", () => {
    const file = JSON.parse(committed) as { FINGERPRINT_VERSION: number; vectors: Vector[] };
    expect(file.FINGERPRINT_VERSION).toBe(1);
    expect(file.vectors.length).toBeGreaterThanOrEqual(200);
    expect(new Set(file.vectors.map((v) => v.id)).size).toBe(file.vectors.length);
    const decisions = new Set(file.vectors.map((v) => v.decision));
    for (let d = 1; d <= 19; d++) expect(decisions.has(`D${d}`), `D${d}`).toBe(true);
    expect(decisions.has("page")).toBe(true);
    for (const v of file.vectors) {
      expect(v.argsJSON !== undefined || v.argsBytesHex !== undefined || "args" in v, v.id).toBe(true);
      if (v.error) expect(v.canonical ?? v.fingerprint, v.id).toBeUndefined();
      else expect(v.fingerprint, v.id).toMatch(/^[0-9a-f]{64}$/);
    }
  });
});

describe("vectors/reject.jsonl", () => {
  const committed = readFileSync(REJECT_PATH, "utf8");

  it("is fresh: equals the generator's output", () => {
    expect(committed === buildRejectText(), "stale: run node scripts/gen-reject.mjs").toBe(true);
  });

  it("has at least 300 unique lines, each rejected by the oracle", () => {
    const rows = committed.trimEnd().split("\n").map((l) => JSON.parse(l) as { id: string; hex: string; why: string });
    expect(rows.length).toBeGreaterThanOrEqual(300);
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    for (const r of rows) expect(() => parseJSONText(new Uint8Array(Buffer.from(r.hex, "hex"))), r.id).toThrow();
  });
});
