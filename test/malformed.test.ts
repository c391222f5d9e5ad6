// The malformed-input corpus (vectors/reject.jsonl, each line confirmed
// invalid by the oracle): every document is a FingerprintError with an
// offset, never a trap, and the module still computes a known vector after.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FingerprintError, canonicalizeJSON, fingerprintJSON } from "./helpers/sdk";
import { fingerprintOfText } from "./reference/contract.mjs";

const lines = readFileSync(new URL("../vectors/reject.jsonl", import.meta.url), "utf8")
  .split("\n").filter(Boolean).map((l) => JSON.parse(l) as { id: string; hex: string; why: string });
const bytes = (h: string) => new Uint8Array(h.match(/../g)?.map((b) => parseInt(b, 16)) ?? []);

const known = '{"b":[1.5,"\\u00e9 "],"a":{"c":null}}';
const knownDigest = fingerprintOfText({ name: "probe", argsJSON: known }).fingerprint;

describe("malformed corpus", () => {
  it("has at least 300 documents", () => expect(lines.length).toBeGreaterThanOrEqual(300));

  it("rejects every document as bytes and as a string, then still works", () => {
    const failures: string[] = [];
    for (const { id, hex, why } of lines) {
      const doc = bytes(hex);
      let asString: string | undefined; // only documents that are valid UTF-8 also go in as a string
      try { asString = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(doc); } catch { /* bytes only */ }
      for (const input of asString === undefined ? [doc] : [doc, asString]) {
        try {
          canonicalizeJSON(input);
          failures.push(`${id} accepted (${why})`);
        } catch (e) {
          if (!(e instanceof FingerprintError)) failures.push(`${id}: ${String(e)}`);
          else if (typeof e.offset !== "number" || e.offset < 0 || e.offset > doc.length) failures.push(`${id}: offset ${e.offset}`);
        }
        if (fingerprintJSON("probe", known) !== knownDigest) failures.push(`${id}: module broken afterwards`);
      }
      if (failures.length > 5) break;
    }
    expect(failures).toEqual([]);
  });
});
