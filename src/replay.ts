/**
 * Replay: load a recording once, answer live calls from it.
 * Public API, re-exported by api.ts. Everything is decided by the core
 * (assembly/ops/replay.ts): line rules, fingerprints, the index, the order of
 * repeated answers, the why answer of a miss, the unused calls. This host
 * streams bytes in and turns the core's records into objects; a recorded
 * line handed back is built from the core's items of it (_json_value.ts).
 * @module
 */
import { W_CALL, W_LINE_MISSING, W_PIECE, W_READ_BACK, W_RECORDING } from "./_abi.gen.js";
import { buildValue } from "./_json_value.js";
import { itemsAt, ReplayCore } from "./_replay_wasm.js";
import { isWellFormed, writeWtf8 } from "./_wtf8.js";
import { errorFromCore, hostError, typeWord } from "./errors.js";
import { LOAD_CHUNK_BYTES, LOAD_ENDS_LINE, LOAD_LAST } from "./_abi.gen.js";
import { toolsText, type ToolDeclarations } from "./tools.js";
import type { Call, ProviderCall } from "./explain.js";

const CHUNK = LOAD_CHUNK_BYTES;

export interface RecordingOptions {
  /** Tool declarations (or a tools.json's text) applied to every recorded and live call. */
  tools?: ToolDeclarations | string;
}

// The records a recording returns: declared once for every host (interface/records.json).
export type { BadLine, RecordedCall, ReplayAnswer, ReplayHit, ReplayMiss, UnusedCall } from "./_records.gen.js";
import type { BadLine, LoadReport, RecordedCall, ReplayAnswer, UnusedCall } from "./_records.gen.js";

type Source = string | Uint8Array | Iterable<string | Uint8Array>;

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
  #core: ReplayCore;
  #lines = 0;
  #calls = 0;

  private constructor(options: RecordingOptions | undefined) {
    this.#core = new ReplayCore();
    const tools = toolsText(options);
    if (tools !== undefined) this.#core.tools(tools);
  }

  /**
   * Loads a recording (JSON Lines): its whole text (string or UTF-8 bytes),
   * or an iterable of pieces — Uint8Array chunks of the file (a stream's
   * chunks, cut anywhere) or strings, each one line.
   * @throws FingerprintError for bad declarations; bad lines go to `badLines`.
   */
  static load(source: Source, options?: RecordingOptions): Recording {
    const rec = new Recording(options);
    if (typeof source === "string") rec.#text(source, 0);
    else if (source instanceof Uint8Array) rec.#send(source, 0);
    else if (source !== null && typeof source === "object" && Symbol.iterator in source) {
      for (const piece of source) rec.#piece(piece);
    } else throw hostError(W_RECORDING, [typeWord(source)]);
    rec.#send(new Uint8Array(0), LOAD_LAST);
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
    rec.#send(new Uint8Array(0), LOAD_LAST);
    return rec;
  }

  /** Recorded calls in the index. */
  get size(): number {
    return this.#calls;
  }

  /** Bytes of wasm memory the recording holds: its index and the recorded lines' bytes. */
  get memoryBytes(): number {
    return this.#core.memoryBytes();
  }

  /** Lines read (blank ones included). */
  get lines(): number {
    return this.#lines;
  }

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
    const [record, sent] = this.#core.answer(call, index, this.#held.line);
    const answer = JSON.parse(record) as ReplayAnswer;
    // The recorded call it names (a hit, or a miss's nearest) gets its line's text and value:
    // the line the core sent, or (none sent) the one held, which the core left out.
    const at = (answer.hit ? answer : answer.nearest) as RecordedCall | null;
    if (at === null) return answer;
    if (sent !== null) {
      this.#held = { line: 0, text: "", value: {} }; // until the value is built
      this.#held = { line: at.line, text: sent[0], value: this.#value(...sent) };
    } else if (this.#held.line !== at.line) throw hostError(W_LINE_MISSING, [at.line]);
    at.text = this.#held.text;
    at.value = this.#held.value;
    return answer;
  }

  /** The last recorded line an answer gave (its number, text and value); the core leaves it out of the next. */
  #held: { line: number; text: string; value: Record<string, unknown> } = { line: 0, text: "", value: {} };

  /**
   * The recorded calls never answered so far (a stale recording), in recorded
   * order. The calls of one line share its `text` and its `value` (one object:
   * a change made through one call's value shows in the others').
   */
  unused(): UnusedCall[] {
    // The core gives a line's text with the first of its calls only, its items after the list.
    const [json, items] = this.#core.unused();
    let text = "", value: Record<string, unknown> = {}, at = 0;
    return (JSON.parse(json) as (Omit<UnusedCall, "value" | "text"> & { text?: string })[]).map((u) => {
      if (u.text !== undefined) {
        const n = items.getUint32(at, true);
        value = this.#value(text = u.text, itemsAt(items, at + 4, n));
        at += 4 + n;
      }
      return { ...u, text, value };
    });
  }

  /** A recorded line as a value, built from the core's items of it (any depth; bare NaN/Infinity, D12, as JavaScript's). */
  #value(text: string, items: Uint32Array): Record<string, unknown> {
    try {
      return buildValue(text, items) as Record<string, unknown>;
    } catch (err) {
      throw hostError(W_READ_BACK, [(err as Error)?.message ?? String(err)], { cause: err });
    }
  }

  /** A text, encoded a slice at a time (a large text never doubles in memory at once); the last slice with `flags`. */
  #text(text: string, flags: number): void {
    let i = 0;
    do {
      let end = Math.min(text.length, i + CHUNK);
      const c = text.charCodeAt(end - 1);
      if (end < text.length && c >= 0xd800 && c < 0xdc00) end++; // keep a surrogate pair together
      this.#send(encode(text.slice(i, end)), end === text.length ? flags : 0);
      i = end;
    } while (i < text.length);
  }

  #piece(piece: string | Uint8Array): void {
    if (piece instanceof Uint8Array) this.#send(piece, 0);
    else if (typeof piece === "string") this.#text(piece, LOAD_ENDS_LINE);
    else throw hostError(W_PIECE, [typeWord(piece)]);
  }

  /** Bytes cut anywhere, CHUNK at a time (the core keeps a line they cut until a chunk ends it); the last with `flags`. */
  #send(chunk: Uint8Array, flags: number): void {
    let i = 0;
    do {
      const end = Math.min(chunk.length, i + CHUNK);
      const r = JSON.parse(this.#core.load(chunk.subarray(i, end), end === chunk.length ? flags : 0)) as LoadReport;
      this.#lines = r.lines;
      this.#calls = r.calls;
      for (const b of r.bad) this.badLines.push({ line: b.line, error: errorFromCore(b.status, b.offset, b.detail) });
      i = end;
    } while (i < chunk.length);
  }
}

/**
 * UTF-8, with a lone surrogate as its WTF-8 bytes rather than U+FFFD: the
 * core then refuses that line as not UTF-8 (the line rules), instead of the
 * recording silently holding another text.
 */
function encode(s: string): Uint8Array {
  if (isWellFormed(s)) return new TextEncoder().encode(s);
  const b = new Uint8Array(s.length * 3);
  return b.subarray(0, writeWtf8(s, 0, b, 0));
}
