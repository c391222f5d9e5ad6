// The records the SDKs return are declared once (interface/records.json) and
// generated per host (scripts/gen-records.mjs). Here: the generated files are
// current, and the declaration matches what the core really writes: each
// record the TypeScript SDK returns has exactly the declared members (the
// oracle is the core's own answer, not the generated types).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Recording, diff, explain, explainCall, nearest } from "./helpers/sdk";

interface Field { name: string; optional?: boolean; hosts?: string[]; in?: Record<string, string> }
interface Rec {
  name: string; hosts?: string[]; fields: Field[]; extends?: string[]; union?: Record<string, { extends?: string[] }>;
}
const def = JSON.parse(readFileSync(new URL("../interface/records.json", import.meta.url), "utf8")) as { records: Rec[] };
const records = Object.fromEntries(def.records.filter((r) => r.name).map((r) => [r.name, r]));

/** The members a TypeScript record declares (inherited ones included); for a union, the variant `on` selects. */
function declared(name: string, variant?: "true" | "false"): { all: string[]; required: string[] } {
  const r = records[name];
  const own = r.fields.filter((f) => (f.hosts ?? ["go", "ts", "py"]).includes("ts"))
    .filter((f) => variant === undefined || f.in === undefined || f.in[variant] !== undefined);
  const parents = [...(r.extends ?? []), ...(variant ? r.union?.[variant]?.extends ?? [] : [])].map((p) => declared(p));
  return {
    all: [...own.map((f) => f.name), ...parents.flatMap((p) => p.all)].sort(),
    required: [...own.filter((f) => !f.optional).map((f) => f.name), ...parents.flatMap((p) => p.required)].sort(),
  };
}

function expectShape(value: object, name: string, variant?: "true" | "false"): void {
  const { all, required } = declared(name, variant);
  const keys = Object.keys(value).sort();
  expect(keys.filter((k) => !all.includes(k)), `${name}: members the declaration lacks`).toEqual([]);
  expect(required.filter((k) => !keys.includes(k)), `${name}: declared members missing`).toEqual([]);
}

describe("records declared once", () => {
  it("the generated host files are current (scripts/gen-records.mjs --check)", () => {
    expect(() => execFileSync(process.execPath, ["scripts/gen-records.mjs", "--check"], { stdio: "pipe" })).not.toThrow();
  });

  it("explanations, selections, diffs and changes have the declared members", () => {
    const e = explain("search", { q: "cats", page: 2 }, { matchOn: ["q", "lang"] });
    expectShape(e, "Explanation");
    expectShape(e.selected, "Selection");
    const declaredByTools = explainCall({ name: "t", args: { a: 1, b: 2 } }, { tools: { t: { ignoreArgs: ["b"] } } });
    expectShape(declaredByTools, "Explanation");
    expect(declaredByTools.declared).toBe("tools"); // the optional member, present
    const d = diff({ name: "t", args: { p: "P0" } }, { name: "t", args: { p: "P1", q: 1 } });
    expectShape(d, "Diff");
    expect(d.changes.length).toBe(2);
    for (const c of d.changes) expectShape(c, "Change");
    const m = nearest({ name: "t", args: { p: "P1" } }, [{ name: "t", args: { p: "P0" } }]);
    expectShape(m!, "NearestMatch");
  });

  it("replay answers, recorded calls, unused calls and bad lines have the declared members", () => {
    const rec = Recording.load('{"name":"t","args":{"p":1},"result":1}\n{"name":"t","args":{"p":2}}\nnot json\n');
    const hit = rec.answer({ name: "t", args: { p: 1 } });
    expect(hit.hit).toBe(true);
    expectShape(hit, "ReplayAnswer", "true");
    const miss = rec.answer({ name: "t", args: { p: 3 } });
    expect(miss.hit).toBe(false);
    expectShape(miss, "ReplayAnswer", "false");
    expectShape(miss.hit ? {} : miss.nearest!, "RecordedCall");
    const unused = rec.unused();
    expect(unused.length).toBe(1);
    expectShape(unused[0], "UnusedCall");
    expect(rec.badLines.length).toBe(1);
    expectShape(rec.badLines[0], "BadLine");
  });
});
