// Differential tests of assembly/hash/sha256x4.ts (SHA-256 of four messages at
// once, one per SIMD lane) against node:crypto, through the
// test-only entry test/wasm/sha256x4.ts (node scripts/build-test-wasm.mjs):
// every length 0..300 in each lane, lengths mixed within one group of four
// (different block counts, the scalar finish of the longest), 1..3 lanes, and
// messages at unaligned addresses.
import { describe, it, expect } from "vitest";
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { splitmix32 as prng } from "../scripts/_prng.mjs";

interface Exports {
  memory: WebAssembly.Memory;
  outPtr(): number;
  inputPtr(len: number): number;
  set(j: number, off: number, len: number): void;
  run(count: number): void;
}

const wasm = readFileSync(new URL("../build/test-sha256x4.wasm", import.meta.url));
const ex = new WebAssembly.Instance(new WebAssembly.Module(wasm), {}).exports as unknown as Exports;
const oracle = (b: Uint8Array): string => createHash("sha256").update(b).digest("hex");

/** Hashes the messages (at most four) together; returns their hex digests. */
function hashTogether(msgs: Uint8Array[], gap = 0): string[] {
  const total = msgs.reduce((s, m) => s + m.length + gap, 0);
  const base = ex.inputPtr(total);
  let off = 0;
  msgs.forEach((m, j) => {
    off += gap;
    new Uint8Array(ex.memory.buffer, base + off, m.length).set(m);
    ex.set(j, off, m.length);
    off += m.length;
  });
  // Stale digests from an earlier run must not pass for new ones.
  new Uint8Array(ex.memory.buffer, ex.outPtr(), 256).fill(0x3f);
  ex.run(msgs.length);
  return msgs.map((_, j) => Buffer.from(new Uint8Array(ex.memory.buffer, ex.outPtr() + 64 * j, 64)).toString("latin1"));
}

const next = prng(0x5a4);
const bytes = (n: number): Uint8Array => Uint8Array.from({ length: n }, () => next() & 0xff);

/** Collects mismatches, stopping after a few. */
function check(groups: Uint8Array[][], gap = 0): void {
  const bad: string[] = [];
  for (const g of groups) {
    const got = hashTogether(g, gap);
    g.forEach((m, j) => {
      if (bad.length < 5 && got[j] !== oracle(m)) bad.push(`lane ${j} of [${g.map((x) => x.length)}]: got ${got[j]}`);
    });
  }
  expect(bad).toEqual([]);
}

describe("sha256x4", () => {
  it("the FIPS 180-4 'abc' example in every lane", () => {
    const abc = new TextEncoder().encode("abc");
    expect(hashTogether([abc, abc, abc, abc])).toEqual(
      Array(4).fill("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
  });

  it("every length 0..300 in each lane, four of a length", () => {
    const groups: Uint8Array[][] = [];
    for (let n = 0; n <= 300; n++) groups.push([bytes(n), bytes(n), bytes(n), bytes(n)]);
    check(groups);
  });

  it("lengths mixed within a group: different block counts, one lane left to finish alone", () => {
    const groups: Uint8Array[][] = [];
    for (let n = 0; n <= 300; n++) {
      groups.push([bytes(n), bytes(300 - n), bytes((n * 7) % 301), bytes((n * 13) % 64 + 55)]);
      groups.push([bytes(n), bytes(n >> 2), bytes(n >> 3), bytes(1000 + n)]); // lane 3 alone for many blocks
    }
    check(groups);
  });

  it("one, two and three lanes", () => {
    const groups: Uint8Array[][] = [];
    for (let n = 0; n <= 300; n += 7) {
      groups.push([bytes(n)]);
      groups.push([bytes(n), bytes(300 - n)]);
      groups.push([bytes(n), bytes(n + 64), bytes(n >> 1)]);
    }
    check(groups);
  });

  it("messages at odd addresses, and a large one among small ones", () => {
    check([[bytes(175), bytes(176), bytes(177), bytes(178)], [bytes(55), bytes(56), bytes(63), bytes(64)]], 3);
    check([[bytes(100_000), bytes(3), bytes(175), bytes(64)], [bytes(5), bytes(65_536), bytes(65_537), bytes(0)]]);
  });
});
