// Builds the artifacts of record from one assembly/ tree: asc → wasm-opt →
//   build/fingerprint.wasm  (entry assembly/entry/fingerprint.ts: the fingerprint path)
//   build/engine.wasm  (entry assembly/entry/engine.ts: + calls, explain)
// each with its sha256 beside it, and a copy of each in go/wasm/ (the Go module embeds it); then src/_wasm.gen.ts (gitignored, the same
// bytes as base64: scripts/gen-wasm-embed.mjs).
// Reproducible: no timestamps or paths end up in the output.
//   node scripts/build-wasm.mjs           build and write
//   node scripts/build-wasm.mjs --check   build to a temp dir and fail if the
//                                         committed bytes differ (CI)
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeWasmEmbed } from "./gen-wasm-embed.mjs";

const root = new URL("..", import.meta.url).pathname;
const check = process.argv.includes("--check");
const tmp = mkdtempSync(join(tmpdir(), "fp-wasm-"));
const bin = (name) => join(root, "node_modules", ".bin", name);

// The ABI's generated files first (the core compiles one of them in), and the hosts' record types.
for (const gen of ["gen-abi.mjs", "gen-records.mjs"]) { // the records each SDK returns: interface/records.json
  execFileSync(process.execPath, [join(root, "scripts", gen), ...(check ? ["--check"] : [])], { cwd: root, stdio: "inherit" });
}

/**
 * One module: asc, then wasm-opt; returns its bytes. withSimd: wasm SIMD
 * (v128) too, for the diagnostics module only (its CLI engine hashes four
 * lines at once: assembly/hash/sha256x4.ts); every runtime of the matrix
 * (scripts/test-runtimes.mjs) and wasmtime run it. The fingerprint module
 * stays without, as small and as widely loadable as before.
 */
function build(entry, name, withSimd, outOfLine = []) {
  const raw = join(tmp, `${name}.asc.wasm`);
  const opt = join(tmp, `${name}.wasm`);
  const simd = withSimd ? ["--enable-simd"] : [];
  // --debug: function names in asc's output, for --no-inline's patterns; --strip-debug removes them after.
  execFileSync(bin("asc"), [entry, "--config", "asconfig.json", "--target", "release", "--debug", "--outFile", raw,
    ...(withSimd ? ["--enable", "simd"] : [])], { cwd: root, stdio: "inherit" });
  // Features are the ones asc emits by default (+ SIMD where asked); naming
  // them keeps wasm-opt from introducing instructions a runtime might lack.
  execFileSync(bin("wasm-opt"), [raw, ...outOfLine.map((f) => `--no-inline=${f}`), "-O3", "--converge", "--strip-debug", "--strip-producers",
    "--enable-bulk-memory", "--enable-sign-ext", "--enable-mutable-globals", "--enable-nontrapping-float-to-int",
    ...simd,
    "-o", opt], { cwd: root, stdio: "inherit" });
  const bytes = readFileSync(opt);
  if (WebAssembly.Module.imports(new WebAssembly.Module(bytes)).length !== 0) throw new Error(`${name} must have no imports`);
  return { name, bytes, sha: createHash("sha256").update(bytes).digest("hex") };
}

// Kept out of line in the engine module (wasm-opt inlines every function with one
// caller; asc has inlined small wrappers before, so a pattern names a function of asc's
// output): the CLI's cold steps (argv, why, verify, replay, --tools, the summary) out of
// its per-line loop, which V8 then optimizes sooner and in less time on the host's cores
// (a Node CLI run's warm-up); and the operations and the CLI's steps out of the entry,
// which every request enters: V8 tiers a function up by the bytes it runs, so an entry
// with them inlined (15 KB) was optimized on every CLI run, 30-60 ms of a compiler
// thread for code that runs once a chunk. wasmtime and wazero compile everything ahead
// of time: no change there.
const modules = [build("assembly/entry/fingerprint.ts", "fingerprint", false),
  build("assembly/entry/engine.ts", "engine", true, [
    "*/cli/args/*", "*/cli/why/*", "*/cli/replay/*", "*/cli/tools/*", "*/cli/run/verifyLine",
    "*/cli/run/runFinish", "*/ops/compare/compareOp", "*/ops/replay/replayOp", "*/ops/limit_args/*", "*/cli/steps/*", "*/cli/drive/*"])];
if (check) {
  let stale = false;
  for (const m of modules) {
    const path = join(root, "build", `${m.name}.wasm`);
    const committed = existsSync(path) ? readFileSync(path) : Buffer.alloc(0);
    if (!committed.equals(m.bytes)) {
      stale = true;
      console.error(`build/${m.name}.wasm is stale: rebuilt ${m.sha}, committed ` +
        createHash("sha256").update(committed).digest("hex") + ". Run npm run build:wasm and commit.");
    } else {
      console.log(`build/${m.name}.wasm reproduces: ${m.bytes.length} bytes, sha256 ${m.sha}`);
    }
  }
  if (stale) process.exit(1);
} else {
  for (const m of modules) {
    writeFileSync(join(root, "build", `${m.name}.wasm`), m.bytes);
    writeFileSync(join(root, "build", `${m.name}.wasm.sha256`), `${m.sha}  ${m.name}.wasm\n`);
    console.log(`build/${m.name}.wasm: ${m.bytes.length} bytes, sha256 ${m.sha}`);
    // The Go module embeds its own copy (go:embed reads no file outside go/); go/wasm_test.go checks it equals build/.
    writeFileSync(join(root, "go", "wasm", `${m.name}.wasm`), m.bytes);
  }
  writeWasmEmbed();
}
