/**
 * Replay: load a recording once, answer live calls from it.
 * Public API, re-exported by api.ts. Everything is decided by the core
 * (assembly/ops/replay.ts): line rules, fingerprints, the index, the order of
 * repeated answers, the why answer of a miss, the unused calls, which recorded
 * line an answer sends. This host streams bytes in (the "replay" request of
 * the generated table, on an engine instance of the recording's own) and turns
 * the core's records into objects; a recorded line handed back is built from
 * the core's items of it (_json_value.ts).
 * @module
 */
import {
  LOAD_CHUNK_BYTES, LOAD_ENDS_LINE, LOAD_LAST, R_ANSWER, R_LOAD, R_TOOLS, R_UNUSED, U_UTF16,
  W_BROKEN, W_CALL, W_LINE_MISSING, W_PIECE, W_READ_BACK, W_RECORDING, W_REENTERED,
} from "./_abi.gen.js";
import { newEngineInstance, sideFlags } from "./_engine.js";
import { buildValue } from "./_json_value.js";
import { errorFromCore, hostError, typeWord } from "./errors.js";
import { toolsText, type ToolDeclarations } from "./tools.js";
import type { Call, ProviderCall } from "./explain.js";

export interface RecordingOptions {
  /** Tool declarations (or a tools.json's text) applied to every recorded and live call. */
  tools?: ToolDeclarations | string;
}

// The records a recording returns: declared once for every host (interface/records.json).
export type { BadLine, RecordedCall, ReplayAnswer, ReplayHit, ReplayMiss, UnusedCall } from "./_records.gen.js";
import type { BadLine, LoadReport, RecordedCall, ReplayAnswer, UnusedCall } from "./_records.gen.js";

type Source = string | Uint8Array | Iterable<string | Uint8Array>;
/** A recorded line as built: its number, text and value. */
type Line = { line: number; text: string; value: Record<string, unknown> };

/**
 * A recording, indexed by fingerprint in the core's memory.
 * @example
 * const rec = Recording.load(readFileSync("recording.jsonl"));
 * const a = rec.answer({ name: "search", args: { q: "cats" } });
 * if (a.hit) return a.value.result; else throw new Error(a.why);
 */
export class Recording {
  /** Lines the core could not read, with their errors (the rest is kept). */
  readonly badLines: BadLine[] = [];
  /** The index lives in this instance's memory. */
  #i = newEngineInstance();
  #counts = { lines: 0, calls: 0 };
  /** The line the last answer built: the core leaves it out of the next answer from it (abi.ts F_REPLAY `held`). */
  #held: Line | undefined;

  private constructor(options: RecordingOptions | undefined) {
    const tools = toolsText(options);
    if (tools !== undefined) this.#run(R_TOOLS, 0, tools);
  }

  /**
   * Loads a recording (JSON Lines): its whole text (string or UTF-8 bytes),
   * or an iterable of pieces — Uint8Array chunks of the file (a stream's
   * chunks, cut anywhere) or strings, each one line.
   * @throws FingerprintError for bad declarations; bad lines go to `badLines`.
   */
  static load(source: Source, options?: RecordingOptions): Recording {
    const rec = new Recording(options);
    if (typeof source === "string" || source instanceof Uint8Array) rec.#send(source, 0);
    else if (source !== null && typeof source === "object" && Symbol.iterator in source) {
      for (const piece of source) rec.#piece(piece);
    } else throw hostError(W_RECORDING, [typeWord(source)]);
    rec.#send("", LOAD_LAST);
    return rec;
  }

  /**
   * Loads a recording from an async iterable (e.g. `fs.createReadStream(path)`:
   * Buffer chunks; or a readline interface: lines), streamed.
   */
  static async loadAsync(source: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
    options?: RecordingOptions): Promise<Recording> {
    const rec = new Recording(options);
    for await (const piece of source) rec.#piece(piece);
    rec.#send("", LOAD_LAST);
    return rec;
  }

  /** Recorded calls in the index. */
  get size(): number { return this.#counts.calls; }

  /** Bytes of wasm memory the recording holds: its index and the recorded lines' bytes. */
  get memoryBytes(): number { return this.#i.e.memory.buffer.byteLength; }

  /** Lines read (blank ones included). */
  get lines(): number { return this.#counts.lines; }

  /**
   * Answers a live call (a call object in any shape the core reads, or its
   * JSON text): a hit with the recorded line, or a miss with the why answer.
   * `index` picks one call of a message holding several. The line's `value`
   * is read at any depth; a bare `NaN`, `Infinity` or `-Infinity` in it (D12)
   * is JavaScript's NaN or Infinity. Answers from the same recorded line in a
   * row share its `text` and its `value` (one object), so answering the n calls
   * of one line costs what the line does, not n times it.
   * @throws FingerprintError when the call cannot be read or fingerprinted.
   */
  answer(call: Call | ProviderCall | string | Uint8Array, index = 0): ReplayAnswer {
    if (call === null || (typeof call !== "object" && typeof call !== "string")) {
      throw hostError(W_CALL, [typeWord(call)]);
    }
    const held = this.#held;
    this.#held = undefined; // until this answer's line is built: after any failure the core sends it again
    const [json, items] = this.#run(R_ANSWER, index, call, held ? 1 : 0);
    const answer = JSON.parse(json) as ReplayAnswer;
    this.#held = fill([answer.hit ? answer : answer.nearest], items, held);
    return answer;
  }

  /**
   * The recorded calls never answered so far (a stale recording), in recorded
   * order. The calls of one line share its `text` and its `value` (one object:
   * a change made through one call's value shows in the others').
   */
  unused(): UnusedCall[] {
    const [json, items] = this.#run(R_UNUSED, 0, "");
    const list = JSON.parse(json) as UnusedCall[];
    fill(list, items, undefined);
    return list;
  }

  #piece(piece: string | Uint8Array): void {
    if (piece instanceof Uint8Array) this.#send(piece, 0);
    else if (typeof piece === "string") this.#send(piece, LOAD_ENDS_LINE);
    else throw hostError(W_PIECE, [typeWord(piece)]);
  }

  /**
   * Text or bytes, LOAD_CHUNK_BYTES units at a time (a large text never doubles in memory; the core
   * keeps a line a chunk cuts until a chunk ends it); the last chunk with `flags`. A lone surrogate
   * goes as its WTF-8 bytes, which the core refuses as not UTF-8 (never a silently replaced character).
   */
  #send(data: string | Uint8Array, flags: number): void {
    let i = 0;
    do {
      let end = Math.min(data.length, i + LOAD_CHUNK_BYTES);
      if (typeof data === "string" && (data.charCodeAt(end - 1) & 0xfc00) === 0xd800) end++; // a surrogate pair kept whole
      const [json] = this.#run(R_LOAD, end >= data.length ? flags : 0, data.slice(i, end));
      const r = JSON.parse(json) as LoadReport;
      this.#counts = r;
      for (const b of r.bad) this.badLines.push({ line: b.line, error: errorFromCore(b.status, b.offset, b.detail) });
      i = end;
    } while (i < data.length);
  }

  /**
   * Replay op `op` (R_*) on `args`, held: 1 when this host built the last line an answer sent. The
   * core's JSON text and the bytes after its first "\n" (the lines' items, a copy). The index lives
   * in this instance: a call re-entered while it is busy (from a getter, toJSON or Proxy read of a
   * value being written) cannot take a spare, it is refused.
   */
  #run(op: number, argument: number, args: string | Uint8Array | object, held = 0): [string, DataView] {
    const i = this.#i;
    if (i.busy) throw hostError(W_REENTERED, []);
    if (i.dead) throw hostError(W_BROKEN, []);
    i.busy = true;
    try {
      i.limits(); // the configured limits: the core checks each loaded line and each live call
      i.request("replay", { kind: { op, argument, held, unit: U_UTF16 }, args }, sideFlags(args), "args");
      const out = i.textBytes(), nl = out.indexOf(10), end = nl < 0 ? out.length : nl; // a view: read it now
      return [decoder.decode(out.subarray(0, end)), new DataView(out.slice(end + 1).buffer)];
    } finally {
      i.busy = false;
    }
  }
}

const decoder = new TextDecoder();

/**
 * Gives each recorded call its line's text and value. A call the core gives a "text" has its line
 * built from the items that follow the records (u32 n and n bytes each, in order); one without is
 * the same line as `last` (the call before it, or the line the host holds), checked by number.
 */
function fill(calls: (RecordedCall | null)[], items: DataView, last: Line | undefined): Line | undefined {
  let at = 0;
  for (const c of calls) {
    if (c === null) continue;
    if (c.text !== undefined) {
      const n = items.getUint32(at, true);
      // Items (three u32 each, UTF-16 positions) copied out at any alignment.
      last = { line: c.line, text: c.text, value: valueOf(c.text, new Uint32Array(items.buffer.slice(at + 4, at + 4 + n))) };
      at += 4 + n;
    } else if (last?.line !== c.line) throw hostError(W_LINE_MISSING, [c.line]);
    c.text = last!.text;
    c.value = last!.value;
  }
  return last;
}

/** A recorded line as a value, built from the core's items of it (any depth; bare NaN/Infinity, D12, as JavaScript's). */
function valueOf(text: string, items: Uint32Array): Record<string, unknown> {
  try {
    return buildValue(text, items) as Record<string, unknown>;
  } catch (err) {
    throw hostError(W_READ_BACK, [(err as Error)?.message ?? String(err)], { cause: err });
  }
}
