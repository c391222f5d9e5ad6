// Linear-memory layout and the per-call bump arena. Internal.
//
// [static data | input region (host writes the request here) | arena ...]
// The input region starts at a fixed address, so hosts can cache its pointer;
// it only grows (the arena behind it moves, which is fine: the arena is
// empty between calls). Every call starts with arenaReset(), so a million
// calls of the same size never grow memory; a large call leaves its pages
// reserved (wasm memory cannot shrink) but the next call does not touch them.
import { E_OUT_OF_MEMORY, fail } from "./errors";

const PAGE: usize = 65536;
const ALIGN: usize = 16;
const INITIAL_INPUT: usize = 64 * 1024;

let inputBase: usize = 0;
let inputCap: usize = 0;
let arenaBase: usize = 0;
let arenaTop: usize = 0;

@inline function alignUp(n: usize): usize {
  return (n + ALIGN - 1) & ~(ALIGN - 1);
}

/**
 * Readers may load a whole 8-byte word at any byte of a string (key prefixes,
 * SWAR scans): memory always extends at least this far past the last byte handed out.
 */
const SLACK: usize = 16;

/** Grows memory so that [0, end + SLACK) is addressable; false if the engine refuses. */
function ensureMemory(end: usize): bool {
  end += SLACK;
  if (end < SLACK) return false;
  const havePages = <usize>memory.size();
  const have = havePages * PAGE;
  if (end <= have) return true;
  const pages = (end - have + PAGE - 1) / PAGE;
  // Grow at least by half the current size: engines may move (copy) the
  // whole memory on each grow, and growing page by page made a 32 MB first
  // call take 8.8 s instead of 0.3 s. Fall back to the exact need at the limit.
  const extra = havePages >> 1;
  if (extra > pages && memory.grow(<i32>extra) >= 0) return true;
  return memory.grow(<i32>pages) >= 0;
}

function setup(): void {
  if (inputBase != 0) return;
  inputBase = alignUp(__heap_base);
  // Addressable from the start: hosts write up to the capacity reserve() returned (a module
  // whose static data ends near its initial memory would otherwise hand out unmapped room).
  inputCap = ensureMemory(inputBase + INITIAL_INPUT) ? INITIAL_INPUT : 0;
  arenaBase = inputBase + inputCap;
  arenaTop = arenaBase;
}

/** Returns the input region's address with room for n bytes, or 0 if memory cannot grow. */
export function reserveInput(n: usize): usize {
  setup();
  if (n > inputCap) {
    // 4 GiB address space: refuse sizes whose rounding would overflow.
    if (n > 0xF000_0000) return 0;
    const cap = alignUp(n + (n >> 2));
    if (!ensureMemory(inputBase + cap)) return 0;
    inputCap = cap;
    arenaBase = inputBase + inputCap;
    arenaTop = arenaBase;
  }
  return inputBase;
}

export function arenaReset(): void {
  setup();
  arenaTop = arenaBase;
}

/** Bump-allocates n bytes (16-aligned). Returns 0 and records E_OUT_OF_MEMORY on failure. */
export function alloc(n: usize): usize {
  const p = arenaTop;
  const size = alignUp(n);
  const end = p + size;
  if (size < n || end < p || !ensureMemory(end)) {
    fail(E_OUT_OF_MEMORY, -1);
    return 0;
  }
  arenaTop = end;
  return p;
}

/**
 * Frees everything allocated from p on: for scratch whose lifetime is
 * nested (an object's sort entries while the writer is inside it), so a
 * call's peak follows its depth rather than its size. The caller
 * guarantees no live block lies at or after p.
 */
export function releaseFrom(p: usize): void {
  if (p >= arenaBase && p < arenaTop) arenaTop = p;
}

/** Moves a block to a new allocation of newSize bytes (old one is left as garbage until reset). */
export function grow(old: usize, oldSize: usize, newSize: usize): usize {
  if (old + alignUp(oldSize) == arenaTop) {
    // Last allocation: extend in place.
    const end = old + alignUp(newSize);
    if (end < old || !ensureMemory(end)) {
      fail(E_OUT_OF_MEMORY, -1);
      return 0;
    }
    arenaTop = end;
    return old;
  }
  const p = alloc(newSize);
  if (p == 0) return 0;
  memory.copy(p, old, oldSize);
  return p;
}

// ---- A kept region between the input region and the arena (replay.ts) ------
// Only the engine module calls these (the fingerprint module never
// compiles them): a recording's index lives at [inputEnd(), arena base) and
// survives arenaReset(); the arena starts after it.

/** End of the input region: where a kept region starts. */
export function inputEnd(): usize {
  setup();
  return inputBase + inputCap;
}

/** Moves the arena's start to p (after a kept region), empty; false if memory cannot grow. */
export function setArenaBase(p: usize): bool {
  if (!ensureMemory(p)) return false;
  arenaBase = alignUp(p);
  arenaTop = arenaBase;
  return true;
}

/** The arena's current top (a mark for releaseFrom). */
export function arenaMark(): usize {
  return arenaTop;
}
