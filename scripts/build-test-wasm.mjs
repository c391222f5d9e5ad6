// Compiles each test/wasm/*.ts entry (test-only exports over assembly/
// internals) to build/test-<name>.wasm, for the differential suites.
// These modules are never shipped.
import { readdirSync } from "node:fs";
import { execFileSync } from "node:child_process";

const dir = new URL("../test/wasm/", import.meta.url);
for (const f of readdirSync(dir).filter((f) => f.endsWith(".ts"))) {
  const name = f.slice(0, -3);
  execFileSync(
    process.execPath,
    [
      "node_modules/assemblyscript/bin/asc.js", `test/wasm/${f}`,
      "--config", "asconfig.json", "--target", "testing",
      "--outFile", `build/test-${name}.wasm`,
      // SIMD for the entries over sha256x4.ts (the shipped fingerprint module has none).
      "--enable", "simd",
    ],
    { stdio: "inherit" },
  );
}
