// The `overturn-fingerprint` command line (issue 6), run as users run it:
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
const jsonLines = (s: string) => s.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);

beforeAll(() => { dir = mkdtempSync(join(tmpdir(), "overturn-cli-")); });
afterAll(() => { rmSync(dir, { recursive: true, force: true }); });

// The bad-call detail that lists the call shapes (assembly/shapes.ts), from the shapes oracle.
const ACCEPTED = 'accepted: a recording line {"name", "args" | "argsJSON"}, or a tool call of OpenAI Chat Completions, ' +
  "OpenAI Responses, Anthropic Messages, Bedrock Converse, Gemini, MCP tools/call, Vercel AI SDK or LangChain";
const TICKET = 'tool_call\ncreate_ticket\n{"priority":"P0","title":"Login page returns 500"}';
const DOCS = 'tool_call\nsearch_docs\n{"limit":10,"query":"refund policy"}';

describe("fingerprint (the main job)", () => {
  // The "<hex>  <name>" lines and their --json records, help texts, --version: vectors/cli.vectors.json.
  it("reads standard input with -", () => {
    const r = run(["-"], '{"name":"t","args":{"a":" 1 "}}\n');
    expect(r.stdout).toBe(`${sha('tool_call\nt\n{"a":"1"}')}  t\n`);
  });

  it("skips a BOM, CRLF and blank lines; reads a last line without newline", () => {
    const p = file("crlf.jsonl", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('{"name":"a","args":1}\r\n\r\n  \t\n{"name":"b","argsJSON":"[1.0]"}')]));
    const r = run([p]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${sha("tool_call\na\n1")}  a\n${sha("tool_call\nb\n[1]")}  b\n`);
  });

  it("reports bad lines with number and reason, goes on, and exits 1", () => {
    const p = file("bad.jsonl", Buffer.concat([
      Buffer.from('{"name":"ok1","args":1}\n'),
      Buffer.from('{"name":"x","args":[1,}\n'),
      Buffer.from('[1]\n'),
      Buffer.from('{"args":1}\n'),
      Buffer.from('{"name":"x","argsJSON":"{\\"a\\" 1}"}\n'),
      Buffer.from('{"name":"x","args":NaN}\n'),
      Buffer.from('{"name":"x","matchOn":"a"}\n'),
      Buffer.from('{"name":"","args":1}\n'),
      Buffer.from([0x7b, 0xff, 0x7d, 0x0a]),
      Buffer.from('{"name":"ok2","args":2}\n'),
    ]));
    const r = run([p]);
    expect(r.code).toBe(1);
    // Line 6: the core reads recording lines with the one JSON reader, so a
    // bare NaN is null there as in any JSON text (D12).
    expect(r.stdout).toBe(`${sha("tool_call\nok1\n1")}  ok1\n${sha("tool_call\nx\nnull")}  x\n${sha("tool_call\nok2\n2")}  ok2\n`);
    expect(r.stderr.split("\n")).toEqual([
      `${p}:2: invalid JSON: unexpected character at byte 22`,
      `${p}:3: a call must be a JSON object`,
      `${p}:4: missing "name"; ${ACCEPTED}`,
      `${p}:5: argsJSON: invalid JSON: unexpected character at byte 5`,
      `${p}:7: "matchOn" must be an array of strings`,
      `${p}:8: invalid name: name must be a non-empty string without lone surrogates`,
      `${p}:9: invalid UTF-8`,
      "7 of 10 lines failed",
      "",
    ]);
    const j = jsonLines(run(["--json", p]).stdout);
    expect(j[1]).toEqual({ file: p, line: 2, error: "invalid JSON: unexpected character at byte 22", code: "unexpected-character" });
    expect(j[8]).toEqual({ file: p, line: 9, error: "invalid UTF-8", code: "invalid-utf8" });
  });

  it("reports a missing file and goes on with the others", () => {
    const r = run([join(dir, "nope.jsonl"), "examples/recording.jsonl"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`${join(dir, "nope.jsonl")}: no such file\n`);
    expect(r.stdout.split("\n")).toHaveLength(7);
  });
});

describe("explain", () => {
  it("shows selection and canonical text", () => {
    const r = run(["explain", "examples/recording.jsonl"]);
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n").slice(0, 4)).toEqual([
      `examples/recording.jsonl:1  create_ticket  ${sha(TICKET)}`,
      "  kind       tool_call",
      '  selection  matchOn ["title","priority"]: kept ["priority","title"], dropped ["requestId","tags"]',
      '  canonical  {"priority":"P0","title":"Login page returns 500"}',
    ]);
    expect(r.stdout).toContain('  selection  ignoreArgs ["ts"]: kept ["city","units"], dropped ["ts"]\n  canonical  {"city":"Zürich","units":"metric"}\n');
  });

  it("--json gives the whole explanation", () => {
    const [first] = jsonLines(run(["explain", "--json", "examples/recording.jsonl"]).stdout);
    expect(first).toEqual({
      file: "examples/recording.jsonl", line: 1, version: 1, kind: "tool_call", name: "create_ticket",
      selected: { kept: ["priority", "title"], dropped: ["requestId", "tags"], missing: [] },
      canonical: '{"priority":"P0","title":"Login page returns 500"}', preimage: TICKET, fingerprint: sha(TICKET),
    });
  });
});

describe("verify", () => {
  const good = sha('tool_call\nt\n{"a":"x"}');
  const lines = [
    JSON.stringify({ name: "t", args: { a: " x " }, fingerprint: good }),
    JSON.stringify({ name: "t", args: { a: "y" }, fingerprint: good }),
    JSON.stringify({ name: "t", args: { a: "z" } }),
  ];

  it("passes a recording whose fingerprints still match", () => {
    const r = run(["verify", file("ok.jsonl", lines[0] + "\n" + lines[2] + "\n")]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('verify: 1 match, 0 differ, 1 without "fingerprint", 0 failed\n');
  });

  it("reports lines that no longer match, and exits 1", () => {
    const p = file("drift.jsonl", lines.join("\n") + "\n");
    const r = run(["verify", p]);
    expect(r.code).toBe(1);
    const now = sha('tool_call\nt\n{"a":"y"}');
    expect(r.stdout).toBe(`${p}:2  t  recorded ${good}  computed ${now}\n  canonical  {"a":"y"}\n` +
      'verify: 1 match, 1 differ, 1 without "fingerprint", 0 failed\n');
    expect(jsonLines(run(["verify", "--json", p]).stdout)).toEqual([
      { file: p, line: 2, name: "t", recorded: good, fingerprint: now, canonical: '{"a":"y"}' },
      { summary: { match: 1, differ: 1, unrecorded: 1, failed: 0 } },
    ]);
  });

  it("rejects a stored fingerprint that is not 64 lowercase hex digits", () => {
    const r = run(["verify", "-"], JSON.stringify({ name: "t", fingerprint: good.toUpperCase() }) + "\n");
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('-:1: "fingerprint" must be 64 lowercase hex digits\n1 of 1 lines failed\n' +
      'verify: nothing to verify (no line has a "fingerprint")\n');
  });
});

describe("why", () => {
  it("answers the worked example of docs/diagnostics.md", () => {
    const r = run(["why", "examples/unseen-call.json", "--in", "examples/recording.jsonl"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    const unseen = 'tool_call\ncreate_ticket\n{"priority":"P1","title":"Login page returns 500"}';
    expect(r.stdout).toBe([
      `call       create_ticket  ${sha(unseen)}`,
      '           {"priority":"P1","title":"Login page returns 500"}',
      "unseen     no recorded call has this fingerprint (recorded calls of create_ticket: 2)",
      `nearest    examples/recording.jsonl:1  ${sha(TICKET)}`,
      '           {"priority":"P0","title":"Login page returns 500"}',
      "changes    1 (before: the recording, after: this call)",
      '  changed  priority: "P0" → "P1"',
      "",
    ].join("\n"));
  });

  it("answers the noise example of docs/diagnostics.md", () => {
    const r = run(["why", "examples/noisy-call.json", "--in", "examples/recording.jsonl"]);
    expect(r.stdout.split("\n").slice(2)).toEqual([
      "unseen     no recorded call has this fingerprint (recorded calls of search_docs: 2)",
      `nearest    examples/recording.jsonl:3  ${sha(DOCS)}`,
      '           {"limit":10,"query":"refund policy"}',
      "changes    1 (before: the recording, after: this call)",
      '  added    requestId: "req-5d1e"',
      "hint       if a changed key is noise (a request id, a timestamp, a cursor), leave it out with ignoreArgs or matchOn",
      "",
    ]);
  });

  it("says seen when a recorded call has the fingerprint", () => {
    const r = run(["why", "-", "--in", "examples/recording.jsonl"], '{"name":"search_docs","args":{"query":"refund policy ","limit":10.0}}');
    expect(r.stdout).toContain("seen       examples/recording.jsonl:3 has this fingerprint\n");
  });

  it("shows added keys, a note on differing selection and the noise hint", () => {
    const call = file("noisy.json", JSON.stringify({ name: "get_weather", args: { city: "Zürich", units: "metric", ts: 1, lang: "de" } }, null, 2));
    const r = run(["why", call, "--in=examples/recording.jsonl"]);
    expect(r.stdout.split("\n").slice(5)).toEqual([
      "changes    2 (before: the recording, after: this call)",
      '  added    lang: "de"',
      "  added    ts: 1",
      'note       selection differs: this call has no selection, the recording ignoreArgs ["ts"]',
      "hint       if a changed key is noise (a request id, a timestamp, a cursor), leave it out with ignoreArgs or matchOn",
      "",
    ]);
  });

  it("says so when no call of that name was recorded; --json", () => {
    expect(run(["why", "-", "--in", "examples/recording.jsonl"], '{"name":"nope"}').stdout)
      .toContain('unseen     no recorded call of "nope" (kind tool_call)\n');
    const [j] = jsonLines(run(["why", "--json", "examples/unseen-call.json", "--in", "examples/recording.jsonl"]).stdout);
    expect(j.seen).toBe(false);
    expect(j.candidates).toBe(2);
    expect((j.nearest as Record<string, unknown>).diff).toEqual({
      same: false, changes: [{ path: "priority", kind: "changed", before: '"P0"', after: '"P1"' }],
    });
  });

  it("usage errors exit 2; an unreadable call exits 1", () => {
    expect(run(["why", "examples/unseen-call.json"]).code).toBe(2);
    expect(run(["why", "-", "--in", "-"], "{}").code).toBe(2);
    expect(run(["explain", "--in", "x"]).code).toBe(2);
    const r = run(["why", "-", "--in", "examples/recording.jsonl"], "{nope");
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("-: invalid JSON: unexpected character at byte 1\n");
  });
});

describe("help and arguments", () => {
  it("rejects an unknown option", () => {
    expect(run(["--bogus"]).stderr).toBe("error: unknown option --bogus (see --help)\n");
    expect(run(["--bogus"]).code).toBe(2);
  });

  it("treats a file after -- as a file even when named like a command", () => {
    const r = run(["--", "explain"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("explain: no such file\n");
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
