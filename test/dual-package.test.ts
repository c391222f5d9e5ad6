// The dual package hazard: the ESM build (dist/index.js) and the
// CJS build (dist/index.cjs) each define a FingerprintError class, and a CJS
// dependency may throw into ESM code. Both builds are loaded, unbundled, in
// one fresh Node process, as an application mixing them would.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";

const ROOT = resolve(__dirname, "..");

const PROGRAM = `
import { createRequire } from "node:module";
const require = createRequire(process.cwd() + "/");
const cjs = require("./dist/index.cjs");
const esm = await import("./dist/index.js");
const thrown = (sdk) => { try { sdk.fingerprint("", {}); } catch (e) { return e; } return null; };
const fromCjs = thrown(cjs), fromEsm = thrown(esm);
const forged = Object.assign(new Error("x"), { name: "FingerprintError", code: "bad-name" });
class Sub extends esm.FingerprintError {}
console.log(JSON.stringify({
  distinctClasses: cjs.FingerprintError !== esm.FingerprintError,
  codes: [fromCjs?.code, fromEsm?.code],
  cjsErrorIsEsmClass: fromCjs instanceof esm.FingerprintError,
  esmErrorIsCjsClass: fromEsm instanceof cjs.FingerprintError,
  stillAnError: fromCjs instanceof Error,
  plainErrorIs: new Error("x") instanceof esm.FingerprintError,
  forgedIs: forged instanceof esm.FingerprintError,
  nullIs: null instanceof esm.FingerprintError,
  subclassOfOther: fromCjs instanceof Sub,
  subclassOwn: new Sub("bad-name", "m") instanceof Sub,
  ownKeys: Object.getOwnPropertySymbols(fromEsm).length,
}));
`;

describe("FingerprintError across the ESM and CJS builds", () => {
  it("instanceof holds both ways, and only for real FingerprintErrors", () => {
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", PROGRAM], { cwd: ROOT, encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual({
      distinctClasses: true,
      codes: ["bad-name", "bad-name"],
      cjsErrorIsEsmClass: true,
      esmErrorIsCjsClass: true,
      stillAnError: true,
      plainErrorIs: false,
      forgedIs: false,
      nullIs: false,
      subclassOfOther: false,
      subclassOwn: true,
      ownKeys: 0,
    });
  });
});
