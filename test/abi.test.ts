// The ABI is defined once (assembly/abi.ts): the hosts' constants are
// generated from it and must be current, the built module must report the
// same identity, and a module with another identity is refused on load.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  ABI_ID, ALL_CALLS, CORE_ERRORS, F_CALL, F_DIGEST, F_EXPLAIN, F_NTH_CALL, REQUESTS, RESULT_CLI_CODE, RESULT_CLI_ERR, RESULT_CLI_LINES,
  RESULT_CLI_ARG, RESULT_CLI_DATA, RESULT_CLI_OP, RESULT_CLI_OUT, RESULT_CLI_STATE, RESULT_DIGEST, RQ_EXPLAIN, RQ_EXPLAIN_ALL,
} from "../src/_abi.gen";
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

  it("every host gets the same table of request kinds, read from abi.ts's request lines", () => {
    const src = readFileSync(new URL("assembly/abi.ts", root), "utf8");
    const names = [...src.matchAll(/^\/\/ request: (\w+) \|/gm)].map((m) => m[1]);
    expect(Object.keys(REQUESTS)).toEqual(names);
    expect(names).toEqual(expect.arrayContaining(["fingerprint", "canonical", "explain", "explainAll", "diff", "cli", "replay"]));
    expect(RQ_EXPLAIN).toBe(F_CALL | F_EXPLAIN | F_DIGEST);
    expect(RQ_EXPLAIN_ALL).toBe(F_CALL | F_EXPLAIN | F_DIGEST | F_NTH_CALL);
    expect(REQUESTS.explainAll.parts).toEqual({ kind: "u32:ALL_CALLS", ignoreArgs: "tools", args: "message" });
    // What a host's one request routine reads from the table: each u32 part's fields (a constant as
    // its value) and the result's u32 words from RESULT_DIGEST by name.
    expect(REQUESTS.explainAll.u32).toEqual({ kind: [ALL_CALLS] });
    expect(REQUESTS.replay.u32).toEqual({ kind: ["op", "argument", "held", "unit"] });
    expect(REQUESTS.limits.words).toEqual(["given", "bytes", "depth", "members"]);
    expect(REQUESTS.cli.words.map((_, k) => RESULT_DIGEST + 4 * k))
      .toEqual([RESULT_CLI_OUT, RESULT_CLI_ERR, RESULT_CLI_STATE, RESULT_CLI_LINES, RESULT_CLI_CODE,
        RESULT_CLI_OP, RESULT_CLI_DATA, RESULT_CLI_ARG]);
    const py = execFileSync("python3", ["-c", "import json, runpy, sys; " +
      "print(json.dumps(runpy.run_path(sys.argv[1])['REQUESTS']))", "python/overturn/fingerprint/_abi.py"],
    { cwd: root, encoding: "utf8" });
    expect(JSON.parse(py)).toEqual(JSON.parse(JSON.stringify(REQUESTS)));
  });

  it("the contract and explanation versions are the generated ones in both hosts, never literals", () => {
    const init = readFileSync(new URL("python/overturn/fingerprint/__init__.py", root), "utf8");
    expect(init).not.toMatch(/FINGERPRINT_VERSION\s*=\s*\d/);
    expect(init).toContain('"FINGERPRINT_VERSION": "_abi"');
    for (const f of ["src/explain.ts", "python/overturn/fingerprint/_explain.py"]) {
      expect(readFileSync(new URL(f, root), "utf8"), f).not.toMatch(/["']?version["']?\s*:\s*1\b/);
    }
  });

  it("no host source defines an ABI number by hand", () => {
    const files = ["src/core.ts", "src/errors.ts", "src/values.ts", "src/api.ts", "src/_engine.ts", "bench/_core.mjs",
      "python/overturn/fingerprint/_core.py", "python/overturn/fingerprint/_errors.py",
      "python/overturn/fingerprint/_engine.py"];
    for (const f of files) {
      const text = readFileSync(new URL(f, root), "utf8");
      expect(text, f).not.toMatch(/\b(F_[A-Z_]+|V_[A-Z_]+|E_[A-Z_]+)\s*=\s*\d/);
      expect(text, f).not.toContain("unexpected content after the JSON value");
    }
  });
});
