// Seeded PRNG (splitmix64, scripts/_prng.mjs): reproducible test inputs without Math.random.
import { splitmix64 } from "../../scripts/_prng.mjs";

export class Rng {
  private next: () => bigint;
  constructor(seed: number | bigint) {
    this.next = splitmix64(seed);
  }
  /** Next 64 random bits. */
  u64(): bigint {
    return this.next();
  }
  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Number(this.u64() % BigInt(n));
  }
  /** Uniform in [0, 1). */
  float(): number {
    return Number(this.u64() >> 11n) / 2 ** 53;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)];
  }
}

const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);
export function doubleFromBits(bits: bigint): number {
  u64[0] = bits;
  return f64[0];
}
export function bitsOfDouble(x: number): string {
  f64[0] = x;
  return "0x" + u64[0].toString(16).padStart(16, "0");
}
