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
    const instance = src instanceof WebAssembly.Module
      ? await WebAssembly.instantiate(src, {})
      : (await WebAssembly.instantiate(src, {})).instance;
    useInstance(instance);
  })();
  if (source === undefined) pending = p.catch((e) => { pending = undefined; throw e; });
  return p;
}
