/**
 * True for a compiled module, also one from another realm (a vm context, an
 * iframe, the Edge Runtime's VM), where instanceof fails. Internal.
 * @module
 */
export function isModule(x: unknown): x is WebAssembly.Module {
  return x instanceof WebAssembly.Module || Object.prototype.toString.call(x) === "[object WebAssembly.Module]";
}
