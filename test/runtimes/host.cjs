// Node CommonJS: require() the package by name (the "require" condition,
// dist/index.cjs), time require → first fingerprint, then run every shared
// vector. Prints one JSON line. Test-only; run by scripts/test-runtimes.mjs.
const { readFileSync } = require("node:fs");
const { join } = require("node:path");
const { performance } = require("node:perf_hooks");

(async () => {
  const { checkDiagnostics, checkVectors, firstCall } = await import("./vectors-check.mjs");
  // As in host.mjs: the loader's one-time set-up is not billed to this
  // package, and a second trivial package shows what any require costs.
  require("overturn-warmup");
  const e0 = performance.now();
  require("overturn-empty");
  const emptyImportMs = performance.now() - e0;
  const t0 = performance.now();
  const sdk = require("@overturn/fingerprint");
  const t1 = performance.now();
  const probe = firstCall(sdk);
  const t2 = performance.now();
  const coldMs = t2 - t0;
  const phases = { importMs: t1 - t0, firstCallMs: t2 - t1, emptyImportMs };

  const out = { entry: require.resolve("@overturn/fingerprint"), coldMs, phases, probe };
  if (!process.argv.includes("--cold-only")) {
    const file = JSON.parse(readFileSync(join(__dirname, "../../vectors/fingerprint.vectors.json"), "utf8"));
    Object.assign(out, checkVectors(sdk, file));
    await sdk.initDiagnostics();
    checkDiagnostics(sdk, JSON.parse(readFileSync(join(__dirname, "../../vectors/diagnostics.vectors.json"), "utf8")), out, file);
  }
  console.log(JSON.stringify(out));
})().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
