// Page script for the bundles of the `@overturn/fingerprint/inline` entry
// (esbuild and webpack, no wasm handling configured): the core's bytes are in
// the bundle, so the first fingerprint is synchronous right after the static
// import, with no init() and no request for a .wasm file. Results land on
// window.__results for the runner. Test-only.
import * as sdk from "@overturn/fingerprint/inline";
import { checkDiagnostics, checkVectors, firstCall } from "../vectors-check.mjs";

// No top-level await: webpack and esbuild output stays a plain script.
async function run() {
  const t0 = performance.now();
  const probe = firstCall(sdk); // before any await: the entry is synchronous
  const firstCallMs = performance.now() - t0;
  const file = await (await fetch("/vectors.json")).json();
  const out = { probe, firstCallMs, ...checkVectors(sdk, file) };
  // Embedded too: synchronous, no request for engine.wasm either.
  return checkDiagnostics(sdk, await (await fetch("/diagnostics.json")).json(), out, file);
}

run().catch((err) => ({ crash: String((err && err.stack) || err) })).then((main) => {
  window.__results = { main };
  document.body.textContent = JSON.stringify(main);
});
