// The dispatcher: one request to the core, for both entries (entry/fingerprint.ts: the
// fingerprint module; entry/engine.ts: the engine module). Internal. The
// top of the core's import graph: it alone imports the operations (compare.ts,
// replay.ts, the CLI engine in cli/) and the pipeline (pipeline/process.ts) they run
// their calls through, so nothing below calls back up. The ABI is documented
// in entry/fingerprint.ts and defined in abi.ts.
import { ABI_ID } from "../_abi_id.gen";
import { F_CALL, F_CLI, F_DIFF, F_LIMITS, F_REPLAY, F_TOOLS, FINGERPRINT_VERSION, HEADER_BYTES, OK } from "../abi";
import { reserveInput } from "../base/arena";
import { setLimits } from "../base/limits";
import { compareOp } from "../ops/compare";
import { limitArgs } from "../ops/limit_args";
import { cliText } from "../cli/steps";
import { replayOp } from "../ops/replay";
import { setTools } from "../pipeline/tools";
import { E_BAD_REQUEST, fail } from "../base/errors";
import {
  FingerprintOnly, WithCalls, failed, finish, forgetCheckedKind, headerFits, processCalls, processRequest, startRequest,
  textFromStart,
} from "../pipeline/process";

export { FingerprintOnly, WithCalls };
export { result } from "../base/result";
export { word, wordBuf } from "../base/words";

const HEADER: usize = HEADER_BYTES;

export function version(): i32 {
  return FINGERPRINT_VERSION;
}

/**
 * The limits for the calls that follow (limits.ts; 0xFFFFFFFF = none): the
 * configured ones and the call's own, which can only tighten them. Returns
 * the byte limit in force.
 */
export function limits(bytes: u32, depth: u32, members: u32, ownBytes: u32, ownDepth: u32, ownMembers: u32): u32 {
  return setLimits(bytes, depth, members, ownBytes, ownDepth, ownMembers);
}

export function abiId(): i32 {
  return ABI_ID;
}

export function reserve(n: usize): usize {
  return reserveInput(n);
}

/**
 * Runs the request at the input region. The variant is a type so that the
 * choice is made at compile time (`sizeof<V>() == 8` is a constant): the
 * fingerprint module never compiles call.ts/explain.ts nor the operations
 * (F_CALL/F_EXPLAIN fail there as E_BAD_REQUEST), keeping its size and its
 * path as they were.
 */
export function runRequest<V>(len: usize): i32 {
  startRequest();
  forgetCheckedKind();
  if (sizeof<V>() == 8) setTools(0, 0);
  // The limits argument (ops/limit_args.ts): the kind part says how the host names them, args holds them.
  const req = reserveInput(0);
  if (len >= HEADER && (load<u32>(req) & F_LIMITS) != 0) {
    const argsLen = <usize>load<u32>(req, 20);
    return finish<V>(headerFits(req, len) ? limitArgs(load<u32>(req, 4) != 0, req + len - argsLen, argsLen) : fail(E_BAD_REQUEST, -1));
  }
  // The engine module compiles the pipeline once (runLine calls it too); the fingerprint module inlines it.
  const status = sizeof<V>() == 8 ? dispatch(req, len) : processRequest<V>(req, len);
  return finish<V>(status);
}

/**
 * A request of the engine module: an operation's (F_DIFF, then
 * F_REPLAY, then F_CLI without F_CALL, whatever else it carries) goes to
 * that operation, every other one down the pipeline.
 */
function dispatch(req: usize, len: usize): i32 {
  const flags = len >= HEADER ? load<u32>(req) : 0;
  if ((flags & (F_DIFF | F_REPLAY)) == 0 && (flags & (F_CLI | F_CALL)) != F_CLI) return processCalls(req, len);
  if (!headerFits(req, len)) return fail(E_BAD_REQUEST, -1);
  const kindPtr = req + HEADER, kindLen = <usize>load<u32>(req, 4);
  const namePtr = kindPtr + kindLen, nameLen = <usize>load<u32>(req, 8);
  const matchPtr = namePtr + nameLen, matchLen = <usize>load<u32>(req, 12);
  const ignorePtr = matchPtr + matchLen, ignoreLen = <usize>load<u32>(req, 16);
  const argsPtr = ignorePtr + ignoreLen, argsLen = <usize>load<u32>(req, 20);
  let ok: bool;
  if (flags & F_DIFF) {
    ok = compareOp(kindPtr, kindLen, namePtr, nameLen, argsPtr, argsLen);
  } else if (flags & F_REPLAY) {
    ok = replayOp(kindPtr, kindLen, argsPtr, argsLen, flags);
  } else {
    // F_TOOLS: the declarations (tools.ts) sit in the ignoreArgs part, for this call only.
    if (flags & F_TOOLS) setTools(ignorePtr, ignoreLen);
    ok = cliText(kindPtr, kindLen, namePtr, nameLen, matchPtr, matchLen, ignorePtr, ignoreLen, argsPtr, argsLen);
  }
  textFromStart();
  return ok ? OK : failed();
}
