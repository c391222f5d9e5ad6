// Limits on what one input may cost (a server's caps), decided here for every
// path that reads input: the hosts only pass the numbers on (the `limits`
// export) and the core checks them wherever it reads a call's input — JSON
// text, a value stream, marshal, a recording's line, a CLI line
// (pipeline/process.ts opens the window around that read). Internal.
//
// - maxInputBytes: the bytes of the input as the core receives it (UTF-8
//   JSON text; for a host value the encoding its SDK sends, abi.ts
//   F_VALUES/F_MARSHAL/F_FROM_VALUE). Checked before a byte of it is read,
//   so a host may send only the first limit + 1 bytes of a longer input.
// - maxDepth: the deepest nesting of containers (1 = a flat object or array).
// - maxMembers: the most members of one object (duplicates count: they cost sorting).
//
// Each limit is the smaller of the configured one and the call's own: a
// call's own limits can only tighten. NO_LIMIT (the default) is none, so
// every existing input keeps working. Selection lists, tool declarations
// and texts the core wrote itself (a record read back, a recording's kept
// line read again) are not input and are not checked.
//
// One message per limit, written here whole (the hosts print it as given):
// "limit exceeded: <reason>[ at byte N] (<name> is <value>)", the reason and
// name from abi.ts (_limit_words.gen.ts); no byte offset for a host value.
import { E_LIMIT_BYTES, E_LIMIT_DEPTH, E_LIMIT_MEMBERS, fail, failPart, setErrorDetail } from "./errors";
import { PART_ARGS_JSON } from "../abi";
import { limitFrame, limitWords } from "../_limit_words.gen";
import { writeDecimal } from "../num/digits";

export const NO_LIMIT: u32 = 0xFFFF_FFFF;

// The limits in force (the smaller of configured and own).
let limBytes: u32 = NO_LIMIT, limDepth: u32 = NO_LIMIT, limMembers: u32 = NO_LIMIT;
/** What the readers check now: the limits while a call's input is read, none otherwise. */
let maxDepth: u32 = NO_LIMIT;
let maxMembers: u32 = NO_LIMIT;
/** The input being read is a host value's encoding: offsets into it mean nothing to the caller. */
let noOffset = false;
/** The next reads are of text already checked (a recording's kept lines, replay.ts). */
let kept = false;

@inline function least(a: u32, b: u32): u32 { return a < b ? a : b; }

/**
 * The configured limits and the call's own (NO_LIMIT: none); each limit is
 * the smaller of the two. Returns the byte limit now in force, so a host can
 * stop copying a longer input after limit + 1 bytes.
 */
export function setLimits(bytes: u32, depth: u32, members: u32, ownBytes: u32, ownDepth: u32, ownMembers: u32): u32 {
  limBytes = least(bytes, ownBytes);
  limDepth = least(depth, ownDepth);
  limMembers = least(members, ownMembers);
  return limBytes;
}

// A CLI run's own limits (cli/args.ts) over the instance's, for one step (cli/steps.ts).
let savedBytes: u32 = NO_LIMIT, savedDepth: u32 = NO_LIMIT, savedMembers: u32 = NO_LIMIT;
export function pushLimits(bytes: u32, depth: u32, members: u32): void {
  savedBytes = limBytes; savedDepth = limDepth; savedMembers = limMembers;
  setLimits(savedBytes, savedDepth, savedMembers, bytes, depth, members);
}
export function popLimits(): void {
  limBytes = savedBytes; limDepth = savedDepth; limMembers = savedMembers;
}

/** replay.ts: the reads until keptDone() are of lines checked when they were loaded. */
export function keptStart(): void { kept = true; }
export function keptDone(): void { kept = false; }

/** False (the failure recorded) when an input of n bytes is over the byte limit; first, before it is read. */
export function inputFits(n: usize, fromValue: bool): bool {
  noOffset = fromValue;
  if (kept || <u64>n <= <u64>limBytes) return true;
  limitFail(E_LIMIT_BYTES, -1);
  return false;
}

/** The reads of a call's input start: the readers check depth and members until inputDone(). */
export function inputStart(): void {
  if (kept) return;
  maxDepth = limDepth;
  maxMembers = limMembers;
}

export function inputDone(): void {
  maxDepth = NO_LIMIT;
  maxMembers = NO_LIMIT;
}

/** Whether the reads now check a depth or a members limit (marshal.ts: a shared subtree's copy is then bounded by them). */
@inline export function depthOrMembersLimited(): bool {
  return maxDepth != NO_LIMIT || maxMembers != NO_LIMIT;
}

/** False (and the failure recorded at `offset`) when opening a container makes the nesting `depth` too deep. */
@inline export function depthAllowed(depth: u32, offset: i32): bool {
  if (depth <= maxDepth) return true;
  limitFail(E_LIMIT_DEPTH, offset);
  return false;
}

/** False (and the failure recorded at `offset`) when an object holds more than maxMembers members. */
@inline export function membersAllowed(members: u32, offset: i32): bool {
  if (members <= maxMembers) return true;
  limitFail(E_LIMIT_MEMBERS, offset);
  return false;
}

/** The message buffer: the longest message is ~120 bytes with its two numbers. */
function MSG(): usize { return memory.data(160); }

/**
 * Records a limit failure with its whole message as the detail: "limit
 * exceeded: "[reason][" at byte " offset][" (<name> is "][value]")". One loop
 * over the pieces: the fingerprint module's budget (40 KiB) has no room for
 * the same steps written twice. Called on the first failure of a call (the
 * readers stop there), so the detail is that failure's.
 */
@noinline function limitFail(code: i32, offset: i32): void {
  // A host value's offsets mean nothing to its caller; its argsJSON text (PART_ARGS_JSON) is the caller's own.
  if (noOffset && failPart() != PART_ARGS_JSON) offset = -1;
  fail(code, offset);
  const frame = limitFrame(), w = limitWords(code);
  let at = MSG();
  // Pieces: 0 frame, 1 reason, 2 " at byte " + offset, 3 " (<name> is " + value.
  for (let k = 0; k < 4; k++) {
    if (k == 2 && offset < 0) continue;
    const piece = k == 0 ? frame : k == 1 ? w : k == 2 ? frame + 1 + <usize>load<u8>(frame) : w + 1 + <usize>load<u8>(w);
    const n = <usize>load<u8>(piece);
    memory.copy(at, piece + 1, n);
    at += n;
    if (k < 2) continue;
    const v = k == 2 ? <u32>offset : code == E_LIMIT_DEPTH ? limDepth : code == E_LIMIT_MEMBERS ? limMembers : limBytes;
    at += writeDecimal(v, at);
  }
  store<u8>(at, 0x29); // ")"
  setErrorDetail(MSG(), at + 1 - MSG());
}
