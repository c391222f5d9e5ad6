// Start-up benchmark: what a fresh process pays from the import
// of a fingerprinting library to its first fingerprint, in Node and Python,
// against the alternatives measured the same way. Not part of the test gate.
//
//   npm run build && node bench/startup.mjs [--rounds 21]
//
// Method: every sample is a new process that times itself with its own
// monotonic clock (performance.now / time.perf_counter), from just before
// the import to just after the first fingerprint; the variants run
// interleaved, round after round, so machine load hits them alike; medians.
// Node: a trivial package is imported first (the ESM loader's one-time
// set-up is billed to no one), then "empty" imports a second trivial package
// — what any package costs — against which ours and safe-stable-stringify +
// node:crypto are compared. Python: against `import wasmtime` alone, ours
// with a warm module cache (OVERTURN_FINGERPRINT_CACHE_DIR, primed once) and
// with the cache off, and rfc8785 + hashlib. Python comes from the .venv
// that scripts/test-python.sh makes (run `npm test` or that script once);
// rfc8785 is a bench-only install: `.venv/bin/pip install rfc8785==0.1.4`.
// Writes bench/results/startup.json.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const at = process.argv.indexOf("--rounds");
const ROUNDS = at > 0 ? Number(process.argv[at + 1]) : 21;
const PYTHON = join(ROOT, ".venv", "bin", "python");
const ARGS = { q: " cats ", limit: 10, tags: ["a", "b"] };

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const ms = (x) => `${x.toFixed(1)} ms`;

const NODE_PROBE = `
await import("overturn-warmup");
const which = process.argv[2];
const args = ${JSON.stringify(ARGS)};
const t0 = performance.now();
let fp = "";
if (which === "empty") {
  await import("overturn-empty");
} else if (which === "ours") {
  const { fingerprint } = await import("@overturn/fingerprint");
  fp = fingerprint("search", args);
} else {
  const [{ default: stringify }, { createHash }] = await Promise.all([import("safe-stable-stringify"), import("node:crypto")]);
  fp = createHash("sha256").update("tool_call\\nsearch\\n" + stringify(args)).digest("hex");
}
console.log(JSON.stringify({ ms: performance.now() - t0, fp }));
`;

const PY_PROBES = {
  wasmtime: "import wasmtime",
  ours: "from overturn.fingerprint import fingerprint\nfp = fingerprint('search', ARGS)",
  rfc8785: "import hashlib, rfc8785\nfp = hashlib.sha256(b'tool_call\\nsearch\\n' + rfc8785.dumps(ARGS)).hexdigest()",
};
const pyProgram = (body) => `import time, json, sys
ARGS = json.loads(sys.argv[1])
t0 = time.perf_counter()
${body}
print(json.dumps({"ms": (time.perf_counter() - t0) * 1000}))
`;

function stageNode(dir) {
  const nm = join(dir, "node_modules");
  for (const name of ["overturn-warmup", "overturn-empty"]) {
    mkdirSync(join(nm, name), { recursive: true });
    writeFileSync(join(nm, name, "package.json"), JSON.stringify({ name, version: "1.0.0", type: "module", exports: "./index.js" }));
    writeFileSync(join(nm, name, "index.js"), "export const x = 1;\n");
  }
  mkdirSync(join(nm, "@overturn"), { recursive: true });
  symlinkSync(ROOT, join(nm, "@overturn", "fingerprint"), "dir");
  symlinkSync(join(ROOT, "node_modules", "safe-stable-stringify"), join(nm, "safe-stable-stringify"), "dir");
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "startup-bench", private: true, type: "module" }));
  writeFileSync(join(dir, "probe.mjs"), NODE_PROBE);
}

const sample = (cmd, args, opts) => JSON.parse(execFileSync(cmd, args, { encoding: "utf8", ...opts }).trim().split("\n").pop());

const dir = mkdtempSync(join(tmpdir(), "overturn-startup-"));
try {
  if (!existsSync(join(ROOT, "dist", "index.js"))) throw new Error("dist/ is missing: npm run build first");
  stageNode(dir);
  const cache = join(dir, "py-cache");
  const pyEnv = {
    "ours (warm cache)": { ...process.env, OVERTURN_FINGERPRINT_CACHE_DIR: cache },
    "ours (no cache)": { ...process.env, OVERTURN_FINGERPRINT_NO_CACHE: "1" },
  };
  const python = existsSync(PYTHON);
  let rfc = false;
  if (python) {
    rfc = execFileSync(PYTHON, ["-c", "import importlib.util as u; print(u.find_spec('rfc8785') is not None)"], { encoding: "utf8" }).trim() === "True";
    if (!rfc) console.log("rfc8785 not installed in .venv: its row is left out (.venv/bin/pip install rfc8785==0.1.4)");
    sample(PYTHON, ["-c", pyProgram(PY_PROBES.ours), JSON.stringify(ARGS)], { env: pyEnv["ours (warm cache)"] }); // primes the cache
  } else {
    console.log(".venv is missing: Python rows left out (bash scripts/test-python.sh makes it)");
  }
  const loadBefore = loadavg()[0];
  const node = { empty: [], ours: [], "safe-stable-stringify + node:crypto": [] };
  const py = { "import wasmtime": [], "ours (warm cache)": [], "ours (no cache)": [], ...(rfc ? { "rfc8785 + hashlib": [] } : {}) };
  for (let i = 0; i < ROUNDS; i++) {
    for (const [name, which] of [["empty", "empty"], ["ours", "ours"], ["safe-stable-stringify + node:crypto", "sss"]]) {
      node[name].push(sample(process.execPath, ["probe.mjs", which], { cwd: dir }).ms);
    }
    if (!python) continue;
    const arg = JSON.stringify(ARGS);
    py["import wasmtime"].push(sample(PYTHON, ["-c", pyProgram(PY_PROBES.wasmtime), arg]).ms);
    for (const name of ["ours (warm cache)", "ours (no cache)"]) {
      py[name].push(sample(PYTHON, ["-c", pyProgram(PY_PROBES.ours), arg], { env: pyEnv[name] }).ms);
    }
    if (rfc) py["rfc8785 + hashlib"].push(sample(PYTHON, ["-c", pyProgram(PY_PROBES.rfc8785), arg]).ms);
  }
    // Other jobs on the machine inflate every row; the load average says how much to trust the run.
  const result = { date: new Date().toISOString(), node: process.version, rounds: ROUNDS, loadAverage1m: [loadBefore, loadavg()[0]],
    medians: {}, best: {} };
  const emptyMed = median(node.empty);
  console.log(`\nload average (1 min) ${loadBefore.toFixed(1)} before, ${loadavg()[0].toFixed(1)} after`);
  console.log(`\nNode ${process.version}, ${ROUNDS} fresh processes per row, interleaved (import → first fingerprint):`);
  console.log("| library | median | best | median more than an empty package |\n|---|---:|---:|---:|");
  for (const [name, xs] of Object.entries(node)) {
    const m = median(xs);
    result.medians[`node: ${name}`] = m;
    result.best[`node: ${name}`] = Math.min(...xs);
    console.log(`| ${name} | ${ms(m)} | ${ms(Math.min(...xs))} | ${name === "empty" ? "—" : `+${ms(m - emptyMed)}`} |`);
  }
  if (python) {
    const base = median(py["import wasmtime"]);
    console.log(`\nPython (.venv), ${ROUNDS} fresh processes per row, interleaved (import → first fingerprint):`);
    console.log("| library | median | best | median more than `import wasmtime` |\n|---|---:|---:|---:|");
    for (const [name, xs] of Object.entries(py)) {
      const m = median(xs);
      result.medians[`python: ${name}`] = m;
      result.best[`python: ${name}`] = Math.min(...xs);
      console.log(`| ${name} | ${ms(m)} | ${ms(Math.min(...xs))} | ${name === "import wasmtime" ? "—" : `${m - base >= 0 ? "+" : ""}${ms(m - base)}`} |`);
    }
  }
  mkdirSync(join(ROOT, "bench", "results"), { recursive: true });
  writeFileSync(join(ROOT, "bench", "results", "startup.json"), JSON.stringify(result, null, 2) + "\n");
} finally {
  rmSync(dir, { recursive: true, force: true });
}
