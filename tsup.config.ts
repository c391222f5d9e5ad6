import { defineConfig } from "tsup";

export default defineConfig([
  {
    // The library: ESM + CJS + .d.ts, zero runtime dependencies.
    entry: { index: "src/index.ts" },
    format: ["esm", "cjs"],
    dts: true,
    clean: true,
    target: "es2022",
    platform: "neutral",
    sourcemap: false,
    splitting: false,
  },
  {
    entry: { cli: "src/cli.ts" },
    format: ["esm"],
    target: "node20",
    platform: "node",
    banner: { js: "#!/usr/bin/env node" },
  },
]);
