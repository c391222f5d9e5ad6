// Every shared vector (vectors/fingerprint.vectors.json, made by the oracle in
// test/reference/) through every entry point of the SDK that applies to it.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  FINGERPRINT_VERSION, FingerprintError, canonicalJSON, canonicalizeJSON, fingerprint, fingerprintJSON,
  type FingerprintOptions,
} from "./helpers/sdk";
import { decodeTagged } from "./vectors-decode.mjs";

interface Vector {
  id: string; decision: string; name: string; kind?: string;
  matchOn?: string[] | null; ignoreArgs?: string[] | null;
  argsJSON?: string; argsBytesHex?: string; args?: unknown;
  canonical?: string; fingerprint?: string; error?: boolean;
}
const file = JSON.parse(readFileSync(new URL("../vectors/fingerprint.vectors.json", import.meta.url), "utf8")) as {
  FINGERPRINT_VERSION: number; vectors: Vector[];
};

const hexBytes = (h: string) => new Uint8Array(h.match(/../g)?.map((b) => parseInt(b, 16)) ?? []);
const options = (v: Vector): FingerprintOptions => {
  const o: FingerprintOptions = {};
  if (v.kind !== undefined) o.kind = v.kind;
  if (v.matchOn !== undefined) o.matchOn = v.matchOn;
  if (v.ignoreArgs !== undefined) o.ignoreArgs = v.ignoreArgs;
  return o;
};
const selects = (v: Vector) => (v.matchOn ?? v.ignoreArgs) != null;

describe("shared vectors", () => {
  it("file is contract version 1 and non-trivial", () => {
    expect(file.FINGERPRINT_VERSION).toBe(FINGERPRINT_VERSION);
    expect(file.vectors.length).toBeGreaterThanOrEqual(200);
  });

  for (const v of file.vectors) {
    it(`${v.id} (${v.decision})`, () => {
      const text = v.argsBytesHex !== undefined ? hexBytes(v.argsBytesHex) : v.argsJSON;
      const hasValue = "args" in v;
      if (v.error) {
        if (text !== undefined) expect(() => fingerprintJSON(v.name, text, options(v))).toThrow(FingerprintError);
        if (hasValue) expect(() => fingerprint(v.name, decodeTagged(v.args), options(v))).toThrow(FingerprintError);
        return;
      }
      if (text !== undefined) {
        expect(fingerprintJSON(v.name, text, options(v))).toBe(v.fingerprint);
        if (!selects(v)) expect(canonicalizeJSON(text)).toBe(v.canonical);
      }
      if (hasValue) {
        expect(fingerprint(v.name, decodeTagged(v.args), options(v))).toBe(v.fingerprint);
        if (!selects(v)) expect(canonicalJSON(decodeTagged(v.args))).toBe(v.canonical);
      }
    });
  }
});
