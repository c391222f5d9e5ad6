// The CLI over a recording, side by side, each a fresh process
// timed from spawn to exit (start-up included; wall and CPU time), interleaved
// rounds, medians:
//   - `overturn-fingerprint --jobs 1 FILE` vs a user's own loop (readline,
//     JSON.parse, fingerprint; target: the CLI >= 4x faster);
//   - `--jobs 2` vs `--jobs 1` (target >= 1.7x on two cores): the median of
//     each round's ratio, the two run back to back, which goes first
//     alternating (on a shared machine the load drifts over seconds: a
//     ratio of two medians taken minutes apart moves more);
//   - peak RSS of the CLI at 200,000 and 400,000 lines (constant).
// The recording is made by bench/cli-recording.mjs in a temporary folder.
//   node bench/cli.mjs [--lines 200000] [--rounds 5] [--no-loop] [--json FILE]
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { writeRecording } from "./cli-recording.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const arg = (name, dflt) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : dflt; };
const LINES = Number(arg("--lines", 200_000));
const ROUNDS = Number(arg("--rounds", 5));
const JSON_OUT = arg("--json", null);
const LOOP_ROWS = !process.argv.includes("--no-loop"); // --no-loop: only the two CLI rows (the loop takes 5x their time)

const dir = mkdtempSync(join(tmpdir(), "overturn-cli-bench-"));
const CLI = join(ROOT, "dist", "cli.js");
// The loop a user writes in ten lines, against the same dist/ build.
const LOOP = join(dir, "loop.mjs");
writeFileSync(LOOP, `import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { fingerprint } from ${JSON.stringify(join(ROOT, "dist", "index.js"))};
const out = [];
for await (const line of createInterface({ input: createReadStream(process.argv[2]) })) {
  if (!line.trim()) continue;
  const c = JSON.parse(line);
  out.push(fingerprint(c.name, c.args, { kind: c.kind, matchOn: c.matchOn, ignoreArgs: c.ignoreArgs }) + "  " + c.name + "\\n");
  if (out.length === 4096) { process.stdout.write(out.join("")); out.length = 0; }
}
process.stdout.write(out.join(""));
`);
// Peak RSS of a node process, written at exit (threads included: one process).
const RSS = join(dir, "rss.cjs");
writeFileSync(RSS, `process.on("exit", () => require("fs").writeFileSync(process.env.RSS_OUT, String(process.resourceUsage().maxRSS)));`);
// CPU time (user + system, every thread of the process), written at exit: on a
// shared machine it moves less with the load than wall time does.
const CPU = join(dir, "cpu.cjs"), CPU_OUT = join(dir, "cpu");
writeFileSync(CPU, `process.on("exit", () => { const u = process.cpuUsage(); require("fs").writeFileSync(${JSON.stringify(CPU_OUT)}, String((u.user + u.system) / 1000)); });`);

function time(args, env = {}) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, ...env } });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(" ")} exited ${r.status}`);
  return ms;
}

/** [wall ms, CPU ms] of one run. */
function timeCpu(args) {
  const wall = time(["--require", CPU, ...args]);
  return [wall, Number(readFileSync(CPU_OUT, "utf8"))];
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

try {
  const file = join(dir, "recording.jsonl");
  const bytes = await writeRecording(file, LINES);
  const double = join(dir, "recording-2x.jsonl");
  await writeRecording(double, 2 * LINES);
  console.log(`recording: ${LINES.toLocaleString("en-US")} lines, ${(bytes / 1e6).toFixed(1)} MB (bench/cli-recording.mjs)`);
  const load0 = loadavg()[0];
  const rows = { loop: [], jobs1: [], jobs2: [] }, cpu = { loop: [], jobs1: [], jobs2: [] };
  const run = (k, args) => { const [w, c] = timeCpu(args); rows[k].push(w); cpu[k].push(c); };
  const cli = (jobs) => run(`jobs${jobs}`, [CLI, "--jobs", String(jobs), file]);
  for (let r = 0; r < ROUNDS; r++) {
    if (LOOP_ROWS) run("loop", [LOOP, file]);
    if (r % 2 === 0) { cli(1); cli(2); } else { cli(2); cli(1); }
  }
  const load1 = loadavg()[0];
  const m = Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, median(v)]));
  const c = Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, median(v)]));
  const rss = (f, jobs) => {
    const out = join(dir, "rss");
    time(["--require", RSS, CLI, "--jobs", String(jobs), f], { RSS_OUT: out });
    return Number(readFileSync(out, "utf8"));
  };
  const peak = { jobs1: [rss(file, 1), rss(double, 1)], jobs2: [rss(file, 2), rss(double, 2)] };
  const lps = (ms) => Math.round(LINES / (ms / 1000)).toLocaleString("en-US");
  console.log(`load average (1 min) ${load0.toFixed(1)} before, ${load1.toFixed(1)} after, on ${availableParallelism()} cores`);
  console.log(`\n| | median wall ms | lines/s | median CPU ms |\n|---|---:|---:|---:|`);
  if (LOOP_ROWS) console.log(`| a user's loop (readline, JSON.parse, fingerprint) | ${m.loop.toFixed(0)} | ${lps(m.loop)} | ${c.loop.toFixed(0)} |`);
  console.log(`| overturn-fingerprint --jobs 1 | ${m.jobs1.toFixed(0)} | ${lps(m.jobs1)} | ${c.jobs1.toFixed(0)} |`);
  console.log(`| overturn-fingerprint --jobs 2 | ${m.jobs2.toFixed(0)} | ${lps(m.jobs2)} | ${c.jobs2.toFixed(0)} |`);
  const vsLoop = m.loop / m.jobs1, pairs = rows.jobs1.map((w, r) => w / rows.jobs2[r]), vsOne = median(pairs);
  if (LOOP_ROWS) {
    console.log(`\nCLI --jobs 1 vs the loop: ${vsLoop.toFixed(2)}x wall (target 4x) ${vsLoop >= 4 ? "PASS" : "MISS"}, ` +
      `${(c.loop / c.jobs1).toFixed(2)}x CPU`);
  }
  console.log(`--jobs 2 vs --jobs 1:     ${vsOne.toFixed(2)}x wall, the median of ${ROUNDS} rounds' ratios ` +
    `(${Math.min(...pairs).toFixed(2)}-${Math.max(...pairs).toFixed(2)}; of the medians ${(m.jobs1 / m.jobs2).toFixed(2)}x) ` +
    `(target 1.7x) ${vsOne >= 1.7 ? "PASS" : "MISS"}`);
  for (const [k, [a, b]] of Object.entries(peak)) {
    console.log(`peak RSS --${k.replace("jobs", "jobs ")}: ${(a / 1024).toFixed(1)} MB at ${LINES.toLocaleString("en-US")} lines, ` +
      `${(b / 1024).toFixed(1)} MB at ${(2 * LINES).toLocaleString("en-US")} (${b - a >= 0 ? "+" : ""}${((b - a) / 1024).toFixed(1)} MB)`);
  }
  if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify({ lines: LINES, bytes, rounds: ROUNDS, load: [load0, load1], rows, median: m, cpuMs: cpu, medianCpu: c, peakRssKB: peak }, null, 2) + "\n");
} finally {
  rmSync(dir, { recursive: true, force: true });
}
