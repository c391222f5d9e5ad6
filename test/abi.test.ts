// The ABI is defined once (assembly/abi.ts): the hosts' constants are
// generated from it and must be current, the built module must report the
// same identity, and a module with another identity is refused on load.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ABI_ID, CORE_ERRORS, F_DIGEST } from "../src/_abi.gen";
import { useInstance } from "../src/core";

const root = new URL("..", import.meta.url);
const bytes = readFileSync(new URL("build/fingerprint.wasm", root));

describe("one ABI source", () => {
  it("generated host files are current (scripts/gen-abi.mjs --check)", () => {
    expect(() => execFileSync(process.execPath, ["scripts/gen-abi.mjs", "--check"],
      { cwd: root, stdio: "pipe" })).not.toThrow();
  });

  it("the core reports the ABI identity the hosts were generated for", () => {
    const { exports } = new WebAssembly.Instance(new WebAssembly.Module(bytes), {});
    expect((exports.abiId as () => number)()).toBe(ABI_ID);
  });

  it("ABI_ID is the first 20 bits of the SHA-256 of assembly/abi.ts (independent recomputation)", async () => {
    const { createHash } = await import("node:crypto");
    const src = readFileSync(new URL("assembly/abi.ts", root), "utf8").replace(/\r\n/g, "\n");
    expect(ABI_ID).toBe(Number(BigInt("0x" + createHash("sha256").update(src).digest("hex")) >> 236n));
  });

  it("error messages and flags come from abi.ts", () => {
    const src = readFileSync(new URL("assembly/abi.ts", root), "utf8");
    expect(src).toContain(`F_DIGEST: u32 = ${F_DIGEST};`);
    for (const [code, message] of CORE_ERRORS) expect(src).toContain(`error: ${code} | ${message}`);
  });

  it("a module with another ABI identity is refused when loaded", () => {
    const fake = { exports: { ...new WebAssembly.Instance(new WebAssembly.Module(bytes), {}).exports, abiId: () => ABI_ID ^ 1 } };
    expect(() => useInstance(fake as unknown as WebAssembly.Instance)).toThrow(/ABI/);
  });

  it("no host source defines an ABI number by hand", () => {
    const files = ["src/core.ts", "src/errors.ts", "src/values.ts", "src/api.ts", "src/_diagnostics_wasm.ts", "bench/_core.mjs",
      "python/overturn/fingerprint/_core.py", "python/overturn/fingerprint/_errors.py",
      "python/overturn/fingerprint/_diagnostics_wasm.py"];
    for (const f of files) {
      const text = readFileSync(new URL(f, root), "utf8");
      expect(text, f).not.toMatch(/\b(F_[A-Z_]+|V_[A-Z_]+|E_[A-Z_]+)\s*=\s*\d/);
      expect(text, f).not.toContain("unexpected content after the JSON value");
    }
  });
});
