// Bench helper (internal): compiles AssemblyScript entries the way the
// shipped core is built (scripts/build-wasm.mjs: asc with asconfig.json's
// release target, then wasm-opt -O3 with the same features), so bench-only
// entries over assembly/ internals run at the shipped module's speed.
// `names: true` keeps the name section (asc --debug, wasm-opt -g) for
// `node --cpu-prof`. Compiling takes ~10 s of CPU per entry, so outputs are
// cached in the OS temp dir under a hash of every input file and flag.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = new URL("..", import.meta.url).pathname;
const CACHE = join(tmpdir(), "overturn-bench-wasm");
const bin = (name) => join(ROOT, "node_modules", ".bin", name);

function filesUnder(dir) {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile() && d.name.endsWith(".ts"))
    .map((d) => join(d.parentPath ?? d.path, d.name))
    .sort();
}

/** Compiles `entry` (path from the repo root) and returns the wasm bytes. */
export function compileEntry(entry, { names = false } = {}) {
  const asc = ["--config", "asconfig.json", "--target", "release", ...(names ? ["--debug"] : [])];
  const opt = ["-O3", "--converge", names ? "-g" : "--strip-debug", "--strip-producers",
    "--enable-bulk-memory", "--enable-sign-ext", "--enable-mutable-globals", "--enable-nontrapping-float-to-int"];
  const h = createHash("sha256").update(JSON.stringify([entry, asc, opt]));
  for (const f of [join(ROOT, entry), join(ROOT, "asconfig.json"), ...filesUnder("assembly")]) h.update(f).update(readFileSync(f));
  const key = h.digest("hex").slice(0, 16);
  const out = join(CACHE, `${key}.wasm`);
  if (!existsSync(out)) {
    mkdirSync(CACHE, { recursive: true });
    const raw = join(CACHE, `${key}.${process.pid}.raw`);
    process.stderr.write(`  compiling ${entry}${names ? " (with names)" : ""} (cached afterwards)…\n`);
    execFileSync(bin("asc"), [entry, ...asc, "--outFile", raw], { cwd: ROOT, stdio: ["ignore", "ignore", "ignore"] });
    execFileSync(bin("wasm-opt"), [raw, ...opt, "-o", `${raw}.opt`], { cwd: ROOT, stdio: "inherit" });
    renameSync(`${raw}.opt`, out);
    rmSync(raw);
  }
  return readFileSync(out);
}

export function instantiate(bytes) {
  return new WebAssembly.Instance(new WebAssembly.Module(bytes), {}).exports;
}
