// Cross-language parity driver (test-only, internal): run by
// python/tests/test_parity.py as `node parity.mjs <bundle.js>`, reads one JSON
// document of cases from stdin, answers one JSON array on stdout.
// Host values arrive tagged as in vectors/fingerprint.vectors.json
// ({"$ov": "NaN" | "Infinity" | "-Infinity" | "-0" | "undefined" | "date" | "object"}).
import { pathToFileURL } from "node:url";

const sdk = await import(pathToFileURL(process.argv[2]).href);

function decode(v) {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map(decode);
  if (Object.prototype.hasOwnProperty.call(v, "$ov")) {
    switch (v.$ov) {
      case "NaN": return NaN;
      case "Infinity": return Infinity;
      case "-Infinity": return -Infinity;
      case "-0": return -0;
      case "undefined": return undefined;
      case "date": return new Date(v.iso);
      case "object": {
        const o = {};
        for (const [k, x] of v.entries) {
          Object.defineProperty(o, k, { value: decode(x), enumerable: true, writable: true, configurable: true });
        }
        return o;
      }
      default: throw new Error(`unknown tag ${v.$ov}`);
    }
  }
  throw new Error("untagged object in parity input");
}

function attempt(f) {
  try {
    return f();
  } catch (e) {
    if (e && e.name === "FingerprintError") return { error: e.code };
    throw e;
  }
}

const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const cases = JSON.parse(Buffer.concat(chunks).toString("utf8"));
const out = cases.map((c) => {
  const opts = {};
  if (c.kind !== undefined) opts.kind = c.kind;
  if (c.matchOn !== undefined) opts.matchOn = c.matchOn;
  if (c.ignoreArgs !== undefined) opts.ignoreArgs = c.ignoreArgs;
  const r = {};
  if (c.args !== undefined) {
    const value = decode(c.args);
    r.fp = attempt(() => sdk.fingerprint(c.name, value, opts));
    r.canon = attempt(() => sdk.canonicalJSON(value));
  }
  if (c.text !== undefined) {
    r.fpText = attempt(() => sdk.fingerprintJSON(c.name, c.text, opts));
    r.canonText = attempt(() => sdk.canonicalizeJSON(c.text));
  }
  if (c.hex !== undefined) {
    r.fpBytes = attempt(() => sdk.fingerprintJSON(c.name, Buffer.from(c.hex, "hex"), opts));
  }
  return r;
});
process.stdout.write(JSON.stringify(out));
