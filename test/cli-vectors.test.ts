// vectors/cli.vectors.json run against both CLIs: `node dist/cli.js` and,
// when the repository's .venv exists (scripts/test-python.sh makes it and
// installs ./python there), `python -m overturn.fingerprint`. Expected bytes come from the
// oracle (test/reference/cli.mjs); the twin runner is
// python/tests/test_cli_vectors.py.
import { afterAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(__dirname, "..");
const PKG = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
const VENV_PY = join(ROOT, ".venv", process.platform === "win32" ? "Scripts/python.exe" : "bin/python");

interface Case { id: string; args: string[]; stdout: string; stderr: string; exit: number }
const { cases } = JSON.parse(readFileSync(join(ROOT, "vectors", "cli.vectors.json"), "utf8")) as { cases: Case[] };

const CLIS = [
  { prog: "overturn-fingerprint", cmd: [process.execPath, join(ROOT, "dist", "cli.js")] },
  ...(existsSync(VENV_PY) ? [{
    prog: "python -m overturn.fingerprint", cmd: [VENV_PY, "-m", "overturn.fingerprint"],
  }] : []),
];

const fill = (s: string, prog: string) => s.replaceAll("{prog}", prog).replaceAll("{pkg}", PKG);

describe.each(CLIS)("$prog", ({ prog, cmd }) => {
  it.each(cases)("$id", (c) => {
    const r = spawnSync(cmd[0], [...cmd.slice(1), ...c.args], { cwd: ROOT, encoding: "utf8" });
    expect({ stdout: r.stdout, stderr: r.stderr, exit: r.status })
      .toEqual({ stdout: fill(c.stdout, prog), stderr: fill(c.stderr, prog), exit: c.exit });
  });
});

it("vectors/cli.vectors.json is fresh (scripts/gen-cli-vectors.mjs --check)", () => {
  const r = spawnSync(process.execPath, [join(ROOT, "scripts", "gen-cli-vectors.mjs"), "--check"], { encoding: "utf8" });
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
});

// Inputs too large for the vectors file, made here; expected bytes from node:crypto over hand-written preimages.
describe.each(CLIS)("$prog, generated inputs", ({ cmd }) => {
  const dir = mkdtempSync(join(tmpdir(), "overturn-cli-vectors-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const sha = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");
  const run = (args: string[]) => spawnSync(cmd[0], [...cmd.slice(1), ...args], { cwd: ROOT, maxBuffer: 1 << 28 });

  it("reads lines cut anywhere by its 1 MiB reads: ending on a read, longer than 64 KiB or than a read, the last without \\n", () => {
    // A read ends anywhere; the driver (assembly/cli/drive.ts) has the host keep a cut line and read on after it.
    const line = (k: number) => `{"name":"t","args":{"s":"${"x".repeat(k)}"}}\n`;
    const MiB = 1 << 20, over = line(0).length;
    const lens = [MiB - over, 10, 70_000, 300, (1 << 16) - over, 5, 2 * MiB + 3, 64, 1000, 200_000];
    let left = 3 * MiB; // then short lines up to the next read's end, then one across it
    const rest: number[] = [];
    for (let i = 0; left > 0; i++) { rest.push(i % 50); left -= over + (i % 50); }
    const all = [...lens, ...rest, 150_000, 7];
    const text = all.map(line).join("").slice(0, -1); // the last line without its "\n"
    expect(text.slice(0, MiB).endsWith("}}\n")).toBe(true); // the first line ends where the first read does
    const p = join(dir, "cut.jsonl");
    writeFileSync(p, text);
    const r = run([p]);
    expect(r.stderr.toString()).toBe("");
    expect(r.stdout.toString() === all.map((k) => `${sha(`tool_call\nt\n{"s":"${"x".repeat(k)}"}`)}  t\n`).join("")).toBe(true);
  });

  it("reads a line whose args nest 100,000 levels (D19)", () => {
    const n = 100_000;
    const p = join(dir, "deep.jsonl");
    writeFileSync(p, `{"name":"deep","args":${"[".repeat(n)}1${"]".repeat(n)}}\n`);
    const r = run([p]);
    expect({ out: r.stdout.toString(), err: r.stderr.toString(), code: r.status })
      .toEqual({ out: `${sha(`tool_call\ndeep\n${"[".repeat(n)}1${"]".repeat(n)}`)}  deep\n`, err: "", code: 0 });
  });

  it("skips a BOM, CRLF and blank lines; reads a last line without newline", () => {
    const p = join(dir, "crlf.jsonl");
    writeFileSync(p, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('{"name":"a","args":1}\r\n\r\n  \t\n{"name":"b","argsJSON":"[1.0]"}')]));
    expect(run([p]).stdout.toString()).toBe(`${sha("tool_call\na\n1")}  a\n${sha("tool_call\nb\n[1]")}  b\n`);
  });

  // Tests only (src/cli.ts, python/overturn/fingerprint/_cli.py): workers whatever the size, chunks dealt in turn
  // (main, worker 1, …) once all have started, and each job's chunk count written to a file at the end.
  const jobsEnv = (trace: string, minBytes = "0") => ({ ...process.env, OVERTURN_FINGERPRINT_JOBS_MIN_BYTES: minBytes,
    OVERTURN_FINGERPRINT_JOBS_DEAL: "1", OVERTURN_FINGERPRINT_JOBS_TRACE: trace });
  const trace = (f: string) => JSON.parse(readFileSync(f, "utf8")) as { workers: number; chunks: number[] };
  const runEnv = (args: string[], env: NodeJS.ProcessEnv) => spawnSync(cmd[0], [...cmd.slice(1), ...args], { cwd: ROOT, env, maxBuffer: 1 << 28 });
  const big = (n: number, bad: number, name = "t") => {
    const lines = Array.from({ length: n }, (_, i) => (i === bad ? "{bad\n"
      : `{"name":"${name}${i % 3}","args":{"i":${i},"pad":"${"x".repeat(40)}","rid":"r${i}"},"ignoreArgs":["rid"]}\n`));
    const want = lines.map((l, i) => (i === bad ? ""
      : `${sha(`tool_call\n${name}${i % 3}\n{"i":${i},"pad":"${"x".repeat(40)}"}`)}  ${name}${i % 3}\n`)).join("");
    return { text: lines.join(""), want };
  };

  it("--jobs 1, 2, 3 over several chunks, run by the main job and the workers: every line, in input order, counts merged", () => {
    const p = join(dir, "big.jsonl");
    const { text, want } = big(40_000, 12_345); // ~3.5 MB: four 1 MiB chunks
    writeFileSync(p, text);
    const t = join(dir, "trace.json");
    let chunks = 0;
    for (const jobs of [1, 2, 3]) {
      const r = runEnv(["--jobs", String(jobs), p], jobsEnv(t));
      expect(r.stdout.toString() === want, `--jobs ${jobs}`).toBe(true);
      expect(r.stderr.toString()).toBe(`${p}:12346: invalid JSON: unexpected character at byte 1 (line 1, column 2, "b")\n1 of 40000 lines failed\n`);
      expect(r.status).toBe(1);
      if (jobs === 1) chunks = trace(t).chunks[0];
      // Dealt in turn: chunk i to job i mod jobs, job 0 the main one.
      expect(trace(t), `--jobs ${jobs}`).toEqual({ workers: jobs - 1,
        chunks: Array.from({ length: jobs }, (_, k) => Array.from({ length: chunks }, (_, i) => i).filter((i) => i % jobs === k).length) });
    }
    expect(chunks).toBeGreaterThanOrEqual(3);
  });

  it("--jobs 3 over two files and a missing one: line numbers per file, the missing file reported, counts merged", () => {
    const a = join(dir, "a.jsonl"), b = join(dir, "b.jsonl"), t = join(dir, "trace2.json");
    const A = big(30_000, -1, "a"), B = big(30_000, 20_000, "b");
    writeFileSync(a, A.text);
    writeFileSync(b, B.text);
    const missing = join(dir, "missing.jsonl");
    const r = runEnv(["--jobs", "3", a, missing, b], jobsEnv(t));
    expect(r.stdout.toString() === A.want + B.want).toBe(true);
    expect(r.stderr.toString()).toBe(`${missing}: no such file\n` +
      `${b}:20001: invalid JSON: unexpected character at byte 1 (line 1, column 2, "b")\n1 of 60000 lines failed\n`);
    expect(r.status).toBe(1);
    expect(trace(t).workers).toBe(2);
    expect(trace(t).chunks.every((c) => c > 0)).toBe(true);
  });
});

// The core's plan, progress line and read-error words (assembly/cli/plan.ts, progress.ts, errno.ts), the same
// vectors as the Python SDK's: the steps the CLIs call, asked directly, as a host passes their parts.
describe("plan, progress and read errors from the core", async () => {
  await import("../src/index.js");
  const { cliStep } = await import("../src/_engine.js");
  const { FINGERPRINT_VERSION } = await import("../src/index.js");
  const V = JSON.parse(readFileSync(join(ROOT, "vectors", "cli.vectors.json"), "utf8")) as {
    FINGERPRINT_VERSION: number; plans: { id: string; argv: [string, number | null][]; facts: Record<string, string | number>; plan: string[] }[];
    progress: { id: string; steps: [string | null, string][] }[]; errno: { name: string; words: string }[];
  };
  const argvOf = (argv: [string, number | null][]) => Buffer.concat(argv.map(([a, n]) => Buffer.from(`${n ?? "-"}:${a}\0`)));
  const factsOf = (f: Record<string, string | number>) => Buffer.from(Object.entries(f).map(([k, v]) => `${k}=${v}\0`).join(""));
  const planned = () => cliStep("plan", argvOf([["f", 1]]), "p", "1", factsOf({ cores: 1, worker: "thread" }));
  const text = (b: Uint8Array) => Buffer.from(b).toString("utf8");

  it("pins the contract version the SDK implements", () => expect(V.FINGERPRINT_VERSION).toBe(FINGERPRINT_VERSION));
  it.each(V.plans)("plan $id", (c) => {
    const r = cliStep("plan", argvOf(c.argv), "p", "1", factsOf(c.facts));
    expect({ code: r.code, plan: text(r.state).split("\0").slice(0, -1) }).toEqual({ code: -1, plan: c.plan });
  });
  it.each(V.progress)("progress $id", (c) => {
    planned();
    for (const [numbers, want] of c.steps) expect(text(cliStep("progress", "f", "", numbers ?? "").err)).toBe(want);
  });
  it.each(V.errno)("read error $name", ({ name, words }) => {
    planned();
    expect(text(cliStep("unreadable", "f", "", name).err)).toBe(`f: ${words}\n`);
  });
});

// Where a JSON error is, as the core's "position" step words it (assembly/cli/message.ts); expected by hand.
it("says where a JSON error is: byte, line, column, the character", async () => {
  await import("../src/index.js"); // the embedded diagnostics module
  const { cliStep } = await import("../src/_engine.js");
  const at = (text: string | Uint8Array, offset: number) => new TextDecoder().decode(cliStep("position", text, "", String(offset)).out);
  const { positions } = JSON.parse(readFileSync(join(ROOT, "vectors", "cli.vectors.json"), "utf8")) as
    { positions: { text?: string; hex?: string; offset: number; want: string }[] };
  for (const p of positions) {
    expect(at(p.hex !== undefined ? Buffer.from(p.hex, "hex") : p.text!, p.offset)).toBe(p.want);
  }
});

// The core's line count of a chunk (the "lines" step: the next chunk's first line number when chunks go to
// workers), against a count by hand: newlines at every offset around the 16-byte steps, a last line without one.
it("counts a chunk's lines as the chunk step numbers them", async () => {
  await import("../src/index.js");
  const { cliStep } = await import("../src/_engine.js");
  const byHand = (b: Uint8Array) => b.filter((c) => c === 10).length + (b.length && b[b.length - 1] !== 10 ? 1 : 0);
  let seed = 7;
  const rnd = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n);
  for (let len = 0; len <= 70; len++) {
    for (let k = 0; k < 6; k++) {
      const b = Uint8Array.from({ length: len }, () => (rnd(4) === 0 ? 10 : 0x61 + rnd(3)));
      expect(cliStep("lines", "", "", "", b).lines).toBe(byHand(b));
    }
  }
  const big = new TextEncoder().encode('{"name":"t","args":{"é":1}}\n'.repeat(5000) + "{last");
  expect(cliStep("lines", "", "", "", big).lines).toBe(5001);
});

// What a new host writes first: the core's driver loop (assembly/cli/drive.ts) without workers (the
// plan starts none on one core), four actions, in this process, over every CLI vector.
describe("the driver's loop in a host of a few lines", async () => {
  await import("../src/index.js");
  const { cliStep } = await import("../src/_engine.js");
  const { CLI_EXIT, CLI_NEXT, CLI_READ, CLI_READ_ALL } = await import("../src/_abi.gen.js");
  const errName = (e: unknown) => (e as { code?: string }).code ?? "-";
  function host(args: string[]): { stdout: string; stderr: string; exit: number } {
    const size = (a: string) => { try { return String(statSync(join(ROOT, a)).size); } catch { return "-"; } };
    const out: Uint8Array[] = [], err: Uint8Array[] = [];
    let block = new Uint8Array(0), fd = -1, path = "";
    let r = cliStep("start", Buffer.concat(args.map((a) => Buffer.from(`${size(a)}:${a}\0`))), "{prog}", "{pkg}",
      Buffer.from("cores=1\0worker=thread\0"));
    for (;;) {
      out.push(r.out); err.push(r.err);
      const file = join(ROOT, Buffer.from(r.data).toString()); // the vectors' paths are from the repository root
      let aux = "", bytes = new Uint8Array(0);
      if (r.op === CLI_EXIT) return { stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString(), exit: r.code };
      if (r.op === CLI_READ) {
        const buf = Buffer.alloc(r.lines + r.arg);
        buf.set(block.subarray(block.length - r.lines));
        try {
          if (file !== path) [fd, path] = [openSync(file, "r"), file];
          const n = readSync(fd, buf, r.lines, r.arg, null);
          aux = n ? "" : "EOF";
          bytes = block = buf.subarray(0, r.lines + n);
        } catch (e) { aux = errName(e); }
        if (aux) { if (fd >= 0) closeSync(fd); [fd, path] = [-1, ""]; }
      } else if (r.op === CLI_READ_ALL) {
        try { bytes = readFileSync(file); } catch (e) { aux = errName(e); }
      } else if (r.op !== CLI_NEXT) throw new Error(`a run without workers asked for action ${r.op}`);
      r = cliStep("next", r.state, "0", aux, bytes);
    }
  }
  it.each(cases.filter((c) => !c.args.includes("-")))("$id", (c) => {
    expect(host(c.args)).toEqual({ stdout: c.stdout, stderr: c.stderr, exit: c.exit });
  });
});
