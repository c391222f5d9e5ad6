// Cloudflare workerd: a module worker bundled the way Wrangler bundles one
// (esbuild, conditions workerd/worker/browser, the .wasm as a module) by
// scripts/test-runtimes.mjs. GET / runs every shared vector inside a request;
// it also reports whether this isolate lets code compile wasm from bytes, at
// start-up and inside a request (production refuses both on this
// compatibility date, which is what the package must survive).
// Test-only, internal.
import * as sdk from "@overturn/fingerprint";
import file from "../../vectors/fingerprint.vectors.json";
import diagnostics from "../../vectors/diagnostics.vectors.json";
import { checkDiagnostics, checkVectors, compileFromBytes, firstCall } from "./vectors-check.mjs";

const atStartup = compileFromBytes();

export default {
  async fetch() {
    const probe = firstCall(sdk);
    await sdk.initDiagnostics(); // resolves at once: the platform compiled engine.wasm with the script
    const result = checkDiagnostics(sdk, diagnostics, checkVectors(sdk, file), file);
    return Response.json({ probe, codegenAtStartup: atStartup, codegenInRequest: compileFromBytes(), ...result });
  },
};
