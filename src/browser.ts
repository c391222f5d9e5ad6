/**
 * Entry for browsers and Web Workers (the `browser` export condition, ESM).
 * Browsers should compile wasm asynchronously (older Chromium and WebViews
 * refuse a synchronous compile over 4 KB on the main thread), so the core is
 * not embedded: `await init()` fetches the packaged `fingerprint.wasm` and
 * compiles it (streaming when served as application/wasm). The file is named
 * by the literal `new URL("./fingerprint.wasm", import.meta.url)`, the
 * pattern Vite, webpack 5, Parcel and Rollup's URL plugins recognise and emit
 * as an asset. Any other setup passes the module or bytes to `init()`.
 * Calling a function before `init()` settles throws
 * FingerprintError("not-initialized").
 * @module
 */
import { FingerprintError } from "./errors.js";
import { coreLoader, engineLoader } from "./init.js";

const HELP: Record<string, string> = {
  "fingerprint.wasm": "pass the module or bytes to init(), e.g. init(await WebAssembly.compileStreaming(" +
    "fetch(urlOfFingerprintWasm))); the file ships as @overturn/fingerprint/fingerprint.wasm",
  "engine.wasm": "pass the module or bytes to initDiagnostics(); the file ships as @overturn/fingerprint/engine.wasm",
};

/**
 * Fetches and compiles the module at `locate()`: a literal
 * `new URL("./x.wasm", import.meta.url)`, kept on one line because bundlers
 * match it textually and emit the file as an asset. The diagnostics module is
 * fetched only when initDiagnostics() asks: the fingerprint path never loads it.
 */
async function fetchModule(locate: () => URL, file: string): Promise<WebAssembly.Module> {
  const notLoaded = (why: string) => new FingerprintError("not-initialized", `could not load ${file}: ${why}; ${HELP[file]}`);
  let url: URL;
  try {
    url = locate();
  } catch {
    throw notLoaded("this bundle has no import.meta.url to locate it");
  }
  let res: Response;
  try {
    res = await fetch(url);
  } catch (err) {
    throw notLoaded(`fetch ${url.href} failed (${String(err)})`);
  }
  if (!res.ok) throw notLoaded(`fetch ${url.href} answered HTTP ${res.status}`);
  const type = res.headers.get("content-type") ?? "";
  try {
    // compileStreaming insists on the application/wasm MIME type; anything
    // else (a file:// page, a misconfigured server) goes through bytes.
    return typeof WebAssembly.compileStreaming === "function" && /^application\/wasm\b/i.test(type)
      ? await WebAssembly.compileStreaming(res)
      : await WebAssembly.compile(await res.arrayBuffer());
  } catch (err) {
    throw notLoaded(`${url.href} is not a wasm module (${String(err)}) — did the bundler copy the asset?`);
  }
}

coreLoader.defaultSource = () => fetchModule(() => new URL("./fingerprint.wasm", import.meta.url), "fingerprint.wasm");
engineLoader.defaultSource = () => fetchModule(() => new URL("./engine.wasm", import.meta.url), "engine.wasm");

export * from "./api.js";
