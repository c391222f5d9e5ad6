// Runs the full shared vectors file inside every real JavaScript runtime the
// package supports, through the package as npm would install it, and fails on
// any difference. Part of the README's test command (after vitest).
//
//   node scripts/test-runtimes.mjs               run, print the table
//   node scripts/test-runtimes.mjs --write-docs  also rewrite docs/runtimes.md
//
// Steps: `npm pack` → extract into a staging folder's node_modules (so only
// the published `files` are seen) → publint + attw on the tarball → one row
// per runtime: Node ESM and CJS, Deno, Bun, Cloudflare workerd, Vercel's Edge
// Runtime, Chromium (page and Web Worker). Bundles are made the way each
// platform's tooling makes them (esbuild with Wrangler's and Vercel's
// conditions and wasm-module handling; Vite for the page). Offline: every
// runtime comes from npm or Debian (/usr/bin/chromium). Also measures the
// bundle weight of each entry and the cold start (import → first
// fingerprint) per runtime. Test-only tooling; not shipped.
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, extname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const require = createRequire(join(ROOT, "package.json"));
const WRITE_DOCS = process.argv.includes("--write-docs");
const KEEP = process.argv.includes("--keep");
// Debian's package; OVERTURN_CHROMIUM points elsewhere (or at a missing
// file, to try the no-browser path). Without it the browser rows are skipped
// locally and fail under CI=true, where .ci/run installs it.
const CHROMIUM = process.env.OVERTURN_CHROMIUM || "/usr/bin/chromium";
const CHROMIUM_REQUIRED = process.env.CI === "true";
const NO_CHROMIUM = "skipped: no Chromium (apt-get install chromium)";
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-quic",
  "--no-first-run", "--disable-component-update", "--disable-sync"];
const NODE_COLD_RUNS = 15;
const NODE_COLD_GUARD_MS = 12;
// A compatibility date before 2025-06-01: workerd then refuses to compile
// wasm from bytes at start-up as well as inside requests (production rules).
const WORKERD_COMPAT_DATE = "2025-01-01";

const started = performance.now();
const rows = [];
const colds = [];
const versions = {};

const esbuild = await import(pathToFileURL(require.resolve("esbuild")).href);

// ---------------------------------------------------------------- helpers

function run(cmd, args, opts = {}) {
  return execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 60_000, ...opts });
}

/** Runs a program that prints one JSON line (our host.* programs). */
function runJson(cmd, args, opts) {
  const out = run(cmd, args, opts).trim().split("\n").pop();
  return JSON.parse(out);
}

const rel = (p) => p.replace(/^file:\/\//, "").replace(/.*\/node_modules\/@overturn\/fingerprint\//, "");
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const ms = (x) => (x < 10 ? x.toFixed(2) : x.toFixed(1));

/** A row's result from a vectors report; throws when anything differs. */
function verdict(r, extra = []) {
  if (r.crash) throw new Error(r.crash.split("\n")[0]);
  const problems = [...extra];
  if (r.failed) problems.push(`${r.failed} differences, e.g. ${r.failures.join("; ")}`);
  if (!(r.vectors >= 200) || !(r.checks > r.vectors)) problems.push(`only ${r.checks} checks on ${r.vectors} vectors`);
  // Every row also runs the diagnostics vectors through the entry's second module.
  if (!(r.diagnostics >= 50)) problems.push(`diagnostics vectors not run (${r.diagnostics ?? 0} cases)`);
  if (problems.length) throw new Error(problems.join("; "));
  return `pass: ${r.vectors} vectors + ${r.diagnostics} diagnostics cases, ${r.checks} checks`;
}

async function row(runtime, how, fn) {
  const t0 = performance.now();
  const r = { runtime, entry: "?", how, result: "", ok: false, skipped: false };
  try {
    const got = await fn(r);
    r.result = got;
    r.ok = true;
  } catch (err) {
    r.result = `FAIL: ${String(err && err.message ? err.message : err).slice(0, 400)}`;
  }
  r.seconds = (performance.now() - t0) / 1000;
  rows.push(r);
  console.log(`${r.ok ? "ok  " : "FAIL"} ${runtime} (${r.seconds.toFixed(1)} s) ${r.result}`);
}

/** A row that could not run here, and is allowed not to (see CHROMIUM). */
function skipRow(runtime, how, why) {
  rows.push({ runtime, entry: "—", how, result: why, ok: true, skipped: true, seconds: 0 });
  console.log(`skip ${runtime}: ${why}`);
}

/** The entry file of our package an esbuild metafile pulled in. */
function entryFromMeta(meta) {
  const hits = Object.keys(meta.inputs).filter((p) => /node_modules\/@overturn\/fingerprint\/.*\.c?js$/.test(p));
  if (hits.length !== 1) throw new Error(`expected one file of the package in the bundle, got ${JSON.stringify(hits)}`);
  return rel(hits[0]);
}

function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
    s.on("error", fail);
  });
}

async function waitForHttp(url, child, timeoutMs) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`process exited with ${child.exitCode}`);
    try {
      return await fetch(url);
    } catch {
      if (Date.now() > until) throw new Error(`no answer from ${url} in ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}

function stopChild(child) {
  if (child.exitCode === null) child.kill("SIGTERM");
}

// ---------------------------------------------------------------- staging

function stage() {
  if (!existsSync(join(ROOT, "dist", "browser.js")) || !existsSync(join(ROOT, "dist", "fingerprint.wasm"))) {
    run(join(ROOT, "node_modules", ".bin", "tsup"), ["--silent"], { cwd: ROOT, timeout: 180_000 });
  }
  const dir = mkdtempSync(join(tmpdir(), "overturn-runtimes-"));
  const packed = JSON.parse(run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", dir], { cwd: ROOT }));
  const tarball = join(dir, packed[0].filename);
  const pkgDir = join(dir, "node_modules", "@overturn", "fingerprint");
  mkdirSync(pkgDir, { recursive: true });
  run("tar", ["-xzf", tarball, "-C", pkgDir, "--strip-components=1"]);
  mkdirSync(join(dir, "test"), { recursive: true });
  cpSync(join(ROOT, "test", "runtimes"), join(dir, "test", "runtimes"), { recursive: true });
  cpSync(join(ROOT, "test", "vectors-decode.mjs"), join(dir, "test", "vectors-decode.mjs"));
  mkdirSync(join(dir, "vectors"));
  cpSync(join(ROOT, "vectors", "fingerprint.vectors.json"), join(dir, "vectors", "fingerprint.vectors.json"));
  cpSync(join(ROOT, "vectors", "diagnostics.vectors.json"), join(dir, "vectors", "diagnostics.vectors.json"));
  // No dependencies: Deno and Bun must not try to install anything.
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "overturn-runtime-stage", private: true, type: "module" }));
  // Trivial packages the host programs import before timing ours (see host.mjs).
  for (const name of ["overturn-warmup", "overturn-empty"]) {
    const at = join(dir, "node_modules", name);
    mkdirSync(at);
    writeFileSync(join(at, "package.json"), JSON.stringify({ name, version: "1.0.0", type: "module",
      exports: { ".": { import: "./index.js", require: "./index.cjs" } } }));
    writeFileSync(join(at, "index.js"), "export const x = 1;\n");
    writeFileSync(join(at, "index.cjs"), "exports.x = 1;\n");
  }
  return { dir, tarball, pkgDir, files: packed[0].files.map((f) => f.path) };
}

// ---------------------------------------------------------------- rows

async function packaging(st) {
  await row("Package (npm pack)", "`publint --strict` and `attw` on the tarball; every export target present", (r) => {
    r.entry = "all";
    const pkg = JSON.parse(readFileSync(join(st.pkgDir, "package.json"), "utf8"));
    const targets = [];
    const walk = (x) => (typeof x === "string" ? targets.push(x) : Object.values(x).forEach(walk));
    walk(pkg.exports);
    const missing = targets.filter((t) => !existsSync(join(st.pkgDir, t)));
    if (missing.length) throw new Error(`export targets missing from the tarball: ${missing.join(", ")}`);
    const order = Object.keys(pkg.exports["."]);
    const before = (a, b) => order.indexOf(a) >= 0 && order.indexOf(a) < order.indexOf(b);
    if (!before("workerd", "browser") || !before("edge-light", "browser")) throw new Error(`condition order ${order}`);
    const bin = (n) => join(ROOT, "node_modules", ".bin", n);
    const pub = run(bin("publint"), ["--strict", st.pkgDir], { cwd: st.pkgDir });
    if (!/All good!/.test(pub)) throw new Error(`publint: ${pub.trim()}`);
    // The .wasm subpath is a data file (no JS, no types), so attw has nothing to resolve there.
    // attw exits 1 on any problem; the JSON report on stdout is what we judge.
    let report;
    try {
      report = run(bin("attw"), [st.tarball, "--format", "json", "--exclude-entrypoints", "./fingerprint.wasm", "./engine.wasm", "./diagnostics.wasm"], { cwd: st.dir });
    } catch (err) {
      report = err.stdout;
    }
    const attw = JSON.parse(report);
    // TypeScript's node10 resolution predates `exports`, so no subpath
    // resolves there; every Node the package supports (≥ 20) reads exports.
    const problems = (attw.analysis?.problems ?? [])
      .filter((p) => !(p.kind === "NoResolution" && p.resolutionKind === "node10" && p.entrypoint === "./inline"));
    if (problems.length) throw new Error(`attw: ${JSON.stringify(problems).slice(0, 300)}`);
    const typed = typesPerCondition(st);
    return `pass: publint all good; attw no problems (node10, node16 CJS/ESM, bundler); types resolve and check under ${typed}; ${st.files.length} files`;
  });
}

/**
 * attw only tries the standard conditions; TypeScript's customConditions
 * shows that every runtime condition resolves to declarations that type-check.
 */
function typesPerCondition(st) {
  const ts = require("typescript");
  const file = join(st.dir, "types-check.ts");
  writeFileSync(file, `import { FingerprintError, fingerprint, init, type FingerprintOptions } from "@overturn/fingerprint";
const o: FingerprintOptions = { matchOn: ["q"] };
export const run = async (m: WebAssembly.Module): Promise<string> => {
  await init(m);
  try { return fingerprint("search", { q: 1 }, o); } catch (e) { return e instanceof FingerprintError ? e.code : ""; }
};
`);
  // attw checked the import/require targets (node16 sets "node"); these are the runtime conditions.
  const want = { workerd: "dist/workerd.d.ts", "edge-light": "dist/edge-light.d.ts", browser: "dist/browser.d.ts", deno: "dist/index.d.ts",
    bun: "dist/index.d.ts", node: "dist/node.d.ts" };
  const parsed = new Map();
  for (const [condition, expected] of Object.entries(want)) {
    const options = {
      module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, target: ts.ScriptTarget.ES2022,
      customConditions: [condition], strict: true, noEmit: true, types: [], lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
      skipLibCheck: true,
    };
    const resolved = ts.resolveModuleName("@overturn/fingerprint", file, options, ts.sys).resolvedModule?.resolvedFileName ?? "none";
    if (rel(resolved) !== expected) throw new Error(`types for condition ${condition}: ${rel(resolved)}, expected ${expected}`);
    // Parse the (large) lib files once for all conditions.
    const host = ts.createCompilerHost(options);
    const getSourceFile = host.getSourceFile.bind(host);
    host.getSourceFile = (name, ...rest) => {
      if (!parsed.has(name)) parsed.set(name, getSourceFile(name, ...rest));
      return parsed.get(name);
    };
    const program = ts.createProgram([file], options, host);
    const diags = ts.getPreEmitDiagnostics(program);
    if (diags.length) throw new Error(`types under ${condition}: ${ts.flattenDiagnosticMessageText(diags[0].messageText, " ")}`);
  }
  return Object.keys(want).join(", ");
}

async function nodeRows(st) {
  const node = process.execPath;
  const cwd = join(st.dir, "test", "runtimes");
  versions.node = process.version;
  await row("Node.js (ESM)", "`import` by package name, vectors in-process", (r) => {
    const got = runJson(node, ["host.mjs"], { cwd });
    r.entry = rel(got.entry);
    if (r.entry !== "dist/node.js") throw new Error(`resolved ${r.entry}`);
    return verdict(got);
  });
  await row("Node.js (CommonJS)", "`require` by package name, vectors in-process", (r) => {
    const got = runJson(node, ["host.cjs"], { cwd });
    r.entry = rel(got.entry);
    if (r.entry !== "dist/node.cjs") throw new Error(`resolved ${r.entry}`);
    return verdict(got);
  });
  for (const [name, file] of [["Node.js (ESM)", "host.mjs"], ["Node.js (CommonJS)", "host.cjs"]]) {
    const samples = [];
    for (let i = 0; i < NODE_COLD_RUNS; i++) samples.push(runJson(node, [file, "--cold-only"], { cwd }));
    const med = (k) => median(samples.map((x) => x.phases[k]));
    const verb = file.endsWith("cjs") ? "require" : "import";
    colds.push({ runtime: name, what: `${verb} (${ms(med("importMs"))}; an empty package: ${ms(med("emptyImportMs"))}) → first fingerprint: decode, compile, instantiate, first call (${ms(med("firstCallMs"))}); in-process \`performance.now()\`, median of ${NODE_COLD_RUNS} fresh processes`,
      median: median(samples.map((x) => x.coldMs)), min: Math.min(...samples.map((x) => x.coldMs)) });
  }
  // The sync entry's start-up. The best of several fresh processes is
  // compared, so a machine busy with other work does not fail the build; the
  // guard catches regressions of the kind atob() caused (+8–15 ms).
  for (const name of ["Node.js (ESM)", "Node.js (CommonJS)"]) {
    const c = colds.find((x) => x.runtime === name);
    if (c.min >= NODE_COLD_GUARD_MS) {
      const r = rows.find((x) => x.runtime === name);
      r.ok = false;
      r.result = `FAIL: cold start ${ms(c.min)} ms (best of ${NODE_COLD_RUNS}) ≥ ${NODE_COLD_GUARD_MS} ms`;
    }
  }
}

async function denoBunRows(st) {
  const cwd = join(st.dir, "test", "runtimes");
  const env = { ...process.env, DENO_NO_UPDATE_CHECK: "1", DENO_NO_PROMPT: "1", DO_NOT_TRACK: "1", NO_COLOR: "1" };
  // The npm packages' binaries (from their per-platform optional dependencies).
  const firstOf = (...paths) => paths.find((p) => existsSync(p)) ?? paths[0];
  const nm = join(ROOT, "node_modules");
  const deno = firstOf(join(nm, "@deno", "linux-x64-glibc", "deno"), join(nm, "deno", "deno"));
  await row("Deno", "`deno run` of the ESM program, package from node_modules", (r) => {
    if (!existsSync(deno)) throw new Error("the deno npm package (devDependency) did not install its binary");
    versions.deno = run(deno, ["--version"], { env }).split("\n")[0];
    const got = runJson(deno, ["run", "--allow-read", "--allow-env", "--no-lock", "host.mjs"], { cwd, env });
    r.entry = rel(got.entry);
    if (r.entry !== "dist/index.js") throw new Error(`resolved ${r.entry}`);
    colds.push({ runtime: "Deno", what: "import → first fingerprint, in-process", median: got.coldMs });
    return verdict(got);
  });
  const bun = firstOf(join(nm, "@oven", "bun-linux-x64", "bin", "bun"), join(nm, "bun", "bin", "bun.exe"));
  await row("Bun", "`bun` runs the ESM program, package from node_modules", (r) => {
    if (!existsSync(bun)) throw new Error("the bun npm package (devDependency) did not install its binary");
    versions.bun = `bun ${run(bun, ["--version"], { env }).trim()}`;
    const got = runJson(bun, ["run", "host.mjs"], { cwd, env });
    r.entry = rel(got.entry);
    if (r.entry !== "dist/index.js") throw new Error(`resolved ${r.entry}`);
    colds.push({ runtime: "Bun", what: "import → first fingerprint, in-process", median: got.coldMs });
    return verdict(got);
  });
}

/** esbuild as Wrangler runs it: workerd conditions, `.wasm` imports become uploaded wasm modules. */
async function bundleForWorkerd(entry, outDir) {
  const wasmModules = new Map();
  const plugin = {
    name: "wasm-as-module (Wrangler's CompiledWasm rule)",
    setup(b) {
      b.onResolve({ filter: /\.wasm(\?module)?$/ }, (a) => {
        const file = resolve(a.resolveDir, a.path.replace(/\?module$/, ""));
        const name = `${createHash("sha1").update(readFileSync(file)).digest("hex")}-${basename(file)}`;
        wasmModules.set(name, file);
        return { path: `./${name}`, external: true };
      });
    },
  };
  mkdirSync(outDir, { recursive: true });
  const res = await esbuild.build({
    entryPoints: [entry], outfile: join(outDir, "worker.js"), bundle: true, format: "esm", target: "es2022",
    platform: "neutral", conditions: ["workerd", "worker", "browser"], mainFields: ["browser", "module", "main"],
    loader: { ".json": "json" }, plugins: [plugin], metafile: true, logLevel: "silent",
  });
  for (const [name, file] of wasmModules) cpSync(file, join(outDir, name));
  const modules = [`(name = "worker.js", esModule = embed "worker.js")`,
    ...[...wasmModules.keys()].map((n) => `(name = "${n}", wasm = embed "${n}")`)];
  writeFileSync(join(outDir, "config.capnp"), `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [${modules.join(", ")}],
  compatibilityDate = "${WORKERD_COMPAT_DATE}",
);
`);
  return { meta: res.metafile, config: join(outDir, "config.capnp"), wasmModules };
}

async function startWorkerd(config) {
  const workerd = require("workerd").default;
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(workerd, ["serve", config, "--socket-addr", `http=127.0.0.1:${port}`], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => { stderr += d; });
  try {
    const res = await waitForHttp(`http://127.0.0.1:${port}/`, child, 30_000);
    const body = await res.text();
    return { body, status: res.status, ms: performance.now() - t0, stderr, child };
  } catch (err) {
    stopChild(child);
    throw new Error(`${err.message}; workerd said: ${stderr.trim().slice(0, 300)}`);
  }
}

async function workerdRow(st) {
  const workerd = require("workerd").default;
  versions.workerd = `${run(workerd, ["--version"]).trim()} (npm workerd ${require("workerd/package.json").version})`;
  await row("Cloudflare workerd", `\`workerd serve\` (npm \`workerd\`), compatibility date ${WORKERD_COMPAT_DATE}; worker bundled as Wrangler does (esbuild, conditions workerd/worker/browser, \`.wasm\` → wasm module); wasm compile from bytes refused`, async (r) => {
    const src = join(st.dir, "test", "runtimes");
    const b = await bundleForWorkerd(join(src, "workerd-worker.mjs"), join(st.dir, "workerd", "vectors"));
    r.entry = entryFromMeta(b.meta);
    if (r.entry !== "dist/workerd.js") throw new Error(`bundled ${r.entry}`);
    // The core and the diagnostics module, each uploaded as a compiled module.
    if (b.wasmModules.size !== 2) throw new Error(`${b.wasmModules.size} .wasm imports became wasm modules, want 2`);
    const s = await startWorkerd(b.config);
    stopChild(s.child);
    if (s.status !== 200) throw new Error(`HTTP ${s.status}: ${s.body.slice(0, 300)} ${s.stderr.slice(0, 300)}`);
    const got = JSON.parse(s.body);
    const extra = [];
    if (!got.codegenAtStartup.startsWith("refused") || !got.codegenInRequest.startsWith("refused")) {
      extra.push(`wasm code generation was not refused (start-up: ${got.codegenAtStartup}, request: ${got.codegenInRequest})`);
    }
    return `${verdict(got, extra)}; compile from bytes refused at start-up and in requests`;
  });
  // Cold start: process spawn → first answer, with and without the package
  // (interleaved, after one warm-up start, so both see the same disk cache and load).
  try {
    const names = ["empty-worker", "cold-worker"];
    const configs = {};
    const samples = { "empty-worker": [], "cold-worker": [] };
    for (const name of names) {
      configs[name] = (await bundleForWorkerd(join(st.dir, "test", "runtimes", `${name}.mjs`), join(st.dir, "workerd", name))).config;
    }
    for (let i = 0; i < 8; i++) {
      for (const name of names) {
        const s = await startWorkerd(configs[name]);
        stopChild(s.child);
        if (s.status !== 200) throw new Error(`${name}: HTTP ${s.status}`);
        if (i > 0) samples[name].push(s.ms);
      }
    }
    const cold = median(samples["cold-worker"]);
    const empty = median(samples["empty-worker"]);
    colds.push({ runtime: "Cloudflare workerd", what: `process spawn → first HTTP answer, the worker fingerprinting once at start-up; median of 7, interleaved with an empty worker (${ms(empty)} ms), so the package's share is the difference — workerd keeps its clocks still while code runs, so it cannot be timed from inside`,
      median: cold, extra: cold - empty });
  } catch (err) {
    colds.push({ runtime: "Cloudflare workerd", what: `not measured: ${err.message}` });
  }
}

/** esbuild as Vercel/Next.js bundle an edge function: edge-light conditions, `?module` → a bound WebAssembly.Module. */
async function bundleForEdge(entry) {
  const bindings = new Map();
  const plugin = {
    name: "wasm-module-binding (Vercel's ?module import)",
    setup(b) {
      b.onResolve({ filter: /\.wasm\?module$/ }, (a) => ({ path: resolve(a.resolveDir, a.path.replace(/\?module$/, "")), namespace: "wasm-binding" }));
      b.onLoad({ filter: /.*/, namespace: "wasm-binding" }, (a) => {
        const name = `wasm_${createHash("sha1").update(readFileSync(a.path)).digest("hex")}`;
        bindings.set(name, a.path);
        return { contents: `export default globalThis[${JSON.stringify(name)}];`, loader: "js" };
      });
      b.onResolve({ filter: /\.wasm$/ }, () => ({ errors: [{ text: "a plain .wasm import cannot load on Vercel Edge" }] }));
    },
  };
  const res = await esbuild.build({
    entryPoints: [entry], bundle: true, write: false, format: "iife", target: "es2022", platform: "neutral",
    conditions: ["edge-light", "worker", "browser"], mainFields: ["browser", "module", "main"],
    loader: { ".json": "json" }, plugins: [plugin], metafile: true, logLevel: "silent",
  });
  return { code: res.outputFiles[0].text, meta: res.metafile, bindings };
}

function edgeRuntime(bindings) {
  const { EdgeRuntime } = require("edge-runtime");
  // Vercel compiles the module ahead (outside the function's realm) and binds it.
  const compiled = [...bindings].map(([name, file]) => [name, new WebAssembly.Module(readFileSync(file))]);
  return new EdgeRuntime({
    codeGeneration: { strings: false, wasm: false },
    extend(context) {
      for (const [name, m] of compiled) context[name] = m;
      return context;
    },
  });
}

async function edgeRow(st) {
  versions["edge-runtime"] = `edge-runtime ${require("edge-runtime/package.json").version}`;
  await row("Vercel Edge Runtime", "npm `edge-runtime` VM with wasm code generation off; function bundled with esbuild, conditions edge-light/worker/browser, `.wasm?module` bound to a precompiled `WebAssembly.Module` as Vercel does", async (r) => {
    const b = await bundleForEdge(join(st.dir, "test", "runtimes", "edge-function.mjs"));
    r.entry = entryFromMeta(b.meta);
    if (r.entry !== "dist/edge-light.js") throw new Error(`bundled ${r.entry}`);
    // The core and the diagnostics module (instantiated on first explain only).
    if (b.bindings.size !== 2) throw new Error(`${b.bindings.size} .wasm?module imports bound, want 2`);
    const rt = edgeRuntime(b.bindings);
    rt.evaluate(b.code);
    const res = await rt.dispatchFetch("http://localhost/");
    await res.waitUntil();
    const got = JSON.parse(await res.text());
    const extra = got.codegenInRequest.startsWith("refused") ? [] : [`wasm code generation was not refused: ${got.codegenInRequest}`];
    return `${verdict(got, extra)}; compile from bytes refused`;
  });
  try {
    const b = await bundleForEdge(join(st.dir, "test", "runtimes", "cold-worker.mjs"));
    const bundle = join(st.dir, "edge-cold-bundle.js");
    writeFileSync(bundle, b.code);
    const pairs = [...b.bindings].map(([name, file]) => `${name}=${file}`);
    const runtimeUrl = pathToFileURL(require.resolve("edge-runtime")).href;
    const samples = [];
    let compile = [];
    for (let i = 0; i < 5; i++) {
      const got = runJson(process.execPath, [join(st.dir, "test", "runtimes", "edge-cold.mjs"), runtimeUrl, bundle, ...pairs]);
      if (!/^[0-9a-f]{64}$/.test(got.probe)) throw new Error(`probe ${got.probe}`);
      samples.push(got.coldMs);
      compile.push(got.compileMs);
    }
    colds.push({ runtime: "Vercel Edge Runtime", what: `evaluate the bundled function → first fingerprint in a new VM, fresh process each, median of 5; the modules (core and diagnostics) are compiled ahead as on Vercel (${ms(median(compile))} ms, not included)`,
      median: median(samples), min: Math.min(...samples) });
  } catch (err) {
    colds.push({ runtime: "Vercel Edge Runtime", what: `not measured: ${err.message}` });
  }
}

async function loadVite() {
  const vite = await import(pathToFileURL(require.resolve("vite")).href);
  versions.vite = `vite ${vite.version}`;
  return vite;
}

/** A Vite plugin that records which files of the package the build pulled in. */
function recordPackageFiles(seen) {
  return {
    name: "record-package-files",
    transform(_code, id) {
      if (id.includes("node_modules/@overturn/fingerprint/")) seen.add(rel(id.split("?")[0]));
    },
  };
}

async function viteBuild(st) {
  const vite = await loadVite();
  const root = join(st.dir, "test", "runtimes", "browser");
  const outDir = join(st.dir, "browser-dist");
  const seen = new Set();
  await vite.build({
    root, logLevel: "silent", configFile: false, plugins: [recordPackageFiles(seen)],
    worker: { format: "es", plugins: () => [recordPackageFiles(seen)] },
    build: { outDir, emptyOutDir: true, target: "es2022", minify: true },
  });
  return { outDir, seen };
}

function serveStatic(dir, extra, requested = []) {
  const types = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    requested.push(path);
    const file = extra[path] ?? join(dir, path === "/" ? "index.html" : path);
    if (!file.startsWith(dir) && !Object.values(extra).includes(file)) return res.writeHead(403).end();
    try {
      const body = readFileSync(file);
      res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((ok) => server.listen(0, "127.0.0.1", () => ok(server)));
}

/** Opens url in a new context (no shared cache) and returns the page's window.__results. */
async function pageResults(browser, url) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const logs = [];
    page.on("console", (m) => { if (m.type() === "error") logs.push(m.text()); });
    page.on("pageerror", (e) => logs.push(String(e)));
    await page.goto(url);
    await page.waitForFunction(() => window.__results !== undefined, null, { timeout: 60_000 }).catch(() => {
      throw new Error(`page gave no results; console: ${logs.join(" | ").slice(0, 300)}`);
    });
    return await page.evaluate(() => window.__results);
  } finally {
    await context.close();
  }
}

function browserVerdict(got) {
  const extra = got.beforeInit === "not-initialized" ? [] : [`a call before init() gave ${got.beforeInit}, not FingerprintError("not-initialized")`];
  return `${verdict(got, extra)}; before init(): FingerprintError("not-initialized")`;
}

const CHROMIUM_ROWS = ["Chromium (page)", "Chromium (Web Worker)", "Chromium (Vite dev server)",
  "Chromium (webpack, default entry)", "Chromium (esbuild, /inline)", "Chromium (webpack, /inline)"];

async function chromiumRows(st) {
  if (!existsSync(CHROMIUM) && !CHROMIUM_REQUIRED) {
    for (const name of CHROMIUM_ROWS) skipRow(name, `needs Chromium at ${CHROMIUM} (CI=true makes it required)`, NO_CHROMIUM);
    return;
  }
  const vectorsFile = join(st.dir, "vectors", "fingerprint.vectors.json");
  const diagnosticsFile = join(st.dir, "vectors", "diagnostics.vectors.json");
  const served = { "/vectors.json": vectorsFile, "/diagnostics.json": diagnosticsFile };
  let browser;
  const launch = async () => {
    if (browser) return browser;
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
    const { chromium } = require("playwright-core");
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 60_000 });
    versions.chromium = `Chromium ${browser.version()} (playwright-core ${require("playwright-core/package.json").version})`;
    return browser;
  };
  try {
    // 1. A production build (vite build), served as static files.
    let built;
    const buildAndRun = async () => {
      if (built) return built;
      built = (async () => {
        const { outDir, seen } = await viteBuild(st);
        const assets = readdirSync(join(outDir, "assets"));
        if (!assets.some((f) => f.endsWith(".wasm"))) throw new Error(`Vite emitted no .wasm asset: ${assets.join(", ")}`);
        const server = await serveStatic(outDir, served);
        try {
          const b = await launch();
          const base = `http://127.0.0.1:${server.address().port}/`;
          const results = await pageResults(b, base);
          // Cold start again in new pages of the running browser: the first
          // page also pays the browser's own first-use costs.
          const later = [];
          for (let i = 0; i < 3; i++) later.push((await pageResults(b, `${base}?cold-only`)).main);
          return { results, later, seen: [...seen] };
        } finally {
          server.close();
        }
      })();
      return built;
    };
    const how = (where) => `Debian \`chromium\` headless via \`playwright-core\`; page built by \`vite build\` (browser condition; the \`.wasm\` emitted as an asset from \`new URL(…, import.meta.url)\`), served on 127.0.0.1; ${where}`;
    for (const [runtime, key] of [["Chromium (page)", "main"], ["Chromium (Web Worker)", "worker"]]) {
      await row(runtime, how(key === "main" ? "main thread" : "module Web Worker"), async (r) => {
        const { results, later, seen } = await buildAndRun();
        r.entry = seen.length === 1 ? seen[0] : JSON.stringify(seen);
        if (r.entry !== "dist/browser.js") throw new Error(`bundled ${r.entry}`);
        const got = results[key];
        const p = got.phases ?? {};
        colds.push({ runtime, what: `dynamic import (${ms(p.importMs)}) → \`await init()\`, fetch + compile of the .wasm over loopback (${ms(p.initMs)}) → first fingerprint (${ms(p.firstCallMs)}); first page of a fresh browser, \`performance.now()\``, median: got.coldMs });
        if (key === "main") {
          if (later.some((x) => x.crash || !/^[0-9a-f]{64}$/.test(x.probe))) throw new Error(`a cold-start page failed: ${JSON.stringify(later)}`);
          const med = (k) => median(later.map((x) => x.phases[k]));
          colds.push({ runtime: "Chromium (page, again)", what: `as above in a new page (fresh context, no cache) of the running browser, median of ${later.length}: import (${ms(med("importMs"))}), init (${ms(med("initMs"))}), first fingerprint (${ms(med("firstCallMs"))})`,
            median: median(later.map((x) => x.coldMs)), min: Math.min(...later.map((x) => x.coldMs)) });
        }
        return browserVerdict(got);
      });
    }
    // 2. The Vite dev server, where dependencies are pre-bundled into
    // node_modules/.vite — the usual place a relative .wasm URL gets lost.
    await row("Chromium (Vite dev server)", "as above, but the page served by Vite's dev server (dependency pre-bundling on); page and Web Worker", async (r) => {
      const vite = await loadVite();
      const seen = new Set();
      const server = await vite.createServer({
        root: join(st.dir, "test", "runtimes", "browser"), configFile: false, logLevel: "silent",
        cacheDir: join(st.dir, "vite-cache"), server: { host: "127.0.0.1", port: 0, strictPort: false, hmr: false },
        plugins: [recordPackageFiles(seen), {
          name: "serve-vectors",
          configureServer(s) {
            for (const [path, file] of Object.entries(served)) {
              s.middlewares.use(path, (_req, res) => {
                res.setHeader("content-type", "application/json");
                res.end(readFileSync(file));
              });
            }
          },
        }],
      });
      await server.listen();
      try {
        const results = await pageResults(await launch(), `http://127.0.0.1:${server.httpServer.address().port}/`);
        // Pre-bundled dependencies are served from the cache; its metadata
        // names the package file each one was built from.
        const metaFile = join(st.dir, "vite-cache", "deps", "_metadata.json");
        const optimized = existsSync(metaFile) ? JSON.parse(readFileSync(metaFile, "utf8")).optimized ?? {} : {};
        const files = [...seen, ...Object.values(optimized).map((d) => rel(d.src ?? ""))]
          .filter((f, i, all) => f.endsWith(".js") && all.indexOf(f) === i);
        r.entry = files.length === 1 ? files[0] : JSON.stringify(files);
        if (r.entry !== "dist/browser.js") throw new Error(`served ${r.entry}`);
        const page = browserVerdict(results.main);
        browserVerdict(results.worker);
        return `${page} (page and worker)`;
      } finally {
        await server.close();
      }
    });
    // 3. webpack 5 with the default entry: its own asset handling of new URL(…).
    await row("Chromium (webpack, default entry)", "webpack 5 `target: \"web\"`, production mode, no rules, of a page importing `@overturn/fingerprint`: the `.wasm` emitted as an asset from `new URL(…, import.meta.url)`, `await init()`", async (r) => {
      const outDir = join(st.dir, "webpack-default");
      const { entry } = await bundleWithWebpack(st, "webpack", outDir);
      r.entry = entry;
      if (r.entry !== "dist/browser.js") throw new Error(`bundled ${r.entry}`);
      const emitted = readdirSync(outDir).filter((f) => f.endsWith(".wasm"));
      // The core, and the diagnostics module (fetched by initDiagnostics() only).
      if (emitted.length !== 2) throw new Error(`webpack emitted ${emitted.length} .wasm files`);
      const server = await serveStatic(outDir, served);
      try {
        return browserVerdict((await pageResults(await launch(), `http://127.0.0.1:${server.address().port}/`)).main);
      } finally {
        server.close();
      }
    });
    // 4. Bundlers given no .wasm handling at all use the /inline entry.
    for (const [runtime, bundler, how] of [
      ["Chromium (esbuild, /inline)", bundleInlineWithEsbuild, "esbuild `--bundle --platform=browser` (no loader for .wasm)"],
      ["Chromium (webpack, /inline)", async (st, outDir) => (await bundleWithWebpack(st, "inline", outDir)).entry, "webpack 5 `target: \"web\"`, production mode, no wasm rules"],
    ]) {
      await row(runtime, `${how} of a page importing \`@overturn/fingerprint/inline\`: core embedded, first call synchronous after import, no init()`, async (r) => {
        const outDir = join(st.dir, `inline-${runtime.replace(/\W+/g, "-")}`);
        r.entry = await bundler(st, outDir);
        if (r.entry !== "dist/index.js") throw new Error(`bundled ${r.entry}`);
        const emitted = readdirSync(outDir).filter((f) => f.endsWith(".wasm"));
        if (emitted.length) throw new Error(`the bundle has .wasm files beside it: ${emitted.join(", ")}`);
        const requested = [];
        const server = await serveStatic(outDir, served, requested);
        try {
          const got = (await pageResults(await launch(), `http://127.0.0.1:${server.address().port}/`)).main;
          const wasm = requested.filter((p) => p.endsWith(".wasm"));
          return `${verdict(got, wasm.length ? [`the page requested ${wasm.join(", ")}`] : [])}; sync first call, no .wasm request`;
        } finally {
          server.close();
        }
      });
    }
  } finally {
    if (browser) await browser.close();
  }
}

/** esbuild with its defaults for a browser page: nothing configured for wasm. */
async function bundleInlineWithEsbuild(st, outDir) {
  const res = await esbuild.build({
    entryPoints: [join(st.dir, "test", "runtimes", "inline", "page.mjs")], outfile: join(outDir, "bundle.js"),
    bundle: true, format: "esm", platform: "browser", target: "es2022", minify: true, metafile: true, logLevel: "silent",
  });
  cpSync(join(st.dir, "test", "runtimes", "inline", "index.html"), join(outDir, "index.html"));
  return entryFromMeta(res.metafile);
}

/** webpack 5 through its Node API, configured as a plain web app with no rules; page from test/runtimes/<page>/. */
async function bundleWithWebpack(st, page, outDir) {
  const webpack = require("webpack");
  versions.webpack = `webpack ${webpack.version}`;
  const stats = await new Promise((ok, fail) => {
    webpack({
      mode: "production", target: "web", context: st.dir, entry: `./test/runtimes/${page}/page.mjs`,
      output: { path: outDir, filename: "bundle.js" }, devtool: false, performance: { hints: false },
    }, (err, s) => (err ? fail(err) : s.hasErrors() ? fail(new Error(s.toString({ all: false, errors: true }).slice(0, 400))) : ok(s)));
  });
  cpSync(join(st.dir, "test", "runtimes", page, "index.html"), join(outDir, "index.html"));
  const files = stats.toJson({ all: false, modules: true, nestedModules: true }).modules
    .flatMap((m) => [m.nameForCondition, ...(m.modules ?? []).map((x) => x.nameForCondition)])
    .filter((p) => p && /node_modules\/@overturn\/fingerprint\/.*\.c?js$/.test(p)).map(rel);
  const unique = [...new Set(files)];
  return { entry: unique.length === 1 ? unique[0] : JSON.stringify(unique) };
}

// ---------------------------------------------------------------- sizes

async function sizes(st) {
  const out = [];
  const wasm = readFileSync(join(st.pkgDir, "dist", "fingerprint.wasm"));
  const gz = (b) => gzipSync(b, { level: 9 }).length;
  const entries = [
    ["dist/node.js", "node (import)", "esm", "core"],
    ["dist/node.cjs", "node (require)", "cjs", "core"],
    ["dist/index.js", "deno, bun, import (default), /inline", "esm", true],
    ["dist/index.cjs", "require (also browser + require)", "cjs", true],
    ["dist/browser.js", "browser (import)", "esm", false],
    ["dist/workerd.js", "workerd", "esm", false],
    ["dist/edge-light.js", "edge-light", "esm", false],
  ];
  for (const [file, conditions, format, embedded] of entries) {
    const res = await esbuild.build({
      entryPoints: [join(st.pkgDir, file)], bundle: true, write: false, minify: true, format, platform: "neutral",
      target: "es2022", external: ["*.wasm", "*.wasm?module"], logLevel: "silent",
    });
    const js = Buffer.from(res.outputFiles[0].contents);
    out.push({ file, conditions, min: js.length, gz: gz(js),
      wasm: embedded === "core" ? "core embedded (base64); engine.wasm read from disk on first use"
        : embedded ? "embedded (base64)" : `+ ${wasm.length} B .wasm (${gz(wasm)} B gzipped)`,
      total: embedded ? gz(js) : gz(js) + gz(wasm) });
  }
  return { entries: out, wasm: wasm.length, wasmGz: gz(wasm) };
}

// ---------------------------------------------------------------- report

function table() {
  const lines = ["| Runtime | Entry used | How it was tested | Result |", "|---|---|---|---|"];
  for (const r of rows) lines.push(`| ${r.runtime} | \`${r.entry}\` | ${r.how} | ${r.skipped ? "⏭️ " : r.ok ? "✅ " : "❌ "}${r.result} |`);
  return lines.join("\n");
}

function sizeTable(sz) {
  const lines = ["| Entry | Conditions | JS minified | JS min + gzip | wasm | app pays (gzip, JS + wasm) |", "|---|---|---:|---:|---|---:|"];
  for (const e of sz.entries) lines.push(`| \`${e.file}\` | ${e.conditions} | ${e.min} B | ${e.gz} B | ${e.wasm} | ${e.total} B |`);
  return lines.join("\n");
}

function coldTable() {
  const lines = ["| Runtime | Cold start | How |", "|---|---:|---|"];
  for (const c of colds) {
    if (c.median === undefined) { lines.push(`| ${c.runtime} | — | ${c.what} |`); continue; }
    const v = `${ms(c.median)} ms${c.min !== undefined ? ` (best ${ms(c.min)})` : ""}${c.extra !== undefined ? `; package ${c.extra >= 0 ? "+" : ""}${ms(c.extra)} ms` : ""}`;
    lines.push(`| ${c.runtime} | ${v} | ${c.what} |`);
  }
  return lines.join("\n");
}

function docs(sz, seconds) {
  return `# Runtimes

<!-- GENERATED by \`node scripts/test-runtimes.mjs --write-docs\` — edit the script, not this file. -->

Every row below comes from one run of \`scripts/test-runtimes.mjs\`, which is part
of the README's test command (\`npm test\`, so CI runs it). It packs the package
with \`npm pack\`, installs the tarball into a scratch folder's \`node_modules\`,
and runs **all** of \`vectors/fingerprint.vectors.json\` (text and value input,
canonical text, every error vector) and of \`vectors/diagnostics.vectors.json\`
(explain, diff, nearest on the second module) inside each real runtime; any difference
fails the run. Nothing is mocked: each runtime comes from the npm registry or
Debian's packages and runs offline.

## Which entry each runtime gets

\`package.json\` \`exports["."]\` conditions, first match wins:

| Condition | File | How the core loads |
|---|---|---|
| \`workerd\` | \`dist/workerd.js\` | \`import m from "./fingerprint.wasm"\` — Wrangler uploads it as a compiled \`WebAssembly.Module\`; instantiated once at module start-up; \`engine.wasm\` likewise, instantiated on the first explain. Sync API right after import. |
| \`edge-light\` | \`dist/edge-light.js\` | \`import m from "./fingerprint.wasm?module"\` — Vercel binds a compiled \`WebAssembly.Module\`; instantiated at start-up; \`engine.wasm?module\` likewise, instantiated on the first explain. Sync API right after import. |
| \`deno\`, \`bun\` | \`dist/index.js\` / \`dist/index.cjs\` | bytes embedded (base64), compiled synchronously on first use. |
| \`node\` | \`dist/node.js\` / \`dist/node.cjs\` | the core embedded (base64), compiled synchronously on first use; \`engine.wasm\` read from beside the entry on the first explain (not embedded: its base64 slowed every import). A bundled app that lost the file gets \`FingerprintError("not-initialized")\` naming \`initDiagnostics(bytes)\` and \`/inline\`. |
| \`browser\` + \`import\` | \`dist/browser.js\` | \`await init()\` fetches \`new URL("./fingerprint.wasm", import.meta.url)\` (Vite emits it as an asset — tested below in build and dev; webpack 5 and Parcel document the same pattern) and compiles it asynchronously; any call before that throws \`FingerprintError("not-initialized")\`. \`await initDiagnostics()\` fetches \`engine.wasm\` the same way for explain/diff/nearest. |
| \`browser\` + \`require\` | \`dist/index.cjs\` | a CommonJS bundle has no \`import.meta.url\` to find the file, so it gets the embedded bytes (sync; \`await init()\` still compiles asynchronously). |
| \`import\` / \`require\` (default) | \`dist/index.js\` / \`dist/index.cjs\` | embedded, sync. |

\`@overturn/fingerprint/inline\` is \`dist/index.js\` / \`dist/index.cjs\` under any
condition: the core embedded, synchronous after import, for bundlers that do
not emit the \`.wasm\` (esbuild, Rollup without a plugin; tested below with
esbuild and webpack — see [bundlers.md](bundlers.md)).
\`@overturn/fingerprint/fingerprint.wasm\` is the core itself, for
\`init(moduleOrBytes)\` anywhere else (copy the file and pass
\`await WebAssembly.compileStreaming(fetch(url))\` to \`init()\`).
\`deno\`, \`bun\` and \`node\` come before \`browser\` so that tools which add the
\`browser\` condition while running in Node (test environments) keep a sync entry;
\`deno\` and \`bun\` come before \`node\`, which those runtimes also match.

## Results

${table()}

Whole run: ${seconds.toFixed(0)} s on a 2-core machine of the CI kind. Versions: ${Object.entries(versions).map(([, v]) => v).join("; ")}.

## Size

The \`.wasm\` core is ${sz.wasm} B (${(sz.wasm / 1024).toFixed(1)} KiB; ${sz.wasmGz} B gzipped). Each entry bundled alone by
esbuild (\`--minify\`, \`.wasm\` external), gzip level 9:

${sizeTable(sz)}

## Cold start (import → first fingerprint)

${coldTable()}

Before timing, each host program imports a trivial package, so the runtime's
one-time module-loader set-up is not billed to this one, then times a second
trivial package ("an empty package" above): that part of the import is what
Node charges for any package. The run fails when the best of ${NODE_COLD_RUNS} fresh
processes of the Node sync entry takes ${NODE_COLD_GUARD_MS} ms or more (a regression
guard); the CI machine is shared with other jobs, so read medians as upper bounds.
`;
}

// ---------------------------------------------------------------- main

const st = stage();
try {
  await packaging(st);
  await nodeRows(st);
  await denoBunRows(st);
  await workerdRow(st);
  await edgeRow(st);
  await chromiumRows(st);
  const sz = await sizes(st);
  const seconds = (performance.now() - started) / 1000;
  console.log(`\n${table()}\n\n${sizeTable(sz)}\n\n${coldTable()}\n`);
  if (WRITE_DOCS) {
    writeFileSync(join(ROOT, "docs", "runtimes.md"), docs(sz, seconds));
    console.log("wrote docs/runtimes.md");
  }
  const failed = rows.filter((r) => !r.ok).length;
  const skipped = rows.filter((r) => r.skipped).length;
  console.log(`runtime run took ${seconds.toFixed(1)} s`);
  console.log(`runtimes: ${rows.length - failed - skipped} passed, ${failed} failed${skipped ? `, ${skipped} ${NO_CHROMIUM}` : ""}`);
  process.exitCode = failed ? 1 : 0;
} finally {
  if (!KEEP) rmSync(st.dir, { recursive: true, force: true });
  else console.log(`kept ${st.dir}`);
}
