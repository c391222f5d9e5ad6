/**
 * Compile-time only: how the edge entries see an imported `.wasm`. Wrangler
 * (Cloudflare workerd) and Vercel's bundler (`?module`) both hand the module
 * code a compiled `WebAssembly.Module`, never bytes, because those runtimes
 * refuse to compile wasm from bytes (docs: engineering-notes, "Edge runtimes").
 * Internal; not part of the published types.
 * @module
 */
declare module "*.wasm" {
  const compiled: WebAssembly.Module;
  export default compiled;
}

declare module "*.wasm?module" {
  const compiled: WebAssembly.Module;
  export default compiled;
}
