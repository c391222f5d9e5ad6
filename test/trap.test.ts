// A wasm trap never reaches the caller as anything but a FingerprintError,
// and the SDK keeps working afterwards (D19). A trap can only come from a
// core bug, so a stand-in module that traps on purpose plays the core here.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FingerprintError, canonicalizeJSON, init } from "../src/index";

describe("traps", () => {
  it("become FingerprintError('internal-error'), and a fresh instance follows", async () => {
    await init(readFileSync(new URL("../build/test-trap.wasm", import.meta.url)));
    for (let i = 0; i < 3; i++) {
      let err: unknown;
      try { canonicalizeJSON("[1]"); } catch (e) { err = e; }
      expect(err).toBeInstanceOf(FingerprintError);
      expect((err as FingerprintError).code).toBe("internal-error");
    }
    await init(readFileSync(new URL("../build/fingerprint.wasm", import.meta.url)));
    expect(canonicalizeJSON('{"b":1,"a":2}')).toBe('{"a":2,"b":1}');
  });
});
