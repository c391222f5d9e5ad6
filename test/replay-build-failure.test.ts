// A recorded line whose value the host fails to build (forced here: the
// builder throws once) must never leave a stale line for the next answer:
// the host then holds nothing, tells the core so, and the core sends the
// line again. Expected values from V8's JSON.parse of the recorded lines.
import { describe, expect, it, vi } from "vitest";

const fail = vi.hoisted(() => ({ next: false }));
vi.mock("../src/_json_value", async (original) => {
  const m = await original<typeof import("../src/_json_value")>();
  return {
    ...m,
    buildValue: (...a: Parameters<typeof m.buildValue>) => {
      if (fail.next) { fail.next = false; throw new RangeError("forced"); }
      return m.buildValue(...a);
    },
  };
});
const { FingerprintError, Recording } = await import("../src/index");

// One message holding n calls (OpenAI Chat Completions' tool_calls), then a single call.
const message = (n: number) => JSON.stringify({
  role: "assistant",
  tool_calls: Array.from({ length: n }, (_, i) => ({ id: `c${i}`, type: "function", function: { name: "t", arguments: `{"i":${i}}` } })),
});
const other = JSON.stringify({ name: "u", args: {}, result: "other" });
const call = (i: number) => ({ name: "t", args: { i } });

describe("a line whose value could not be built", () => {
  it("is built again for the next answer from it, never taken from the line held before", () => {
    const rec = Recording.load(`${message(3)}\n${other}\n`);
    const u = rec.answer({ name: "u", args: {} }); // line 2 held
    expect(u.hit && u.value).toEqual(JSON.parse(other));
    fail.next = true;
    let err: unknown;
    try { rec.answer(call(0)); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(FingerprintError);
    expect((err as InstanceType<typeof FingerprintError>).code).toBe("internal-error");
    const a = rec.answer(call(1));
    expect(a.hit && [a.line, a.call, a.text]).toEqual([1, 1, message(3)]);
    expect(a.hit && a.value).toEqual(JSON.parse(message(3)));
    // The next answer from that line shares the value built (one object).
    const b = rec.answer(call(2));
    expect(b.hit && a.hit && b.value === a.value && b.text === a.text).toBe(true);
    // A miss's nearest from the line held: the same object too.
    const miss = rec.answer({ name: "t", args: { i: 1, x: 1 } });
    expect(!miss.hit && a.hit && miss.nearest?.value === a.value).toBe(true);
  });

  it("in unused(), fails the call, and the next unused() gives every line", () => {
    const rec = Recording.load(`${message(2)}\n${other}\n`);
    fail.next = true;
    expect(() => rec.unused()).toThrow(FingerprintError);
    const list = rec.unused();
    expect(list.map((x) => [x.line, x.call])).toEqual([[1, 0], [1, 1], [2, 0]]);
    expect(list[1].value).toBe(list[0].value);
    expect(list[2].value).toEqual(JSON.parse(other));
  });
});
