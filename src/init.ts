/**
 * `init()`: the escape hatch for runtimes that must compile asynchronously or
 * hand in a precompiled module (browsers, Cloudflare Workers, Vercel Edge).
 * @module
 */
import { isReady, useInstance } from "./core.js";
import { FingerprintError } from "./errors.js";

let pending: Promise<void> | undefined;

let defaultSource: (() => Promise<WebAssembly.Module | BufferSource>) | undefined;

export function setDefaultSource(src: () => Promise<WebAssembly.Module | BufferSource>): void {
  defaultSource = src;
}

/** True for a compiled module, also one from another realm (a vm context, an iframe), where instanceof fails. */
function isModule(x: unknown): x is WebAssembly.Module {
  return x instanceof WebAssembly.Module || Object.prototype.toString.call(x) === "[object WebAssembly.Module]";
}

/**
 * Prepares the core. Without an argument, uses the entry's own copy of the
 * module; with one, a `WebAssembly.Module` or the `.wasm` bytes. Idempotent.
 * @throws FingerprintError("invalid-argument") when the source is not the core.
 */
export function init(source?: WebAssembly.Module | BufferSource): Promise<void> {
  if (source === undefined && isReady()) return Promise.resolve();
  if (source === undefined && pending) return pending;
  const p = (async () => {
    let src: WebAssembly.Module | BufferSource | undefined = source;
    if (src === undefined) {
      if (!defaultSource) throw new FingerprintError("not-initialized", "no default wasm source in this entry: pass the module or bytes to init()");
      src = await defaultSource();
    }
    if (isModule(src)) {
      useInstance(await WebAssembly.instantiate(src, {}), src);
    } else {
      const { instance, module } = await WebAssembly.instantiate(src, {});
      useInstance(instance, module);
    }
  })();
  if (source === undefined) {
    // A failed default load (e.g. a fetch) may be retried; this side branch
    // handles the rejection so only the caller's promise reports it.
    pending = p;
    p.catch(() => { if (pending === p) pending = undefined; });
  }
  return p;
}
