// The two SHA-256 paths agree: the core's own (everywhere) and node:crypto
// over the core's preimage (Node, large inputs). Imports the sources so the
// internal switch is reachable; the oracle is node:crypto over the oracle's
// canonical text.
import { describe, expect, it } from "vitest";
import { fingerprint, fingerprintJSON } from "../src/index";
import { hostHashAvailable, setHostHashing } from "../src/core";
import { fingerprintOf } from "./reference/contract.mjs";
import { Rng } from "./helpers/rng";

describe("wasm and host hashing give the same fingerprints", () => {
  it("Node here offers node:crypto through process.getBuiltinModule", () => {
    expect(hostHashAvailable()).toBe(true);
  });

  it("for sizes from 0 B to 1 MB", () => {
    const rng = new Rng(5);
    const sizes = [0, 10, 100, 1000, 1900, 2000, 2040, 2048, 2100, 4096, 10_000, 100_000, 1_000_000];
    for (const size of sizes) {
      for (let rep = 0; rep < 3; rep++) {
        const args: Record<string, unknown> = {};
        let n = 0;
        while (n < size) {
          const k = `k${rng.int(1e6)}`;
          const v = rng.int(2) ? ` v${rng.float()} é\u{1F600} ` : rng.float() * 1e6;
          args[k] = v;
          n += k.length + 24;
        }
        const want = fingerprintOf({ name: "t", args }).fingerprint;
        const text = JSON.stringify(args);
        setHostHashing(false);
        const viaWasm = [fingerprint("t", args), fingerprintJSON("t", text)];
        setHostHashing(true);
        const viaHost = [fingerprint("t", args), fingerprintJSON("t", text)];
        expect(viaWasm).toEqual([want, want]);
        expect(viaHost).toEqual([want, want]);
      }
    }
  });
});
