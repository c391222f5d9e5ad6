// Cold start in workerd and the Edge Runtime: the smallest program that
// imports the package and fingerprints once, at start-up. Built by
// scripts/test-runtimes.mjs; empty-worker.mjs is the same without the
// package, to tell the runtime's own start-up apart. Test-only.
import * as sdk from "@overturn/fingerprint";
import { firstCall } from "./vectors-check.mjs";

const probe = firstCall(sdk);
globalThis.__overturnProbe = probe;

export default {
  async fetch() {
    return new Response(probe);
  },
};
