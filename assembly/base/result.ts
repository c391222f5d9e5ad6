// The result block (RESULT_* layout, abi.ts): the fixed address a host reads
// after each request. A module of its own, below everything that writes or
// reads it (the pipeline, batch.ts, replay's scratch, the CLI engine), so
// none of them needs the dispatcher (entry/dispatch.ts) to find it. Internal.
import { RESULT_BYTES } from "../abi";

export const RESULT: usize = memory.data(RESULT_BYTES);

export function result(): usize {
  return RESULT;
}
