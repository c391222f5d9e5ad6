// Seeded PRNGs for the generators and test suites, so every run sees the
// same inputs and failures reproduce. Internal, test-only.
//   splitmix32: 32-bit state step by the golden ratio, Murmur3-style finalizer
//   splitmix64: Steele, Lea & Flood (2014), on BigInt

/** Returns a function giving the next unsigned 32-bit value. */
export function splitmix32(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** Returns a function giving the next unsigned 64-bit value as a BigInt. */
export function splitmix64(seed) {
  let s = BigInt.asUintN(64, BigInt(seed));
  return () => {
    s = BigInt.asUintN(64, s + 0x9e3779b97f4a7c15n);
    let z = s;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
    return z ^ (z >> 31n);
  };
}
