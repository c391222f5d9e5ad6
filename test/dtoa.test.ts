// Differential tests of assembly/num/dtoa.ts (ECMAScript Number::toString,
// contract decision D7) against V8's own String(x), through the test-only
// entry test/wasm/dtoa.ts (build: node scripts/build-test-wasm.mjs).
//
// Over 1,000,000 doubles: named edges, every power of ten and of two with
// its neighbours, a sweep of every binary exponent, small subnormals,
// exact-tie values, seeded random bit patterns, integers and short
// decimals. Also proves the numeric facts dtoa.ts relies on: its logarithm
// approximations over their ranges, the table identity behind its scaling,
// and the continued-fraction bound that makes its 128-bit arithmetic exact
// (see shortestDigits). The 10,000,000-double long run is
// scripts/check-dtoa.mjs.
import { describe, it, expect } from "vitest";
import { readFileSync } from "node:fs";
import { splitmix32 as prng } from "../scripts/_prng.mjs";

interface Exports {
  memory: WebAssembly.Memory;
  buf(): number;
  format(x: number): number;
  log10Pow2(q: number): number;
  log10ThreeQuartersPow2(q: number): number;
  log2Pow10(j: number): number;
  pow5(q: number): number;
  decimal(v: bigint): number;
  padded(v: bigint, width: number): void;
}

const wasm = readFileSync(new URL("../build/test-dtoa.wasm", import.meta.url));
const ex = new WebAssembly.Instance(new WebAssembly.Module(wasm), {}).exports as unknown as Exports;
const BUF = ex.buf();

// --- helpers ---------------------------------------------------------------

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer); // [lo, hi] (little-endian)
const u64 = new BigUint64Array(f64.buffer);

const fromBits = (bits: bigint): number => { u64[0] = bits; return f64[0]; };
const toBits = (x: number): bigint => { f64[0] = x; return u64[0]; };
const hex = (x: number): string => "0x" + toBits(x).toString(16).padStart(16, "0");
/** Adjacent doubles (same sign side; callers keep away from ±0 and ∞). */
const nextUp = (x: number): number => fromBits(toBits(x) + 1n);
const nextDown = (x: number): number => fromBits(toBits(x) - 1n);

const formatted = (x: number): string => {
  const n = ex.format(x);
  return Buffer.from(new Uint8Array(ex.memory.buffer, BUF, n)).toString("latin1");
};

/** Compares formatDouble(x) with String(x) without decoding. */
function agrees(x: number): boolean {
  const n = ex.format(x);
  const s = String(x);
  if (n !== s.length) return false;
  const m = new Uint8Array(ex.memory.buffer, BUF, n);
  for (let i = 0; i < n; i++) if (m[i] !== s.charCodeAt(i)) return false;
  return true;
}

/** Checks every value; fails listing the first few mismatches in hex. */
class Checker {
  count = 0;
  failures: string[] = [];
  add(x: number): void {
    this.count++;
    if (!agrees(x) && this.failures.length < 5) {
      this.failures.push(`${hex(x)}: want ${String(x)} got ${formatted(x)}`);
    }
  }
  addWithNeighbours(x: number): void {
    this.add(x);
    this.add(-x);
    if (x > 0 && x < Infinity) {
      if (x > 5e-324) this.add(nextDown(x));
      if (x < Number.MAX_VALUE) this.add(nextUp(x));
    }
  }
  done(minCount = 0): void {
    expect(this.failures).toEqual([]);
    expect(this.count).toBeGreaterThanOrEqual(minCount);
  }
}


// Total doubles checked across the suite (reported, and asserted ≥ 1e6).
let total = 0;
const run = (fill: (c: Checker) => void, minCount = 0): void => {
  const c = new Checker();
  fill(c);
  total += c.count;
  c.done(minCount);
};

// --- exact references for the numeric invariants ---------------------------

const pow2 = (e: number): [bigint, bigint] =>
  e >= 0 ? [1n << BigInt(e), 1n] : [1n, 1n << BigInt(-e)];
/** floor(log_b(num/den)) for num, den > 0, exactly. */
function floorLog(base: bigint, num: bigint, den: bigint): number {
  let k = 0;
  while (num >= den * base) { den *= base; k++; }
  while (num < den) { num *= base; k--; }
  return k;
}

// --- tests -----------------------------------------------------------------

describe("dtoa: numeric invariants of assembly/num/dtoa.ts", () => {
  it("logarithm approximations are exact on the ranges dtoa uses (and claims)", () => {
    // Stated in dtoa.ts: floorLog10Pow2 exact for |q| < 2621,
    // floorLog10ThreeQuartersPow2 for |q| < 1335, floorLog2Pow10 for |j| < 1234.
    for (let q = -2620; q <= 2620; q++) {
      expect(ex.log10Pow2(q)).toBe(floorLog(10n, ...pow2(q)));
    }
    for (let q = -1334; q <= 1334; q++) {
      const [n, d] = pow2(q - 2);
      expect(ex.log10ThreeQuartersPow2(q)).toBe(floorLog(10n, 3n * n, d));
    }
    for (let j = -1233; j <= 1233; j++) {
      const p = 10n ** BigInt(Math.abs(j));
      expect(ex.log2Pow10(j)).toBe(j >= 0 ? floorLog(2n, p, 1n) : floorLog(2n, 1n, p));
    }
  });

  it("digit-writing constants in dtoa.ts and digits.ts hold on their ranges", () => {
    // decimalLength: (b·1233) >> 12 = floor(log10(2^b)) for b in [1, 64].
    for (let b = 1; b <= 64; b++) expect((b * 1233) >> 12).toBe(floorLog(10n, 1n << BigInt(b), 1n));
    // write2: (d·103) >> 10 = floor(d/10) for d < 100; write4: (v·5243) >> 19 = floor(v/100) for v < 10^4.
    for (let d = 0; d < 100; d++) expect((d * 103) >> 10).toBe(Math.floor(d / 10));
    for (let v = 0; v < 10000; v++) expect((v * 5243) >>> 19).toBe(Math.floor(v / 100));
  });

  it("table identity: 10^j = T_j·2^(floorLog2Pow10(j) − 127) up to truncation, T_j + 1 < 2^128", () => {
    // Every entry the core computes on first use (num/_pow5.ts), read from its memory: T ≤ exact < T + 1
    // makes T the floor of the exact value, as exact fractions; exact where 0 ≤ j ≤ 55.
    const words = (j: number): [bigint, bigint] => {
      const v = new DataView(ex.memory.buffer, ex.pow5(j), 16);
      return [v.getBigUint64(0, true), v.getBigUint64(8, true)];
    };
    for (let j = -342; j <= 326; j++) {
      const [hi, lo] = words(j);
      const t = (hi << 64n) | lo;
      expect(t >= 1n << 127n && t + 1n < 1n << 128n).toBe(true);
      const e = 127 - ex.log2Pow10(j);
      let num = 1n, den = 1n;
      if (j >= 0) num *= 10n ** BigInt(j); else den *= 10n ** BigInt(-j);
      if (e >= 0) num <<= BigInt(e); else den <<= BigInt(-e);
      expect(t * den <= num && num < (t + 1n) * den, `5^${j}`).toBe(true);
      expect(t * den === num, `5^${j} exact`).toBe(j >= 0 && j <= 55);
    }
  });

  it("scaling exponent h stays in [1, 4] and the table index in range, for every q", () => {
    for (let q = -1074; q <= 971; q++) {
      for (const k of [ex.log10Pow2(q), ex.log10ThreeQuartersPow2(q)]) {
        const h = q + ex.log2Pow10(-k) + 1;
        expect(h >= 1 && h <= 4).toBe(true);
        expect(-k >= -342 && -k <= 326).toBe(true);
      }
    }
  });

  it("no scaled bound N·2^q·10^−k lies within 2^−69 of an integer unless it is one", () => {
    // For α = 2^q·10^−k = A/B in lowest terms and 1 ≤ N ≤ 2^55 (all bounds
    // 4c−2, 4c−1, 4c, 4c+2 of every double): if B ≤ 2^64 a non-integer Nα is
    // at least 1/B ≥ 2^−64 from Z. Otherwise B > 2^55 ≥ N, and by the
    // best-approximation property of continued fractions, ||Nα|| ≥ ||q_i·α||
    // for the largest convergent denominator q_i ≤ 2^55. dtoa.ts needs
    // 2^−69 (its product errs by < 2^−69); the worst found is 2^−65.44.
    const N = 1n << 55n;
    let worst = 0;
    let worstQ = 0;
    const check = (q: number, k: number): void => {
      let A = 1n, B = 1n;
      if (q >= 0) A <<= BigInt(q); else B <<= BigInt(-q);
      if (k >= 0) B *= 10n ** BigInt(k); else A *= 10n ** BigInt(-k);
      let x = A, y = B;
      while (y) [x, y] = [y, x % y];
      A /= x; B /= x;
      if (B <= 1n << 64n) return;
      let a = A, b = B, q0 = 1n, q1 = 0n;
      while (b) {
        const t = a / b;
        [a, b] = [b, a - t * b];
        const q2 = t * q1 + q0;
        if (q2 > N) break;
        q0 = q1; q1 = q2;
      }
      let r = (q1 * A) % B;
      if (B - r < r) r = B - r; // ||q1·α||·B
      const l2 = Math.log2(Number((r << 200n) / B)) - 200;
      if (l2 < worst) { worst = l2; worstQ = q; }
    };
    for (let q = -1074; q <= 971; q++) {
      check(q, ex.log10Pow2(q));
      check(q, ex.log10ThreeQuartersPow2(q));
    }
    expect(worst).toBeGreaterThan(-69);
    expect(worstQ).toBe(664);
    expect(worst).toBeCloseTo(-65.44, 2);
  });
});

describe("the integer printer (assembly/num/digits.ts) equals BigInt's toString", () => {
  const text = (n: number) => new TextDecoder().decode(new Uint8Array(ex.memory.buffer, BUF, n));
  it("every digit count of u64: 10^k - 1, 10^k, 10^k + 1, 2^b - 1, 2^b, and seeded randoms", () => {
    const M = (1n << 64n) - 1n;
    const vs = new Set<bigint>([0n, M]);
    for (let k = 0n; k <= 19n; k++) for (const d of [-1n, 0n, 1n]) vs.add(10n ** k + d);
    for (let b = 0n; b < 64n; b++) for (const d of [-1n, 0n]) vs.add((1n << b) + d);
    const r = prng(11);
    for (let i = 0; i < 5000; i++) vs.add(((BigInt(r() >>> 0) << 32n) | BigInt(r() >>> 0)) >> BigInt(i % 64));
    for (const v of vs) {
      if (v < 0n || v > M) continue;
      const n = ex.decimal(v);
      if (text(n) !== v.toString()) expect(`${v}: ${text(n)}`).toBe(`${v}: ${v.toString()}`);
    }
  });
  it("fixed width, zeros in front", () => {
    for (const [v, w] of [[0n, 2], [7n, 3], [59n, 2], [999n, 3], [2024n, 4], [10000n, 6], [275760n, 6]] as [bigint, number][]) {
      ex.padded(v, w);
      expect(text(w)).toBe(v.toString().padStart(w, "0"));
    }
  });
});

describe("dtoa: formatDouble equals V8 String(x)", () => {
  it("specials and named edges", () => {
    run((c) => {
      const named = [
        0, -0, NaN, Infinity, -Infinity,
        5e-324, // smallest subnormal: c = 1, k below the table's exact range
        1e-323, // c = 2: the only case where two 1-digit candidates compete
        2.225073858507201e-308, // largest subnormal
        2.2250738585072014e-308, // smallest normal: symmetric despite c = 2^52
        4.450147717014403e-308, // 2^-1021: first asymmetric interval
        1.7976931348623157e308, // largest finite; right end excluded (c odd)
        2 ** 53 - 1, 2 ** 53, 2 ** 53 + 2, 9007199254740994, 2 ** 54, // fast path edge
        1e21, 1e21 - 65536, 999999999999999900000, 1.2345e21, // plain/exponent switch (n = 21/22)
        1e-7, 1.5e-7, 1e-6, 1.5e-6, 0.000001234, 123e-20, // "0.000…" window (n = -5/-6)
        0.1 + 0.2, 0.1, 0.2, 0.3, 1 / 3, 2 / 3, Math.PI, Math.E,
        1e23, 5e-310, 1e22, 1e15, 1e16, 1e17, 123456789012345680000,
        4.35, 0.5, 1.5, 100, 1e100, 9.5367431640625e-7, 1.9073486328125e-6,
      ];
      for (const x of named) c.addWithNeighbours(x);
      // The ± signs, and NaN patterns V8 canonicalises.
      c.add(fromBits(0xfff8000000000000n));
      c.add(fromBits(0x7ff0000000000001n));
    });
  });

  it("the layout rules: digits × 10^n for every n in [-9, 24] and k in [1, 17]", () => {
    run((c) => {
      const next = prng(17);
      for (let n = -9; n <= 24; n++) {
        for (let k = 1; k <= 17; k++) {
          for (let i = 0; i < 20; i++) {
            let digits = "";
            for (let d = 0; d < k; d++) digits += String(d === 0 ? 1 + (next() % 9) : next() % 10);
            c.addWithNeighbours(Number(`0.${digits}e${n}`));
          }
        }
      }
    });
  });

  it("every power of ten 1e-323..1e308 and of two 2^-1074..2^1023, with neighbours", () => {
    run((c) => {
      for (let e = -323; e <= 308; e++) c.addWithNeighbours(Number(`1e${e}`));
      for (let e = -1074; e <= 1023; e++) c.addWithNeighbours(2 ** e);
    }, 10000);
  });

  it("every binary exponent: its boundaries and 200 random significands", () => {
    run((c) => {
      const next = prng(3);
      for (let be = 0; be <= 2046; be++) {
        const base = BigInt(be) << 52n;
        c.add(fromBits(base)); // c = 2^52: asymmetric interval (or 0)
        c.add(fromBits(base + 1n));
        c.add(fromBits(base + (1n << 52n) - 1n)); // c = 2^53 − 1
        for (let i = 0; i < 200; i++) {
          u32[0] = next();
          u32[1] = ((be << 20) | (next() & 0xfffff)) >>> 0;
          c.add(f64[0]);
        }
      }
    }, 400000);
  });

  it("subnormals: every c in [1, 30000], and the top 10000", () => {
    run((c) => {
      for (let i = 1n; i <= 30000n; i++) c.add(fromBits(i));
      for (let i = 1n; i <= 10000n; i++) c.add(fromBits((1n << 52n) - i));
    });
  });

  it("exact ties: odd·2^−E where the decimal expansion ends in a half", () => {
    // x = m·2^−E with E = K + 1, K = −floorLog10Pow2(q): x·10^K is exactly a
    // half-integer, so two candidates can be equally close (ties to even,
    // ECMA-262 Note 2, as V8 does). About 70% of these are real ties.
    run((c) => {
      const next = prng(5);
      for (let a = 0; a <= 52; a++) {
        for (let E = 1; E < 200; E++) {
          const q = -(E + a);
          if (E !== -ex.log10Pow2(q) + 1) continue;
          const lo = 2 ** (52 - a);
          for (let i = 0; i < 700; i++) {
            const m = lo + ((next() * 2 ** 21 + (next() >>> 11)) % lo);
            if (m % 2 === 1) c.add(m / 2 ** E);
          }
        }
      }
    }, 20000);
  });

  it("seeded random 64-bit patterns (NaN excluded)", () => {
    run((c) => {
      const next = prng(1);
      for (let i = 0; i < 500000; i++) {
        u32[0] = next();
        u32[1] = next();
        const x = f64[0];
        if (x === x) c.add(x);
      }
    }, 499000);
  });

  it("seeded random integers, below and above 2^53", () => {
    run((c) => {
      const next = prng(2);
      for (let i = 0; i < 100000; i++) {
        c.add(next() % 1000); // small ints
        c.add(next() * 2 ** 21 + (next() >>> 11)); // < 2^53
        c.add((next() * 2 ** 21 + (next() >>> 11)) * 2 ** (1 + (next() % 40))); // 2^53..2^93
      }
      for (let e = 1; e <= 15; e++) {
        for (const d of [-1, 0, 1]) c.add(10 ** e + d);
      }
    }, 300000);
  });

  it("seeded random short decimals Number((k/10^d).toFixed(d))", () => {
    run((c) => {
      const next = prng(4);
      for (let i = 0; i < 200000; i++) {
        const d = 1 + (next() % 8);
        const k = next() % 10 ** (1 + (next() % 9));
        c.add(Number((k / 10 ** d).toFixed(d)));
      }
      for (let k = 0; k < 10000; k++) c.add(Number((k / 1000).toFixed(3)));
    }, 210000);
  });

  it("the short-decimal path's edges: 13 to 16 significant digits where |x| is 10^-10 to 10^16, with neighbours", () => {
    // Up to 15 digits the path decides (one division checks the round trip); 16 and the neighbours (17 digits)
    // must fall through to the general path, as must everything outside its range of exponents.
    run((c) => {
      const next = prng(29);
      for (let n = -10; n <= 17; n++) {
        for (const k of [13, 14, 15, 16]) {
          for (let i = 0; i < 150; i++) {
            let digits = "";
            for (let d = 0; d < k; d++) digits += String(d === 0 ? 1 + (next() % 9) : next() % 10);
            c.addWithNeighbours(Number(`0.${digits}e${n}`));
          }
          c.addWithNeighbours(Number(`0.${"9".repeat(k)}e${n}`)); // just below a power of ten
          c.addWithNeighbours(Number(`0.1${"0".repeat(k - 2)}1e${n}`));
        }
      }
    }, 60000);
  });

  it("checked at least 1,000,000 doubles in all", () => {
    expect(total).toBeGreaterThanOrEqual(1_000_000);
  });
});
