// Node (ESM), Deno and Bun: import the package by name as that runtime
// resolves it (node_modules of the staged, packed copy), time import → first
// fingerprint, then run every shared vector. Prints one JSON line.
// Test-only; run by scripts/test-runtimes.mjs from the staging folder.
import { readFileSync } from "node:fs";
import { checkDiagnostics, checkVectors, firstCall } from "./vectors-check.mjs";

// An app has imported other packages before ours: load a trivial one first so
// the runtime's one-time module-loader set-up is not billed to this package,
// then time a second trivial one — what importing any package costs here.
await import("overturn-warmup");
const e0 = performance.now();
await import("overturn-empty");
const emptyImportMs = performance.now() - e0;
const t0 = performance.now();
const sdk = await import("@overturn/fingerprint");
const t1 = performance.now();
const probe = firstCall(sdk);
const t2 = performance.now();
const coldMs = t2 - t0;
const phases = { importMs: t1 - t0, firstCallMs: t2 - t1, emptyImportMs };

const out = { entry: import.meta.resolve("@overturn/fingerprint"), coldMs, phases, probe };
if (!process.argv.includes("--cold-only")) {
  const file = JSON.parse(readFileSync(new URL("../../vectors/fingerprint.vectors.json", import.meta.url), "utf8"));
  Object.assign(out, checkVectors(sdk, file));
  await sdk.initDiagnostics();
  checkDiagnostics(sdk, JSON.parse(readFileSync(new URL("../../vectors/diagnostics.vectors.json", import.meta.url), "utf8")), out, file);
}
console.log(JSON.stringify(out));
