// Batches of names and JSON texts, as vectors/batch.vectors.json says (the
// oracle's fingerprints, null for a bad item, the first bad item's error):
// from arrays, a generator and (all strings) Arrow-style columns, with
// node:crypto hashing the core's preimages and with the SIMD module's four
// lanes. python/tests/test_batch_vectors.py runs the same table.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import * as src from "../src/index";
import { setHostHashing } from "../src/core";

type Text = string | { bytesHex: string } | { number: number };
interface Vector {
  id: string; items?: [string, Text][]; fill?: { count: number; item: [string, Text] }; set?: Record<string, [string, Text]>;
  options: src.BatchOptions;
  want: (string | null)[] | { fill: string; set: Record<string, string | null> };
  error: { index: number; messageStarts: string; code?: string; message?: string } | null;
}
const V = (JSON.parse(readFileSync(new URL("../vectors/batch.vectors.json", import.meta.url), "utf8")) as { vectors: Vector[] }).vectors;
const enc = new TextEncoder();

function itemsOf(v: Vector): [string, string | Uint8Array][] {
  const items = v.items ?? Array(v.fill!.count).fill(v.fill!.item);
  for (const [i, item] of Object.entries(v.set ?? {})) items[Number(i)] = item;
  return items.map(([n, t]: [string, Text]) => [n, typeof t === "string" ? t
    : "number" in t ? t.number as unknown as string : Uint8Array.from(Buffer.from(t.bytesHex, "hex"))]);
}
function wantOf(v: Vector): (string | null)[] {
  if (Array.isArray(v.want)) return v.want;
  const w = Array<string | null>(v.fill!.count).fill(v.want.fill);
  for (const [i, d] of Object.entries(v.want.set)) w[Number(i)] = d;
  return w;
}
function column(texts: string[]): src.TextColumn {
  const parts = texts.map((t) => enc.encode(t));
  const offsets = new Uint32Array(parts.length + 1);
  parts.forEach((p, i) => { offsets[i + 1] = offsets[i] + p.length; });
  const data = new Uint8Array(offsets[parts.length]);
  parts.forEach((p, i) => data.set(p, offsets[i]));
  return { offsets, data };
}

/** The ways a batch's names and texts go in: arrays, generators, and columns where every text is a string. */
function forms(items: [string, string | Uint8Array][]) {
  const names = items.map((x) => x[0]), texts = items.map((x) => x[1]);
  const out: [string, () => [Iterable<string> | src.TextColumn, Iterable<string | Uint8Array> | src.TextColumn]][] = [
    ["arrays", () => [names, texts]],
    ["generators", () => [names.values(), texts.values()]],
  ];
  if (texts.every((t) => typeof t === "string")) out.push(["columns", () => [column(names), column(texts as string[])]]);
  return out;
}

describe("batches (vectors/batch.vectors.json)", () => {
  it("is fresh (scripts/gen-batch-vectors.mjs --check)", () => {
    const script = fileURLToPath(new URL("../scripts/gen-batch-vectors.mjs", import.meta.url));
    const r = spawnSync(process.execPath, [script, "--check"], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
  });

  for (const host of [true, false]) {
    it(`gives every case's answers, ${host ? "node:crypto hashing" : "the core hashing (four lanes)"}`, () => {
      setHostHashing(host);
      try {
        for (const v of V) {
          for (const [form, make] of forms(itemsOf(v))) {
            const what = `${v.id} (${form})`;
            expect(src.fingerprintBatchJSON(...make(), { ...v.options, onError: "null" }), what).toEqual(wantOf(v));
            let err: src.FingerprintError | undefined;
            try {
              src.fingerprintBatchJSON(...make(), v.options);
            } catch (e) {
              err = e as src.FingerprintError;
            }
            if (v.error === null) {
              expect(err, what).toBeUndefined();
              continue;
            }
            expect(err, what).toBeInstanceOf(src.FingerprintError);
            expect(err!.index, what).toBe(v.error.index);
            expect(err!.message.startsWith(v.error.messageStarts), `${what}: ${err!.message}`).toBe(true);
            expect(err!.message.slice(v.error.messageStarts.length).startsWith("item "), what).toBe(false);
            if (v.error.message !== undefined) expect([err!.code, err!.message], what).toEqual([v.error.code, v.error.message]);
          }
        }
      } finally {
        setHostHashing(true);
      }
    });
  }
});
