// The README's "Replay in five lines" runs as written: each ```ts block of
// the section (its import of "@overturn/fingerprint" pointed at dist/) is run
// by Node from the repository root, and its output must be the ```text block
// that follows it. The Python blocks: python/tests/test_readme_replay.py.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "..");
const readme = readFileSync(join(ROOT, "README.md"), "utf8");
const section = readme.slice(readme.indexOf("## Replay in five lines"), readme.indexOf("\n## ", readme.indexOf("## Replay in five lines") + 3));
const blocks = [...section.matchAll(/```ts\n([\s\S]*?)```\n\n```text\n([\s\S]*?)```/g)].map((m) => [m[1], m[2]] as const);

describe("README: Replay in five lines (TypeScript)", () => {
  it("has its examples", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(3);
  });

  it.each(blocks.map((b, i) => [i + 1, ...b] as const))("example %i prints what the README shows", (_i, code, want) => {
    const dir = mkdtempSync(join(tmpdir(), "overturn-readme-replay-"));
    try {
      const file = join(dir, "example.mjs");
      writeFileSync(file, code.replace('"@overturn/fingerprint"', JSON.stringify(join(ROOT, "dist", "index.js"))));
      const r = spawnSync(process.execPath, [file], { cwd: ROOT, encoding: "utf8" });
      expect(r.stderr).toBe("");
      expect(r.stdout).toBe(want);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// The CLI gate (```sh blocks): the command as written, run by this CLI; its
// stdout must be the ```text block, and the exit status 1 when a call missed.
const gates = [...section.matchAll(/```sh\n(?:npx )?overturn-fingerprint ([^\n]*)\n```\n\n```text\n([\s\S]*?)```/g)]
  .map((m) => [m[1].split(" "), m[2]] as const);

describe("README: Replay in five lines (the CLI gate)", () => {
  it("has its gate", () => {
    expect(gates.length).toBeGreaterThanOrEqual(1);
  });

  it.each(gates.map((g, i) => [i + 1, ...g] as const))("gate %i prints what the README shows", (_i, args, want) => {
    const r = spawnSync(process.execPath, [join(ROOT, "dist", "cli.js"), ...args], { cwd: ROOT, encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(want);
    expect(r.status).toBe(want.includes("  miss  ") ? 1 : 0);
  });
});
