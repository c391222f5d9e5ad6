/**
 * `init()` and `initDiagnostics()`: the escape hatch for runtimes that must
 * compile asynchronously or hand in a precompiled module (browsers,
 * Cloudflare Workers, Vercel Edge), for the core and for the engine module.
 * @module
 */
import { isReady, useInstance } from "./core.js";
import { FingerprintError } from "./errors.js";
import { isModule } from "./_is_module.js";
import { hasEngineSource, loadEngine, setEngineSource } from "./_engine.js";

type Source = WebAssembly.Module | BufferSource;

/**
 * One module's loader: `load(source)` with the given source, or with the
 * entry's default, fetched once; a failed default load (e.g. a fetch) may be
 * retried, and only the caller's promise reports its rejection.
 */
class Loader {
  private pending: Promise<void> | undefined;
  defaultSource: (() => Promise<Source>) | undefined;

  constructor(private readonly ready: () => boolean, private readonly use: (src: Source) => Promise<void>,
    private readonly fn: string) {}

  load(source: Source | undefined): Promise<void> {
    if (source === undefined && this.ready()) return Promise.resolve();
    if (source === undefined && this.pending) return this.pending;
    const p = (async () => {
      let src = source;
      if (src === undefined) {
        if (!this.defaultSource) throw new FingerprintError("not-initialized", `no default wasm source in this entry: pass the module or bytes to ${this.fn}()`);
        src = await this.defaultSource();
      }
      await this.use(src);
    })();
    if (source === undefined) {
      this.pending = p;
      p.catch(() => { if (this.pending === p) this.pending = undefined; });
    }
    return p;
  }
}

const core = new Loader(isReady, async (src) => {
  if (isModule(src)) {
    useInstance(await WebAssembly.instantiate(src, {}), src);
  } else {
    const { instance, module } = await WebAssembly.instantiate(src, {});
    useInstance(instance, module);
  }
}, "init");

const engineLoader = new Loader(hasEngineSource, async (src) => {
  const module = isModule(src) ? src : await WebAssembly.compile(src);
  setEngineSource(() => module);
  try {
    loadEngine();
  } catch (err) {
    setEngineSource(undefined); // never keep a source that is not the engine module
    throw err;
  }
}, "initDiagnostics");

export function setDefaultSource(src: () => Promise<Source>): void {
  core.defaultSource = src;
}

export function setDefaultEngineSource(src: () => Promise<Source>): void {
  engineLoader.defaultSource = src;
}

/**
 * Prepares the core. Without an argument, uses the entry's own copy of the
 * module; with one, a `WebAssembly.Module` or the `.wasm` bytes. Idempotent.
 * @throws FingerprintError("invalid-argument") when the source is not the core.
 */
export function init(source?: Source): Promise<void> {
  return core.load(source);
}

/**
 * Prepares the engine module (explain, diff, nearest, explainCalls):
 * a second module kept off the fingerprint path. Node, Deno, Bun, workerd and
 * the Edge Runtime have it already (this resolves at once); a browser entry
 * fetches `engine.wasm` beside itself, or takes the module or bytes.
 * @throws FingerprintError("invalid-argument") when the source is not the engine module.
 */
export function initDiagnostics(source?: Source): Promise<void> {
  return engineLoader.load(source);
}
