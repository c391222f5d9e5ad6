// Differential tests of assembly/hash/sha256.ts (FIPS 180-4 SHA-256) against
// node:crypto, through the test-only entry test/wasm/sha256.ts
// (build: node scripts/build-test-wasm.mjs). Covers the FIPS 180-4 examples,
// every length around the 64-byte block and its 55/56-byte padding edge,
// irregular chunkings (seeded), the sha256Blocks fast path, large messages and
// chained hashing.
import { describe, it, expect } from "vitest";
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { splitmix32 as prng } from "../scripts/_prng.mjs";

interface Exports {
  memory: WebAssembly.Memory;
  outPtr(): number;
  sizesPtr(): number;
  inputPtr(len: number): number;
  hashOneShot(len: number): number;
  hashRaw(len: number): number;
  hashChunked(len: number, nSizes: number): number;
  hashViaBlocks(len: number, head: number): number;
}

const wasm = readFileSync(new URL("../build/test-sha256.wasm", import.meta.url));
const ex = new WebAssembly.Instance(new WebAssembly.Module(wasm), {}).exports as unknown as Exports;

const oracle = (b: Uint8Array): string => createHash("sha256").update(b).digest("hex");

/** Copies msg into the wasm input region (growing memory if needed). */
function put(msg: Uint8Array): void {
  const p = ex.inputPtr(msg.length);
  new Uint8Array(ex.memory.buffer, p, msg.length).set(msg);
}
const hexAt = (p: number): string =>
  Buffer.from(new Uint8Array(ex.memory.buffer, p, 64)).toString("latin1");

function oneShot(msg: Uint8Array): string {
  put(msg);
  return hexAt(ex.hashOneShot(msg.length));
}
function chunked(msg: Uint8Array, sizes: number[]): string {
  put(msg);
  new Uint32Array(ex.memory.buffer, ex.sizesPtr(), sizes.length).set(sizes);
  return hexAt(ex.hashChunked(msg.length, sizes.length));
}

function randomBytes(n: number, next: () => number): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = next() & 0xff;
  return b;
}

/** Collects mismatches, stopping after a few, so one bug doesn't flood the log. */
function expectAll(cases: Iterable<[string, () => string, string]>): void {
  const bad: string[] = [];
  for (const [name, got, want] of cases) {
    const g = got();
    if (g !== want) bad.push(`${name}: got ${g} want ${want}`);
    if (bad.length >= 5) break;
  }
  expect(bad).toEqual([]);
}

const ascii = (s: string): Uint8Array => new TextEncoder().encode(s);

describe("FIPS 180-4 examples", () => {
  // FIPS 180-4 / NIST CSRC SHA-256 example messages; expected digests are
  // the published values, also checked against the oracle.
  const cases: [string, string][] = [
    ["abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"],
    [
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", // 448 bits
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    ],
    [
      // 896 bits
      "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
    ],
    ["", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
  ];
  it.each(cases)("%s", (msg, want) => {
    const b = ascii(msg);
    expect(oracle(b)).toBe(want);
    expect(oneShot(b)).toBe(want);
    expect(chunked(b, [1])).toBe(want);
    expect(chunked(b, [0, 3, 0, 7])).toBe(want);
  });

  it("one million 'a' (FIPS 180-4 long example)", () => {
    const b = new Uint8Array(1_000_000).fill(0x61);
    const want = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
    expect(oracle(b)).toBe(want);
    expect(oneShot(b)).toBe(want);
  });
});

describe("lengths around the block size", () => {
  const next = prng(0x5a256);
  const big = randomBytes(1024 + 64, next);

  it("every length 0..300, one-shot and byte by byte", () => {
    function* cases(): Generator<[string, () => string, string]> {
      for (let n = 0; n <= 300; n++) {
        const m = big.subarray(0, n), want = oracle(m);
        yield [`len ${n} one-shot`, () => oneShot(m), want];
        yield [`len ${n} bytewise`, () => chunked(m, [1]), want];
      }
    }
    expectAll(cases());
  });

  it("lengths k*64 + {-9,-8,-1,0,1,55,56,57,63} up to 1 KiB, several chunkings", () => {
    // 55 is the longest tail whose padding fits its own block (1 byte 0x80 +
    // 8 length bytes); 56..63 spill the length into an extra block.
    const lens = new Set<number>();
    for (let k = 0; k <= 16; k++)
      for (const d of [-9, -8, -1, 0, 1, 55, 56, 57, 63]) {
        const n = k * 64 + d;
        if (n >= 0 && n <= 1024 + 63) lens.add(n);
      }
    const chunkings = [[64], [63], [65], [55, 9], [56, 8, 0], [1, 2, 3, 5, 8, 13, 21, 34], [127, 1], [128]];
    function* cases(): Generator<[string, () => string, string]> {
      for (const n of [...lens].sort((a, b) => a - b)) {
        const m = big.subarray(0, n), want = oracle(m);
        yield [`len ${n} one-shot`, () => oneShot(m), want];
        for (const c of chunkings) yield [`len ${n} chunks ${c}`, () => chunked(m, c), want];
      }
    }
    expectAll(cases());
  });

  it("sha256Blocks fast path, aligned and buffered-fallback heads", () => {
    function* cases(): Generator<[string, () => string, string]> {
      for (const n of [0, 63, 64, 65, 128, 200, 511, 512, 1024, 1087]) {
        const m = big.subarray(0, n), want = oracle(m);
        for (const head of [0, 1, 55, 56, 63, 64, 65, 128]) {
          if (head > n) continue;
          yield [
            `len ${n} head ${head}`,
            () => {
              put(m);
              return hexAt(ex.hashViaBlocks(n, head));
            },
            want,
          ];
        }
      }
    }
    expectAll(cases());
  });
});

describe("irregular chunk sequences (seeded)", () => {
  it("random lengths up to 4 KiB in random chunkings", () => {
    const next = prng(0xc4a11);
    function* cases(): Generator<[string, () => string, string]> {
      for (let i = 0; i < 300; i++) {
        const n = next() % 4097;
        const m = randomBytes(n, next), want = oracle(m);
        // Mix of empty, tiny, block-sized and over-block chunks.
        const sizes: number[] = [];
        const k = 1 + (next() % 12);
        for (let j = 0; j < k; j++) {
          const r = next() % 8;
          sizes.push(r === 0 ? 0 : r < 4 ? next() % 8 : r < 6 ? 60 + (next() % 9) : next() % 300);
        }
        if (!sizes.some((s) => s > 0)) sizes.push(1);
        yield [`#${i} len ${n} chunks ${sizes}`, () => chunked(m, sizes), want];
      }
    }
    expectAll(cases());
  });
});

describe("large messages", () => {
  const next = prng(0xb16);
  it.each([1 << 20, 5 << 20])("%i random bytes, one-shot and chunked", (n) => {
    const m = randomBytes(n, next), want = oracle(m);
    expect(oneShot(m)).toBe(want);
    expect(chunked(m, [4093, 0, 64, 65536, 17])).toBe(want);
    put(m);
    expect(hexAt(ex.hashViaBlocks(n, 0))).toBe(want);
  });
});

describe("chained hashing", () => {
  it("raw digest fed back 1000 times", () => {
    let ours = new Uint8Array(0);
    let theirs: Uint8Array = new Uint8Array(0);
    for (let i = 0; i < 1000; i++) {
      put(ours);
      ours = new Uint8Array(ex.memory.buffer, ex.hashRaw(ours.length), 32).slice();
      theirs = createHash("sha256").update(theirs).digest();
      if (Buffer.compare(ours, theirs) !== 0) {
        expect(`step ${i}: ${Buffer.from(ours).toString("hex")}`).toBe(
          `step ${i}: ${Buffer.from(theirs).toString("hex")}`,
        );
      }
    }
    expect(Buffer.from(ours).toString("hex")).toBe(Buffer.from(theirs).toString("hex"));
  });

  it("hex digest fed back 1000 times", () => {
    let ours = "", theirs = "";
    for (let i = 0; i < 1000; i++) {
      ours = oneShot(ascii(ours));
      theirs = createHash("sha256").update(theirs).digest("hex");
    }
    expect(ours).toBe(theirs);
  });
});
