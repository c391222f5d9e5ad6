// The node:http example server (examples/server.mjs) under a mixed load on
// loopback: small calls, large calls, over-limit and malformed
// bodies from several clients at once. Every answer is checked against the
// oracle, limits give 4xx with their code, the server keeps answering, and
// its RSS after the run stays within a stated bound of its RSS before.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fingerprintOfText } from "./reference/contract.mjs";

const MAX_INPUT_BYTES = 12 * 1024 * 1024;
const MAX_DEPTH = 64;
/** RSS may grow this much over a run (V8 heap and allocator slack); the core's own memory is given back. */
const RSS_BOUND_MB = 80;

let server: ChildProcess;
let port = 0;

function rssMB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

async function post(path: string, body: string | Uint8Array): Promise<{ status: number; json: Record<string, string> }> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { method: "POST", body });
  return { status: res.status, json: await res.json() as Record<string, string> };
}

beforeAll(async () => {
  server = spawn(process.execPath, ["--expose-gc", "examples/server.mjs", "0"], {
    env: { ...process.env, MAX_INPUT_BYTES: String(MAX_INPUT_BYTES), MAX_DEPTH: String(MAX_DEPTH) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  port = await new Promise<number>((resolve, reject) => {
    server.stdout!.on("data", (d: Buffer) => { const m = /listening on (\d+)/.exec(String(d)); if (m) resolve(Number(m[1])); });
    server.on("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
});

afterAll(() => { server?.kill(); });

function largeArgs(mb: number, seed: number): string {
  const rows = [];
  for (let i = 0; rows.length * 60 < mb * 1024 * 1024; i++) rows.push({ id: `r-${seed}-${i}`, v: i * 0.5, t: " text " });
  return JSON.stringify({ rows, seed });
}

describe("example server (node:http) with limits", () => {
  it("answers a mixed load from several clients correctly, and gives memory back", async () => {
    // Warm up, then take the baseline.
    await post("/fingerprint/warm", '{"a":1}');
    const before = rssMB(server.pid!);

    const small = Array.from({ length: 200 }, (_, i) => JSON.stringify({ q: ` query ${i} `, n: i, x: null }));
    const large = [largeArgs(6, 1), largeArgs(10, 2)];
    const tooBig = "[" + "1,".repeat(MAX_INPUT_BYTES / 2) + "1]";
    const tooDeep = "[".repeat(MAX_DEPTH + 1) + "]".repeat(MAX_DEPTH + 1);
    const malformed = ['{"a":', "[1,]", "nul", '{"a":1}x', "\u0000"];

    type Job = { path: string; body: string; expect: (r: { status: number; json: Record<string, string> }) => void };
    const jobs: Job[] = [];
    for (const body of small) {
      const want = fingerprintOfText({ name: "search", argsJSON: body, ignoreArgs: ["x"] }).fingerprint;
      jobs.push({ path: "/fingerprint/search?ignoreArgs=x", body, expect: (r) => { expect(r).toEqual({ status: 200, json: { fingerprint: want } }); } });
    }
    for (const body of large) {
      const want = fingerprintOfText({ name: "bulk", argsJSON: body, matchOn: ["rows", "seed"] }).fingerprint;
      jobs.push({ path: "/fingerprint/bulk?matchOn=rows,seed", body, expect: (r) => { expect(r).toEqual({ status: 200, json: { fingerprint: want } }); } });
    }
    jobs.push({ path: "/fingerprint/big", body: tooBig, expect: (r) => { expect(r.status).toBe(413); expect(r.json.error).toBe("limit-exceeded"); } });
    jobs.push({ path: "/fingerprint/deep", body: tooDeep, expect: (r) => {
      expect(r.status).toBe(413);
      expect(r.json).toMatchObject({ error: "limit-exceeded" });
      expect(r.json.message).toContain(`maxDepth is ${MAX_DEPTH}`);
    } });
    for (const body of malformed) {
      jobs.push({ path: "/fingerprint/bad", body, expect: (r) => { expect(r.status).toBe(400); expect(r.json.error).toMatch(/^[a-z-]+$/); } });
    }

    // Four clients take jobs from one queue, interleaving small, large and bad requests.
    const queue = jobs.map((j, i) => jobs[(i * 37) % jobs.length]);
    let next = 0;
    const client = async () => {
      while (next < queue.length) {
        const job = queue[next++];
        job.expect(await post(job.path, job.body));
      }
    };
    await Promise.all([client(), client(), client(), client()]);

    // Still answering, with the right answer.
    const r = await post("/fingerprint/after", '{"ok":true}');
    expect(r).toEqual({ status: 200, json: { fingerprint: fingerprintOfText({ name: "after", argsJSON: '{"ok":true}' }).fingerprint } });
    await new Promise((res) => setTimeout(res, 300));
    const after = rssMB(server.pid!);
    expect(after - before).toBeLessThan(RSS_BOUND_MB);
  }, 120_000);

  it("refuses a name that is not percent-encoded UTF-8 with a 400, and reads one that is", async () => {
    for (const name of ["%ff", "%zz", "caf%C3", "%ED%A0%80", "a%2"]) {
      const r = await post(`/fingerprint/${name}`, '{"a":1}');
      expect(r.status, name).toBe(400);
      expect(r.json, name).toEqual({ error: "bad-name", message: "the name in the path is not valid percent-encoded UTF-8" });
    }
    const r = await post("/fingerprint/caf%C3%A9%20%F0%9F%98%80", '{"a":1}');
    expect(r).toEqual({ status: 200, json: { fingerprint: fingerprintOfText({ name: "café 😀", argsJSON: '{"a":1}' }).fingerprint } });
  });

  it("answers 200 clients connecting at once, each on a new connection (1,000 requests)", async () => {
    const CLIENTS = 200, ROUNDS = 5;
    const once = (i: number) => new Promise<{ status: number; body: string }>((resolve, reject) => {
      const body = `{"i":${i}}`;
      const req = request({ host: "127.0.0.1", port, method: "POST", path: "/fingerprint/burst", agent: false,
        headers: { "content-length": Buffer.byteLength(body), connection: "close" } }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => { text += d; });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on("error", reject);
      req.end(body);
    });
    const failed: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const got = await Promise.allSettled(Array.from({ length: CLIENTS }, (_, k) => once(round * CLIENTS + k)));
      got.forEach((g, k) => {
        const i = round * CLIENTS + k;
        const want = JSON.stringify({ fingerprint: fingerprintOfText({ name: "burst", argsJSON: `{"i":${i}}` }).fingerprint });
        if (g.status === "rejected") failed.push(`${i}: ${String(g.reason)}`);
        else if (g.value.status !== 200 || g.value.body !== want) failed.push(`${i}: ${g.value.status} ${g.value.body}`);
      });
    }
    expect(failed).toEqual([]);
  }, 120_000);
});
