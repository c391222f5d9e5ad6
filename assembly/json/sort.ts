// Member ordering for canonical objects: by Unicode code point (D5), which
// for WTF-8 key bytes is plain byte order; duplicates keep the last (D13).
// Internal. Stable merge sort, so among equal keys document order survives
// and the last one is the last of its run.
import { alloc } from "../arena";
import { nodeA, nodeB } from "./tape";

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

/** Below this many members insertion sort beats merging (measured on 2k-key objects). */
const INSERTION_MAX: u32 = 16;

/**
 * Sorts the n u32 key-node indices at list by key, stably, then drops all but
 * the last of each run of equal keys. Returns the new count, or -1 on OOM.
 */
export function sortMembers(list: usize, n: u32): i32 {
  if (n <= INSERTION_MAX) {
    insertionSort(list, 0, n);
  } else {
    const tmp = alloc(<usize>n << 2);
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
    if (src != list) memory.copy(list, src, <usize>n << 2);
  }
  // Keep the last of each run of equal keys (D13: the last duplicate wins).
  let w: u32 = 0;
  for (let r: u32 = 0; r < n; r++) {
    const cur = load<u32>(list + (<usize>r << 2));
    if (r + 1 < n && compareKeys(cur, load<u32>(list + (<usize>(r + 1) << 2))) == 0) continue;
    store<u32>(list + (<usize>w << 2), cur);
    w++;
  }
  return <i32>w;
}

function insertionSort(list: usize, lo: u32, hi: u32): void {
  for (let i = lo + 1; i < hi; i++) {
    const x = load<u32>(list + (<usize>i << 2));
    let j = i;
    while (j > lo) {
      const y = load<u32>(list + (<usize>(j - 1) << 2));
      if (compareKeys(y, x) <= 0) break;
      store<u32>(list + (<usize>j << 2), y);
      j--;
    }
    store<u32>(list + (<usize>j << 2), x);
  }
}

function merge(src: usize, dst: usize, lo: u32, mid: u32, hi: u32): void {
  let i = lo, j = mid, k = lo;
  while (i < mid && j < hi) {
    const a = load<u32>(src + (<usize>i << 2));
    const b = load<u32>(src + (<usize>j << 2));
    // Take from the left on ties: stability.
    if (compareKeys(b, a) < 0) {
      store<u32>(dst + (<usize>k << 2), b);
      j++;
    } else {
      store<u32>(dst + (<usize>k << 2), a);
      i++;
    }
    k++;
  }
  while (i < mid) { store<u32>(dst + (<usize>k << 2), load<u32>(src + (<usize>i << 2))); i++; k++; }
  while (j < hi) { store<u32>(dst + (<usize>k << 2), load<u32>(src + (<usize>j << 2))); j++; k++; }
}
