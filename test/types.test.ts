// The type test: test/types/sdk-types.ts passes the provider SDKs' own types
// (openai, @anthropic-ai/sdk, ai, @modelcontextprotocol/sdk, @langchain/core)
// to every function that takes a call or a message, and narrows a replay
// answer on `hit`; it must compile under `tsc --strict` with no error.
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "..");

describe("types: the SDKs' own objects", () => {
  it("test/types/sdk-types.ts compiles with tsc --strict", () => {
    const r = spawnSync(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", join(ROOT, "test", "types", "tsconfig.json")],
      { cwd: ROOT, encoding: "utf8" });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  }, 120_000);
});
