// Every code block of the user documents (test/helpers/doc-blocks.ts lists
// them and the rules) does what the document says:
// - ```ts blocks compile under `tsc --strict` against the SDK's types (the
//   import of "@overturn/fingerprint" mapped to src/), and ```ts / ```js
//   blocks run under Node from the repository root (the import pointed at
//   the built dist/), printing the ```text block that follows, if any;
// - ```sh / ```console commands of the CLI run the built CLI and print what
//   the document shows; install and set-up commands are checked against the
//   package files they name (running them needs the network).
// The ```python blocks and `python -m overturn.fingerprint` commands run in
// python/tests/test_doc_blocks.py.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { transformSync } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { ALL_BLOCKS, type Command, DOCUMENTS, ROOT, commandsOf } from "./helpers/doc-blocks.js";

const TS = ALL_BLOCKS.filter((b) => b.lang === "ts");
const JS_RUN = ALL_BLOCKS.filter((b) => b.lang === "ts" || b.lang === "js");
const COMMANDS = ALL_BLOCKS.flatMap(commandsOf);
const dir = mkdtempSync(join(tmpdir(), "overturn-doc-blocks-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { name: string; scripts: Record<string, string> };
const pyproject = readFileSync(join(ROOT, "python", "pyproject.toml"), "utf8");

describe("documents", () => {
  it("every block is tagged, so none escapes these rules", () => {
    expect(DOCUMENTS.length).toBeGreaterThanOrEqual(12);
    expect(ALL_BLOCKS.filter((b) => b.lang === "").map((b) => b.id)).toEqual([]);
    expect(TS.length).toBeGreaterThanOrEqual(10);
  });
});

describe("TypeScript and JavaScript blocks", () => {
  it("all ```ts blocks compile with tsc --strict", () => {
    TS.forEach((b, i) => writeFileSync(join(dir, `block${i}.ts`), `// ${b.id}\n${b.code}\nexport {};\n`));
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({
      compilerOptions: {
        target: "ES2022", module: "ESNext", moduleResolution: "Bundler", lib: ["ES2022", "DOM"], strict: true, noEmit: true,
        skipLibCheck: true, types: ["node"], typeRoots: [join(ROOT, "node_modules", "@types")],
        paths: { "@overturn/fingerprint": [join(ROOT, "src", "index.ts")], "@overturn/fingerprint/inline": [join(ROOT, "src", "index.ts")] },
      },
      include: ["block*.ts"],
    }));
    const r = spawnSync(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", join(dir, "tsconfig.json")],
      { cwd: ROOT, encoding: "utf8" });
    // A failing block is named by its document and line: block<i>.ts is TS[i].
    expect(r.stdout.replace(/block(\d+)\.ts/g, (_m, i: string) => TS[Number(i)].id) + r.stderr).toBe("");
    expect(r.status).toBe(0);
  }, 120_000);

  it.each(JS_RUN.map((b) => [b.id, b] as const))("%s runs and prints what the document shows", (_id, b) => {
    const js = transformSync(b.code, { loader: "ts", format: "esm" }).code
      .replace(/(["'])@overturn\/fingerprint(?:\/inline)?\1/g, JSON.stringify(join(ROOT, "dist", "index.js")));
    const file = join(dir, `run-${Math.random().toString(36).slice(2)}.mjs`);
    writeFileSync(file, js);
    const r = spawnSync(process.execPath, [file], { cwd: ROOT, encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    if (b.expected !== undefined) expect(r.stdout).toBe(b.expected);
  });
});

/** A command's words; "double quotes" keep spaces. */
const words = (s: string) => [...s.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]);

/** What a command shown in a document must be true of, or the CLI run it stands for. */
function check(c: Command): void {
  const w = words(c.command);
  if (w[0] === "npx") w.shift();
  if (w[0] === "overturn-fingerprint") {
    const r = spawnSync(process.execPath, [join(ROOT, "dist", "cli.js"), ...w.slice(1)], { cwd: ROOT, encoding: "utf8" });
    expect(r.status, r.stderr).not.toBe(2); // not a usage error
    expect(r.status, r.stderr).not.toBe(null);
    if (c.expected !== undefined) expect(r.stdout).toBe(c.expected);
    return;
  }
  const line = c.command;
  if (/^python3? -m overturn\.fingerprint\b/.test(line)) return; // run by python/tests/test_doc_blocks.py
  let m: RegExpMatchArray | null;
  if ((m = line.match(/^npm install (\S+)$/))) return void expect(m[1]).toBe(pkg.name);
  if ((m = line.match(/^pip install "?([a-z-]+)(?:\[([a-z]+)\])?"?(?: .*)?$/))) {
    expect(pyproject).toContain(`name = "${m[1]}"`);
    if (m[2]) expect(pyproject).toMatch(new RegExp(`^${m[2]} = \\[`, "m"));
    return;
  }
  if ((m = line.match(/^go get (\S+)$/))) return void expect(readFileSync(join(ROOT, "go", "go.mod"), "utf8")).toContain(`module ${m[1]}\n`);
  if (line === "npm ci && npm test") {
    expect(pkg.scripts.test).toBeDefined();
    return void expect(readFileSync(join(ROOT, ".ci", "run"), "utf8")).toMatch(/^npm test$/m);
  }
  if ((m = line.match(/^(?:npm ci && )?npm run ([\w:]+)/))) return void expect(pkg.scripts[m[1]], line).toBeDefined();
  // Benchmarks and generators: too slow (or writing files) for a test; the script they name must exist.
  if ((m = line.match(/^(?:node(?: --[\w-]+)*|python3?|bash) ((?:bench|scripts|python\/bench|python\/examples)\/[\w./-]+)/))) {
    return void expect(existsSync(join(ROOT, m[1])), m[1]).toBe(true);
  }
  throw new Error(`${c.block.id}: no rule for the command \`${line}\` (test/doc-blocks.test.ts)`);
}

describe("command blocks", () => {
  it("there are commands", () => {
    expect(COMMANDS.length).toBeGreaterThanOrEqual(5);
  });

  it.each(COMMANDS.map((c) => [`${c.block.id}: ${c.command}`, c] as const))("%s", (_id, c) => check(c));

  it("npm run example prints what the Develop section says", () => {
    expect(pkg.scripts.example).toBe("tsup --silent && node dist/cli.js examples/recording.jsonl");
    const r = spawnSync(process.execPath, [join(ROOT, "dist", "cli.js"), "examples/recording.jsonl"], { cwd: ROOT, encoding: "utf8" });
    expect(r.status).toBe(0);
    const fps = r.stdout.trim().split("\n").map((l) => l.split("  ")[0]);
    expect(fps[0]).toBe(fps[1]); // lines 1–2 and 3–4: the same call written differently
    expect(fps[2]).toBe(fps[3]);
  });
});
