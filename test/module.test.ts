// The artifact of record: build/fingerprint.wasm — no imports, the small ABI,
// FINGERPRINT_VERSION 1 (D18), its sha256 beside it, under the 40 KiB budget,
// and byte-identical to what the SDK embeds.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { WASM_BASE64, WASM_SHA256 } from "../src/_wasm.gen";

const bytes = readFileSync(new URL("../build/fingerprint.wasm", import.meta.url));
const sha = createHash("sha256").update(bytes).digest("hex");

describe("build/fingerprint.wasm", () => {
  const mod = new WebAssembly.Module(bytes);

  it("has no imports and exports exactly the ABI", () => {
    expect(WebAssembly.Module.imports(mod)).toEqual([]);
    const exports = WebAssembly.Module.exports(mod).map((e) => `${e.kind} ${e.name}`).sort();
    expect(exports).toEqual(["function reserve", "function result", "function run", "function version",
      "global FINGERPRINT_VERSION", "memory memory"]);
  });

  it("reports version 1 both ways (D18)", () => {
    const { exports } = new WebAssembly.Instance(mod, {});
    expect((exports.version as () => number)()).toBe(1);
    expect((exports.FINGERPRINT_VERSION as WebAssembly.Global).value).toBe(1);
  });

  it("matches its recorded sha256 and the SDK's embedded copy", () => {
    expect(readFileSync(new URL("../build/fingerprint.wasm.sha256", import.meta.url), "utf8").split(/\s+/)[0]).toBe(sha);
    expect(WASM_SHA256).toBe(sha);
    expect(Buffer.from(WASM_BASE64, "base64").equals(bytes)).toBe(true);
  });

  it("stays under the 40 KiB budget", () => {
    expect(bytes.length).toBeLessThan(40 * 1024);
  });
});
