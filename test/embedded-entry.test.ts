// The embedding entry (dist/index.js: Deno, Bun, the default condition and
// /inline, which browser bundles use) decodes its modules with the
// runtime's own base64 decoder: Uint8Array.fromBase64 where it exists, else
// the global Buffer, else atob (a browser without fromBase64). Each case
// runs in a fresh Node process with the decoders it should not use removed,
// so every branch is exercised on the built file.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ENTRY = resolve(__dirname, "..", "dist", "index.js");
// The oracle: node:crypto over the contract's preimage, not the SDK.
const DIGEST = createHash("sha256").update('tool_call\nsearch\n{"q":"cats"}').digest("hex");

/** Runs `setup` (which counts the decoder it expects in `used`), then the entry: a fingerprint and an explanation (the engine module). */
function run(setup: string): { fp: string; explained: string; used: number } {
  const script = `let used = 0; ${setup}
const sdk = await import(${JSON.stringify(ENTRY)});
console.log(JSON.stringify({ fp: sdk.fingerprint("search", { q: " cats " }), explained: sdk.explain("search", { q: " cats " }).fingerprint, used }));`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  expect(r.stderr).toBe("");
  return JSON.parse(r.stdout.trim());
}

describe("dist/index.js decodes its embedded modules", () => {
  it("with atob where neither Uint8Array.fromBase64 nor Buffer exists (a browser)", () => {
    const out = run(`delete Uint8Array.fromBase64; delete globalThis.Buffer;
      const atob0 = globalThis.atob; globalThis.atob = (s) => { used++; return atob0(s); };`);
    expect(out).toEqual({ fp: DIGEST, explained: DIGEST, used: 2 }); // the core, then the engine module
  });

  it("with Uint8Array.fromBase64 first, where the runtime has it (ES2026)", () => {
    const out = run(`Uint8Array.fromBase64 = (s) => { used++; return new Uint8Array(Buffer.from(s, "base64")); };
      globalThis.atob = () => { throw new Error("atob used"); };`);
    expect(out).toEqual({ fp: DIGEST, explained: DIGEST, used: 2 });
  });
});
