// Every form in which the provider SDKs hand over a tool call (recorded by
// scripts/gen-sdk-forms.mjs and python/tests/gen_sdk_forms.py from objects
// the SDKs built), through the TypeScript API and CLI: the fingerprints of
// exactly the calls it holds, in order — `fingerprint(name, args)` by the
// oracle — or the error the decisions give (D21 bad-call, D23 partial-call);
// never zero calls in silence. The Python twin: python/tests/test_sdk_forms.py.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { NPM_FORMS_PATH, PYPI_FORMS_PATH, SHAPES_DOC_PATH, renderNpmForms, renderShapesDoc } from "../scripts/gen-sdk-forms.mjs";
import { buildNpmForms } from "./sdk-forms/build-npm.mjs";
import { FINGERPRINTS } from "./sdk-forms/calls.mjs";
import { FingerprintError, Recording, explainCalls, fingerprintCall } from "./helpers/sdk";

type Expect = { calls: { name: string; fingerprint: string }[] } | { error: string };
interface Form { sdk: string; form: string; json: string | null; expect: Expect }
interface File { sdks: Record<string, string>; calls: Record<string, { args: unknown; fingerprint: string }>; forms: Form[] }

const npmText = readFileSync(NPM_FORMS_PATH, "utf8");
const pypiText = readFileSync(PYPI_FORMS_PATH, "utf8");
const npm = JSON.parse(npmText) as File, pypi = JSON.parse(pypiText) as File;
const withJSON = (f: File, registry: string) => f.forms.filter((x) => x.json !== null).map((x) => ({ ...x, registry, json: x.json as string }));
const FORMS = [...withJSON(npm, "npm"), ...withJSON(pypi, "pypi")];

/** What the API answers: the calls' fingerprints, or the error's code. */
function answerOf(value: unknown): Expect {
  try {
    return { calls: explainCalls(value as object).map((e) => ({ name: e.name, fingerprint: e.fingerprint })) };
  } catch (e) {
    if (!(e instanceof FingerprintError)) throw e;
    expect(e.message).not.toBe("");
    return { error: e.code };
  }
}

/**
 * Each single call through fingerprintCall and a recording's answer; a message through fingerprintCall is an
 * error, whatever its number of calls (never read as one call: the count may differ tomorrow).
 */
function checkOneCallPaths(value: unknown, want: Expect): void {
  if (!("calls" in want)) return;
  if (want.calls.length === 1) {
    let fp: string;
    try {
      fp = fingerprintCall(value as object);
    } catch (e) { // a message holding one call: the error points to explainCalls
      expect(e).toBeInstanceOf(FingerprintError);
      expect([(e as FingerprintError).code, /explainCalls/.test((e as Error).message)]).toEqual(["bad-call", true]);
      fp = want.calls[0].fingerprint;
    }
    expect(fp).toBe(want.calls[0].fingerprint);
    const rec = Recording.load(Object.values(npm.calls).map((c, i) => JSON.stringify({ name: Object.keys(npm.calls)[i], args: c.args, result: i })));
    const a = rec.answer(value as object);
    expect(a.hit).toBe(true);
    expect(a.fingerprint).toBe(want.calls[0].fingerprint);
  } else {
    let err: unknown = null;
    try { fingerprintCall(value as object); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(FingerprintError);
    // A message given where one call is expected points to explainCalls (the core's wording).
    expect((err as FingerprintError).message).toMatch(/explain_?calls/i);
  }
}

describe("SDK forms: the recorded files", () => {
  it("vectors/sdk-forms.npm.json is what the installed npm SDKs build", async () => {
    expect(await renderNpmForms()).toBe(npmText);
  }, 60_000);

  it("docs/call-shapes.md is generated from the recorded forms", () => {
    expect(readFileSync(SHAPES_DOC_PATH, "utf8")).toBe(renderShapesDoc(npmText, pypiText));
  });

  it("the two oracles agree on the calls' fingerprints (node:crypto and Python's hashlib)", () => {
    for (const f of [npm, pypi]) for (const [name, c] of Object.entries(f.calls)) expect(c.fingerprint).toBe(FINGERPRINTS[name]);
    expect(Object.keys(pypi.calls).sort()).toEqual(Object.keys(npm.calls).sort());
  });
});

describe("SDK forms: the TypeScript API", () => {
  it.each(FORMS.map((f) => [`${f.registry} ${f.sdk}: ${f.form}`, f] as const))("%s", (_id, f) => {
    expect(answerOf(f.json)).toEqual(f.expect);
    const value: unknown = JSON.parse(f.json);
    expect(answerOf(value)).toEqual(f.expect);
    checkOneCallPaths(f.json, f.expect);
    checkOneCallPaths(value, f.expect);
  });

  it("the live npm objects (class instances with toJSON, plain objects) answer as their JSON does", async () => {
    const { forms, live } = await buildNpmForms();
    const byForm = new Map(npm.forms.map((f) => [f.form, f.expect]));
    for (const f of [...forms, ...live]) {
      const want = byForm.get(f.form);
      expect(want, f.form).toBeDefined();
      expect([f.form, answerOf(f.value)]).toEqual([f.form, want]);
    }
  }, 60_000);
});

describe("SDK forms: the TypeScript CLI", () => {
  it("gives every form's calls, or its error, line by line", () => {
    const dir = mkdtempSync(join(tmpdir(), "overturn-sdk-forms-"));
    try {
      const p = join(dir, "forms.jsonl");
      // The CLI reads JSON Lines: a pretty-printed dump (to_json()) goes in as one line.
      writeFileSync(p, FORMS.map((f) => f.json.includes("\n") ? JSON.stringify(JSON.parse(f.json)) : f.json).join("\n") + "\n");
      const r = spawnSync(process.execPath, [resolve(__dirname, "..", "dist", "cli.js"), "--json", p], { encoding: "utf8", maxBuffer: 1 << 26 });
      const byLine = new Map<number, Record<string, unknown>[]>();
      for (const l of r.stdout.trim().split("\n")) {
        const rec = JSON.parse(l) as Record<string, unknown>;
        const line = rec.line as number;
        byLine.set(line, [...(byLine.get(line) ?? []), rec]);
      }
      const got = FORMS.map((f, i) => {
        const recs = byLine.get(i + 1) ?? [];
        const err = recs.find((x) => typeof x.code === "string");
        const answer: Expect = err ? { error: err.code as string } : { calls: recs.map((x) => ({ name: x.name as string, fingerprint: x.fingerprint as string })) };
        return [`${f.registry} ${f.sdk}: ${f.form}`, answer];
      });
      expect(got).toEqual(FORMS.map((f) => [`${f.registry} ${f.sdk}: ${f.form}`, f.expect]));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
