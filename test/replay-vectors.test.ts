// The thin runner of vectors/replay.vectors.json for the TypeScript SDK (the
// Python twin: python/tests/test_replay_vectors.py). Each recording is loaded
// whole, in 7-byte chunks and (for text) as lines; each live call is asked as
// JSON text and as a JavaScript object. Expected values come from the
// independent oracle (test/reference/replay.mjs), never from the core.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { REPLAY_VECTORS_PATH, renderReplayVectors } from "../scripts/gen-replay-vectors.mjs";
import { FingerprintError, Recording, explainCall, type ReplayAnswer, type ToolDeclarations } from "../src/index";

interface Case {
  id: string; op: "replay" | "conflict" | "tools-error"; recording?: string; recordingBase64?: string;
  tools: ToolDeclarations | null; calls?: string[]; expect: Record<string, unknown>;
}
const file = readFileSync(REPLAY_VECTORS_PATH, "utf8");
const { cases } = JSON.parse(file) as { cases: Case[] };

function errorOf(f: () => unknown): { code: string; message: string } {
  try { f(); } catch (e) {
    expect(e).toBeInstanceOf(FingerprintError);
    return { code: (e as FingerprintError).code, message: (e as FingerprintError).message };
  }
  throw new Error("no error");
}

const bytesOf = (c: Case) => new Uint8Array(c.recordingBase64 !== undefined
  ? Buffer.from(c.recordingBase64, "base64") : Buffer.from(c.recording!, "utf8"));

/** The recorded line's text by line number (the oracle's line rules: "\n", then a trailing "\r" dropped). */
function lineText(bytes: Uint8Array, n: number): string {
  const text = Buffer.from(bytes).toString("utf8").split("\n")[n - 1];
  return text.replace(/\r$/, "").replace(/^\uFEFF/, "");
}

/** The answer's fields the oracle defines; the recorded line's text and value checked against the recording. */
function core(a: ReplayAnswer, bytes: Uint8Array): Record<string, unknown> {
  const { name, kind, fingerprint, hit, recordedLine } = a;
  if (a.hit) {
    expect(a.text).toBe(lineText(bytes, a.recordedLine));
    expect(a.value).toEqual(JSON.parse(a.text));
    return { name, kind, fingerprint, hit, recordedLine, recordedCall: a.recordedCall };
  }
  if (a.nearest) {
    expect(a.nearest.text).toBe(lineText(bytes, a.nearest.line));
    expect(a.nearest.value).toEqual(JSON.parse(a.nearest.text));
  }
  const nearest = a.nearest && { line: a.nearest.line, call: a.nearest.call };
  return { name, kind, fingerprint, hit, recordedLine, why: a.why, recorded: a.recorded, asked: a.asked, nearest, changes: a.changes };
}

function run(rec: Recording, c: Case, asObjects: boolean) {
  const bytes = bytesOf(c);
  const answers = c.calls!.map((t) => core(rec.answer(asObjects ? JSON.parse(t) : t), bytes));
  const unused = rec.unused().map(({ line, call, name, fingerprint, text, value }) => {
    expect(text).toBe(lineText(bytes, line));
    expect(value).toEqual(JSON.parse(text));
    return { line, call, name, fingerprint };
  });
  return { lines: rec.lines, calls: rec.size, bad: rec.badLines.map((b) => b.line), answers, unused };
}

describe("vectors/replay.vectors.json", () => {
  it("is fresh: equals the generator's output (oracle, not core)", () => {
    expect(file).toBe(renderReplayVectors());
  });

  it.each(cases.map((c) => [c.id, c] as const))("%s", (_id, c) => {
    const tools = c.tools ?? undefined;
    if (c.op === "tools-error") {
      expect(errorOf(() => Recording.load("", { tools }))).toEqual(c.expect);
      expect(errorOf(() => explainCall({ name: "t" }, { tools: JSON.stringify(c.tools) }))).toEqual(c.expect);
      return;
    }
    if (c.op === "conflict") {
      const rec = Recording.load("", { tools });
      expect(errorOf(() => rec.answer(c.calls![0]))).toEqual(c.expect);
      expect(errorOf(() => rec.answer(JSON.parse(c.calls![0])))).toEqual(c.expect);
      expect(errorOf(() => explainCall(c.calls![0], { tools }))).toEqual(c.expect);
      // The recording keeps working after the error.
      expect(rec.answer({ name: "other" }).hit).toBe(false);
      return;
    }
    const bytes = bytesOf(c);
    expect(run(Recording.load(bytes, { tools }), c, false)).toEqual(c.expect);
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += 7) chunks.push(bytes.subarray(i, i + 7));
    expect(run(Recording.load(chunks, { tools }), c, true)).toEqual(c.expect);
    if (c.recording !== undefined) expect(run(Recording.load(c.recording, { tools }), c, true)).toEqual(c.expect);
  });
});
