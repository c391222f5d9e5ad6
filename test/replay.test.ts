// Replay's transport edges (the answers themselves: test/replay-vectors.test.ts).
// Expected values from V8 (JSON.parse of the recorded line) and the
// reference fingerprint (test/reference/contract.mjs), never the core.
import { describe, expect, it } from "vitest";
import { fingerprintOf } from "./reference/contract.mjs";
import { FingerprintError, Recording } from "../src/index";
import { F_STRING_INPUT, LOAD_LAST, R_ANSWER, R_LOAD, R_UNUSED, U_UTF16 } from "../src/_abi.gen";
import { newEngineInstance } from "../src/_engine";
import type { Instance } from "../src/_instance";
import { buildValue } from "../src/_json_value";

const line = (i: number) => JSON.stringify({ name: "t", args: { i }, result: i });

/** One replay request as the Recording makes it (the generated table's "replay"): the core's answer, split at its first "\n". */
function replay(i: Instance, op: number, argument: number, args: string, held = 0): [Record<string, unknown>, Uint8Array] {
  i.limits();
  i.request("replay", { kind: { op, argument, held, unit: U_UTF16 }, args }, F_STRING_INPUT);
  const out = i.textBytes().slice(), nl = out.indexOf(10);
  return [JSON.parse(new TextDecoder().decode(nl < 0 ? out : out.subarray(0, nl))), nl < 0 ? new Uint8Array(0) : out.subarray(nl + 1)];
}

describe("Recording", () => {
  it("keeps its index when a large call makes the core's input region grow", () => {
    const rec = Recording.load(Array.from({ length: 1000 }, (_, i) => line(i)).join("\n"));
    // Another tool: no nearest to look for (3 MB > the 1.3 MB the load left the region at).
    const big = { name: "u", args: { pad: "x".repeat(3 << 20) } };
    const miss = rec.answer(big);
    expect(miss.hit).toBe(false);
    expect(miss.fingerprint).toBe(fingerprintOf({ name: "u", args: big.args }).fingerprint);
    // Every recorded call is still found, with its line, after the region moved.
    for (const i of [0, 1, 500, 999]) {
      const a = rec.answer({ name: "t", args: { i } });
      expect(a.hit && a.value).toEqual(JSON.parse(line(i)));
      expect(a.hit && a.recordedLine).toBe(i + 1);
    }
    expect(rec.unused().length).toBe(996);
  });

  it("loads a line longer than a load chunk (1 MiB), cut anywhere", () => {
    const long = JSON.stringify({ name: "t", args: { s: "y".repeat((1 << 20) + 17) }, result: "long" });
    const bytes = new TextEncoder().encode(`${line(1)}\n${long}\n${line(2)}`);
    const rec = Recording.load([bytes.subarray(0, 100), bytes.subarray(100, (1 << 20) + 5), bytes.subarray((1 << 20) + 5)]);
    expect(rec.size).toBe(3);
    const a = rec.answer({ name: "t", args: { s: "y".repeat((1 << 20) + 17) } });
    expect(a.hit && a.value).toEqual(JSON.parse(long));
    expect(a.hit && a.recordedLine).toBe(2);
  });

  it("streams from an async iterable (a file stream's chunks)", async () => {
    async function* chunks() { yield new TextEncoder().encode(line(7) + "\n" + line(8).slice(0, 5)); yield new TextEncoder().encode(line(8).slice(5)); }
    const rec = await Recording.loadAsync(chunks());
    expect(rec.size).toBe(2);
    expect(rec.answer(JSON.stringify({ name: "t", args: { i: 8 } })).hit).toBe(true);
  });

  it("refuses what is not a recording or a call, and keeps working", () => {
    expect(() => Recording.load(42 as never)).toThrow(FingerprintError);
    const rec = Recording.load(line(1));
    expect(() => rec.answer(42 as never)).toThrow(FingerprintError);
    expect(() => rec.answer("{")).toThrow(FingerprintError);
    expect(rec.answer({ name: "t", args: { i: 1 } }).hit).toBe(true);
  });
});

describe("Recording text with a lone surrogate", () => {
  it("is a bad line (not UTF-8), never a silently replaced character", () => {
    const rec = Recording.load(`${line(1)}\n{"name":"t","args":{"s":"\ud800"}}\n${line(2)}\n`);
    expect(rec.badLines.map((b) => [b.line, b.error.code])).toEqual([[2, "invalid-utf8"]]);
    expect(rec.size).toBe(2);
  });
});

// A recorded line is handed back as the caller's value: never a foreign exception.
describe("Recording's answers hand back any line the core read", () => {
  const deep = (n: number) => "[".repeat(n) + "]".repeat(n);

  it("a hit on a line nested 100,000 levels returns it", () => {
    const text = `{"name":"t","args":{"q":1},"result":${deep(100_000)}}`;
    const rec = Recording.load(text + "\n");
    const a = rec.answer({ name: "t", args: { q: 1 } });
    expect(a.hit).toBe(true);
    if (!a.hit) return;
    expect(a.text).toBe(text);
    // (JSON.stringify and toEqual recurse: the depth is walked here.)
    const depthOf = (value: unknown) => {
      let v = value, depth = 0;
      while (Array.isArray(v) && v.length === 1) { v = v[0]; depth++; }
      return Array.isArray(v) && v.length === 0 ? depth + 1 : -1;
    };
    expect(depthOf(a.value.result)).toBe(100_000);
    expect(Object.keys(a.value)).toEqual(["name", "args", "result"]);
    // unused() on a fresh recording: the same line, the same value.
    const [u] = Recording.load(text).unused();
    expect(u.text).toBe(text);
    expect(depthOf(u.value.result)).toBe(100_000);
  });

  it("bare NaN / Infinity / -Infinity (D12) come back as JavaScript's NaN and Infinity", () => {
    const text = '{"name":"t","args":{"q":1},"result":{"a":NaN,"b":[Infinity,-Infinity,1.5e3,-0],"c":"\\u00e9\\ud800x"}}';
    const rec = Recording.load(text);
    const [u] = rec.unused();
    const a = rec.answer({ name: "t", args: { q: 1 } });
    for (const value of [a.hit ? a.value : null, u.value]) {
      const r = (value as { result: { a: number; b: number[]; c: string } }).result;
      expect(r.a).toBeNaN();
      expect(r.b).toEqual([Infinity, -Infinity, 1500, -0]);
      expect(Object.is(r.b[3], -0)).toBe(Object.is(JSON.parse("-0"), -0));
      expect(r.c).toBe(JSON.parse('"\\u00e9\\ud800x"'));
    }
    // A miss's nearest line too.
    const miss = rec.answer({ name: "t", args: { q: 2 } });
    expect(!miss.hit && (miss.nearest?.value as { result: { a: number } }).result.a).toBeNaN();
  });

  it("reads every other line as JSON.parse does (keys, duplicates, __proto__, numbers, escapes)", () => {
    const lines = [
      '{"name":"t","args":{"q":1},"result":{"__proto__":{"x":1},"a":1,"b":2,"a":3}}',
      '{ "name" : "t" , "args" : { "q" : 2 } , "r" : [ 1E2 , 0.1 , 12345678901234567890 , true , false , null , "" , "\\"\\\\\\/\\b\\f\\n\\r\\t" , {} , [ ] ] }',
      '{"name":"t","args":{"q":3},"😀":"😀é\\ud83d\\ude00","k\\u0000":{"":[[{"y":[]}]]}}',
    ];
    const rec = Recording.load(lines.join("\n"));
    lines.forEach((line, i) => {
      const a = rec.answer({ name: "t", args: { q: i + 1 } });
      expect(a.hit && a.value).toStrictEqual(JSON.parse(line));
      if (a.hit) expect(Object.keys(a.value)).toEqual(Object.keys(JSON.parse(line)));
    });
    const first = JSON.parse(lines[0]).result;
    expect(Object.getPrototypeOf(first)).toBe(Object.prototype);
  });
});

describe("Recording.unused() on a line of many calls", () => {
  // One message holding n calls (OpenAI Chat Completions' tool_calls).
  const message = (n: number) => JSON.stringify({
    role: "assistant",
    tool_calls: Array.from({ length: n }, (_, i) => ({ id: `c${i}`, type: "function", function: { name: "t", arguments: `{"i":${i}}` } })),
  });

  it("gives the line's text and value once, shared by its calls", () => {
    const rec = Recording.load(`${message(3)}\n${message(2)}`);
    const u = rec.unused();
    expect(u.map((x) => [x.line, x.call])).toEqual([[1, 0], [1, 1], [1, 2], [2, 0], [2, 1]]);
    expect(u[0].text).toBe(message(3));
    expect(u[3].value).toEqual(JSON.parse(message(2)));
    expect(u[1].value).toBe(u[0].value);
    expect(u[2].text).toBe(u[0].text);
    expect(u[3].value).not.toBe(u[0].value);
  });

  it("the core's answer grows linearly with the calls of one line (n, 2n, 4n)", () => {
    const size = (n: number) => {
      const i = newEngineInstance();
      replay(i, R_LOAD, LOAD_LAST, message(n));
      i.request("replay", { kind: { op: R_UNUSED, argument: 0, held: 0, unit: U_UTF16 }, args: "" });
      return i.textBytes().length;
    };
    const [a, b, c] = [size(250), size(500), size(1000)];
    // Linear: doubling the calls doubles the answer (a copy of the line per call made it 4x).
    expect(b / a).toBeLessThan(2.5);
    expect(c / b).toBeLessThan(2.5);
  });

  it("its calls answered in order send the line once: the answers' bytes grow linearly (n, 2n, 4n)", () => {
    const size = (n: number) => {
      const i = newEngineInstance();
      replay(i, R_LOAD, LOAD_LAST, message(n));
      let total = 0;
      for (let k = 0; k < n; k++) {
        const call = JSON.stringify({ name: "t", args: { i: k } });
        const [record, rest] = replay(i, R_ANSWER, 0, call, k > 0 ? 1 : 0);
        expect(record).toMatchObject({ hit: true, line: 1, call: k });
        total += JSON.stringify(record).length + rest.length;
      }
      return total;
    };
    const [a, b, c] = [size(250), size(500), size(1000)];
    expect(b / a).toBeLessThan(2.5);
    expect(c / b).toBeLessThan(2.5);
  });
});

describe("Recording's transport: the replay request (abi.ts F_REPLAY)", () => {
  const call = (i: number) => JSON.stringify({ name: "t", args: { i } });
  const items = (b: Uint8Array) => new Uint32Array(b.slice(4, 4 + new DataView(b.buffer, b.byteOffset).getUint32(0, true)).buffer);

  it("an answer brings its recorded line's text and items in one request", () => {
    const i = newEngineInstance();
    replay(i, R_LOAD, LOAD_LAST, `${line(1)}\n{"name":"t","args":{"i":2},"r":"é😀"}\n`);
    const [record, rest] = replay(i, R_ANSWER, 0, call(2));
    const text = '{"name":"t","args":{"i":2},"r":"é😀"}';
    expect(record).toMatchObject({ hit: true, line: 2, call: 0, text });
    // Items in UTF-16 positions: the value JSON.parse makes of the line (V8 as the oracle).
    expect(buildValue(text, items(rest))).toEqual(JSON.parse(text));
  });

  it("leaves out the line it last sent only when the host says it built it, and never after a failure", () => {
    const i = newEngineInstance();
    replay(i, R_LOAD, LOAD_LAST, `${line(1)}\n${line(2)}\n`);
    expect(replay(i, R_ANSWER, 0, call(1), 1)[0].text).toBe(line(1)); // "held", but nothing was sent yet
    expect(replay(i, R_ANSWER, 0, call(1), 1)[0]).not.toHaveProperty("nearest.text"); // a miss's nearest: line 1 again
    expect(replay(i, R_ANSWER, 0, call(2), 1)[0].text).toBe(line(2)); // another line: sent
    expect(replay(i, R_ANSWER, 0, call(2), 0)[0].nearest).toHaveProperty("text", line(2)); // the host built none: sent again
    expect(() => replay(i, R_ANSWER, 0, "{", 1)).toThrow(FingerprintError);
    expect(replay(i, R_ANSWER, 0, call(2), 1)[0].nearest).toHaveProperty("text", line(2)); // after a failed answer: sent again
    const [same, rest] = replay(i, R_ANSWER, 0, call(2), 1); // the same line, built: neither text nor items
    expect(same.nearest).toEqual({ line: 2, call: 0 });
    expect(rest.length).toBe(0);
  });

  it("unused() brings each line's items after the list, one request for all", () => {
    const rec = Recording.load([line(1), line(2), line(3)].join("\n"));
    rec.answer(line(2));
    expect(rec.unused().map((u) => u.value)).toEqual([JSON.parse(line(1)), JSON.parse(line(3))]);
  });
});
