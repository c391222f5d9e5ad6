// The core's layers (assembly/): no import circle, and the pipeline below
// the operations that run their calls through it. The dispatcher
// (request.ts) alone routes a host's request to the CLI engine (cli/), the
// replay index (replay.ts) or the diff (diff.ts); the pipeline (pipeline.ts:
// read call → select → canonical → digest) imports none of them, so a call
// can never re-enter an operation and a module's import graph shows what it
// holds. Read from the sources: every relative import, resolved to a file.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const core = resolve(dirname(fileURLToPath(import.meta.url)), "..", "assembly");

type Graph = Map<string, string[]>;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith(".ts") ? [p] : [];
  });
}

// `import … from "./x"` and `export … from "./x"` at a line's start (they may span lines).
const IMPORT = /^[ \t]*(?:import|export)\b[^;]*?\bfrom\s*["'](\.{1,2}\/[^"']*)["']/gm;

/** File → the files it imports, as absolute paths; an import that names no file is an error. */
function importGraph(dir: string): Graph {
  const graph: Graph = new Map();
  for (const file of sources(dir)) {
    const deps = new Set<string>();
    for (const m of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const target = resolve(dirname(file), m[1].endsWith(".ts") ? m[1] : m[1] + ".ts");
      if (!existsSync(target)) throw new Error(`${relative(dir, file)} imports ${m[1]}: no such file`);
      deps.add(target);
    }
    graph.set(file, [...deps]);
  }
  return graph;
}

/** Tarjan's strongly connected components that are circles: two files or more, or a file importing itself. */
function circles(graph: Graph): string[][] {
  let next = 0;
  const index = new Map<string, number>(), low = new Map<string, number>();
  const stack: string[] = [], onStack = new Set<string>(), found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next); low.set(v, next); next++;
    stack.push(v); onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const scc: string[] = [];
    let w: string;
    do { w = stack.pop()!; onStack.delete(w); scc.push(w); } while (w !== v);
    if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(scc.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** Every file reachable from `from` by imports (itself included). */
function closure(graph: Graph, from: string): Set<string> {
  const seen = new Set<string>([from]);
  const todo = [from];
  while (todo.length > 0) for (const w of graph.get(todo.pop()!) ?? []) if (!seen.has(w)) { seen.add(w); todo.push(w); }
  return seen;
}

const name = (p: string) => relative(core, p).split("\\").join("/");

describe("the finder itself", () => {
  it("finds circles of any length and self-imports, and nothing in a chain", () => {
    const g: Graph = new Map([
      ["a", ["b"]], ["b", ["c"]], ["c", ["a", "d"]], ["d", ["e"]], ["e", []], ["f", ["f"]], ["g", ["h"]], ["h", ["g"]],
    ]);
    expect(circles(g).map((c) => c.join(" ")).sort()).toEqual(["a b c", "f", "g h"]);
    expect(circles(new Map([["a", ["b"]], ["b", ["c"]], ["c", []]]))).toEqual([]);
  });

  it("reads multi-line and mid-file imports and re-exports", () => {
    const text = 'import {\n  a,\n  b,\n} from "./x";\nconst s = 1;\nimport { c } from "../y";\nexport { d } from "./z";\n'
      + '// not an import: from "./w"\n';
    expect([...text.matchAll(IMPORT)].map((m) => m[1])).toEqual(["./x", "../y", "./z"]);
  });
});

describe("the core's layers", () => {
  const graph = importGraph(core);

  it("reads the whole core", () => {
    // The entries and the pipeline are where the layers below are measured from.
    for (const f of ["index.ts", "diagnostics.ts", "request.ts", "pipeline.ts", "cli/out.ts", "replay.ts"]) {
      expect(graph.has(join(core, f)), f).toBe(true);
    }
    expect(graph.size).toBeGreaterThan(40);
  });

  it("has no import circle", () => {
    expect(circles(graph).map((c) => c.map(name).join(" ↔ "))).toEqual([]);
  });

  it("the pipeline imports nothing above it: no CLI engine, replay, diff, dispatcher or entry", () => {
    const above = (f: string) => f.startsWith("cli/")
      || ["replay.ts", "diff.ts", "request.ts", "batch.ts", "index.ts", "diagnostics.ts"].includes(f);
    const reached = [...closure(graph, join(core, "pipeline.ts"))].map(name);
    expect(reached.filter(above)).toEqual([]);
    // It does hold the steps it is made of.
    for (const f of ["call.ts", "select.ts", "json/writer.ts", "sha256.ts", "explain.ts"]) expect(reached).toContain(f);
  });

  it("only the dispatcher imports the operations (the entries sit above it)", () => {
    // cli/_emit.ts is a sink helper (literals and bytes) that replay.ts's output shares, not the engine.
    const operation = (f: string) => (f.startsWith("cli/") && f !== "cli/_emit.ts") || f === "replay.ts" || f === "diff.ts";
    const importers = new Set<string>();
    for (const [file, deps] of graph) {
      const f = name(file);
      if (operation(f)) continue; // the operations use one another (the CLI's why and replay)
      if (deps.map(name).some(operation)) importers.add(f);
    }
    expect([...importers].sort()).toEqual(["diagnostics.ts", "request.ts"]);
  });
});
