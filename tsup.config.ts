import { copyFileSync } from "node:fs";
import { writeWasmEmbed } from "./scripts/gen-wasm-embed.mjs";
import { defineConfig } from "tsup";
import type { Plugin } from "esbuild";

// The edge entries import the core as a module ("./fingerprint.wasm",
// "./fingerprint.wasm?module"): keep those specifiers verbatim so the
// consumer's bundler (Wrangler, Vercel) resolves them next to dist/*.js.
const wasmImportsStayExternal: Plugin = {
  name: "wasm-imports-stay-external",
  setup(build) {
    build.onResolve({ filter: /\.wasm(\?module)?$/ }, (args) => ({ path: args.path, external: true }));
  },
};

// src/_wasm.gen.ts is derived from build/*.wasm, never committed: every build makes it.
writeWasmEmbed();

// Identifiers and syntax minified, whitespace (line breaks) not; names kept.
const readableMinify = {
  minify: false,
  keepNames: true,
  esbuildOptions(o: { minifyIdentifiers?: boolean; minifySyntax?: boolean }) {
    o.minifyIdentifiers = true;
    o.minifySyntax = true;
  },
};

export default defineConfig([
  {
    // Node, Deno, Bun and the default condition: ESM + CJS + .d.ts, the core
    // embedded as base64, zero runtime dependencies.
    entry: { index: "src/index.ts" },
    format: ["esm", "cjs"],
    dts: true,
    clean: true,
    target: "es2022",
    platform: "neutral",
    sourcemap: false,
    splitting: false,
    // Minified: V8 parses every byte of this file on import, and parsing was
    // the largest part of start-up after the embedded bytes. But names kept (a FingerprintError is printed as one, its
    // stack names the functions) and lines kept: an uncaught error prints its
    // source line, which must not be the whole bundle.
    ...readableMinify,
    // The packaged .wasm sits beside the entries that import or fetch it
    // (package.json exports "./fingerprint.wasm" from here too).
    onSuccess: async () => {
      copyFileSync("build/fingerprint.wasm", "dist/fingerprint.wasm");
      copyFileSync("build/fingerprint.wasm.sha256", "dist/fingerprint.wasm.sha256");
      // The second module, for entries that import or fetch it (initDiagnostics).
      copyFileSync("build/engine.wasm", "dist/engine.wasm");
      copyFileSync("build/engine.wasm.sha256", "dist/engine.wasm.sha256");
    },
  },
  {
    // Node: the core embedded, engine.wasm read beside the entry on first
    // use (src/node.ts). shims: import.meta.url in the CommonJS build.
    entry: { node: "src/node.ts" },
    format: ["esm", "cjs"],
    dts: true,
    target: "node20",
    platform: "node",
    sourcemap: false,
    splitting: false,
    shims: true,
    ...readableMinify,
  },
  {
    // Browser (fetches the .wasm), workerd and edge-light (import it as a
    // WebAssembly.Module): ESM only, each self-contained.
    entry: { browser: "src/browser.ts", workerd: "src/workerd.ts", "edge-light": "src/edge-light.ts" },
    format: ["esm"],
    dts: true,
    target: "es2022",
    platform: "neutral",
    sourcemap: false,
    splitting: false,
    esbuildPlugins: [wasmImportsStayExternal],
  },
  {
    entry: { cli: "src/cli.ts" },
    format: ["esm"],
    target: "node20",
    platform: "node",
    banner: { js: "#!/usr/bin/env node" },
  },
  {
    // The CLI's worker threads: an entry of their own, CommonJS (a worker thread starts ~7 ms sooner
    // without the ESM loader), so a worker parses neither the CLI nor its embedded modules.
    entry: { "cli-worker": "src/cli-worker.ts" },
    format: ["cjs"],
    target: "node20",
    platform: "node",
  },
]);
