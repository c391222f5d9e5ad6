/**
 * Entry for Vercel Edge Functions and Next.js middleware (the `edge-light`
 * export condition). Vercel's bundler turns `import m from "./x.wasm?module"`
 * into a precompiled `WebAssembly.Module`; the Edge Runtime refuses to
 * compile wasm from bytes, so this entry only instantiates, once, while the
 * module loads. Every function works synchronously right after import;
 * `init()` resolves at once.
 * @module
 */
import wasm from "./fingerprint.wasm?module";
import diagnostics from "./engine.wasm?module";
import { useInstance } from "./core.js";
import { setEngineSource } from "./_engine.js";

useInstance(new WebAssembly.Instance(wasm, {}), wasm);

// explain/diff/nearest: the platform compiled it with the script; instantiated on first use only.
setEngineSource(() => diagnostics);

export * from "./api.js";
