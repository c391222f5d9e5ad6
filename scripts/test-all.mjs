// `npm test`: runs every test stage in order, each one even when an earlier
// one failed, so a newcomer sees every problem from one run, then prints one
// summary of all stages and exits 1 if any failed. The last line has the
// `N passed, N failed` shape CI reads. Test-only tooling; not shipped.
//
//   node scripts/test-all.mjs            all stages
//   node scripts/test-all.mjs vitest pack   only the named stages
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const node = process.execPath;
const bin = (name) => `node_modules/.bin/${name}`;

// Each stage is a list of commands run in sequence; the first failing command
// fails the stage. The build stage comes first because vitest reads the test
// wasm and the runtime matrix packs dist/, but a failed build does not stop
// the others: they then report their own (clearer) failures.
const STAGES = [
  ["build", [[node, ["scripts/build-test-wasm.mjs"]], [bin("tsup"), ["--silent"]]]],
  ["vitest", [[bin("vitest"), ["run"]]]],
  ["runtimes", [[node, ["scripts/test-runtimes.mjs"]]]],
  ["pack", [[node, ["scripts/test-pack.mjs"]]]],
  ["python", [["bash", ["scripts/test-python.sh"]]]],
];

function runCommand(cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: "inherit" });
    child.on("error", (err) => {
      console.error(`${cmd}: ${err.message}`);
      resolve(127);
    });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !STAGES.some(([name]) => name === w));
if (unknown.length) {
  console.error(`unknown stage ${unknown.join(", ")}; stages: ${STAGES.map(([n]) => n).join(", ")}`);
  process.exit(2);
}

const results = [];
for (const [name, commands] of STAGES) {
  if (wanted.length && !wanted.includes(name)) continue;
  console.log(`\n=== stage ${name} ===`);
  const t0 = performance.now();
  let code = 0;
  for (const [cmd, args] of commands) {
    code = await runCommand(cmd, args);
    if (code !== 0) break;
  }
  results.push({ name, code, seconds: (performance.now() - t0) / 1000 });
}

console.log("\n=== summary ===");
for (const r of results) {
  console.log(`${r.code === 0 ? "ok  " : "FAIL"} ${r.name.padEnd(9)} ${r.seconds.toFixed(1).padStart(6)} s${r.code ? ` (exit ${r.code})` : ""}`);
}
const failed = results.filter((r) => r.code !== 0).length;
console.log(`stages: ${results.length - failed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
