// The reference documents follow the code they describe: the generated
// call-shape table matches its vectors, every error code of the core's ABI,
// every CLI option of --help and every public name of both SDKs is in its
// document, and every vectors file names the contract version it pins.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: plain JavaScript generator without types
import { CALL_SHAPES_DOC_PATH, render } from "../scripts/gen-call-shapes-doc.mjs";
import { FINGERPRINT_VERSION } from "./reference/contract.mjs";
import * as sdk from "../src/index.js";

const ROOT = resolve(__dirname, "..");
const read = (p: string) => readFileSync(join(ROOT, p), "utf8");

describe("docs/call-shapes-table.md", () => {
  it("is what scripts/gen-call-shapes-doc.mjs makes from vectors/call-shapes.vectors.json", () => {
    expect(readFileSync(CALL_SHAPES_DOC_PATH, "utf8")).toBe(render());
  });
});

describe("docs/errors.md", () => {
  const abi = read("assembly/abi.ts");
  const codes = new Set([
    ...[...abi.matchAll(/\/\/ error: ([a-z-]+) \|/g)].map((m) => m[1]),
    ...[...abi.matchAll(/\/\/ word: ([a-z-]+) \|/g)].map((m) => m[1]).filter((c) => c !== "-"),
    "not-initialized", // the TypeScript host's own: no module is loaded to word it
  ]);
  const doc = read("docs/errors.md");
  const listed = new Set([...doc.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]));

  it("lists every error code of assembly/abi.ts, and no other", () => {
    expect(codes.size).toBeGreaterThan(20);
    expect([...listed].sort()).toEqual([...codes].sort());
  });
});

describe("docs/cli.md", () => {
  const help = (args: string[]) => spawnSync(process.execPath, [join(ROOT, "dist", "cli.js"), ...args], { encoding: "utf8" }).stdout;
  const texts = [help(["--help"]), ...["explain", "verify", "why", "replay"].map((c) => help([c, "--help"]))];
  const options = new Set(texts.flatMap((t) => [...t.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0])));
  const doc = read("docs/cli.md");

  it("documents every option --help names", () => {
    expect(options.size).toBeGreaterThanOrEqual(8);
    expect([...options].filter((o) => !doc.includes(`\`${o}`))).toEqual([]);
  });

  it("documents every command", () => {
    for (const c of ["explain", "verify", "why", "replay"]) expect(doc).toContain(`## ${c}`);
  });
});

describe("API documents", () => {
  it("docs/api-typescript.md names every export of the package", () => {
    const doc = read("docs/api-typescript.md");
    const names = [...Object.keys(sdk), "init", "initDiagnostics"];
    expect(names.filter((n) => !doc.includes(`\`${n}`))).toEqual([]);
  });

  it("docs/api-python.md names every public name of overturn.fingerprint", () => {
    const init = read("python/overturn/fingerprint/__init__.py");
    const all = [...init.slice(init.indexOf("\n__all__ = [")).matchAll(/"(\w+)"/g)].map((m) => m[1]);
    expect(all.length).toBeGreaterThan(10);
    const doc = read("docs/api-python.md");
    expect(all.filter((n) => !doc.includes(`\`${n}`))).toEqual([]);
  });
});

describe("vectors/", () => {
  // reject.jsonl is a corpus of malformed documents, one a line, read as is by
  // every host: no line can carry a header, and no contract version makes them valid.
  const files = readdirSync(join(ROOT, "vectors")).filter((f) => f.endsWith(".json"));

  it.each(files)("%s names the contract version it pins", (f) => {
    const v = JSON.parse(read(`vectors/${f}`)) as { FINGERPRINT_VERSION?: number; version?: number };
    expect(v.FINGERPRINT_VERSION ?? v.version).toBe(FINGERPRINT_VERSION);
  });
});
