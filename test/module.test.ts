// The artifact of record: build/fingerprint.wasm — no imports, the small ABI,
// FINGERPRINT_VERSION 1 (D18), its sha256 beside it, under the 48 KiB ceiling,
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
    expect(exports).toEqual(["function abiId", "function limits", "function reserve", "function result", "function run", "function runBatch",
      "function version", "function word", "function wordBuf",
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

  it("stays under the 48 KiB ceiling", () => {
    expect(bytes.length).toBeLessThanOrEqual(48 * 1024);
  });
});

describe("the ABI never traps (D19)", () => {
  // Drives run() directly with hostile requests: random bytes as JSON text, as
  // a value stream (flag VALUES), and with lying header lengths. Every call
  // must return a status, and a well-formed call afterwards must still work.
  const { exports } = new WebAssembly.Instance(new WebAssembly.Module(bytes), {});
  const e = exports as unknown as { memory: WebAssembly.Memory; reserve(n: number): number; run(n: number): number };
  const ptr = e.reserve(1 << 16);
  let seed = 0x9e3779b9;
  const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  const request = (flags: number, args: Uint8Array, lie = 0) => {
    const mem = new Uint8Array(e.memory.buffer);
    new Uint32Array(e.memory.buffer, ptr, 6).set([flags, 0, 0, 0, 0, args.length + lie]);
    mem.set(args, ptr + 24);
    return e.run(24 + args.length);
  };
  const good = new TextEncoder().encode('{"b":[1,2],"a":" x "}');

  it("returns a status for 20,000 random requests and keeps working", () => {
    const statuses = new Set<number>();
    for (let i = 0; i < 20_000; i++) {
      const n = Math.floor(rnd() * 64);
      const args = new Uint8Array(n);
      // Bias towards the value stream's tags and JSON punctuation so parsers go deep.
      for (let j = 0; j < n; j++) args[j] = rnd() < 0.5 ? Math.floor(rnd() * 8) : "[]{}\",:0123456789tfn \\u".charCodeAt(Math.floor(rnd() * 24));
      const flags = [2, 1, 2 | 64, 1 | 64, 2 | 16][i % 5];
      const lie = i % 97 === 0 ? 1 + Math.floor(rnd() * 1e9) : 0;
      statuses.add(request(flags, args, lie));
      expect(request(2, good)).toBe(0);
    }
    for (const s of statuses) expect(s >= 0 && s <= 13).toBe(true);
  });
});
