// Cold start in the Edge Runtime, in a fresh Node process so no compiled code
// is shared with earlier runs: compile the .wasm outside the VM (Vercel does
// this ahead, not per request), then time evaluating the bundled
// cold-worker.mjs (import → first fingerprint) in a new EdgeRuntime with wasm
// code generation off. Args: edge-runtime module URL, bundle file, then one
// binding=file per .wasm module. Prints one JSON line. Test-only.
import { readFileSync } from "node:fs";

const [runtimeUrl, bundleFile, ...bindings] = process.argv.slice(2);
const { EdgeRuntime } = (await import(runtimeUrl)).default ?? (await import(runtimeUrl));
const code = readFileSync(bundleFile, "utf8");
const files = bindings.map((b) => [b.slice(0, b.indexOf("=")), readFileSync(b.slice(b.indexOf("=") + 1))]);

const c0 = performance.now();
const compiled = files.map(([name, bytes]) => [name, new WebAssembly.Module(bytes)]);
const c1 = performance.now();
const rt = new EdgeRuntime({
  codeGeneration: { strings: false, wasm: false },
  extend(context) {
    for (const [name, m] of compiled) context[name] = m;
    return context;
  },
});
const t0 = performance.now();
rt.evaluate(code);
const t1 = performance.now();
console.log(JSON.stringify({ compileMs: c1 - c0, coldMs: t1 - t0, probe: rt.evaluate("globalThis.__overturnProbe") }));
