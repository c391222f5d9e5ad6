// The core's layers (assembly/): no import circle, and the pipeline below
// the operations that run their calls through it. The dispatcher
// (entry/dispatch.ts) alone routes a host's request to the CLI engine (cli/), the
// replay index (replay.ts) or the diff (diff.ts); the pipeline (pipeline/process.ts:
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
  // The layout is the layering: a file imports from its own layer or below.
  // The entries (entry/: the two modules' exports and the dispatcher) sit on
  // top; the CLI engine (cli/) and the operations (ops/: replay, diff,
  // batches) below them; the pipeline (pipeline/: read call → select →
  // canonical → digest) below those; JSON (json/) below it; numbers, hashes,
  // text, memory and errors (num/, hash/, text/, base/) and the ABI at the floor.
  const RANK: Record<string, number> = { "": 0, base: 1, text: 1, hash: 1, num: 1, json: 2, pipeline: 3, ops: 4, cli: 5, entry: 6 };
  const layer = (f: string) => (f.includes("/") ? f.slice(0, f.indexOf("/")) : "");

  it("reads the whole core, every file in a known layer", () => {
    for (const f of ["entry/fingerprint.ts", "entry/engine.ts", "entry/dispatch.ts", "pipeline/process.ts", "cli/steps.ts", "ops/replay.ts"]) {
      expect(graph.has(join(core, f)), f).toBe(true);
    }
    expect(graph.size).toBeGreaterThan(40);
    for (const file of graph.keys()) expect(RANK[layer(name(file))], name(file)).toBeDefined();
  });

  it("has no import circle", () => {
    expect(circles(graph).map((c) => c.map(name).join(" ↔ "))).toEqual([]);
  });

  it("imports only from its own layer or below", () => {
    const up: string[] = [];
    for (const [file, deps] of graph) {
      const f = name(file);
      for (const d of deps.map(name)) if (RANK[layer(d)] > RANK[layer(f)]) up.push(`${f} → ${d}`);
    }
    expect(up).toEqual([]);
  });

  it("the pipeline holds its steps and nothing above it", () => {
    const reached = [...closure(graph, join(core, "pipeline/process.ts"))].map(name);
    expect(reached.filter((f) => RANK[layer(f)] > RANK.pipeline)).toEqual([]);
    for (const f of ["pipeline/call.ts", "pipeline/select.ts", "pipeline/canonical.ts", "hash/sha256.ts", "pipeline/explain.ts"]) {
      expect(reached).toContain(f);
    }
  });

  it("only the dispatcher and the entries import the CLI engine and the operations", () => {
    const importers = new Set<string>();
    for (const [file, deps] of graph) {
      const f = name(file);
      if (["ops", "cli"].includes(layer(f))) continue; // the operations use one another (the CLI's why and replay)
      if (deps.map(name).some((d) => ["ops", "cli"].includes(layer(d)))) importers.add(f);
    }
    expect([...importers].sort().every((f) => layer(f) === "entry")).toBe(true);
  });
});
