// Runs every shared vector (vectors/fingerprint.vectors.json) through one
// loaded SDK, inside whatever runtime imported this file: Node, Deno, Bun,
// workerd, the Edge Runtime, a browser page or a Web Worker. Plain ES2022, no
// host APIs, so the same checks run everywhere. Test-only, internal; the
// checks mirror test/vectors.test.ts (text and value input, canonical text
// where no selection applies, a FingerprintError for every error vector).
import { decodeTagged } from "../vectors-decode.mjs";

const hexBytes = (h) => new Uint8Array((h.match(/../g) ?? []).map((b) => parseInt(b, 16)));

function options(v) {
  const o = {};
  if (v.kind !== undefined) o.kind = v.kind;
  if (v.matchOn !== undefined) o.matchOn = v.matchOn;
  if (v.ignoreArgs !== undefined) o.ignoreArgs = v.ignoreArgs;
  return o;
}

/** Calls fn and returns "threw <code>" for a FingerprintError, or what it returned / threw otherwise. */
function outcome(sdk, fn) {
  try {
    return { value: fn() };
  } catch (err) {
    if (err instanceof sdk.FingerprintError && typeof err.code === "string") return { error: err.code };
    return { crash: String(err && err.stack || err) };
  }
}

/**
 * @param sdk the module namespace of "@overturn/fingerprint" as this runtime resolved it
 * @param file the parsed vectors file
 * @returns {{vectors: number, checks: number, failed: number, failures: string[]}}
 */
export function checkVectors(sdk, file) {
  const failures = [];
  let checks = 0;
  const expect = (id, what, got, want) => {
    checks++;
    if (got.value === want) return;
    failures.push(`${id} ${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  };
  const expectError = (id, what, got) => {
    checks++;
    if (got.error !== undefined) return;
    failures.push(`${id} ${what}: expected a FingerprintError, got ${JSON.stringify(got)}`);
  };

  if (file.FINGERPRINT_VERSION !== sdk.FINGERPRINT_VERSION) failures.push(`contract version ${sdk.FINGERPRINT_VERSION} != file ${file.FINGERPRINT_VERSION}`);
  if (!Array.isArray(file.vectors) || file.vectors.length < 200) failures.push("vectors file looks truncated");

  for (const v of file.vectors) {
    const text = v.argsBytesHex !== undefined ? hexBytes(v.argsBytesHex) : v.argsJSON;
    const hasValue = "args" in v;
    const selects = (v.matchOn ?? v.ignoreArgs) != null;
    const o = options(v);
    if (text !== undefined) {
      const got = outcome(sdk, () => sdk.fingerprintJSON(v.name, text, o));
      if (v.error) expectError(v.id, "fingerprintJSON", got);
      else expect(v.id, "fingerprintJSON", got, v.fingerprint);
      if (!v.error && !selects) expect(v.id, "canonicalizeJSON", outcome(sdk, () => sdk.canonicalizeJSON(text)), v.canonical);
    }
    if (hasValue) {
      // Decoded afresh for each call: a call must not depend on another's leftovers.
      const got = outcome(sdk, () => sdk.fingerprint(v.name, decodeTagged(v.args), o));
      if (v.error) expectError(v.id, "fingerprint", got);
      else expect(v.id, "fingerprint", got, v.fingerprint);
      if (!v.error && !selects) expect(v.id, "canonicalJSON", outcome(sdk, () => sdk.canonicalJSON(decodeTagged(v.args))), v.canonical);
    }
  }
  return { vectors: file.vectors.length, checks, failed: failures.length, failures: failures.slice(0, 5) };
}

/**
 * The batch API over the same vectors (test/batch.test.ts's checks): call
 * objects through fingerprintBatch, plain texts through fingerprintBatchJSON
 * (where no node:crypto is, the diagnostics module hashes four calls at once).
 */
function checkBatches(sdk, file, failures) {
  const calls = file.vectors.filter((v) => v.argsJSON !== undefined && !(v.name === "" && v.error === undefined));
  const plain = calls.filter((v) => v.kind === undefined && !v.matchOn && !v.ignoreArgs);
  const want = (vs) => vs.map((v) => (v.error === undefined ? v.fingerprint : null));
  const rows = [
    ["fingerprintBatch", calls, () => sdk.fingerprintBatch(calls.map((v) => ({ name: v.name, argsJSON: v.argsJSON, kind: v.kind,
      matchOn: v.matchOn, ignoreArgs: v.ignoreArgs })), { onError: "null" })],
    ["fingerprintBatchJSON", plain, () => sdk.fingerprintBatchJSON(plain.map((v) => v.name), plain.map((v) => v.argsJSON), { onError: "null" })],
  ];
  for (const [what, vs, run] of rows) {
    const got = outcome(sdk, run);
    const w = want(vs);
    if (!Array.isArray(got.value) || got.value.length !== w.length) {
      failures.push(`${what}: got ${JSON.stringify(got).slice(0, 200)}`);
      continue;
    }
    got.value.forEach((g, i) => { if (g !== w[i]) failures.push(`${vs[i].id} ${what}: got ${g}, want ${w[i]}`); });
  }
  return calls.length + plain.length;
}

/** Key-order-free equality of JSON values (expected values come from the vectors file). */
function same(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a), kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && same(a[k], b[k]));
}

/**
 * Runs vectors/diagnostics.vectors.json (explain / diff / nearest / errors of
 * recording lines) through the SDK's diagnostics module, as
 * test/diagnostics-vectors.test.ts does; `await sdk.initDiagnostics()` first.
 * Adds its counts to `into` (a checkVectors result), with the batch API's
 * rows over `vectorsFile` (the fingerprint vectors).
 */
export function checkDiagnostics(sdk, file, into, vectorsFile) {
  let checks = 0;
  const failures = [];
  for (const c of file.cases) {
    checks++;
    let got;
    try {
      if (c.op === "explain") got = sdk.explainCall(c.line);
      else if (c.op === "diff") got = sdk.diff(sdk.explainCall(c.a), sdk.explainCall(c.b));
      else if (c.op === "diff-calls") got = sdk.diff(JSON.parse(c.a), JSON.parse(c.b));
      else if (c.op === "diff-mixed") got = sdk.diff(sdk.explainCall(c.a), JSON.parse(c.b));
      else if (c.op === "nearest-calls") {
        const n = sdk.nearest(JSON.parse(c.line), c.recording.map((l) => JSON.parse(l)));
        got = n && { index: n.index, diff: n.diff };
      } else if (c.op === "nearest") {
        const n = sdk.nearest(sdk.explainCall(c.line), c.recording.map((l) => sdk.explainCall(l)));
        got = n && { index: n.index, diff: n.diff };
      } else {
        try {
          sdk.explainCall(c.line);
          got = "no error";
        } catch (err) {
          got = err instanceof sdk.FingerprintError ? { code: err.code, message: err.message } : String(err);
        }
      }
    } catch (err) {
      got = { crash: String((err && err.stack) || err) };
    }
    if (!same(got, c.expect)) failures.push(`${c.id}: got ${JSON.stringify(got).slice(0, 200)}`);
  }
  checks += checkBatches(sdk, vectorsFile, failures);
  into.diagnostics = file.cases.length;
  into.checks += checks;
  into.failed += failures.length;
  into.failures = [...into.failures, ...failures].slice(0, 5);
  return into;
}

/** The probe call every cold-start timing ends with. */
export function firstCall(sdk) {
  return sdk.fingerprint("search", { q: "cats", limit: 10 });
}

const EMPTY_WASM = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);

/** Whether this isolate lets code compile wasm from bytes ("allowed" or "refused (…)"); edge runtimes must refuse. */
export function compileFromBytes() {
  try {
    new WebAssembly.Module(EMPTY_WASM);
    return "allowed";
  } catch (err) {
    return `refused (${err.message})`;
  }
}
