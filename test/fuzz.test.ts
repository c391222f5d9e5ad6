// Seeded mutation fuzzer: JSON text and host values, compared
// with the independent oracle (test/reference/contract.mjs). Either both
// accept with the same fingerprint, or the oracle rejects and the SDK raises
// a FingerprintError (never another exception, never a different digest).
//
// Budget: FUZZ_ITERATIONS cases per suite (default 6,000, a few seconds);
// `npm run test:slow` runs 300,000. Each case is rebuilt from (FUZZ_SEED,
// case number) alone, so a failure prints a one-line reproduction.
import { describe, expect, it } from "vitest";
import { FingerprintError, canonicalJSON, fingerprint, fingerprintJSON } from "./helpers/sdk";
import { Rng } from "./helpers/rng";
import { OracleError, canonicalValue, fingerprintOf, fingerprintOfText } from "./reference/contract.mjs";
import { readFileSync } from "node:fs";

const ITERATIONS = Number(process.env.FUZZ_ITERATIONS ?? 6000);
const SEED = BigInt(process.env.FUZZ_SEED ?? 20261130);
const ONLY = process.env.FUZZ_CASE === undefined ? undefined : Number(process.env.FUZZ_CASE);
const TIMEOUT = Math.max(60_000, ITERATIONS * 20);

const repro = (suite: string, n: number) =>
  `FUZZ_SEED=${SEED} FUZZ_CASE=${n} npx vitest run test/fuzz.test.ts -t "${suite}"`;

/** Accepted with a digest, rejected (FingerprintError / OracleError), or a callback's own exception passed through. */
type Outcome = { ok: string } | { rejected: string } | { threw: string };

function oracle(run: () => { fingerprint: string }): Outcome | undefined {
  try {
    return { ok: run().fingerprint };
  } catch (e) {
    // V8's own JSON.parse/recursion limits are the oracle's, not the contract's: no verdict.
    if (e instanceof RangeError) return undefined;
    if (e instanceof OracleError) return { rejected: e.message };
    return { threw: `${(e as Error).name}: ${(e as Error).message}` };
  }
}

function sdk(run: () => string): Outcome {
  try {
    return { ok: run() };
  } catch (e) {
    if (e instanceof FingerprintError) return { rejected: e.path ?? e.message };
    // Only an exception a toJSON or getter raised may pass through, and then the oracle saw it too.
    return { threw: `${(e as Error).name}: ${(e as Error).message}` };
  }
}

/**
 * Same digest, or both fail. A value with several bad parts may fail on a
 * different one in each (the oracle walks keys sorted, the SDK in their own
 * order), so the kind of failure must match only when the oracle's is the
 * only one the SDK could have met first — checked by the single-fault cases
 * of test/hostile.test.ts; here, a FingerprintError or a passed-through
 * callback exception on both sides.
 */
function sameVerdict(want: Outcome, got: Outcome, shown: string): void {
  const message = `${shown}: oracle ${JSON.stringify(want)}, sdk ${JSON.stringify(got)}`;
  expect("ok" in got, message).toBe("ok" in want);
  if ("ok" in want) expect((got as { ok: string }).ok, message).toBe(want.ok);
}

function cases(suite: string, check: (rng: Rng, n: number) => void): void {
  const first = ONLY ?? 0;
  const last = ONLY ?? ITERATIONS - 1;
  for (let n = first; n <= last; n++) {
    const rng = new Rng(SEED * 1_000_003n + BigInt(n));
    try {
      check(rng, n);
    } catch (e) {
      throw new Error(`fuzz case ${n} failed: ${(e as Error).message}\n  reproduce: ${repro(suite, n)}`, { cause: e });
    }
  }
}

// --- JSON text ---------------------------------------------------------------

const enc = new TextEncoder();
const vectors = JSON.parse(readFileSync(new URL("../vectors/fingerprint.vectors.json", import.meta.url), "utf8"));
const SEEDS = (vectors.vectors as Array<{ argsJSON?: string }>).flatMap((v) => (v.argsJSON === undefined ? [] : [v.argsJSON]));
const TOKENS = [
  "{", "}", "[", "]", ",", ":", '"', "\\", "\\u", "\\ud83d", "\\ude00", "\\udc00", "\\u0000", "null", "true", "false",
  "NaN", "-Infinity", "Infinity", "-0", "1e400", "1e-400", "0.1", "1E+2", "123456789012345678901234567890",
  " ", "\t", "\n", "\u00a0", "\ufeff", "\u2028", "é", "😀", "\u0085", "\u001f", "//", "/*", "'", "01", ".5", "+1",
];
const BYTES = [0x00, 0x22, 0x5c, 0x7f, 0x80, 0xbf, 0xc0, 0xc3, 0xe0, 0xed, 0xa0, 0xf0, 0xf4, 0xf5, 0xff, 0xef, 0xbb];

function mutateText(rng: Rng, text: string): string | Uint8Array {
  let s = text;
  const steps = 1 + rng.int(4);
  for (let i = 0; i < steps; i++) {
    const at = rng.int(s.length + 1);
    switch (rng.int(7)) {
      case 0: s = s.slice(0, at) + rng.pick(TOKENS) + s.slice(at); break;
      case 1: s = s.slice(0, at) + s.slice(at + 1 + rng.int(4)); break;
      case 2: { const end = Math.min(s.length, at + 1 + rng.int(12)); s = s.slice(0, end) + s.slice(at, end) + s.slice(end); break; }
      case 3: { const d = 1 + rng.int(1500); s = "[".repeat(d) + s + "]".repeat(rng.int(3) === 0 ? d - 1 : d); break; }
      case 4: s = s.slice(0, at) + `"${rng.pick(TOKENS)}${rng.pick(TOKENS)}"` + s.slice(at); break;
      case 5: s = `{"${rng.pick(TOKENS)}":${s},"${rng.pick(TOKENS)}":${rng.pick(TOKENS)}}`; break;
      default: s = s.slice(0, at) + String.fromCharCode(rng.int(0x10000)) + s.slice(at); break;
    }
  }
  if (rng.int(3) !== 0) return s;
  // Byte input: WTF-8 of the text (lone surrogates kept), then byte-level damage.
  const bytes = Array.from(Buffer.from(s, "utf8"));
  if (rng.int(4) === 0) bytes.unshift(0xef, 0xbb, 0xbf);
  const hits = rng.int(3);
  for (let i = 0; i < hits; i++) bytes.splice(rng.int(bytes.length + 1), rng.int(2), rng.pick(BYTES));
  return Uint8Array.from(bytes);
}

describe("fuzz: JSON text against the oracle", () => {
  it("fingerprintJSON", () => {
    cases("fingerprintJSON", (rng) => {
      const text = mutateText(rng, rng.pick(SEEDS));
      const options = rng.int(4) === 0 ? { matchOn: ["a", "id", "q"] } : rng.int(4) === 0 ? { ignoreArgs: ["a"] } : {};
      const want = oracle(() => fingerprintOfText({ name: "fuzz", argsJSON: text, ...options }));
      if (want === undefined) return;
      const got = sdk(() => fingerprintJSON("fuzz", text, options));
      const shown = typeof text === "string" ? JSON.stringify(text) : `bytes ${Buffer.from(text).toString("hex")}`;
      sameVerdict(want, got, shown);
    });
  }, TIMEOUT);
});

// --- host values -------------------------------------------------------------

const KEYS = ["a", "b", "id", "q", " k ", "😀", "\uff01", "\ud800", "__proto__", "constructor", "toJSON", "0", "10", ""];
const STRINGS = ["", " x ", "\u00a0y\u0085", "\ud800", "😀", "a\"b\\c\n", "\u2028", "\ufeffz", "plain"];
const NUMBERS = [0, -0, 1, 1.5, 1e21, 1e-7, 5e-324, NaN, Infinity, -Infinity, 2 ** 53 + 2, 0.1 + 0.2];

/**
 * A random host value with the hostile features a user's objects have:
 * getters, toJSON (returning anything), Dates, Proxies, null prototypes,
 * sparse arrays, values D15 rejects, cycles, and toJSON methods that call
 * back into the SDK. Every callback is a pure function of the case, so the
 * oracle and the SDK see the same values.
 */
function hostValue(rng: Rng, depth: number): unknown {
  const r = rng.int(depth > 4 ? 8 : 22);
  switch (r) {
    case 0: return rng.pick(STRINGS);
    case 1: return rng.pick(NUMBERS);
    case 2: return rng.int(2) === 0;
    case 3: return rng.int(2) === 0 ? null : undefined;
    case 4: return rng.int(2) === 0 ? () => 1 : Symbol("s");
    case 5: return rng.int(10) + rng.pick(STRINGS);
    case 6: return rng.int(1 << 20) / 8;
    case 7: return rng.pick(STRINGS).trim();
    case 8: case 9: case 10: {
      const o: Record<string, unknown> = rng.int(6) === 0 ? Object.create(null) : {};
      const n = rng.int(5);
      for (let i = 0; i < n; i++) o[rng.pick(KEYS)] = hostValue(rng, depth + 1);
      return o;
    }
    case 11: case 12: return Array.from({ length: rng.int(5) }, () => hostValue(rng, depth + 1));
    case 13: {
      const inner = hostValue(rng, depth + 1);
      return { get g() { return inner; }, plain: rng.int(3) };
    }
    case 14: {
      const inner = hostValue(rng, depth + 1);
      return { toJSON: (k: string) => (typeof inner === "string" ? inner + k : inner) };
    }
    case 15: return new Date(rng.int(3) === 0 ? NaN : rng.int(2 ** 40));
    case 16: {
      const target = { a: hostValue(rng, depth + 1), b: rng.int(9) };
      return new Proxy(target, { get: (t, k, rcv) => Reflect.get(t, k, rcv) });
    }
    case 17: {
      const a: unknown[] = [];
      a[rng.int(4)] = hostValue(rng, depth + 1);
      a.length = rng.int(2) === 0 ? a.length + rng.int(3) : 70_000 + rng.int(10);
      return a;
    }
    case 18: return rng.pick([new Map(), new Set(), 1n, new Uint8Array(1), new (class K {})(), new Number(1)]);
    case 19: {
      const o: Record<string, unknown> = { x: rng.int(4) };
      if (rng.int(2) === 0) o.self = rng.int(2) === 0 ? o : [o];
      return o;
    }
    case 20: {
      const inner = hostValue(rng, depth + 1);
      // Re-entrant: the toJSON computes a fingerprint through the SDK, the oracle's copy through the oracle.
      return { toJSON: reentrant(inner) };
    }
    default: return { nested: hostValue(rng, depth + 1) };
  }
}

/** A toJSON that calls the SDK while the SDK (or the oracle) is walking. */
let viaOracle = false;
function reentrant(inner: unknown): () => string {
  return () => {
    const viaSdk = !viaOracle;
    try {
      return viaSdk ? fingerprint("inner", inner) : (fingerprintOf({ name: "inner", args: inner }) as { fingerprint: string }).fingerprint;
    } catch {
      return "rejected";
    }
  };
}

describe("fuzz: host values against the oracle", () => {
  it("fingerprint and canonicalJSON", () => {
    cases("fingerprint and canonicalJSON", (rng) => {
      const value = hostValue(rng, 0);
      const options = rng.int(5) === 0 ? { matchOn: ["a", "id"] } : rng.int(5) === 0 ? { ignoreArgs: ["a", "b"] } : {};
      viaOracle = true;
      let want: Outcome | undefined;
      let wantText: Outcome | undefined;
      try {
        want = oracle(() => fingerprintOf({ name: "fuzz", args: value, ...options }));
        wantText = oracle(() => ({ fingerprint: canonicalValue(value) }));
      } finally {
        viaOracle = false;
      }
      if (want === undefined) return;
      const got = sdk(() => fingerprint("fuzz", value, options));
      sameVerdict(want, got, "value");
      // Both reject. With several bad values the two may name different ones
      // (the oracle walks keys sorted, the SDK in their own order): a path is enough.
      if ("rejected" in got) expect(got.rejected).toMatch(/^args/);
      if (wantText !== undefined) sameVerdict(wantText, sdk(() => canonicalJSON(value)), "canonical text");
    });
  }, TIMEOUT);
});
