// vectors/cli.vectors.json run against both CLIs: `node dist/cli.js` and,
// when the repository's .venv exists (scripts/test-python.sh makes it and
// installs ./python there), `python -m overturn.fingerprint`. Expected bytes come from the
// oracle (test/reference/cli.mjs); the twin runner is
// python/tests/test_cli_vectors.py.
import { afterAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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

  it("--jobs 2 over several chunks: every line, in input order, counts merged", () => {
    const p = join(dir, "big.jsonl");
    const n = 40_000; // ~2.6 MB: three 1 MiB chunks
    const lines = Array.from({ length: n }, (_, i) => (i === 12_345 ? "{bad\n"
      : `{"name":"t${i % 3}","args":{"i":${i},"pad":"${"x".repeat(40)}","rid":"r${i}"},"ignoreArgs":["rid"]}\n`));
    writeFileSync(p, lines.join(""));
    const want = lines.map((l, i) => (i === 12_345 ? ""
      : `${sha(`tool_call\nt${i % 3}\n{"i":${i},"pad":"${"x".repeat(40)}"}`)}  t${i % 3}\n`)).join("");
    for (const jobs of ["1", "2"]) {
      const r = run(["--jobs", jobs, p]);
      expect(r.stdout.toString() === want, `--jobs ${jobs}`).toBe(true);
      expect(r.stderr.toString()).toBe(`${p}:12346: invalid JSON: unexpected character at byte 1 (line 1, column 2, "b")\n1 of ${n} lines failed\n`);
      expect(r.status).toBe(1);
    }
  });
});

// Where a JSON error is, as the SDKs' error path asks the core (assembly/cli/message.ts); expected by hand.
it("says where a JSON error is: byte, line, column, the character (issue 11)", async () => {
  await import("../src/index.js"); // the embedded diagnostics module
  const { jsonErrorAt } = await import("../src/_diagnostics_wasm.js");
  const { positions } = JSON.parse(readFileSync(join(ROOT, "vectors", "cli.vectors.json"), "utf8")) as
    { positions: { text?: string; hex?: string; offset: number; want: string }[] };
  for (const p of positions) {
    expect(jsonErrorAt(p.hex !== undefined ? Buffer.from(p.hex, "hex") : p.text!, p.offset)).toBe(p.want);
  }
});
