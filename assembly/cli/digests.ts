// Deferred digests for the CLI's fingerprint output: a line's output is
// written with its 64 hex digits left blank, its preimage is queued, and
// four queued preimages are hashed together (sha256x4.ts, one per SIMD
// lane), the digits going into their blanks in the output buffer (output.ts:
// deferLine queues, and flushes before its buffer moves). Every output byte
// is the same as hashing each line at once.
//
// The queued preimages stay in their lines' scratch: output.ts keeps the
// scratch up to deferKeep when the next line starts, and flushes the queue
// before its buffer grows over that scratch. The queue is empty whenever
// the output is handed back (accFinal) or started (accInit). Below output.ts:
// the queue knows the buffer only by the address deferReset gave it.
import { arenaMark } from "../base/arena";
import { sha256x4Hex, sha256x4Set } from "../hash/sha256x4";

/** The queue, through a function: a module without the CLI engine gets none of it. */
function scratch(): usize { return memory.data(48, 16); }


let queued: u32 = 0;
/** The output buffer the digests go into (output.ts: it grows in place, its address stays). */
let base: usize = 0;
/** Per queued item: preimage pointer, length, and the digest's offset in the output buffer. */
@inline function PRE_P(): usize { return scratch() + 0; }
@inline function PRE_N(): usize { return scratch() + 16; }
@inline function AT(): usize { return scratch() + 32; }

let keep: usize = 0;

/** End of the scratch the queued preimages occupy (0: nothing to keep). */
export function deferKeep(): usize { return keep; }

/** Queues the preimage [preP, preP + preN) whose digest goes to offset at of the buffer; four are hashed at once. */
export function deferQueue(preP: usize, preN: usize, at: usize): void {
  const o = <usize>queued << 2;
  store<u32>(PRE_P() + o, <u32>preP);
  store<u32>(PRE_N() + o, <u32>preN);
  store<u32>(AT() + o, <u32>at);
  keep = arenaMark();
  if (++queued == 4) deferFlush();
}

/** Hashes the queue into the output buffer; the preimages' scratch may go. */
export function deferFlush(): void {
  for (let j: u32 = 0; j < queued; j++) {
    const o = <usize>j << 2;
    sha256x4Set(j, <usize>load<u32>(PRE_P() + o), <usize>load<u32>(PRE_N() + o), base + <usize>load<u32>(AT() + o));
  }
  sha256x4Hex(queued);
  queued = 0;
  keep = 0;
}

/** The output was rolled back to length len: queued digests from there on are dropped. */
export function deferRollback(len: usize): void {
  while (queued > 0 && <usize>load<u32>(AT() + (<usize>(queued - 1) << 2)) >= len) queued--;
  if (queued == 0) keep = 0;
}

/** A new output buffer at base: nothing queued. */
export function deferReset(at: usize): void {
  base = at;
  queued = 0;
  keep = 0;
}
