// diff and nearest over calls and Explanations (F_DIFF requests, D_* in
// abi.ts; engine module only). Internal. Both SDKs' diff() and nearest()
// are these operations: the host sends values and parses the JSON answer.
//
// A side is a call (any shape the call reader takes, read through the
// pipeline) or an Explanation: an object whose kind, name, canonical,
// preimage and fingerprint members are strings. An Explanation's canonical
// text is read again as the args of its kind and name (canonical text reads
// back as itself), so a side is always what the pipeline made of it.
//
// Diff: (kind) then (name) when they differ, their before/after the JSON
// string literals (JSON.stringify's text), then the canonical texts' changes
// (ops/diff.ts); "same" is fingerprint equality.
//
// Nearest: the host starts a search with the target, which the instance
// keeps (replay.ts's kept region) with the best so far (same kind and name,
// fewest changes, the first of equals); then it reads the recording once, in
// order, and sends each recorded call in a step on the same instance; the
// core answers the match when a call is the nearest so far, and says stop
// at an exact match. A recorded call whose top-level "name" string the host
// can see is first sent as that name alone: another tool's call is skipped
// without being read, let alone fingerprinted.
import {
  D_DIFF, D_NEAR_START, D_NEAR_STEP, DIFF_KIND_BYTES, F_CALL, F_DIGEST, F_EXPLAIN, F_FROM_VALUE, F_RAW_NAMES, F_STRING_INPUT,
  F_TEXT, F_VALUES, HEADER_BYTES, NEAR_BEST, NEAR_EXACT, NEAR_NAME_ONLY, NEAR_NEXT, NEAR_SEND_CALL, OK,
  PART_ARGS, RESULT_DIGEST,
} from "../abi";
import { alloc, arenaMark, releaseFrom } from "../base/arena";
import { E_BAD_REQUEST, fail, resetErrors } from "../base/errors";
import { inputFits } from "../base/limits";
import { result } from "../base/result";
import { bytes, decimal, lit } from "../json/emit";
import { member } from "../json/members";
import { parseText } from "../json/reader";
import { sinkBase, sinkInit, sinkLength } from "../json/sink";
import { T_OBJ, T_STR, nodeA, nodeB, nodeType, tapeInit } from "../json/tape";
import { readValues } from "../json/values";
import { lastCall } from "../pipeline/callnodes";
import { writeJsonString } from "../pipeline/canonical";
import { callTextStart, processCall } from "../pipeline/process";
import { writeChanges } from "./diff";
import { head16 } from "./scratch";
import { nearFits, nearKept, nearKeptLength, nearRoom, setNearKeptLength } from "./replay";

const NONE: u32 = 0xFFFF_FFFF;
const SIDE_FLAGS: u32 = F_STRING_INPUT | F_VALUES | F_FROM_VALUE;

// A side, copied out of the pipeline's scratch: u32 fields, then its 64 hex digest digits.
const S_KIND_P: usize = 0, S_KIND_N: usize = 4, S_NAME_P: usize = 8, S_NAME_N: usize = 12, S_CANON_P: usize = 16;
const S_CANON_N: usize = 20, S_REC_P: usize = 24, S_REC_N: usize = 28, S_IS_EXPLANATION: usize = 32, S_DIGEST: usize = 36;
const SIDE_BYTES: usize = 100;

@inline function sf(s: usize, f: usize): usize { return <usize>load<u32>(s + f); }

/** Runs operation [kind part: op, argument, the name part's flags, the args part's flags]. False on error (recorded). */
export function compareOp(kindP: usize, kindN: usize, nameP: usize, nameN: usize, p: usize, n: usize): bool {
  if (kindN != DIFF_KIND_BYTES) return bad();
  const op = load<u32>(kindP), arg = load<u32>(kindP, 4), nameFlags = load<u32>(kindP, 8), argsFlags = load<u32>(kindP, 12);
  if (op == D_DIFF) {
    const a = readSide(nameP, nameN, nameFlags, false);
    if (a == 0) return false;
    const b = readSide(p, n, argsFlags, false);
    return b != 0 && writeDiffOf(a, b);
  }
  if (op == D_NEAR_START) return nearStart(p, n, argsFlags);
  if (op == D_NEAR_STEP) return nearStep(arg, nameP, nameN, p, n, argsFlags);
  return bad();
}

function bad(): bool {
  return fail(E_BAD_REQUEST, -1) == OK;
}

// ---- Sides -------------------------------------------------------------------

/** Reads the call or Explanation [p, p + n) into a side (0 on error, recorded); record: also its Explanation's JSON. */
function readSide(p: usize, n: usize, flags: u32, record: bool): usize {
  const side = alloc(SIDE_BYTES);
  if (side == 0 || !inputFits(n, (flags & F_FROM_VALUE) != 0)) return 0;
  const mark = arenaMark();
  const root = !tapeInit(n) ? -1
    : (flags & F_VALUES) != 0 ? readValues(p, n) : parseText(p, n, (flags & F_STRING_INPUT) == 0);
  if (root >= 0 && nodeType(<u32>root) == T_OBJ) {
    const kind = str(<u32>root, "kind"), name = str(<u32>root, "name"), canon = str(<u32>root, "canonical");
    if (kind >= 0 && name >= 0 && canon >= 0 && str(<u32>root, "preimage") >= 0 && str(<u32>root, "fingerprint") >= 0) {
      return explanationSide(side, <u32>kind, <u32>name, <u32>canon) ? side : 0;
    }
  }
  // A call: the pipeline reads it (and reports what is wrong with it).
  releaseFrom(mark);
  return callSide(side, p, n, flags, record) ? side : 0;
}

/** Member key of obj when it is a string node, else -1. */
function str(obj: u32, key: string): i32 {
  const v = member(obj, key);
  return v >= 0 && nodeType(<u32>v) == T_STR ? v : -1;
}

/** An Explanation's kind, name and canonical text through the pipeline (F_RAW_NAMES: the texts as they are). */
function explanationSide(side: usize, kind: u32, name: u32, canon: u32): bool {
  const kn = <usize>nodeA(kind), nn = <usize>nodeA(name), cn = <usize>nodeA(canon);
  const len = <usize>HEADER_BYTES + kn + nn + cn;
  const req = alloc(len);
  if (req == 0) return false;
  store<u32>(req, F_DIGEST | F_TEXT | F_RAW_NAMES | F_STRING_INPUT);
  store<u32>(req, <u32>kn, 4); store<u32>(req, <u32>nn, 8); store<u32>(req, 0, 12); store<u32>(req, 0, 16);
  store<u32>(req, <u32>cn, 20);
  memory.copy(req + HEADER_BYTES, <usize>nodeB(kind), kn);
  memory.copy(req + HEADER_BYTES + kn, <usize>nodeB(name), nn);
  memory.copy(req + HEADER_BYTES + kn + nn, <usize>nodeB(canon), cn);
  resetErrors(PART_ARGS);
  if (processCall(req, len, 0, 0) != OK) return false;
  // The request keeps kind and name; the canonical text is copied out of the sink.
  const text = copyOut(sinkBase() + callTextStart(), sinkLength() - callTextStart());
  if (text == 0 && sinkLength() > callTextStart()) return false;
  setSide(side, req + HEADER_BYTES, kn, req + HEADER_BYTES + kn, nn, text, sinkLength() - callTextStart(), 0, 0, 1);
  return true;
}

/**
 * A call through the pipeline. Its sink holds kind "\n" name "\n" canonical
 * (the digest's prefix, then the text), then with record its Explanation.
 */
function callSide(side: usize, p: usize, n: usize, flags: u32, record: bool): bool {
  const len = <usize>HEADER_BYTES + n;
  const req = alloc(len);
  if (req == 0) return false;
  store<u32>(req, F_CALL | F_DIGEST | (record ? F_EXPLAIN : F_TEXT) | (flags & SIDE_FLAGS));
  store<u32>(req, 0, 4); store<u32>(req, 0, 8); store<u32>(req, 0, 12); store<u32>(req, 0, 16); store<u32>(req, <u32>n, 20);
  memory.copy(req + HEADER_BYTES, p, n);
  resetErrors(PART_ARGS);
  if (processCall(req, len, 0, 0) != OK) return false;
  const all = copyOut(sinkBase(), sinkLength());
  if (all == 0) return false;
  let kn: usize = 0;
  while (kn < sinkLength() && load<u8>(all + kn) != 0x0A) kn++; // a kind holds no line feed
  const nn = <usize>nodeA(<u32>lastCall().name);
  const canonAt = kn + nn + 2;
  const canonEnd = record ? callTextStart() : sinkLength();
  setSide(side, all, kn, all + kn + 1, nn, all + canonAt, canonEnd - canonAt,
    record ? all + callTextStart() : 0, record ? sinkLength() - callTextStart() : 0, 0);
  return true;
}

function copyOut(p: usize, n: usize): usize {
  const q = alloc(n);
  if (q != 0) memory.copy(q, p, n);
  return q;
}

function setSide(s: usize, kp: usize, kn: usize, np: usize, nn: usize, cp: usize, cn: usize, rp: usize, rn: usize,
  isExplanation: u32): void {
  store<u32>(s + S_KIND_P, <u32>kp); store<u32>(s + S_KIND_N, <u32>kn);
  store<u32>(s + S_NAME_P, <u32>np); store<u32>(s + S_NAME_N, <u32>nn);
  store<u32>(s + S_CANON_P, <u32>cp); store<u32>(s + S_CANON_N, <u32>cn);
  store<u32>(s + S_REC_P, <u32>rp); store<u32>(s + S_REC_N, <u32>rn);
  store<u32>(s + S_IS_EXPLANATION, isExplanation);
  memory.copy(s + S_DIGEST, result() + RESULT_DIGEST, 64);
}

@inline function same(p: usize, pn: usize, q: usize, qn: usize): bool {
  return pn == qn && memory.compare(p, q, pn) == 0;
}

// ---- diff --------------------------------------------------------------------

/** {"same":…,"changes":[…]} of side a to side b, in a sink of its own. */
function writeDiffOf(a: usize, b: usize): bool {
  const kindsDiffer = !same(sf(a, S_KIND_P), sf(a, S_KIND_N), sf(b, S_KIND_P), sf(b, S_KIND_N));
  const namesDiffer = !same(sf(a, S_NAME_P), sf(a, S_NAME_N), sf(b, S_NAME_P), sf(b, S_NAME_N));
  // The four literals first (JSON.stringify's text of each), in a sink of their own; a change quotes them again.
  if (!sinkInit(true, false, 6 * (sf(a, S_KIND_N) + sf(b, S_KIND_N) + sf(a, S_NAME_N) + sf(b, S_NAME_N)) + 16)) return false;
  const at = alloc(16);
  if (at == 0) return false;
  for (let i: usize = 0; i < 4; i++) {
    const s = (i & 1) == 0 ? a : b, f = i < 2 ? S_KIND_P : S_NAME_P;
    store<u32>(at + (i << 2), <u32>sinkLength());
    if ((i < 2 ? kindsDiffer : namesDiffer) && !writeJsonString(sf(s, f), sf(s, f + 4), false)) return false;
  }
  const litBase = sinkBase(), litEnd = <u32>sinkLength();
  if (!sinkInit(true, false, 256 + 2 * (sf(a, S_CANON_N) + sf(b, S_CANON_N)) + 2 * <usize>litEnd)) return false;
  const sameDigest = memory.compare(a + S_DIGEST, b + S_DIGEST, 64) == 0;
  if (!lit(sameDigest ? "{\"same\":true,\"changes\":[" : "{\"same\":false,\"changes\":[")) return false;
  let first = true;
  for (let i: u32 = 0; i < 4; i += 2) {
    if (!(i == 0 ? kindsDiffer : namesDiffer)) continue;
    const from = load<u32>(at + (i << 2)), mid = load<u32>(at + ((i + 1) << 2)), to = i == 0 ? load<u32>(at + 8) : litEnd;
    if (!lit(first ? "{\"path\":" : ",{\"path\":") || !lit(i == 0 ? "\"(kind)\"" : "\"(name)\"")
      || !lit(",\"kind\":\"changed\",\"before\":") || !writeJsonString(litBase + from, mid - from, false)
      || !lit(",\"after\":") || !writeJsonString(litBase + mid, to - mid, false) || !lit("}")) return false;
    first = false;
  }
  if (writeChanges(sf(a, S_CANON_P), <u32>sf(a, S_CANON_N), sf(b, S_CANON_P), <u32>sf(b, S_CANON_N), first) < 0) return false;
  return lit("]}");
}

// ---- nearest ----------------------------------------------------------------

// The search the instance keeps between steps (replay.ts nearKept): u32 the
// index of the next recorded call, the best's changes (NONE: none yet), the
// target's kind, name and canonical lengths, its 64 digest digits, then its three texts.
const K_INDEX: usize = 0, K_BEST: usize = 4, K_KIND_N: usize = 8, K_NAME_N: usize = 12, K_CANON_N: usize = 16;
const K_DIGEST: usize = 20, K_TEXTS: usize = 84;

/** D_NEAR_START: reads the target and keeps it; the arena moves when the kept room grows, so it is read again then. */
function nearStart(p: usize, n: usize, flags: u32): bool {
  let t = readSide(p, n, flags, false);
  if (t == 0) return false;
  const kn = sf(t, S_KIND_N), nn = sf(t, S_NAME_N), cn = sf(t, S_CANON_N);
  const size = K_TEXTS + kn + nn + cn;
  if (!nearFits(size)) {
    if (!nearRoom(size)) return false;
    t = readSide(p, n, flags, false);
    if (t == 0) return false;
  }
  const k = nearKept();
  store<u32>(k + K_INDEX, 0); store<u32>(k + K_BEST, NONE);
  store<u32>(k + K_KIND_N, <u32>kn); store<u32>(k + K_NAME_N, <u32>nn); store<u32>(k + K_CANON_N, <u32>cn);
  memory.copy(k + K_DIGEST, t + S_DIGEST, 64);
  memory.copy(k + K_TEXTS, sf(t, S_KIND_P), kn);
  memory.copy(k + K_TEXTS + kn, sf(t, S_NAME_P), nn);
  memory.copy(k + K_TEXTS + kn + nn, sf(t, S_CANON_P), cn);
  setNearKeptLength(size);
  return sinkInit(true, false, 16);
}

/** The step's answer head (its step, then the match's record when it is the nearest so far); counts the call. */
function stepHead(step: u32, hint: usize): bool {
  const k = nearKept();
  store<u32>(k + K_INDEX, load<u32>(k + K_INDEX) + (step == NEAR_SEND_CALL ? 0 : 1));
  if (!sinkInit(true, false, 4 + hint)) return false;
  store<u32>(head16(), step);
  return bytes(head16(), 4);
}

/** D_NEAR_STEP: one recorded call (or, NEAR_NAME_ONLY, its name alone) against the kept target. */
function nearStep(arg: u32, nameP: usize, nameN: usize, p: usize, n: usize, flags: u32): bool {
  if (nearKeptLength() < K_TEXTS) return bad(); // no search started on this instance
  const k = nearKept();
  const tk = sf(k, K_KIND_N), tn = sf(k, K_NAME_N), tc = sf(k, K_CANON_N);
  const tKind = k + K_TEXTS, tName = tKind + tk, tCanon = tName + tn;
  if (arg & NEAR_NAME_ONLY) return stepHead(same(nameP, nameN, tName, tn) ? NEAR_SEND_CALL : NEAR_NEXT, 0);
  const s = readSide(p, n, flags, true);
  if (s == 0) return false;
  // readSide may not move the kept region: it only reads into the arena, above it.
  if (!same(sf(s, S_NAME_P), sf(s, S_NAME_N), tName, tn) || !same(sf(s, S_KIND_P), sf(s, S_KIND_N), tKind, tk)) {
    return stepHead(NEAR_NEXT, 0);
  }
  // The recorded call's changes to the live one (before: the recording's side), kept only if it is the nearest so far.
  if (!sinkInit(true, false, 256 + 2 * (sf(s, S_CANON_N) + tc))) return false;
  const count = writeChanges(sf(s, S_CANON_P), <u32>sf(s, S_CANON_N), tCanon, <u32>tc, true);
  if (count < 0) return false;
  const best = load<u32>(k + K_BEST), index = load<u32>(k + K_INDEX);
  if (best != NONE && <u32>count >= best) return stepHead(NEAR_NEXT, 0);
  store<u32>(k + K_BEST, <u32>count);
  const changes = sinkBase(), changesN = sinkLength();
  const recN = sf(s, S_REC_N);
  if (!stepHead(count == 0 ? NEAR_EXACT : NEAR_BEST, 96 + changesN + recN)) return false;
  const sameDigest = memory.compare(s + S_DIGEST, k + K_DIGEST, 64) == 0;
  return lit("{\"index\":") && decimal(index) && lit(",\"explanation\":")
    && (sf(s, S_IS_EXPLANATION) != 0 ? lit("null") : bytes(sf(s, S_REC_P), recN))
    && lit(sameDigest ? ",\"diff\":{\"same\":true,\"changes\":[" : ",\"diff\":{\"same\":false,\"changes\":[")
    && bytes(changes, changesN) && lit("]}}");
}
