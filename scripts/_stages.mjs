// Runs test stages in order, each one even when an earlier one failed, and
// prints one summary whose last line is `stages: N passed, N failed`
// (scripts/test-all.mjs is the user; test/stages.test.ts runs it on stand-in
// commands). Internal, test-only tooling.
import { spawn } from "node:child_process";

function runCommand(cmd, args, cwd) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, stdio: "inherit" });
    child.on("error", (err) => {
      console.error(`${cmd}: ${err.message}`);
      resolve(127);
    });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

/**
 * @param stages [name, [[cmd, args], …]][]: a stage fails at its first failing command
 * @param cwd where the commands run
 * @returns the number of failed stages
 */
export async function runStages(stages, cwd) {
  const results = [];
  for (const [name, commands] of stages) {
    console.log(`\n=== stage ${name} ===`);
    const t0 = performance.now();
    let code = 0;
    for (const [cmd, args] of commands) {
      code = await runCommand(cmd, args, cwd);
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
  return failed;
}
