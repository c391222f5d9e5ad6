/**
 * Transport for a recording (src/replay.ts): its own instance of the engine
 * (src/_instance.ts), whose linear memory keeps the index (assembly/ops/replay.ts,
 * F_REPLAY). Bytes in, the core's text out; nothing is parsed or decided here.
 * Internal.
 * @module
 */
import {
  F_STRING_INPUT, F_VALUES, HEADER_BYTES, REPLAY_KIND_BYTES, R_ANSWER, R_LOAD, R_TOOLS, R_UNUSED, R_VALUE, RQ_REPLAY, U_UTF16, W_BROKEN, W_REENTERED,
} from "./_abi.gen.js";
import { newEngineInstance } from "./_engine.js";
import type { Instance } from "./_instance.js";
import { hostError } from "./errors.js";

const PRE = HEADER_BYTES + REPLAY_KIND_BYTES; // header, then the kind part: op, argument, known line (u32 each)

export class ReplayCore {
  private i: Instance = newEngineInstance();

  /** Declarations' JSON text, kept by the core for every call of the recording. */
  tools(text: Uint8Array): string {
    return this.run(0, R_TOOLS, 0, text, 0);
  }

  /** A chunk of the recording (flags: LOAD_*); the core answers its line and call counts and the bad lines. */
  load(chunk: Uint8Array, flags: number): string {
    return this.run(0, R_LOAD, flags, chunk, 0);
  }

  /** A live call: JSON text (string or bytes) or a host object (value stream); index within a message; known: the line whose text the caller holds (the core leaves it out). */
  answer(call: string | Uint8Array | object, index: number, known: number): string {
    return this.run(0, R_ANSWER, index, call, known);
  }

  /** Bytes of linear memory this instance holds (its index, line bytes and scratch). */
  memoryBytes(): number {
    return this.i.e.memory.buffer.byteLength;
  }

  unused(): string {
    return this.run(0, R_UNUSED, 0, new Uint8Array(0), 0);
  }

  /** A recorded line's items (assembly/ops/items.ts), positions in UTF-16 code units of `line`. */
  items(line: string): Uint32Array {
    return this.exec(0, R_VALUE, U_UTF16, line, 0, (i) => {
      const b = i.textBytes();
      return new Uint32Array(b.slice(0, b.length - (b.length % 12)).buffer); // a copy: the view dangles once memory grows
    });
  }

  private run(flags: number, op: number, arg: number, data: string | Uint8Array | object, known: number): string {
    return this.exec(flags, op, arg, data, known, (i) => i.text());
  }

  /**
   * One request on this recording's instance. Its index lives there, so a
   * call re-entered while it is busy (from a getter, toJSON or Proxy read of
   * a value being written) cannot take a spare: it is refused.
   */
  private exec<T>(flags: number, op: number, arg: number, data: string | Uint8Array | object, known: number,
    read: (i: Instance) => T): T {
    const i = this.i;
    if (i.busy) throw hostError(W_REENTERED, []);
    if (i.dead) throw hostError(W_BROKEN, []);
    i.busy = true;
    try {
      const at = i.inPtr + PRE;
      let len: number;
      if (typeof data === "string" || data instanceof Uint8Array) {
        i.reserve(PRE + (typeof data === "string" ? 3 * data.length : data.length));
        len = i.put(at, data);
        if (typeof data === "string") flags |= F_STRING_INPUT;
      } else {
        i.reserve(PRE + 1024);
        len = i.putValue(data, at) - at;
        flags |= F_VALUES;
      }
      i.limits(); // the configured limits: the core checks each loaded line and each live call (assembly/base/limits.ts)
      i.header(RQ_REPLAY | flags, REPLAY_KIND_BYTES, 0, 0, 0, len);
      new Uint32Array(i.view().buffer, i.inPtr + HEADER_BYTES, 3).set([op, arg, known]);
      if (i.run(PRE + len) !== 0) throw i.error();
      return read(i);
    } finally {
      i.busy = false;
    }
  }
}
