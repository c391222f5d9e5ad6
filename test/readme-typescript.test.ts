// Every ```ts block of README.md and npm/README.md (the users' README) is a
// whole program: it compiles under `tsc --strict` against the SDK's types
// (its import of "@overturn/fingerprint" mapped to src/), and it runs under
// Node from the repository root (the import pointed at dist/, TypeScript
// removed by esbuild) without an error. What the replay blocks print is
// checked by test/readme-replay.test.ts.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { transformSync } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "..");
const BLOCKS = ["README.md", "npm/README.md"].flatMap((file) => {
  const text = readFileSync(join(ROOT, file), "utf8");
  return [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m, i) => ({
    id: `${file} block ${i + 1} (line ${text.slice(0, m.index).split("\n").length})`, code: m[1],
  }));
});
const dir = mkdtempSync(join(tmpdir(), "overturn-readme-ts-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("README TypeScript blocks", () => {
  it("there are blocks", () => {
    expect(BLOCKS.length).toBeGreaterThanOrEqual(10);
  });

  it("all compile with tsc --strict", () => {
    BLOCKS.forEach((b, i) => writeFileSync(join(dir, `block${i}.ts`), `// ${b.id}\n${b.code}\nexport {};\n`));
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({
      compilerOptions: {
        target: "ES2022", module: "ESNext", moduleResolution: "Bundler", lib: ["ES2022", "DOM"], strict: true, noEmit: true,
        skipLibCheck: true, types: ["node"], typeRoots: [join(ROOT, "node_modules", "@types")],
        paths: { "@overturn/fingerprint": [join(ROOT, "src", "index.ts")] },
      },
      include: ["block*.ts"],
    }));
    const r = spawnSync(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", join(dir, "tsconfig.json")],
      { cwd: ROOT, encoding: "utf8" });
    // A failing block is named by its file: block<i>.ts is BLOCKS[i].
    expect(r.stdout.replace(/block(\d+)\.ts/g, (_m, i: string) => BLOCKS[Number(i)].id) + r.stderr).toBe("");
    expect(r.status).toBe(0);
  }, 120_000);

  it.each(BLOCKS.map((b) => [b.id, b.code] as const))("%s runs", (_id, code) => {
    const js = transformSync(code, { loader: "ts", format: "esm" }).code
      .replace(/(["'])@overturn\/fingerprint\1/g, JSON.stringify(join(ROOT, "dist", "index.js")));
    const file = join(dir, `run-${Math.random().toString(36).slice(2)}.mjs`);
    writeFileSync(file, js);
    const r = spawnSync(process.execPath, [file], { cwd: ROOT, encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });
});
