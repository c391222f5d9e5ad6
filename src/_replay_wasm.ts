/**
 * Transport for a recording (src/replay.ts): its own instance of the engine
 * (src/_instance.ts), whose linear memory keeps the index (assembly/ops/replay.ts,
 * F_REPLAY). Bytes in, the core's text and a line's items out; nothing is parsed
 * or decided here. Internal.
 * @module
 */
import { R_ANSWER, R_LOAD, R_TOOLS, R_UNUSED, U_UTF16, W_BROKEN, W_REENTERED } from "./_abi.gen.js";
import { newEngineInstance, sideFlags } from "./_engine.js";
import type { Instance } from "./_instance.js";
import { hostError } from "./errors.js";

const decoder = new TextDecoder();

/** A recorded line the core sent: its text and its items (UTF-16 positions, assembly/ops/items.ts). */
export type SentLine = [text: string, items: Uint32Array];

export class ReplayCore {
  private i: Instance = newEngineInstance();

  /** Declarations' JSON text, kept by the core for every call of the recording. */
  tools(text: Uint8Array): string {
    return this.run(R_TOOLS, 0, text, 0);
  }

  /** A chunk of the recording (flags: LOAD_*); the core answers its line and call counts and the bad lines. */
  load(chunk: Uint8Array, flags: number): string {
    return this.run(R_LOAD, flags, chunk, 0);
  }

  /**
   * A live call: JSON text (string or bytes) or a host object (value stream); index within a message;
   * known: the line whose text and value the caller holds. The record's JSON text, and the recorded
   * line it names unless that is `known`.
   */
  answer(call: string | Uint8Array | object, index: number, known: number): [string, SentLine | null] {
    return this.exec(R_ANSWER, index, call, known, (i) => {
      const out = i.textBytes(); // a view: read before the next request
      const nl = out.indexOf(10);
      if (nl < 0) return [decoder.decode(out), null];
      const nl2 = out.indexOf(10, nl + 1);
      return [decoder.decode(out.subarray(0, nl)), [decoder.decode(out.subarray(nl + 1, nl2)), itemsAt(out, nl2 + 1, out.length - nl2 - 1)]];
    });
  }

  /** The unused calls' JSON text, and after it, for each text it gives, u32 n and n bytes of its items (itemsAt). */
  unused(): [string, DataView] {
    return this.exec(R_UNUSED, 0, new Uint8Array(0), 0, (i) => {
      const out = i.textBytes(), nl = out.indexOf(10); // a view: the items are copied
      return [decoder.decode(out.subarray(0, nl)), new DataView(out.slice(nl + 1).buffer)];
    });
  }

  /** Bytes of linear memory this instance holds (its index, line bytes and scratch). */
  memoryBytes(): number {
    return this.i.e.memory.buffer.byteLength;
  }

  private run(op: number, arg: number, data: string | Uint8Array | object, known: number): string {
    return this.exec(op, arg, data, known, (i) => i.text());
  }

  /**
   * One request on this recording's instance. Its index lives there, so a
   * call re-entered while it is busy (from a getter, toJSON or Proxy read of
   * a value being written) cannot take a spare: it is refused.
   */
  private exec<T>(op: number, arg: number, data: string | Uint8Array | object, known: number, read: (i: Instance) => T): T {
    const i = this.i;
    if (i.busy) throw hostError(W_REENTERED, []);
    if (i.dead) throw hostError(W_BROKEN, []);
    i.busy = true;
    try {
      i.limits(); // the configured limits: the core checks each loaded line and each live call (assembly/base/limits.ts)
      // The kind part: op, argument, known line, unit (u32 each, REPLAY_KIND_BYTES).
      i.request("replay", { kind: new Uint8Array(new Uint32Array([op, arg, known, U_UTF16]).buffer), args: data }, sideFlags(data), "args");
      return read(i);
    } finally {
      i.busy = false;
    }
  }
}

/** Items (three u32 each) from n bytes at any alignment: a copy. */
export function itemsAt(b: DataView | Uint8Array, at: number, n: number): Uint32Array {
  return new Uint32Array(b.buffer.slice(b.byteOffset + at, b.byteOffset + at + n - (n % 12)));
}
