// A message of n Chat Completions tool calls (t0..t6, args {x: i, v}), for the many-calls tests.
import { join, resolve } from "node:path";

export const CLI = join(resolve(__dirname, "..", ".."), "dist", "cli.js");

export function message(n: number, v = 1): string {
  const calls = Array.from({ length: n }, (_, i) => ({
    id: `call_${i}`, type: "function", function: { name: `t${i % 7}`, arguments: JSON.stringify({ x: i, v }) },
  }));
  return JSON.stringify({ role: "assistant", tool_calls: calls });
}
