// One browser run, on the main thread or in a Web Worker: import the package
// (resolved by the bundler with the browser condition), check that a call
// before init() fails with FingerprintError("not-initialized"), await
// init() (which fetches the packaged .wasm), time import → first
// fingerprint, then run every shared vector (unless only timing). Test-only.
import { checkDiagnostics, checkVectors, firstCall } from "../vectors-check.mjs";

export async function runInBrowser({ vectors = true } = {}) {
  const t0 = performance.now();
  const sdk = await import("@overturn/fingerprint");
  const t1 = performance.now();
  let beforeInit = "no error";
  try {
    firstCall(sdk);
  } catch (err) {
    beforeInit = err instanceof sdk.FingerprintError ? err.code : `wrong error: ${err}`;
  }
  const t2 = performance.now();
  await sdk.init();
  const t3 = performance.now();
  const probe = firstCall(sdk);
  const t4 = performance.now();
  const coldMs = t4 - t0;
  const phases = { importMs: t1 - t0, initMs: t3 - t2, firstCallMs: t4 - t3 };
  if (!vectors) return { coldMs, phases, probe, beforeInit };
  const file = await (await fetch("/vectors.json")).json();
  const out = { coldMs, phases, probe, beforeInit, ...checkVectors(sdk, file) };
  // The second module: fetched only now (initDiagnostics), never on the fingerprint path.
  await sdk.initDiagnostics();
  return checkDiagnostics(sdk, await (await fetch("/diagnostics.json")).json(), out, file);
}
