// Vercel Edge Runtime (the edge-runtime npm package): an edge function
// bundled by scripts/test-runtimes.mjs with the edge-light condition and the
// `.wasm?module` import bound to a precompiled WebAssembly.Module, as Vercel
// and Next.js bind it. Runs in a VM whose wasm code generation from bytes is
// off, as in production; a fetch event runs every shared vector and reports
// whether compiling from bytes was refused. Test-only, internal.
import * as sdk from "@overturn/fingerprint";
import file from "../../vectors/fingerprint.vectors.json";
import diagnostics from "../../vectors/diagnostics.vectors.json";
import { checkDiagnostics, checkVectors, compileFromBytes, firstCall } from "./vectors-check.mjs";

addEventListener("fetch", (event) => {
  const probe = firstCall(sdk);
  // Synchronous, no initDiagnostics(): Vercel bound engine.wasm as a compiled module.
  const result = checkDiagnostics(sdk, diagnostics, checkVectors(sdk, file), file);
  const body = JSON.stringify({ probe, codegenInRequest: compileFromBytes(), ...result });
  event.respondWith(new Response(body, { headers: { "content-type": "application/json" } }));
});
