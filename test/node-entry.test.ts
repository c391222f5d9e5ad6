// The node entry (dist/node.js, dist/node.cjs): the core
// embedded, engine.wasm read from beside the entry on first use instead
// of embedded. Each case runs in a fresh Node process on the built files, as
// an installed package (or an app bundle that lost the file) would.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const DIST = resolve(__dirname, "..", "dist");
// The oracle: node:crypto over the contract's preimage, not the SDK.
const DIGEST = createHash("sha256").update('tool_call\nsearch\n{"q":"cats"}').digest("hex");

function node(args: string[], cwd: string): Record<string, unknown> {
  const r = spawnSync(process.execPath, args, { cwd, encoding: "utf8" });
  expect(r.stderr).toBe("");
  return JSON.parse(r.stdout.trim());
}

const ESM_PROBE = (entry: string) => `
const sdk = await import(${JSON.stringify(entry)});
const out = { fp: sdk.fingerprint("search", { q: " cats " }) };
try { out.explained = sdk.explain("search", { q: " cats " }).fingerprint; }
catch (e) { out.error = { isFingerprintError: e instanceof sdk.FingerprintError, code: e.code, message: e.message }; }
console.log(JSON.stringify(out));
`;

describe("dist/node.js and dist/node.cjs", () => {
  const lost = mkdtempSync(join(tmpdir(), "overturn-node-entry-"));
  afterAll(() => rmSync(lost, { recursive: true, force: true }));

  it("read engine.wasm beside themselves: explain works right after import, ESM and CommonJS", () => {
    expect(node(["--input-type=module", "-e", ESM_PROBE(join(DIST, "node.js"))], DIST)).toEqual({ fp: DIGEST, explained: DIGEST });
    const cjs = node(["-e", `const sdk = require(${JSON.stringify(join(DIST, "node.cjs"))});
      console.log(JSON.stringify({ fp: sdk.fingerprint("search", { q: " cats " }), explained: sdk.explain("search", { q: "cats" }).fingerprint }));`], DIST);
    expect(cjs).toEqual({ fp: DIGEST, explained: DIGEST });
  });

  it("embed the core but not the diagnostics module (the /inline entry embeds both)", () => {
    const b64 = (f: string) => readFileSync(join(DIST, f)).toString("base64").slice(0, 200);
    for (const f of ["node.js", "node.cjs"]) {
      const text = readFileSync(join(DIST, f), "utf8");
      expect(text.includes(b64("fingerprint.wasm"))).toBe(true);
      expect(text.includes(b64("engine.wasm"))).toBe(false);
    }
    expect(readFileSync(join(DIST, "index.js"), "utf8").includes(b64("engine.wasm"))).toBe(true);
  });

  it("on a Node without process.getBuiltinModule (< 20.16): explain asks for initDiagnostics(), which reads the file", () => {
    for (const [flag, entry] of [["--input-type=module", "node.js"], ["--input-type=commonjs", "node.cjs"]]) {
      const load = entry.endsWith("cjs") ? `require(${JSON.stringify(join(DIST, entry))})` : `await import(${JSON.stringify(join(DIST, entry))})`;
      const program = `delete process.getBuiltinModule;
(async () => {
  const sdk = ${load};
  let first = "";
  try { sdk.explain("search", { q: 1 }); } catch (e) { first = e.code + ": " + e.message; }
  await sdk.initDiagnostics();
  console.log(JSON.stringify({ first, fp: sdk.fingerprint("search", { q: " cats " }), explained: sdk.explain("search", { q: " cats " }).fingerprint }));
})();`;
      const got = node([flag, "-e", program], DIST) as { first: string; fp: string; explained: string };
      expect(got.first).toMatch(/^not-initialized: .*initDiagnostics\(\)/);
      expect(got).toMatchObject({ fp: DIGEST, explained: DIGEST });
    }
  });

  it("without the file beside them (a bundled app): fingerprints still work; explain names initDiagnostics(bytes) and /inline; bytes fix it", () => {
    copyFileSync(join(DIST, "node.js"), join(lost, "node.mjs"));
    const got = node(["--input-type=module", "-e", ESM_PROBE(join(lost, "node.mjs"))], lost) as
      { fp: string; error: { isFingerprintError: boolean; code: string; message: string } };
    expect(got.fp).toBe(DIGEST);
    expect(got.error.isFingerprintError).toBe(true);
    expect(got.error.code).toBe("not-initialized");
    expect(got.error.message).toContain("engine.wasm");
    expect(got.error.message).toContain("initDiagnostics(bytes)");
    expect(got.error.message).toContain("@overturn/fingerprint/inline");
    writeFileSync(join(lost, "fix.mjs"), `
const sdk = await import("./node.mjs");
const { readFileSync } = process.getBuiltinModule("node:fs");
let first = "";
try { sdk.explain("search", { q: 1 }); } catch (e) { first = e.code; }
await sdk.initDiagnostics(readFileSync(${JSON.stringify(join(DIST, "engine.wasm"))}));
console.log(JSON.stringify({ first, explained: sdk.explain("search", { q: " cats " }).fingerprint }));
`);
    expect(node(["fix.mjs"], lost)).toEqual({ first: "not-initialized", explained: DIGEST });
  });
});
