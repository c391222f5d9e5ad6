// The browser entry's contract outside a browser (the real browser run is in
// scripts/test-runtimes.mjs): nothing works before init(), a failed default
// load is a clear FingerprintError that can be retried, and init(bytes) or
// init(module) is the escape hatch. Expected digests come from the shared
// vectors file (made by the independent oracle), not from this entry.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as browser from "../dist/browser.js";

const wasm = readFileSync(new URL("../dist/fingerprint.wasm", import.meta.url));
const diagnosticsWasm = readFileSync(new URL("../dist/engine.wasm", import.meta.url));
const vectors = JSON.parse(readFileSync(new URL("../vectors/fingerprint.vectors.json", import.meta.url), "utf8")) as {
  vectors: { id: string; name: string; argsJSON?: string; fingerprint?: string; error?: boolean; matchOn?: unknown; ignoreArgs?: unknown; kind?: unknown }[];
};
const plain = vectors.vectors.find((v) => !v.error && v.argsJSON !== undefined && v.matchOn === undefined
  && v.ignoreArgs === undefined && v.kind === undefined)!;

describe("browser entry (dist/browser.js)", () => {
  it("throws FingerprintError('not-initialized') before init()", () => {
    const caught = (fn: () => unknown): unknown => {
      try {
        fn();
      } catch (err) {
        return err;
      }
      return "no error";
    };
    for (const err of [caught(() => browser.fingerprintJSON(plain.name, plain.argsJSON!)), caught(() => browser.canonicalizeJSON("{}"))]) {
      expect(err).toBeInstanceOf(browser.FingerprintError);
      expect((err as { code: string }).code).toBe("not-initialized");
      expect(String((err as Error).message)).toMatch(/init\(\)/);
    }
  });

  it("reports a failed default load as FingerprintError and lets init() be retried", async () => {
    // In Node, import.meta.url is a file: URL and fetch() refuses it: the same
    // path a browser takes when the bundler did not emit the .wasm.
    const first = await browser.init().then(() => "resolved", (e: unknown) => e);
    expect(first).toBeInstanceOf(browser.FingerprintError);
    expect((first as { code: string }).code).toBe("not-initialized");
    expect(String((first as Error).message)).toMatch(/fingerprint\.wasm/);
    const again = await browser.init().then(() => "resolved", (e: unknown) => e);
    expect(again).toBeInstanceOf(browser.FingerprintError);
  });

  it("works after init(module) and init(bytes)", async () => {
    await browser.init(await WebAssembly.compile(wasm));
    expect(browser.fingerprintJSON(plain.name, plain.argsJSON!)).toBe(plain.fingerprint);
    await browser.init(new Uint8Array(wasm));
    expect(browser.fingerprintJSON(plain.name, plain.argsJSON!)).toBe(plain.fingerprint);
    await browser.init(); // already initialized: resolves at once
  });

  it("ships the engine as engine.wasm, and under the path the docs named before (./diagnostics.wasm) too", () => {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { exports: Record<string, unknown> };
    expect(pkg.exports["./engine.wasm"]).toBe("./dist/engine.wasm");
    expect(pkg.exports["./diagnostics.wasm"]).toBe("./dist/engine.wasm");
    expect(readFileSync(new URL("../dist/engine.wasm", import.meta.url))).toEqual(readFileSync(new URL("../build/engine.wasm", import.meta.url)));
  });

  it("loads the diagnostics module only through initDiagnostics(), and checks what it is given", async () => {
    const line = `{"name":"${plain.name}","argsJSON":${JSON.stringify(plain.argsJSON)}}`;
    let err: unknown = (() => { try { return browser.explainCall(line); } catch (e) { return e; } })();
    expect(err).toBeInstanceOf(browser.FingerprintError);
    expect((err as { code: string }).code).toBe("not-initialized");
    expect(String((err as Error).message)).toMatch(/initDiagnostics\(\)/);
    // The default fetch fails in Node (a file: URL), as a page whose bundler dropped the asset.
    err = await browser.initDiagnostics().then(() => "resolved", (e: unknown) => e);
    expect((err as { code: string }).code).toBe("not-initialized");
    expect(String((err as Error).message)).toMatch(/engine\.wasm/);
    // The fingerprint module is not the diagnostics module: refused, and nothing is kept.
    err = await browser.initDiagnostics(new Uint8Array(wasm)).then(() => "resolved", (e: unknown) => e);
    expect(err).toBeInstanceOf(browser.FingerprintError);
    expect(() => browser.explainCall(line)).toThrow(/initDiagnostics/);
    await browser.initDiagnostics(await WebAssembly.compile(diagnosticsWasm));
    expect(browser.explainCall(line).fingerprint).toBe(plain.fingerprint);
    await browser.initDiagnostics(); // already loaded: resolves at once
  });
});
