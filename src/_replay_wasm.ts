/**
 * Transport for a recording (src/replay.ts): its own instance of the
 * diagnostics module, whose linear memory keeps the index (assembly/ops/replay.ts,
 * F_REPLAY). Bytes in, the core's text out; nothing is parsed or decided here.
 * Internal.
 * @module
 */
import {
  F_REPLAY, F_STRING_INPUT, F_VALUES, HEADER_BYTES, HEADER_WORDS, REPLAY_KIND_BYTES, RESULT_DIGEST, RESULT_OFFSET, RESULT_STATUS, RESULT_TEXT_LEN, RESULT_TEXT_PTR, R_ANSWER, R_LOAD, R_TOOLS, R_UNUSED, R_VALUE, U_UTF16, W_BROKEN, W_NO_ROOM, W_REENTERED, W_TRAP,
} from "./_abi.gen.js";
import { newDiagnosticsInstance, type Exports } from "./_diagnostics_wasm.js";
import { isWellFormed, writeWtf8 } from "./_wtf8.js";
import { asValueWalk } from "./core.js";
import { FingerprintError, errorFromCore, hostError } from "./errors.js";
import { retarget, writeValue } from "./values.js";
import { tell } from "./_limits.js";

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
const PRE = HEADER_BYTES + REPLAY_KIND_BYTES; // header, then the kind part: op, argument, known line (u32 each)

export class ReplayCore {
  private e: Exports;
  private ptr: number;
  private cap = 64 * 1024;
  private broken = false;
  /** A request is between its write and the read of its result (a value walk may call user code). */
  private busy = false;

  constructor() {
    this.e = newDiagnosticsInstance();
    this.ptr = this.e.reserve(this.cap);
  }

  /** Declarations' JSON text, kept by the core for every call of the recording. */
  tools(text: Uint8Array): string {
    return this.bytes(R_TOOLS, 0, text, 0);
  }

  /** A chunk of the recording (flags: LOAD_*); the core answers its line and call counts and the bad lines. */
  load(chunk: Uint8Array, flags: number): string {
    return this.bytes(R_LOAD, flags, chunk, 0);
  }

  /** A live call: JSON text (string or bytes) or a host object (value stream); index within a message. */
  answer(call: string | Uint8Array | object, index: number, known: number): string {
    this.known = known; // the line whose text the caller holds: the core leaves it out
    try {
      if (call instanceof Uint8Array) return this.bytes(R_ANSWER, index, call, 0);
      if (typeof call === "string") return this.string(R_ANSWER, index, call);
      return this.held(() => this.answerValue(call, index));
    } finally {
      this.known = 0;
    }
  }

  private known = 0;

  /** fn with this instance held (ready() refuses a call re-entered meanwhile). */
  private held<T>(fn: () => T): T {
    this.ready();
    this.busy = true;
    try {
      return fn();
    } finally {
      this.busy = false;
    }
  }

  private answerValue(call: object, index: number): string {
    const e = this.e;
    const start = this.ptr + PRE;
    this.room(PRE + 1024);
    const grow = (need: number) => {
      this.room(Math.max(2 * (need - this.ptr), need - this.ptr + 1024));
      retarget(new Uint8Array(e.memory.buffer), this.ptr + this.cap);
    };
    const end = asValueWalk((nested) => writeValue(call, new Uint8Array(e.memory.buffer), start, this.ptr + this.cap, grow, nested));
    return this.run(F_VALUES, R_ANSWER, index, end - start);
  }

  /** Bytes of linear memory this instance holds (its index, line bytes and scratch). */
  memoryBytes(): number {
    return this.e.memory.buffer.byteLength;
  }

  unused(): string {
    return this.bytes(R_UNUSED, 0, new Uint8Array(0), 0);
  }

  /** A recorded line's items (assembly/ops/items.ts), positions in UTF-16 code units of `line`. */
  items(line: string): Uint32Array {
    this.exec(F_STRING_INPUT, R_VALUE, U_UTF16, this.put(line));
    const [ptr, len] = this.resultText();
    // A copy: the view would dangle once memory grows.
    return new Uint32Array(this.e.memory.buffer.slice(ptr, ptr + len - (len % 12)));
  }

  private ready(): Exports {
    if (this.busy) {
      // Its index lives in this instance: no temporary one can answer for it (Python: the same refusal).
      throw hostError(W_REENTERED, []);
    }
    if (this.broken) throw hostError(W_BROKEN, []);
    return this.e;
  }

  private room(n: number): void {
    if (n <= this.cap) return;
    if (this.e.reserve(n) === 0) throw hostError(W_NO_ROOM, [n]);
    this.cap = n;
  }

  private bytes(op: number, arg: number, data: Uint8Array, flags: number): string {
    this.ready();
    this.room(PRE + data.length);
    new Uint8Array(this.e.memory.buffer).set(data, this.ptr + PRE);
    return this.run(flags, op, arg, data.length);
  }

  private string(op: number, arg: number, text: string): string {
    return this.run(F_STRING_INPUT, op, arg, this.put(text));
  }

  /** Writes text as the request's payload; its length in bytes. */
  private put(text: string): number {
    this.ready();
    this.room(PRE + text.length * 3);
    const mem = new Uint8Array(this.e.memory.buffer);
    const at = this.ptr + PRE;
    return isWellFormed(text)
      ? new TextEncoder().encodeInto(text, mem.subarray(at, at + text.length * 3)).written
      : writeWtf8(text, 0, mem, at) - at;
  }

  private run(flags: number, op: number, arg: number, len: number): string {
    this.exec(flags, op, arg, len);
    const [ptr, len2] = this.resultText();
    return decoder.decode(new Uint8Array(this.e.memory.buffer, ptr, len2));
  }

  /** Runs the request in place; throws the core's error. */
  private exec(flags: number, op: number, arg: number, len: number): void {
    const e = this.e;
    tell(e); // the configured limits: the core checks each loaded line and each live call (assembly/base/limits.ts)
    new Uint32Array(e.memory.buffer, this.ptr, HEADER_WORDS).set([F_REPLAY | flags, REPLAY_KIND_BYTES, 0, 0, 0, len]);
    new Uint32Array(e.memory.buffer, this.ptr + HEADER_BYTES, 3).set([op, arg, this.known]);
    let status: number;
    try {
      status = e.run(PRE + len);
    } catch (err) {
      this.broken = true;
      throw hostError(W_TRAP, ["replay", (err as Error)?.message ?? String(err)]);
    }
    if (status !== 0) {
      const res = new Int32Array(e.memory.buffer, e.result(), RESULT_DIGEST >> 2);
      const [ptr, len] = this.resultText();
      const detail = decoder.decode(new Uint8Array(e.memory.buffer, ptr, len));
      throw errorFromCore(res[RESULT_STATUS >> 2], res[RESULT_OFFSET >> 2], detail);
    }
  }

  /** Where the last request's text is in linear memory: [pointer, length]. */
  private resultText(): [number, number] {
    const res = new Int32Array(this.e.memory.buffer, this.e.result(), RESULT_DIGEST >> 2);
    return [res[RESULT_TEXT_PTR >> 2] >>> 0, res[RESULT_TEXT_LEN >> 2] >>> 0];
  }
}
