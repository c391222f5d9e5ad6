/**
 * Entry for Node (the `node` export condition). The core's bytes are
 * embedded, as in the default entry, so fingerprinting works synchronously
 * right after import with no file read. The engine module (explain,
 * diff, nearest, Recording) is not embedded: V8 scanned its 150 KB of base64
 * on every import (~0.5 ms; docs/performance.md), so it is read from
 * `engine.wasm` beside this file on its first use. A bundled app that
 * lost that file gets a FingerprintError naming `initDiagnostics(bytes)` and
 * the `@overturn/fingerprint/inline` entry, which embeds both modules.
 * @module
 */
import { WASM_BASE64 } from "./_wasm.gen.js";
import { setEngineSource } from "./_engine.js";
import { embed } from "./base64.js";
import { FingerprintError } from "./errors.js";
import { engineLoader } from "./init.js";

embed(WASM_BASE64);

interface Fs { readFileSync(path: URL): Uint8Array }
// A static `import "node:fs"` costs ~2 ms of every ESM import (Node builds the
// builtin's module namespace), so fs is fetched when diagnostics first need it.
const getBuiltin = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;

function readEngine(fs: Fs): Uint8Array {
  // Literal and on one line, like the browser entry's: tools that follow `new URL(..., import.meta.url)` see the file.
  const url = new URL("./engine.wasm", import.meta.url);
  try {
    return fs.readFileSync(url);
  } catch (err) {
    throw new FingerprintError("not-initialized", `could not read engine.wasm beside the SDK's entry (${url.href}: ` +
      `${(err as { code?: string })?.code ?? String(err)}); a bundled app loses that file: pass its bytes to ` +
      "`await initDiagnostics(bytes)` (it ships as @overturn/fingerprint/engine.wasm), " +
      "or import \"@overturn/fingerprint/inline\", which embeds it");
  }
}

if (typeof getBuiltin === "function") {
  // Node ≥ 20.16: explain/diff/nearest work synchronously right after import.
  setEngineSource(() => readEngine(getBuiltin("node:fs") as Fs));
} else {
  // Older Node 20: `await initDiagnostics()` reads the file first.
  // (a variable specifier: the package's types carry no @types/node)
  const fs = "node:fs";
  engineLoader.defaultSource = async () => readEngine((await import(fs)) as Fs);
}

export * from "./api.js";
