// The stage runner behind `npm test` (scripts/_stages.mjs): a failing stage
// does not stop the later ones, a stage stops at its first failing command,
// and the summary's last line counts both. Stand-in stages are tiny `node -e`
// programs that leave a mark in a scratch folder.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(__dirname, "..");

function runner(stages: unknown): { code: number | null; out: string } {
  const program = `import { runStages } from ${JSON.stringify(join(ROOT, "scripts", "_stages.mjs"))};
process.exitCode = (await runStages(${JSON.stringify(stages)}, process.cwd())) ? 1 : 0;`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", program], { encoding: "utf8" });
  return { code: r.status, out: r.stdout };
}

describe("test stage runner", () => {
  it("runs every stage after a failure and sums them up", () => {
    const dir = mkdtempSync(join(tmpdir(), "overturn-stages-"));
    try {
      const touch = (name: string) => [process.execPath, ["-e", `require("fs").writeFileSync(${JSON.stringify(join(dir, name))}, "")`]];
      const fail = (code: number) => [process.execPath, ["-e", `process.exit(${code})`]];
      const { code, out } = runner([
        ["first", [fail(3), touch("after-failure-in-same-stage")]],
        ["second", [touch("second")]],
        ["third", [fail(1)]],
        ["fourth", [touch("fourth")]],
      ]);
      expect(code).toBe(1);
      expect(existsSync(join(dir, "after-failure-in-same-stage"))).toBe(false);
      expect(existsSync(join(dir, "second")) && existsSync(join(dir, "fourth"))).toBe(true);
      const lines = out.trim().split("\n");
      expect(lines.at(-1)).toBe("stages: 2 passed, 2 failed");
      expect(lines.filter((l) => /^(ok|FAIL) /.test(l)).map((l) => l.split(/\s+/).slice(0, 2).join(" ")))
        .toEqual(["FAIL first", "ok second", "FAIL third", "ok fourth"]);
      expect(out).toMatch(/FAIL first .*\(exit 3\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("passes when every stage passes, and a missing program fails its stage", () => {
    expect(runner([["a", [[process.execPath, ["-e", ""]]]]])).toMatchObject({ code: 0 });
    const r = runner([["a", [["overturn-no-such-program", []]]], ["b", [[process.execPath, ["-e", ""]]]]]);
    expect(r.code).toBe(1);
    expect(r.out.trim().split("\n").at(-1)).toBe("stages: 1 passed, 1 failed");
  });
});
