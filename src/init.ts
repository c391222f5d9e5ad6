/**
 * `init()`: the escape hatch for runtimes that must compile asynchronously or
 * hand in a precompiled module (browsers, Cloudflare Workers, Vercel Edge).
 * @module
 */
import { isReady, useInstance } from "./core.js";
import { FingerprintError } from "./errors.js";
import { isModule } from "./_is_module.js";
import { hasDiagnosticsSource, loadDiagnostics, setDiagnosticsSource } from "./_diagnostics_wasm.js";

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

let defaultDiagnostics: (() => Promise<WebAssembly.Module | BufferSource>) | undefined;
let pendingDiagnostics: Promise<void> | undefined;

export function setDefaultDiagnosticsSource(src: () => Promise<WebAssembly.Module | BufferSource>): void {
  defaultDiagnostics = src;
}

/**
 * Prepares the diagnostics module (explain, diff, nearest, explainCalls):
 * a second module kept off the fingerprint path. Node, Deno, Bun, workerd and
 * the Edge Runtime have it already (this resolves at once); a browser entry
 * fetches `diagnostics.wasm` beside itself, or takes the module or bytes.
 * @throws FingerprintError("invalid-argument") when the source is not the diagnostics module.
 */
export function initDiagnostics(source?: WebAssembly.Module | BufferSource): Promise<void> {
  if (source === undefined && hasDiagnosticsSource()) return Promise.resolve();
  if (source === undefined && pendingDiagnostics) return pendingDiagnostics;
  const p = (async () => {
    let src = source;
    if (src === undefined) {
      if (!defaultDiagnostics) throw new FingerprintError("not-initialized", "no default diagnostics source in this entry: pass the module or bytes to initDiagnostics()");
      src = await defaultDiagnostics();
    }
    const module = isModule(src) ? src : await WebAssembly.compile(src);
    setDiagnosticsSource(() => module);
    try {
      loadDiagnostics();
    } catch (err) {
      setDiagnosticsSource(undefined); // never keep a source that is not the diagnostics module
      throw err;
    }
  })();
  if (source === undefined) {
    pendingDiagnostics = p;
    p.catch(() => { if (pendingDiagnostics === p) pendingDiagnostics = undefined; });
  }
  return p;
}
