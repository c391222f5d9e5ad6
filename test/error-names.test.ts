// The built Node entries (dist/index.*, dist/node.*) as users see their
// errors: the class is named FingerprintError (not a minifier's one-letter
// name), and an uncaught one prints that name and a source line of readable
// length (not the whole bundle on one line). Fresh Node processes on the
// built files; expected texts are the SDK's documented class name.
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const DIST = resolve(__dirname, "..", "dist");
const ENTRIES = ["index.js", "index.cjs", "node.js", "node.cjs"];

function load(entry: string): string {
  const path = JSON.stringify(resolve(DIST, entry));
  return entry.endsWith(".cjs") ? `const sdk = require(${path});` : `const sdk = await import(${path});`;
}

function run(entry: string, body: string): { status: number | null; stdout: string; stderr: string } {
  const type = entry.endsWith(".cjs") ? "commonjs" : "module";
  const src = entry.endsWith(".cjs") ? `(async () => { ${load(entry)} ${body} })()` : `${load(entry)} ${body}`;
  return spawnSync(process.execPath, [`--input-type=${type}`, "-e", src], { encoding: "utf8" });
}

describe("error names in the built entries", () => {
  for (const entry of ENTRIES) {
    it(`${entry}: FingerprintError by name, constructor and inspection`, () => {
      const r = run(entry, `
        const { inspect } = await import("node:util");
        const e = new sdk.FingerprintError("invalid-argument", "x");
        let thrown; try { sdk.fingerprintJSON("t", "{"); } catch (err) { thrown = err; }
        console.log(JSON.stringify({ name: e.name, ctor: e.constructor.name, inspected: inspect(e).split("\\n")[0],
          stack: thrown.stack.split("\\n")[0], thrownCtor: thrown.constructor.name }));
      `);
      expect(r.stderr).toBe("");
      expect(JSON.parse(r.stdout)).toEqual({
        name: "FingerprintError", ctor: "FingerprintError", inspected: "FingerprintError: x",
        stack: "FingerprintError: invalid JSON: the text ends inside a value at byte 1", thrownCtor: "FingerprintError",
      });
    });

    it(`${entry}: an uncaught one prints its name, and a source line, not the bundle`, () => {
      const r = run(entry, `sdk.fingerprintJSON("t", "{");`);
      expect(r.status).not.toBe(0);
      const lines = r.stderr.split("\n");
      // Node prints where it was thrown (file:line, that line, a caret), then the stack.
      const header = lines.find((l) => /Error\b/.test(l) && !l.startsWith(" "));
      expect(header).toBe("FingerprintError: invalid JSON: the text ends inside a value at byte 1");
      expect(Math.max(...lines.map((l) => l.length))).toBeLessThan(400);
      expect(r.stderr).toMatch(/\n {4}at errorFromCore \(/); // the stack names the functions
    });
  }
});
