/**
 * Entry for Cloudflare Workers (the `workerd` export condition). Wrangler
 * bundles `import m from "./fingerprint.wasm"` as a precompiled
 * `WebAssembly.Module` uploaded beside the script; workerd refuses to compile
 * wasm from bytes (inside a request always, at start-up on compatibility
 * dates before 2025-06-01), so this entry only instantiates, once, while the
 * module loads. Every function works synchronously right after import;
 * `init()` resolves at once.
 * @module
 */
import wasm from "./fingerprint.wasm";
import diagnostics from "./engine.wasm";
import { useInstance } from "./core.js";
import { setEngineSource } from "./_engine.js";

useInstance(new WebAssembly.Instance(wasm, {}), wasm);

// explain/diff/nearest: the platform compiled it with the script; instantiated on first use only.
setEngineSource(() => diagnostics);

export * from "./api.js";
