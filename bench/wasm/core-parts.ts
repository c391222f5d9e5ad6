// Bench-only wasm entry (never shipped): the core's parse stage alone, so
// bench/run.mjs can split the time of one `run` into parse and the rest
// (canonical write, and hashing or preimage output, which the real ABI's
// PREIMAGE flag already separates). Same internals as assembly/entry/fingerprint.ts; the
// args text sits at the input region (reserve), with no request header.
import { arenaReset, reserveInput } from "../../assembly/base/arena";
import { PART_ARGS, resetErrors } from "../../assembly/base/errors";
import { parseText } from "../../assembly/json/reader";
import { tapeInit } from "../../assembly/json/tape";

export function reserve(n: usize): usize {
  return reserveInput(n);
}

/** Parses the text at the input region into the tape. Returns the root index, or -1. */
export function parse(len: usize): i32 {
  arenaReset();
  resetErrors(PART_ARGS);
  if (!tapeInit(len)) return -1;
  return parseText(reserveInput(0), len, false);
}
