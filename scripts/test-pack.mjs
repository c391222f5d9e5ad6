// `npm pack` from a clean clone: copies the files a clone would
// have (tracked, plus new files not ignored — the next commit's tree; no
// dist/, no build outputs beyond the committed ones), links this checkout's
// node_modules in place of `npm ci` (offline), packs there with lifecycle
// scripts on, and checks that `prepack` built dist/, that the tarball holds
// exactly the expected files with the repository's README (the same text
// serves GitHub and npm), and that the packed package works when installed
// (ESM, CJS and the CLI). Test-only tooling; not shipped.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const EXPECTED = [
  "LICENSE", "README.md", "package.json",
  "dist/browser.d.ts", "dist/browser.js", "dist/cli-worker.cjs", "dist/cli.js", "dist/engine.wasm", "dist/engine.wasm.sha256",
  "dist/edge-light.d.ts", "dist/edge-light.js",
  "dist/fingerprint.wasm", "dist/fingerprint.wasm.sha256", "dist/index.cjs", "dist/index.d.cts",
  "dist/index.d.ts", "dist/index.js", "dist/node.cjs", "dist/node.d.cts", "dist/node.d.ts", "dist/node.js",
  "dist/workerd.d.ts", "dist/workerd.js",
];
// A vector of vectors/fingerprint.vectors.json's kind: search {"q":"cats"}.
const PROBE = `sha256("tool_call\\nsearch\\n{\\"q\\":\\"cats\\"}")`;
const probeHex = createHash("sha256").update('tool_call\nsearch\n{"q":"cats"}').digest("hex");

const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 300_000 });
const sha = (file) => createHash("sha256").update(readFileSync(file)).digest("hex");
const problems = [];
const check = (ok, what) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) problems.push(what);
};

const tmp = mkdtempSync(join(tmpdir(), "overturn-pack-"));
try {
  const clone = join(tmp, "clone");
  const files = run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], ROOT).split("\0").filter(Boolean);
  for (const f of files) {
    if (!existsSync(join(ROOT, f))) continue; // deleted in the working tree
    mkdirSync(dirname(join(clone, f)), { recursive: true });
    copyFileSync(join(ROOT, f), join(clone, f));
  }
  check(!existsSync(join(clone, "dist")), "the clean clone has no dist/");
  symlinkSync(join(ROOT, "node_modules"), join(clone, "node_modules"), "dir");

  const t0 = performance.now();
  // The lifecycle scripts print to the same stdout: the report is the last JSON array.
  const out = run("npm", ["pack", "--json", "--pack-destination", tmp], clone);
  const packed = JSON.parse(out.slice(out.lastIndexOf("\n[\n") + 1))[0];
  console.log(`npm pack (prepack builds wasm + dist) took ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const got = packed.files.map((f) => f.path).sort();
  const missing = EXPECTED.filter((f) => !got.includes(f));
  const extra = got.filter((f) => !EXPECTED.includes(f));
  check(!missing.length && !extra.length,
    `tarball holds exactly the ${EXPECTED.length} expected files${missing.length ? `; missing ${missing.join(", ")}` : ""}${extra.length ? `; unexpected ${extra.join(", ")}` : ""}`);

  const pkgDir = join(tmp, "app", "node_modules", "@overturn", "fingerprint");
  mkdirSync(pkgDir, { recursive: true });
  run("tar", ["-xzf", join(tmp, packed.filename), "-C", pkgDir, "--strip-components=1"], tmp);
  check(readFileSync(join(pkgDir, "README.md"), "utf8") === readFileSync(join(ROOT, "README.md"), "utf8"),
    "the tarball's README.md is the repository's README.md (one text for GitHub and npm)");
  check(sha(join(pkgDir, "dist", "fingerprint.wasm")) === sha(join(ROOT, "build", "fingerprint.wasm")),
    "the packed core is build/fingerprint.wasm byte for byte");
  check(sha(join(pkgDir, "dist", "engine.wasm")) === sha(join(ROOT, "build", "engine.wasm")),
    "the packed engine module is build/engine.wasm byte for byte");

  const app = join(tmp, "app");
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
  const esm = run(process.execPath, ["--input-type=module", "-e",
    'import { fingerprint } from "@overturn/fingerprint"; console.log(fingerprint("search", { q: " cats " }))'], app).trim();
  check(esm === probeHex, `installed tarball, ESM import: fingerprint = ${PROBE}`);
  const cjs = run(process.execPath, ["-e",
    'console.log(require("@overturn/fingerprint").fingerprint("search", { q: "cats", x: null }))'], app).trim();
  check(cjs === probeHex, `installed tarball, CJS require: fingerprint = ${PROBE}`);
  // The node entry reads engine.wasm beside itself (src/node.ts): the tarball must carry it there.
  const explained = run(process.execPath, ["--input-type=module", "-e",
    'import { explain } from "@overturn/fingerprint"; console.log(explain("search", { q: " cats " }).fingerprint)'], app).trim();
  check(explained === probeHex, `installed tarball, ESM explain() (engine.wasm read beside dist/node.js) = ${PROBE}`);
  writeFileSync(join(app, "calls.jsonl"), '{"name":"search","args":{"q":"cats"}}\n');
  const cli = run(process.execPath, [join(pkgDir, "dist", "cli.js"), "calls.jsonl"], app).trim();
  check(cli.startsWith(probeHex), "installed tarball, the overturn-fingerprint CLI prints the same fingerprint");
  // Its worker threads start from their own entry (dist/cli-worker.cjs): three 1 MiB chunks, dealt in turn.
  writeFileSync(join(app, "many.jsonl"), '{"name":"search","args":{"q":"cats"}}\n'.repeat(70_000));
  const trace = join(app, "trace.json");
  const jobs = execFileSync(process.execPath, [join(pkgDir, "dist", "cli.js"), "--jobs", "2", "many.jsonl"], {
    cwd: app, encoding: "utf8", maxBuffer: 1 << 26, env: { ...process.env, OVERTURN_FINGERPRINT_JOBS_MIN_BYTES: "0",
      OVERTURN_FINGERPRINT_JOBS_DEAL: "1", OVERTURN_FINGERPRINT_JOBS_TRACE: trace },
  }).split("\n");
  const ran = JSON.parse(readFileSync(trace, "utf8"));
  check(jobs.length === 70_001 && jobs.slice(0, -1).every((l) => l.startsWith(probeHex)) && ran.workers === 1 && ran.chunks[1] > 0,
    "installed tarball, the CLI with a worker thread (--jobs 2) prints the same fingerprints");
} catch (err) {
  check(false, `pack from a clean clone: ${String(err.stderr || err.message).trim().split("\n").slice(-5).join(" | ")}`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
console.log(`pack: ${problems.length ? 0 : 1} passed, ${problems.length ? 1 : 0} failed`);
process.exitCode = problems.length ? 1 : 0;
