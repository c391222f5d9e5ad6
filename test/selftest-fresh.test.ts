// The Python SDK's self-test vectors (python/overturn/fingerprint/_selftest_vectors.py) must be
// exactly what scripts/gen-selftest.mjs makes from the oracle today. Regenerate with
// `node scripts/gen-selftest.mjs`.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SELFTEST_PATH, buildSelftestText } from "../scripts/gen-selftest.mjs";

describe("python/overturn/fingerprint/_selftest_vectors.py", () => {
  it("is fresh: equals the generator's output", () => {
    expect(readFileSync(SELFTEST_PATH, "utf8") === buildSelftestText(), "stale: run node scripts/gen-selftest.mjs").toBe(true);
  });

  it("covers trimming, numbers, key order, selection and SHA-256's padding edges", () => {
    const text = buildSelftestText();
    for (const why of ["trim", "numbers", "key order", "matchOn", "ignoreArgs", "sha-256 55", "sha-256 56", "sha-256 64"]) {
      expect(text, why).toContain(`    # ${why}: canonical `);
    }
    expect(text.match(/b"[0-9a-f]{64}"\),/g)?.length).toBe(9);
  });
});
