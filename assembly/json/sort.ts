// Member ordering for canonical objects: by Unicode code point (D5), which
// for WTF-8 key bytes is plain byte order; duplicates keep the last (D13).
// Internal. Stable merge sort, so among equal keys document order survives
// and the last one is the last of its run.
//
// Entries are 16 bytes: +0 u64 the key's first 8 bytes, big-endian, zero
// padded (so unsigned comparison of prefixes is byte order), +8 u32 the key
// node. Most comparisons end at the prefix; equal prefixes fall back to the
// full byte comparison (zero padding cannot decide: "a" vs "a\u0000").
import { alloc } from "../base/arena";
import { nodeA, nodeB } from "./tape";

const ENTRY: usize = 16;

/** Byte-order comparison of the keys of nodes i and j (<0, 0, >0). */
export function compareKeys(i: u32, j: u32): i32 {
  const pa = <usize>nodeB(i), la = <usize>nodeA(i);
  const pb = <usize>nodeB(j), lb = <usize>nodeA(j);
  const n = la < lb ? la : lb;
  let k: usize = 0;
  // Equal 8-byte words are skipped; the first differing byte decides.
  while (k + 8 <= n && load<u64>(pa + k) == load<u64>(pb + k)) k += 8;
  while (k < n) {
    const x = <i32>load<u8>(pa + k), y = <i32>load<u8>(pb + k);
    if (x != y) return x - y;
    k++;
  }
  return <i32>la - <i32>lb;
}

/** Writes the sort entry for key node k at e. */
@inline export function setEntry(e: usize, k: u32): void {
  const p = <usize>nodeB(k), n = <usize>nodeA(k);
  // Reading 8 bytes is safe past a short key: memory keeps slack (arena.ts).
  let prefix = bswap<u64>(load<u64>(p));
  if (n < 8) prefix = n == 0 ? 0 : prefix & ~(<u64>-1 >> (<u64>n << 3));
  store<u64>(e, prefix);
  store<u32>(e, k, 8);
}

@inline export function entryNode(list: usize, i: u32): u32 {
  return load<u32>(list + <usize>i * ENTRY, 8);
}

@inline function entryLess(a: usize, b: usize): bool {
  const pa = load<u64>(a), pb = load<u64>(b);
  if (pa != pb) return pa < pb;
  return compareKeys(load<u32>(a, 8), load<u32>(b, 8)) < 0;
}

@inline function sameKey(a: usize, b: usize): bool {
  return load<u64>(a) == load<u64>(b) && compareKeys(load<u32>(a, 8), load<u32>(b, 8)) == 0;
}

/** Below this many members insertion sort beats merging. */
const INSERTION_MAX: u32 = 16;

/**
 * Sorts the n entries at list by key, stably, then drops all but the last
 * of each run of equal keys. Returns the new count, or -1 on OOM.
 */
export function sortMembers(list: usize, n: u32): i32 {
  if (n <= INSERTION_MAX) {
    sawEqual = false;
    insertionSort(list, 0, n);
    if (!sawEqual) return <i32>n; // no duplicate key: nothing to drop (the usual object)
  } else {
    const tmp = alloc(<usize>n * ENTRY);
    if (tmp == 0) return -1;
    // Bottom-up: sort runs of INSERTION_MAX, then merge pairs of runs.
    for (let s: u32 = 0; s < n; s += INSERTION_MAX) {
      insertionSort(list, s, s + INSERTION_MAX < n ? s + INSERTION_MAX : n);
    }
    let src = list, dst = tmp;
    for (let width = INSERTION_MAX; width < n; width <<= 1) {
      for (let lo: u32 = 0; lo < n; lo += width << 1) {
        const mid = lo + width < n ? lo + width : n;
        const hi = mid + width < n ? mid + width : n;
        merge(src, dst, lo, mid, hi);
      }
      const t = src; src = dst; dst = t;
    }
    if (src != list) memory.copy(list, src, <usize>n * ENTRY);
  }
  // Keep the last of each run of equal keys (D13: the last duplicate wins).
  let w: u32 = 0;
  for (let r: u32 = 0; r < n; r++) {
    const cur = list + <usize>r * ENTRY;
    if (r + 1 < n && sameKey(cur, cur + ENTRY)) continue;
    if (w != r) {
      const to = list + <usize>w * ENTRY;
      store<u64>(to, load<u64>(cur));
      store<u64>(to, load<u64>(cur, 8), 8);
    }
    w++;
  }
  return <i32>w;
}

/**
 * Whether the last insertionSort met two equal keys. An entry stops at the
 * largest key not above its own, which is an equal one whenever one exists
 * (the sorted part keeps equal keys together), so none is missed.
 */
let sawEqual = false;

function insertionSort(list: usize, lo: u32, hi: u32): void {
  for (let i = lo + 1; i < hi; i++) {
    const x = list + <usize>i * ENTRY;
    const xp = load<u64>(x), xn = load<u64>(x, 8);
    let j = i;
    while (j > lo) {
      const y = list + <usize>(j - 1) * ENTRY;
      const yp = load<u64>(y);
      // y <= x: stop (stability keeps equal keys in document order).
      if (yp < xp) break;
      if (yp == xp) {
        const c = compareKeys(<u32>load<u64>(y, 8), <u32>xn);
        if (c == 0) sawEqual = true;
        if (c <= 0) break;
      }
      const to = list + <usize>j * ENTRY;
      store<u64>(to, yp);
      store<u64>(to, load<u64>(y, 8), 8);
      j--;
    }
    const to = list + <usize>j * ENTRY;
    store<u64>(to, xp);
    store<u64>(to, xn, 8);
  }
}

function merge(src: usize, dst: usize, lo: u32, mid: u32, hi: u32): void {
  let i = lo, j = mid, k = lo;
  while (i < mid && j < hi) {
    const a = src + <usize>i * ENTRY;
    const b = src + <usize>j * ENTRY;
    // Take from the left unless the right is strictly smaller: stability.
    const takeRight = entryLess(b, a);
    const from = takeRight ? b : a;
    const to = dst + <usize>k * ENTRY;
    store<u64>(to, load<u64>(from));
    store<u64>(to, load<u64>(from, 8), 8);
    if (takeRight) j++; else i++;
    k++;
  }
  if (i < mid) memory.copy(dst + <usize>k * ENTRY, src + <usize>i * ENTRY, <usize>(mid - i) * ENTRY);
  else if (j < hi) memory.copy(dst + <usize>k * ENTRY, src + <usize>j * ENTRY, <usize>(hi - j) * ENTRY);
}
