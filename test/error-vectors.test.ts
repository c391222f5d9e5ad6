// Every error code and message, as data: each case of
// vectors/errors.vectors.json (messages written by hand in
// scripts/gen-error-vectors.mjs) through its entry point, asserting code,
// message, offset and path. python/tests/test_error_vectors.py runs the
// same file: the two SDKs give the same error for the same bad input.
import { readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import * as sdk from "./helpers/sdk";

interface Want { code: string; message: string; offset: number | null; path: string | null }
interface Case { id: string; op: string; input: Record<string, unknown>; expect: Want; ts?: Partial<Want>; only?: string }
const V = JSON.parse(readFileSync(new URL("../vectors/errors.vectors.json", import.meta.url), "utf8")) as { cases: Case[] };

afterEach(() => sdk.configure({ limits: { maxInputBytes: Infinity, maxDepth: Infinity, maxMembers: Infinity } }));

/** A JSON input as a host value: {"$host": "set"} a Set, {"$host": "cycle"} an object holding itself. */
function host(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(host);
  if (v === null || typeof v !== "object") return v;
  const o = v as Record<string, unknown>;
  if (o.$host === "set") return new Set([1]);
  if (o.$host === "cycle") { const c: Record<string, unknown> = {}; c.self = c; return c; }
  return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, host(x)]));
}

/** The JSON text of a case: its text, its bytes, or (a wrong type) its value. */
function text(i: Record<string, unknown>): unknown {
  return "bytes" in i ? new Uint8Array(i.bytes as number[]) : "text" in i ? i.text : i.value;
}

const OPS: Record<string, (i: Record<string, unknown>) => unknown> = {
  fingerprint: (i) => sdk.fingerprint(i.name as string, host(i.args), i.options as never),
  fingerprintJSON: (i) => sdk.fingerprintJSON(i.name as string, text(i) as string, i.options as never),
  canonicalJSON: (i) => sdk.canonicalJSON(host(i.value)),
  canonicalizeJSON: (i) => sdk.canonicalizeJSON(text(i) as string),
  explain: (i) => sdk.explain(i.name as string, host(i.args), i.options as never),
  explainJSON: (i) => sdk.explainJSON(i.name as string, text(i) as string, i.options as never),
  explainCall: (i) => sdk.explainCall(i.call as string),
  explainCalls: (i) => sdk.explainCalls(i.message as string),
  fingerprintCall: (i) => sdk.fingerprintCall(i.call as string, i.options as never),
  fingerprintBatch: (i) => sdk.fingerprintBatch(i.calls as never, i.options as never),
  fingerprintBatchJSON: (i) => sdk.fingerprintBatchJSON(i.names as string[], i.argsJSON as string[], i.options as never),
  nearest: (i) => sdk.nearest(i.call as never, i.recording as never),
  "Recording.load": (i) => {
    const r = sdk.Recording.load(text(i) as string);
    if (r.badLines.length > 0) throw r.badLines[0].error;
  },
  "Recording.answer": (i) => sdk.Recording.load(i.recording as string).answer(i.call as never, i.index as number | undefined),
  configure: (i) => sdk.configure(i.settings as never),
};

function outcome(f: () => unknown): Want | null {
  try {
    f();
    return null;
  } catch (err) {
    if (!(err instanceof sdk.FingerprintError)) throw err;
    return { code: err.code, message: err.message, offset: err.offset ?? null, path: err.path ?? null };
  }
}

describe("errors as data (vectors/errors.vectors.json)", () => {
  it("is fresh (scripts/gen-error-vectors.mjs --check)", () => {
    const script = fileURLToPath(new URL("../scripts/gen-error-vectors.mjs", import.meta.url));
    const r = spawnSync(process.execPath, [script, "--check"], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
  });
  it("covers every entry point", () => {
    expect(new Set(V.cases.map((c) => c.op))).toEqual(new Set(Object.keys(OPS).filter((k) => k !== "diff")));
  });
  for (const c of V.cases) {
    if (c.only === "py") continue;
    it(`${c.id}`, () => {
      expect(outcome(() => OPS[c.op](c.input))).toEqual({ ...c.expect, ...c.ts });
    });
  }
});
