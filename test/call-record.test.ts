// The call the pipeline read last is one record (assembly/pipeline/callnodes.ts)
// that outlives its request; a request that reads no call must not report
// what an earlier call's tool declaration chose. Raw requests to the
// diagnostics module, as a host sends them (entry/fingerprint.ts, abi.ts).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  F_CALL, F_DIGEST, F_EXPLAIN, F_STRING_INPUT, F_TOOLS, HEADER_WORDS, RESULT_STATUS, RESULT_TEXT_LEN, RESULT_TEXT_PTR,
} from "../src/_abi.gen";

const bytes = readFileSync(new URL("../build/engine.wasm", import.meta.url));

type Core = { memory: WebAssembly.Memory; reserve(n: number): number; run(n: number): number; result(): number };

/** Sends header + parts (kind, name, matchOn, ignoreArgs, args); returns the status and the text. */
function request(core: Core, flags: number, parts: string[]): { status: number; text: string } {
  const enc = parts.map((p) => new TextEncoder().encode(p));
  const len = HEADER_WORDS * 4 + enc.reduce((n, p) => n + p.length, 0);
  const at = core.reserve(len);
  const view = new DataView(core.memory.buffer);
  view.setUint32(at, flags, true);
  enc.forEach((p, i) => view.setUint32(at + 4 + 4 * i, p.length, true));
  let o = at + HEADER_WORDS * 4;
  for (const p of enc) { new Uint8Array(core.memory.buffer, o, p.length).set(p); o += p.length; }
  const status = core.run(len);
  const r = new DataView(core.memory.buffer);
  const res = core.result();
  expect(r.getInt32(res + RESULT_STATUS, true)).toBe(status);
  const text = new TextDecoder().decode(new Uint8Array(core.memory.buffer,
    r.getUint32(res + RESULT_TEXT_PTR, true), r.getUint32(res + RESULT_TEXT_LEN, true)));
  return { status, text };
}

describe("the last call's record", () => {
  it("an explanation of args alone names no declaration after a call whose tool declared its selection", () => {
    const core = new WebAssembly.Instance(new WebAssembly.Module(bytes), {}).exports as unknown as Core;
    const tools = JSON.stringify({ t: { matchOn: ["a"] } });
    const call = request(core, F_CALL | F_EXPLAIN | F_DIGEST | F_TOOLS | F_STRING_INPUT,
      ["", "", "", tools, JSON.stringify({ name: "t", args: { a: 1, b: 2 } })]);
    expect(call.status).toBe(0);
    expect(JSON.parse(call.text.slice(call.text.indexOf("{"))).declared).toBe("tools");
    const plain = request(core, F_EXPLAIN | F_DIGEST | F_STRING_INPUT, ['"tool_call"', '"t"', "", "", JSON.stringify({ a: 1, b: 2 })]);
    expect(plain.status).toBe(0);
    const record = JSON.parse(plain.text.slice(plain.text.indexOf("{")));
    expect(record.name).toBe("t");
    expect(record).not.toHaveProperty("declared");
  });
});
