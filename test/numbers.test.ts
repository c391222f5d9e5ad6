// Numbers end to end through the public API (D7, D11): text → nearest double
// → Number::toString, with V8's Number(s) and String(x) as the oracle. The
// unit suites (dtoa.test.ts, strtod.test.ts) cover the algorithms alone.
import { describe, expect, it } from "vitest";
import { canonicalJSON, canonicalizeJSON } from "./helpers/sdk";
import { Rng, doubleFromBits } from "./helpers/rng";

const expected = (xs: number[]) => "[" + xs.filter(Number.isFinite).map((x) => String(x)).join(",") + "]";

describe("numbers end to end", () => {
  it("random doubles: value input and 17-digit text input print like String(x)", () => {
    const rng = new Rng(2024);
    for (let batch = 0; batch < 20; batch++) {
      const xs: number[] = [];
      for (let i = 0; i < 5000; i++) {
        const x = doubleFromBits(rng.u64());
        if (!Number.isNaN(x)) xs.push(x);
      }
      expect(canonicalJSON(xs)).toBe(expected(xs));
      expect(canonicalizeJSON("[" + xs.map((x) => (Number.isFinite(x) ? x.toPrecision(17) : "null")).join(",") + "]")).toBe(expected(xs));
    }
  });

  it("random decimal literals parse to Number(s)", () => {
    const rng = new Rng(99);
    for (let batch = 0; batch < 20; batch++) {
      const lits: string[] = [];
      for (let i = 0; i < 5000; i++) {
        const digits = 1 + rng.int(25);
        let m = String(1 + rng.int(9));
        for (let d = 1; d < digits; d++) m += String(rng.int(10));
        const point = rng.int(digits + 1);
        const mant = point > 0 && point < digits ? m.slice(0, point) + "." + m.slice(point) : m;
        const exp = rng.int(700) - 350;
        lits.push((rng.int(2) ? "-" : "") + mant + (rng.int(4) ? `e${exp}` : ""));
      }
      expect(canonicalizeJSON("[" + lits.join(",") + "]")).toBe(expected(lits.map(Number)));
    }
  });

  it("short decimals (<= 15 significant digits) print from their own digits, like String(Number(s))", () => {
    // Aimed at num/decimal.ts: leading zeros of a fraction, trailing zeros on
    // both sides of the point, 14–17 significant digits (its limit is 15), E / e+ / e-,
    // all-zero digits, and the decimal point's place around its ±300 scope.
    const rng = new Rng(15);
    const digitRun = (n: number) => Array.from({ length: n }, () => String(rng.int(10))).join("");
    for (let batch = 0; batch < 20; batch++) {
      const lits: string[] = [];
      for (let i = 0; i < 5000; i++) {
        const sig = rng.int(8) === 0 ? 14 + rng.int(4) : 1 + rng.int(15);
        const core = rng.int(20) === 0 ? "0".repeat(sig) : String(1 + rng.int(9)) + digitRun(sig - 1);
        const body = "0".repeat(rng.int(3) === 0 ? rng.int(6) : 0) + core + "0".repeat(rng.int(3) === 0 ? rng.int(8) : 0);
        // A point somewhere (or none); a leading "0." when it falls before the first digit.
        const at = rng.int(body.length + 2);
        let mant = at === 0 ? body : at > body.length ? "0." + body : body.slice(0, at) + (at < body.length ? "." + body.slice(at) : "");
        mant = mant.replace(/^0+(?=\d)/, "");
        if (mant.startsWith(".")) mant = "0" + mant;
        const exp = rng.int(3) === 0 ? "" : `${rng.pick(["e", "E"])}${rng.pick(["", "+", "-"])}${rng.int(3) ? rng.int(330) : rng.int(20)}`;
        lits.push((rng.int(2) ? "-" : "") + mant + exp);
      }
      expect(canonicalizeJSON("[" + lits.join(",") + "]")).toBe(expected(lits.map(Number)));
    }
  });

  it("contract examples and boundaries", () => {
    const lits = ["1e21", "1e-7", "0.00001", "1.5e300", "5e-324", "0.30000000000000004", "9007199254740993",
      "9007199254740994", "123456789012345678901234567890", "1E2", "1.0", "-0", "-0.0", "0e99", "1e400", "-1e400", "1e-400",
      "12345678901234567e30", "2.2250738585072011e-308", "1.7976931348623157e308", "1.7976931348623159e308",
      "0.1", "100", "999999999999999", "1000000000000000", "-123456789012345",
      // The short-decimal path's edges: its ±300 scope, 15 vs 16 digits, zeros, exponent caps.
      "1e299", "1e300", "1e301", "9.99999999999999e299", "1e-300", "1e-301", "1.5e-300", "123456789012345e-314",
      "0.000000000000000000000000000001", "1.00000000000000000000", "100000000000000000000.0", "12345678901234.5",
      "1234567890123.45e-3", "0.123456789012345", "0.1234567890123456", "-0.0e10", "0.0e-99999", "1e99999",
      "1e-99999", "1.5E+2", "2.50e-0", "000.5".slice(2)];
    expect(canonicalizeJSON("[" + lits.join(",") + "]")).toBe(expected(lits.map(Number)));
  });
  it("a number that ends the text stops there, whatever bytes follow it in memory", () => {
    // The reader scans digits eight bytes at a time, past the text's end
    // (json/reader.ts skipDigits): leave digits there from a longer request first.
    const rng = new Rng(7);
    for (let i = 0; i < 400; i++) {
      const lit = (rng.int(2) ? "-" : "") + String(1 + rng.int(9)) + "0123456789".slice(0, rng.int(10)) +
        (rng.int(2) ? "." + "9876543210123456".slice(0, 1 + rng.int(16)) : "");
      canonicalizeJSON(lit + "1234567890123456789012345678901234567890");
      expect(canonicalizeJSON(lit)).toBe(String(Number(lit)));
      canonicalizeJSON("[" + lit + "99999999999999999999]");
      expect(canonicalizeJSON("[" + lit + "]")).toBe("[" + String(Number(lit)) + "]");
    }
  });
});
