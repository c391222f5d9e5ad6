// The `overturn-fingerprint` command line, run as users run it:
// `node dist/cli.js` on files in a temporary directory and on standard input.
// Oracles: node:crypto (sha256 of hand-written preimages) and hand-written
// expected output; the worked example of docs/diagnostics.md is pinned here.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(__dirname, "..");
const CLI = join(ROOT, "dist", "cli.js");
const sha = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

let dir = "";
const file = (name: string, content: string | Uint8Array) => {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
};

interface Run { code: number | null; stdout: string; stderr: string }
function run(args: string[], input?: string | Uint8Array, nodeFlags: string[] = []): Run {
  const r = spawnSync(process.execPath, [...nodeFlags, CLI, ...args], { cwd: ROOT, input, encoding: "utf8", maxBuffer: 1 << 28 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => { dir = mkdtempSync(join(tmpdir(), "overturn-cli-")); });
afterAll(() => { rmSync(dir, { recursive: true, force: true }); });


// What the vectors (vectors/cli.vectors.json, run on both CLIs by
// test/cli-vectors.test.ts) cannot show: standard input, a small heap,
// lines answered while stdin is open, a closed pipe.
describe("host transport", () => {
  it("reads standard input with -", () => {
    const r = run(["-"], '{"name":"t","args":{"a":" 1 "}}\n');
    expect(r.stdout).toBe(`${sha('tool_call\nt\n{"a":"1"}')}  t\n`);
  });

  it("why: a call on standard input that is not JSON exits 1 and says where", () => {
    const r = run(["why", "-", "--in", "examples/recording.jsonl"], "{nope");
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('-: invalid JSON: unexpected character at byte 1 (line 1, column 2, "n")\n');
  });

  it("stops quietly when the reader leaves (EPIPE)", async () => {
    const p = file("pipe.jsonl", Array.from({ length: 200_000 }, (_, i) => `{"name":"t","args":${i}}\n`).join(""));
    const child = spawn(process.execPath, [CLI, "--jobs", "1", p], { cwd: ROOT });
    let err = "";
    child.stderr.on("data", (d: Buffer) => { err += d.toString(); });
    await new Promise<void>((res) => child.stdout.once("data", () => { child.stdout.destroy(); res(); }));
    const code = await new Promise((res) => child.on("close", res));
    expect(err).toBe("");
    expect(code).toBe(0);
  });
});

describe("streaming", () => {
  it("fingerprints a ~5 MB recording in a heap too small to hold it", () => {
    // With the old space capped at 8 MB, reading the file whole (a 5 MB
    // string, its lines and the output) runs out of memory: the control
    // below proves that, so passing shows the CLI keeps memory constant.
    const parts: string[] = [];
    let size = 0, n = 0;
    while (size < 5 * 1024 * 1024) {
      const l = JSON.stringify({ name: `tool_${n % 7}`, args: { q: ` query ${n} `, page: n % 13, tags: ["a", String(n % 5)], requestId: `req-${n}` }, ignoreArgs: ["requestId"] }) + "\n";
      parts.push(l);
      size += l.length;
      n++;
    }
    const p = file("big.jsonl", parts.join(""));
    parts.length = 0;
    const cap = ["--max-old-space-size=8"];
    const r = run([p], undefined, cap);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(""); // no progress: stderr is not a terminal
    const out = r.stdout.split("\n");
    expect(out).toHaveLength(n + 1);
    expect(out[n - 1]).toBe(`${sha(`tool_call\ntool_${(n - 1) % 7}\n{"page":${(n - 1) % 13},"q":"query ${n - 1}","tags":["a","${(n - 1) % 5}"]}`)}  tool_${(n - 1) % 7}`);
    const control = spawnSync(process.execPath, [...cap, "-e",
      `const l = require("fs").readFileSync(${JSON.stringify(p)}, "utf8").split("\\n"); console.log(l.map((x) => x + " ".repeat(66)).length)`]);
    expect(control.status).not.toBe(0);
  });

  it("answers each line while standard input is still open", async () => {
    const child = spawn(process.execPath, [CLI, "-"], { cwd: ROOT });
    let out = "";
    const waitFor = (lines: number) => new Promise<void>((res, rej) => {
      const t = setTimeout(() => rej(new Error(`no output line ${lines} while stdin was open; got ${JSON.stringify(out)}`)), 10_000);
      const check = () => { if (out.split("\n").length > lines) { clearTimeout(t); child.stdout.off("data", onData); res(); } };
      const onData = (d: Buffer) => { out += d.toString(); check(); };
      child.stdout.on("data", onData);
      check();
    });
    for (let i = 0; i < 3; i++) {
      child.stdin.write(`{"name":"t","args":${i}}\n`);
      await waitFor(i + 1);
    }
    child.stdin.end();
    const code = await new Promise((res) => child.on("close", res));
    expect(code).toBe(0);
    expect(out).toBe([0, 1, 2].map((i) => `${sha(`tool_call\nt\n${i}`)}  t\n`).join(""));
  });
});

// The engine writes each fingerprint line with its digest left
// blank and hashes the preimages four at a time (assembly/cli/digests.ts).
describe("deferred digests", () => {
  it("every line's digest in its place, lengths 0..5000 mixed with bad lines and calls that fail", () => {
    const lines: string[] = [], want: string[] = [], errs: number[] = [];
    for (let i = 0; i < 700; i++) {
      // Preimages from 1 to 4 blocks, and some above the 4 KiB that are hashed at once.
      const s = "x".repeat(i % 97 === 0 ? 4500 + i : (i * 37) % 300);
      if (i % 11 === 5) { lines.push('{"name":"x","args":[1,}'); errs.push(i + 1); continue; }
      lines.push(JSON.stringify({ name: `t${i % 3}`, args: { s, n: i }, ignoreArgs: ["n"] }));
      want.push(`${sha(`tool_call\nt${i % 3}\n{"s":"${s}"}`)}  t${i % 3}\n`);
    }
    const p = file("deferred.jsonl", lines.join("\n") + "\n");
    for (const jobs of ["1", "2"]) {
      const r = run(["--jobs", jobs, p]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe(want.join(""));
      expect(r.stderr.split("\n").filter((l) => l.endsWith('"}")')).map((l) => Number(l.split(":")[1]))).toEqual(errs);
    }
  });

  it("a message whose second call fails prints none of its calls, and the output after it is intact", () => {
    // The first call's line was appended to stdout, then rolled back: the
    // stream's length must be rolled back with it (garbage before the fix).
    const msg = { role: "assistant", tool_calls: [
      { id: "c1", type: "function", function: { name: "b", arguments: '{"x":1}' } },
      { id: "c2", type: "function", function: { name: "c", arguments: '{"tz":' } }] };
    const p = file("rollback.jsonl", [JSON.stringify({ name: "a", args: { q: 1 } }), JSON.stringify(msg), '{"name":"x","args":[1,}',
      JSON.stringify({ name: "d", args: { q: 2 } })].join("\n") + "\n");
    const r = run([p]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(`${sha('tool_call\na\n{"q":1}')}  a\n${sha('tool_call\nd\n{"q":2}')}  d\n`);
    const err = r.stderr.split("\n");
    expect(err).toHaveLength(4);
    expect(err[0].startsWith(`${p}:2: `)).toBe(true);
    expect(err[1].startsWith(`${p}:3: invalid JSON`)).toBe(true);
    expect(err.slice(2)).toEqual(["2 of 4 lines failed", ""]);
  });
});
