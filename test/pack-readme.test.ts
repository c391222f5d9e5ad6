// scripts/pack-readme.mjs (prepack/postpack): the tarball gets npm/README.md,
// the checkout keeps its README.md, also when a pack died between the two
// steps. Runs the script on a scratch copy of the three files it touches.
import { afterEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(__dirname, "..");
let dir = "";

function checkout(): string {
  dir = mkdtempSync(join(tmpdir(), "overturn-readme-"));
  mkdirSync(join(dir, "scripts"));
  mkdirSync(join(dir, "npm"));
  copyFileSync(join(ROOT, "scripts", "pack-readme.mjs"), join(dir, "scripts", "pack-readme.mjs"));
  writeFileSync(join(dir, "README.md"), "developers\n");
  writeFileSync(join(dir, "npm", "README.md"), "users\n");
  return dir;
}

const step = (name: string) => spawnSync(process.execPath, [join(dir, "scripts", "pack-readme.mjs"), name], { encoding: "utf8" });
const readme = () => readFileSync(join(dir, "README.md"), "utf8");
const backups = () => readdirSync(tmpdir()).filter((f) => f.startsWith("overturn-fingerprint-README-"));

afterEach(() => {
  step("restore");
  rmSync(dir, { recursive: true, force: true });
});

describe("pack-readme", () => {
  it("swaps the users' README in for the pack and puts the developers' back", () => {
    checkout();
    const before = backups().length;
    expect(step("swap").status).toBe(0);
    expect(readme()).toBe("users\n");
    expect(backups().length).toBe(before + 1);
    expect(step("restore").status).toBe(0);
    expect(readme()).toBe("developers\n");
    expect(backups().length).toBe(before);
  });

  it("repairs a pack that died after the swap", () => {
    checkout();
    step("swap");
    expect(step("swap").status).toBe(0); // the next pack: must not back up the users' README
    expect(readme()).toBe("users\n");
    step("restore");
    expect(readme()).toBe("developers\n");
    expect(step("restore").status).toBe(0); // nothing to restore: a no-op
    expect(readme()).toBe("developers\n");
  });

  it("rejects an unknown step", () => {
    checkout();
    const r = step("publish");
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/usage/);
    expect(readme()).toBe("developers\n");
  });
});
