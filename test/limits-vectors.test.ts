// Limits on every path: each case of vectors/limits.vectors.json (expected
// errors from the oracle test/reference/limits.mjs) through every function
// that reads input, under configure(limits) and, where a call takes its own,
// per call. python/tests/test_limits_vectors.py runs the same table, so both
// SDKs give the same words.
import { readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import {
  FingerprintError, Recording, canonicalJSON, canonicalizeJSON, configure, diff, explain, explainCall, explainCalls,
  explainJSON, fingerprint, fingerprintBatch, fingerprintBatchJSON, fingerprintCall, fingerprintJSON, nearest,
} from "./helpers/sdk";

type Expect = { code: string; message: string; offset: number | null } | null;
interface Case {
  id: string; args: string; limits: Record<string, number>;
  argsText: Expect; argsValue: Expect; callText: Expect; callValue: Expect;
}
const V = JSON.parse(readFileSync(new URL("../vectors/limits.vectors.json", import.meta.url), "utf8")) as {
  callPrefix: string; cases: Case[];
};
const NONE = { maxInputBytes: Infinity, maxDepth: Infinity, maxMembers: Infinity };
afterEach(() => configure({ limits: NONE }));

type Own = Record<string, number> | undefined;
interface Way { name: string; key: keyof Pick<Case, "argsText" | "argsValue" | "callText" | "callValue">; perCall: boolean;
  prefix?: string; run(c: Case, own: Own): unknown }

const line = (c: Case) => V.callPrefix + c.args + "}";
const call = (c: Case) => ({ name: "t", args: JSON.parse(c.args) as unknown });
const opts = (own: Own) => (own ? { limits: own } : undefined);

/** Every function that reads input, with the expectation its input follows. */
export const WAYS: Way[] = [
  { name: "fingerprintJSON", key: "argsText", perCall: true, run: (c, own) => fingerprintJSON("t", c.args, opts(own)) },
  { name: "fingerprintJSON(bytes)", key: "argsText", perCall: true,
    run: (c, own) => fingerprintJSON("t", new TextEncoder().encode(c.args), opts(own)) },
  { name: "canonicalizeJSON", key: "argsText", perCall: false, run: (c) => canonicalizeJSON(c.args) },
  { name: "fingerprint", key: "argsValue", perCall: true, run: (c, own) => fingerprint("t", JSON.parse(c.args), opts(own)) },
  { name: "canonicalJSON", key: "argsValue", perCall: false, run: (c) => canonicalJSON(JSON.parse(c.args)) },
  { name: "fingerprintBatchJSON", key: "argsText", perCall: true, prefix: "item 0: ",
    run: (c, own) => fingerprintBatchJSON(["t"], [c.args], opts(own)) },
  // explainJSON reads its argsJSON as text of its own: the args' depth, members and offsets.
  { name: "explainJSON", key: "argsText", perCall: true, run: (c, own) => explainJSON("t", c.args, opts(own)) },
  { name: "explain", key: "callValue", perCall: true, run: (c, own) => explain("t", JSON.parse(c.args), opts(own)) },
  { name: "explainCall(text)", key: "callText", perCall: false, run: (c) => explainCall(line(c)) },
  { name: "explainCall(object)", key: "callValue", perCall: false, run: (c) => explainCall(call(c)) },
  { name: "explainCalls(text)", key: "callText", perCall: false, run: (c) => explainCalls(line(c)) },
  { name: "fingerprintCall(text)", key: "callText", perCall: false, run: (c) => fingerprintCall(line(c)) },
  { name: "fingerprintCall(object)", key: "callValue", perCall: false, run: (c) => fingerprintCall(call(c)) },
  { name: "fingerprintBatch(text)", key: "callText", perCall: true, prefix: "item 0: ", run: (c, own) => fingerprintBatch([line(c)], opts(own)) },
  { name: "fingerprintBatch(object)", key: "callValue", perCall: true, prefix: "item 0: ", run: (c, own) => fingerprintBatch([call(c)], opts(own)) },
  { name: "diff", key: "callValue", perCall: false, run: (c) => diff(call(c), { name: "t", args: 1 }) },
  { name: "nearest", key: "callValue", perCall: false, run: (c) => nearest({ name: "t", args: 1 }, [call(c)]) },
  { name: "Recording.answer(text)", key: "callText", perCall: false, run: (c) => Recording.load("").answer(line(c)) },
  { name: "Recording.answer(object)", key: "callValue", perCall: false, run: (c) => Recording.load("").answer(call(c)) },
  {
    name: "Recording.load", key: "callText", perCall: false, run: (c) => {
      // A bad line is reported like any bad line (the rest is kept).
      const r = Recording.load(line(c) + "\n" + '{"name":"ok","args":1}\n');
      if (r.badLines.length > 0) throw r.badLines[0].error;
      return r;
    },
  },
];

function outcome(f: () => unknown): Expect {
  try {
    f();
    return null;
  } catch (err) {
    if (!(err instanceof FingerprintError)) throw err;
    return { code: err.code, message: err.message, offset: err.offset ?? null };
  }
}

const want = (w: Way, e: Expect): Expect => (e === null ? null : { ...e, message: (w.prefix ?? "") + e.message });

describe("limits on every path (vectors/limits.vectors.json)", () => {
  it("is fresh (scripts/gen-limits-vectors.mjs --check)", () => {
    const script = fileURLToPath(new URL("../scripts/gen-limits-vectors.mjs", import.meta.url));
    const r = spawnSync(process.execPath, [script, "--check"], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
  });
  it("has the cases and covers every way in", () => {
    expect(V.cases.length).toBeGreaterThanOrEqual(12);
    expect(V.cases.some((c) => c.argsText === null) && V.cases.some((c) => c.argsText !== null)).toBe(true);
  });
  for (const w of WAYS) {
    it(`${w.name} under configure(limits)`, () => {
      for (const c of V.cases) {
        configure({ limits: c.limits });
        expect(outcome(() => w.run(c, undefined)), `${c.id}`).toEqual(want(w, c[w.key]));
        configure({ limits: NONE });
        expect(outcome(() => w.run(c, undefined)), `${c.id} without limits`).toBeNull();
      }
    });
    if (!w.perCall) continue;
    it(`${w.name} with the call's own limits, which only tighten`, () => {
      for (const c of V.cases) {
        expect(outcome(() => w.run(c, c.limits)), `${c.id}`).toEqual(want(w, c[w.key]));
        // null, Infinity or a looser own limit keep the configured one.
        configure({ limits: c.limits });
        const loose = Object.fromEntries(Object.keys(c.limits).map((k) => [k, 1e9]));
        for (const own of [{ maxDepth: null }, { maxInputBytes: Infinity, maxDepth: Infinity, maxMembers: Infinity }, loose]) {
          expect(outcome(() => w.run(c, own as Own)), `${c.id} ${JSON.stringify(own)}`).toEqual(want(w, c[w.key]));
        }
        configure({ limits: NONE });
      }
    });
  }
});

describe("limits: what is not a limit", () => {
  it("an unknown key is invalid-argument, per call and in configure (nothing changes)", () => {
    for (const bad of [{ maxdepth: 3 }, { maxDepth: 3, depth: 1 }, { max_depth: 3 }]) {
      expect(outcome(() => fingerprintJSON("t", "1", { limits: bad as Own }))?.code).toBe("invalid-argument");
      expect(outcome(() => fingerprintBatchJSON(["t"], ["1"], { limits: bad as Own }))?.code).toBe("invalid-argument");
      expect(outcome(() => explainJSON("t", "1", { limits: bad as Own }))?.code).toBe("invalid-argument");
      expect(outcome(() => configure({ limits: bad as Own }))?.code).toBe("invalid-argument");
    }
    expect(outcome(() => fingerprintJSON("t", "1", { limits: { maxdepth: 3 } as Own }))?.message)
      .toBe("unknown limits maxdepth: allowed are maxInputBytes, maxDepth, maxMembers");
    expect(fingerprintJSON("t", "[[[[1]]]]")).toMatch(/^[0-9a-f]{64}$/); // the failed configure set nothing
  });

  it("configure: null and a field left out keep a setting, Infinity removes it", () => {
    configure({ limits: { maxDepth: 2 } });
    configure({ limits: { maxMembers: 5, maxDepth: null } });
    expect(outcome(() => fingerprintJSON("t", "[[[1]]]"))?.code).toBe("limit-exceeded");
    configure({ limits: { maxDepth: Infinity } });
    expect(fingerprintJSON("t", "[[[1]]]")).toMatch(/^[0-9a-f]{64}$/);
  });

  it("a recording's kept lines are not checked again when the limits tighten after loading", () => {
    const rec = Recording.load('{"name":"t","args":{"a":[[[1]]]}}\n{"name":"t","args":{"a":[[[2]]]}}\n');
    configure({ limits: { maxDepth: 4 } });
    const a = rec.answer('{"name":"t","args":{"a":[[3]]}}'); // a miss: the recorded calls are read again for the nearest
    expect(a.hit).toBe(false);
    expect(rec.unused().length).toBe(2);
    expect(outcome(() => rec.answer('{"name":"t","args":{"a":[[[3]]]}}'))?.code).toBe("limit-exceeded");
  });
});
