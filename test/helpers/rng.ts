// Seeded splitmix64 PRNG: reproducible test inputs without Math.random.
export class Rng {
  private s: bigint;
  constructor(seed: number | bigint) {
    this.s = BigInt(seed) & 0xffffffffffffffffn;
  }
  /** Next 64 random bits. */
  u64(): bigint {
    this.s = (this.s + 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
    let z = this.s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
    return z ^ (z >> 31n);
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
