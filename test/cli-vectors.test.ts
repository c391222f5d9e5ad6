// vectors/cli.vectors.json run against both CLIs: `node dist/cli.js` and,
// when the repository's .venv exists (scripts/test-python.sh makes it and
// installs ./python there), `python -m overturn.fingerprint`. Expected bytes come from the
// oracle (test/reference/cli.mjs); the twin runner is
// python/tests/test_cli_vectors.py.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
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
