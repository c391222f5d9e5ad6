// SHA-256's constants, derived rather than pasted (FIPS 180-4 §4.2.2, §5.3.3),
// for the generators of the scalar and the 4-lane compression functions:
//   K[t] = first 32 bits of the fractional part of cbrt(prime t), t < 64,
//        = floor(cbrt(p * 2^96)) mod 2^32, computed exactly with BigInt;
//   H0[i] = first 32 bits of the fractional part of sqrt(prime i), i < 8,
//        = floor(sqrt(p * 2^64)) mod 2^32.
function primes(n) {
  const out = [];
  for (let c = 2; out.length < n; c++) if (out.every((p) => c % p !== 0)) out.push(c);
  return out;
}
/** floor(x^(1/k)) for BigInt x >= 0 by Newton's method from above. */
function iroot(x, k) {
  if (x < 2n) return x;
  const K = BigInt(k);
  let r = 1n << BigInt(Math.ceil(x.toString(2).length / k) + 1);
  for (;;) {
    const next = ((K - 1n) * r + x / r ** (K - 1n)) / K;
    if (next >= r) break;
    r = next;
  }
  while (r ** K > x) r--;
  while ((r + 1n) ** K <= x) r++;
  return r;
}
const M32 = (1n << 32n) - 1n;
const P = primes(64);
export const K = P.map((p) => Number(iroot(BigInt(p) << 96n, 3) & M32));
export const IV = P.slice(0, 8).map((p) => Number(iroot(BigInt(p) << 64n, 2) & M32));
// Spot checks against the values printed in FIPS 180-4 §4.2.2 and §5.3.3.
if (K[0] !== 0x428a2f98 || K[63] !== 0xc67178f2) throw new Error("K derivation");
if (IV[0] !== 0x6a09e667 || IV[7] !== 0x5be0cd19) throw new Error("IV derivation");

