// The benchmark's reference implementation (bench/reference.mjs) against
// every non-error shared vector: the value path where a vector has tagged
// `args`, the text path where it has `argsJSON` / `argsBytesHex`. Oracle:
// the vectors' canonical text and node:crypto for the digest. The reference
// is only a yardstick for bench/, but a wrong yardstick makes a wrong table.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as ref from "../bench/reference.mjs";
import { decodeTagged } from "./vectors-decode.mjs";

interface Vector {
  id: string; decision: string; name: string; kind?: string;
  matchOn?: string[] | null; ignoreArgs?: string[] | null;
  argsJSON?: string; argsBytesHex?: string; args?: unknown;
  canonical?: string; fingerprint?: string; error?: unknown;
}
const { vectors } = JSON.parse(readFileSync(new URL("../vectors/fingerprint.vectors.json", import.meta.url), "utf8")) as {
  vectors: Vector[];
};
const ok = vectors.filter((v) => v.error === undefined && v.fingerprint !== undefined);
const sha = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");
const hexBytes = (h: string) => new Uint8Array(h.match(/../g)?.map((b) => parseInt(b, 16)) ?? []);
const opts = (v: Vector) => ({
  ...(v.kind !== undefined && { kind: v.kind }),
  matchOn: v.matchOn ?? null,
  ignoreArgs: v.ignoreArgs ?? null,
});
const selected = (v: Vector, args: unknown) => ref.selectArgs(args, v.matchOn ?? null, v.ignoreArgs ?? null);

describe("bench reference vs shared vectors", () => {
  it("covers the non-error vectors", () => {
    expect(ok.length).toBeGreaterThan(400);
  });

  const withValue = ok.filter((v) => "args" in v);
  it(`value path: ${withValue.length} vectors`, () => {
    expect(withValue.length).toBeGreaterThan(250);
    for (const v of withValue) {
      const args = decodeTagged(v.args);
      expect(ref.canonicalJSON(selected(v, args)), v.id).toBe(v.canonical);
      expect(ref.fingerprint(v.name, args, opts(v), sha), v.id).toBe(v.fingerprint);
    }
  });

  const withText = ok.filter((v) => v.argsJSON !== undefined || v.argsBytesHex !== undefined);
  it(`text path: ${withText.length} vectors`, () => {
    expect(withText.length).toBeGreaterThan(350);
    for (const v of withText) {
      const text = v.argsBytesHex !== undefined ? hexBytes(v.argsBytesHex) : v.argsJSON!;
      const args = ref.parseJSONText(text);
      expect(ref.canonicalJSON(selected(v, args)), v.id).toBe(v.canonical);
      expect(ref.fingerprint(v.name, args, opts(v), sha), v.id).toBe(v.fingerprint);
    }
  });

  it("sorts by code point, not UTF-16 code unit (D5)", () => {
    // U+FF01 (one unit 0xFF01) before U+1F600 (units 0xD83D 0xDE00).
    expect(ref.canonicalJSON({ "\u{1F600}": 1, "\uFF01": 2 })).toBe('{"\uFF01":2,"\u{1F600}":1}');
  });
});
