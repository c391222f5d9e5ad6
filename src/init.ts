/**
 * `init()` and `initDiagnostics()`: the escape hatch for runtimes that must
 * compile asynchronously or hand in a precompiled module (browsers,
 * Cloudflare Workers, Vercel Edge), for the core and for the engine module.
 * @module
 */
import { isReady, useInstance } from "./core.js";
import { FingerprintError } from "./errors.js";
import { isModule } from "./_is_module.js";
import { explainIn, hasEngineSource, setEngineSource } from "./_engine.js";

type Source = WebAssembly.Module | BufferSource;

/**
 * One module's loader: `load(source)` with the given source, or with the
 * entry's default (set by the entry), fetched once; a failed default load
 * (e.g. a fetch) may be retried, and only the caller's promise reports its rejection.
 */
class Loader {
  private pending: Promise<void> | undefined;
  defaultSource: (() => Promise<Source>) | undefined;

  constructor(private readonly ready: () => boolean, private readonly use: (src: Source) => Promise<void>,
    private readonly fn: string) {}

  load(source: Source | undefined): Promise<void> {
    if (source !== undefined) return this.use(source);
    if (this.ready()) return Promise.resolve();
    if (this.pending) return this.pending;
    const p = this.pending = (async () => {
      if (!this.defaultSource) {
        throw new FingerprintError("not-initialized", `no default wasm source in this entry: pass the module or bytes to ${this.fn}()`);
      }
      await this.use(await this.defaultSource());
    })();
    p.catch(() => { if (this.pending === p) this.pending = undefined; });
    return p;
  }
}

const compile = async (src: Source) => (isModule(src) ? src : await WebAssembly.compile(src));

export const coreLoader = new Loader(isReady, async (src) => {
  const module = await compile(src);
  useInstance(await WebAssembly.instantiate(module, {}), module);
}, "init");

export const engineLoader = new Loader(hasEngineSource, async (src) => {
  const module = await compile(src);
  setEngineSource(() => module);
  try {
    // One call read now: a wrong source (e.g. fingerprint.wasm, which shares the ABI but reads
    // no calls) fails in initDiagnostics() rather than in a later explain().
    explainIn('{"name":"probe","args":{}}', false);
  } catch (err) {
    setEngineSource(undefined); // never keep a source that is not the engine module
    throw err instanceof FingerprintError && err.code !== "invalid-argument"
      ? new FingerprintError("invalid-argument", `this module is not engine.wasm (it answered: ${err.message})`)
      : err;
  }
}, "initDiagnostics");

/**
 * Prepares the core. Without an argument, uses the entry's own copy of the
 * module; with one, a `WebAssembly.Module` or the `.wasm` bytes. Idempotent.
 * @throws FingerprintError("invalid-argument") when the source is not the core.
 */
export function init(source?: Source): Promise<void> {
  return coreLoader.load(source);
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
