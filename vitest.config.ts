import { defineConfig } from "vitest/config";
import { writeWasmEmbed } from "./scripts/gen-wasm-embed.mjs";

// src/_wasm.gen.ts is derived from build/*.wasm, never committed (scripts/gen-wasm-embed.mjs).
writeWasmEmbed();

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // slow-*.test.ts are opt-in: npm run test:slow
    exclude: ["test/**/slow-*.test.ts", "node_modules/**"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 2,
  },
});
