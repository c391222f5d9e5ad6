// Where the time of one SDK call goes, by function (bench-only): runs
// fingerprint / fingerprintJSON in a loop in a fresh child process under the
// V8 sampling profiler (node:inspector, what `node --cpu-prof` uses; started
// after a warm-up so set-up is not sampled), with the core built from
// assembly/ with its name section kept (bench/_wasm.mjs, names: true) and
// handed to the SDK via init(), so wasm frames carry their AssemblyScript
// names. Prints self time per function; inlined helpers count in their
// caller, and V8 builtins such as JSON.stringify count in the JS function
// that calls them.
//
//   node bench/cpuprof.mjs [small|medium|large|wide ...] [--text] [--seconds 4] [--top 18]
//
// Sampling interval 50 µs. The profile is of dist/index.js: run tsup first.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { compileEntry } from "./_wasm.mjs";

const argv = process.argv.slice(2);

if (argv[0] === "--child") {
  const [, name, mode, seconds, out] = argv;
  const { fingerprint, fingerprintJSON, init } = (await import("./_sdk.mjs")).sdk;
  const { payloads, TOOL_NAME } = await import("./payloads.mjs");
  await init(compileEntry("assembly/entry/fingerprint.ts", { names: true }));
  const p = payloads().find((x) => x.name === name);
  const op = mode === "text" ? () => fingerprintJSON(TOOL_NAME, p.json) : () => fingerprint(TOOL_NAME, p.value);
  const loop = (ms) => {
    const end = performance.now() + ms;
    let n = 0;
    while (performance.now() < end) for (let i = 0; i < 4; i++, n++) op();
    return n;
  };
  loop(1000); // warm-up: tier-up of JS and wasm
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 50 });
  await session.post("Profiler.start");
  const n = loop(Number(seconds) * 1e3);
  const { profile } = await session.post("Profiler.stop");
  writeFileSync(out, JSON.stringify(profile));
  process.stderr.write(`${name}/${mode}: ${n} calls profiled\n`);
  process.exit(0);
}

const opt = (f, d) => (argv.includes(f) ? argv[argv.indexOf(f) + 1] : d);
const seconds = opt("--seconds", "4");
const top = Number(opt("--top", "18"));
const mode = argv.includes("--text") ? "text" : "value";
const names = argv.filter((a) => ["small", "medium", "large", "wide"].includes(a));

/** Self time per function from a .cpuprofile: [[label, ms]] sorted, and the total. */
export function selfTimes(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = (profile.timeDeltas[i] ?? 0) / 1e3;
    const cf = byId.get(profile.samples[i]).callFrame;
    if (cf.functionName === "(idle)") continue;
    const where = cf.url.startsWith("wasm://") ? "wasm" : cf.url ? `${basename(cf.url)}:${cf.lineNumber + 1}` : "";
    const label = `${cf.functionName || "(anonymous)"} ${where}`.trim();
    self.set(label, (self.get(label) ?? 0) + dt);
    total += dt;
  }
  return { rows: [...self].sort((a, b) => b[1] - a[1]), total };
}

compileEntry("assembly/entry/fingerprint.ts", { names: true }); // compile (or hit the cache) before any child starts
for (const name of names.length ? names : ["small", "medium", "large", "wide"]) {
  const file = join(mkdtempSync(join(tmpdir(), "fp-cpuprof-")), `${name}.cpuprofile`);
  execFileSync(process.execPath, [new URL(import.meta.url).pathname, "--child", name, mode, seconds, file],
    { stdio: ["ignore", "inherit", "inherit"] });
  const { rows, total } = selfTimes(JSON.parse(readFileSync(file, "utf8")));
  console.log(`\n${name} (${mode === "text" ? "fingerprintJSON" : "fingerprint"}): self time, top ${top} of ${total.toFixed(0)} ms sampled`);
  for (const [label, ms] of rows.slice(0, top)) {
    console.log(`  ${((ms / total) * 100).toFixed(1).padStart(5)}%  ${label}`);
  }
}
