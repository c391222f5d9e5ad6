/**
 * `overturn-fingerprint`: a thin shell over the core's CLI engine
 * (assembly/cli/, through cliStep). The core reads the arguments and makes
 * the plan (cli/plan.ts: which files, in which step, how many workers and how
 * they share the chunks), splits and reads the lines, fingerprints and
 * formats every byte printed, words read errors and the progress line, keeps
 * the counts and returns the exit status. This file only moves bytes: argv
 * and the sizes at its paths in, files and stdin in chunks of whole lines,
 * stdout/stderr out, the terminal, EPIPE, and the worker threads the plan
 * asks for (class Jobs), each with its own core instance.
 * The Python twin (`python -m overturn.fingerprint`) prints the same bytes.
 * @module
 */
import { statSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { once } from "node:events";
import { availableParallelism } from "node:os";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import "./index.js"; // the embedded modules (sets the engine module's source)
import { cliStep, type CliResult } from "./_engine.js";
import { version } from "../package.json";

const PROG = "overturn-fingerprint";
/** Room before each read chunk for the previous chunk's unfinished line (wholeLines). */
const HEAD = 1 << 16;
// Tests (test/cli-vectors.test.ts): the size from which workers start and chunks dealt in turn go to the core's
// plan; the chunks each job ran are written to TRACE at the end.
const TRACE = process.env.OVERTURN_FINGERPRINT_JOBS_TRACE;

/** The plan's records (assembly/cli/plan.ts): key=value, in order. */
type Plan = [string, string][];

/** argv as the core reads it: per argument the size found at that path ("-": none), ":", its bytes, NUL. */
function argvBytes(argv: string[]): Uint8Array {
  return Buffer.concat(argv.map((a) => Buffer.from(`${size(a) ?? "-"}:${a}\0`)));
}

/** What the core needs to know of this host for the plan (cli/plan.ts). */
function hostFacts(): string {
  const env = process.env, min = env.OVERTURN_FINGERPRINT_JOBS_MIN_BYTES;
  // A worker thread loads and compiles its own module: an "isolate".
  return `cores=${availableParallelism()}\0worker=isolate\0${min ? `min-bytes=${min}\0` : ""}` +
    `${env.OVERTURN_FINGERPRINT_JOBS_DEAL === "1" ? "deal=1\0" : ""}`;
}

function size(file: string): number | undefined {
  try { return statSync(file).size; } catch { return undefined; }
}

/** The name of a read error (ENOENT), worded by the core; "-" when it has none. */
const errName = (err: unknown) => (err as { code?: string }).code ?? "-";

// --- output ------------------------------------------------------------------------

let progress = false;
const started = Date.now();

async function write(r: CliResult): Promise<void> {
  if (progress && (r.err.length || (r.out.length && process.stdout.isTTY))) {
    const erase = cliStep("progress").err; // the progress line drawn, if any, goes first
    if (erase.length) process.stderr.write(erase);
  }
  if (r.err.length) process.stderr.write(r.err);
  if (r.out.length && !process.stdout.write(r.out)) await once(process.stdout, "drain");
}

function showProgress(file: string, total: number, bytes: number, lines: number): void {
  const p = cliStep("progress", file, "", `${bytes} ${total} ${lines} ${Date.now() - started}`).err;
  if (p.length) process.stderr.write(p);
}

// --- reading -----------------------------------------------------------------------

/** A file's bytes in chunks of whole lines of about `chunk` bytes (the last may lack its "\n"). */
async function* wholeLines(file: string, chunk: number): AsyncGenerator<Uint8Array> {
  let carry: Uint8Array = new Uint8Array(0);
  const split = function* (data: Uint8Array, last: boolean) {
    const cut = last ? data.length : data.lastIndexOf(10) + 1;
    carry = data.subarray(cut);
    if (cut > 0) yield data.subarray(0, cut);
  };
  if (file === "-") {
    for await (const piece of process.stdin as AsyncIterable<Buffer>) {
      yield* split(carry.length ? Buffer.concat([carry, piece]) : piece, false);
    }
  } else {
    // The next chunk is read while the core runs this one. Each buffer keeps HEAD bytes in front, where the last
    // chunk's unfinished line is put back before the new bytes: no concat per chunk. A buffer is never reused.
    const fh = await open(file, "r");
    const next = () => {
      const read = fh.read(Buffer.allocUnsafe(HEAD + chunk), HEAD, chunk, null);
      read.catch(() => undefined); // a failed read ahead throws where it is awaited, never as unhandled
      return read;
    };
    let pending = next();
    try {
      for (;;) {
        const { bytesRead, buffer } = await pending;
        if (bytesRead === 0) break;
        pending = next();
        const at = HEAD - carry.length;
        if (at < 0) yield* split(Buffer.concat([carry, buffer.subarray(HEAD, HEAD + bytesRead)]), false);
        else {
          buffer.set(carry, at);
          yield* split(buffer.subarray(at, HEAD + bytesRead), false);
        }
      }
    } finally {
      await pending.catch(() => undefined); // still in flight when the caller stopped early
      await fh.close();
    }
  }
  yield* split(carry, true);
}

async function readAll(file: string, chunk: number): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const c of wholeLines(file, chunk)) parts.push(c);
  return Buffer.concat(parts);
}

// --- jobs ----------------------------------------------------------------------------

/** The plan's worker policy (cli/plan.ts). */
interface Policy { workers: number; inflight: number; queue: number; takeback: boolean; deal: boolean }
/** A chunk sent to a worker: its flag is claimed by whoever runs it (1: the worker, 2: taken back). */
interface Sent { file: string; first: number; bytes: Uint8Array; flag: Int32Array; entry: Entry; resolve: (r: CliResult) => void }
interface Slot { w: Worker; ready: boolean; started: Promise<void>; sent: Sent[]; done: number; counts?: (r: CliResult) => void }
type Entry = { r?: CliResult; p?: Promise<CliResult> };
type Here = (file: string, first: number, bytes: Uint8Array) => CliResult;

/**
 * The main thread's core instance and the plan's worker threads (each with
 * its own). A chunk goes to a started worker holding fewer than `inflight`,
 * else the main thread runs it itself: workers start up while the main works,
 * and a slow core gets fewer chunks. Results are written in input order, at
 * most `queue` per job waiting, so memory stays constant.
 */
class Jobs {
  private readonly slots: Slot[];
  private readonly queue: Entry[] = [];
  private readonly limit: number;
  private dealt = 0;
  private chunks: number[] = [];
  /** Chunks run by the main thread (for the trace). */
  main = 0;

  constructor(private readonly policy: Policy, argv: Uint8Array, facts: string, tools: Uint8Array | null,
    private readonly sink: (r: CliResult) => Promise<void>) {
    this.limit = policy.queue * (policy.workers + 1);
    this.slots = Array.from({ length: policy.workers }, () => {
      const w = new Worker(new URL(import.meta.url), { workerData: { argv, facts, tools } });
      let started = () => {};
      const s: Slot = { w, ready: false, started: new Promise((r) => { started = r; }), sent: [], done: 0 };
      // The first message says the worker is planned; then it answers its chunks in order (null: taken
      // back), and last its counts.
      w.on("message", (r: CliResult | "ready" | null) => {
        if (r === "ready") { s.ready = true; started(); return; }
        const c = s.sent.shift();
        if (!c) { s.counts!(r!); return; }
        if (r) { s.done++; c.entry.r = r; }
        c.resolve(c.entry.r!);
      });
      w.on("error", (err) => { throw err; });
      return s;
    });
  }

  /** The worker to send the next chunk to, if any can take it now. */
  private async free(): Promise<Slot | undefined> {
    const max = this.policy.inflight;
    if (this.policy.deal) {
      await Promise.all(this.slots.map((s) => s.started));
      const s = this.slots[this.dealt++ % (this.slots.length + 1) - 1];
      while (s && s.sent.length >= max) await this.writeOldest();
      return s;
    }
    let best: Slot | undefined;
    for (const s of this.slots) if (s.ready && s.sent.length < max && (!best || s.sent.length < best.sent.length)) best = s;
    return best;
  }

  /** Runs a chunk here or in a worker; writes what is ready in order. Returns its line count. */
  async push(file: string, first: number, bytes: Uint8Array, here: Here): Promise<number> {
    const s = await this.free();
    let n: number;
    if (s) {
      n = cliStep("lines", "", "", "", bytes).lines; // counted by the core: the next chunk's first line
      const copy = new Uint8Array(bytes); // the worker's, transferred; `bytes` stays for a take-back
      const flag = new Int32Array(new SharedArrayBuffer(4));
      const entry: Entry = {};
      entry.p = new Promise((resolve) => s.sent.push({ file, first, bytes, flag, entry, resolve }));
      s.w.postMessage({ file, first, bytes: copy, flag }, [copy.buffer as ArrayBuffer]);
      this.queue.push(entry);
    } else {
      this.main++;
      const r = here(file, first, bytes);
      n = r.lines;
      if (this.queue.length) this.queue.push({ r });
      else await this.sink(r);
    }
    while (this.queue.length && (this.queue[0].r || this.queue.length >= this.limit)) await this.writeOldest();
    return n;
  }

  private async writeOldest(): Promise<void> {
    const e = this.queue[0];
    await this.sink(e.r ?? await e.p!);
    this.queue.shift();
  }

  async drain(): Promise<void> {
    while (this.queue.length) await this.writeOldest();
  }

  /** Takes back the chunks no worker has started (the plan's takeback), then every worker's counts; ends them. */
  async counts(here: Here): Promise<Uint8Array> {
    if (this.policy.takeback) {
      for (const s of this.slots) {
        for (const c of s.sent) {
          if (c.entry.r || Atomics.compareExchange(c.flag, 0, 0, 2) !== 0) continue;
          this.main++;
          c.entry.r = here(c.file, c.first, c.bytes);
        }
      }
    }
    await this.drain();
    this.chunks = this.slots.map((s) => s.done);
    const ask = (s: Slot) => new Promise<CliResult>((resolve) => {
      s.counts = resolve;
      s.w.postMessage({ counts: true });
    });
    const all = await Promise.all(this.slots.filter((s) => s.done > 0).map(ask));
    await Promise.all(this.slots.map((s) => s.w.terminate()));
    return Buffer.concat(all.map((r) => r.state));
  }

  /** Chunks per job, the main thread's first. */
  trace(): { workers: number; chunks: number[] } {
    return { workers: this.slots.length, chunks: [this.main, ...this.chunks] };
  }
}

// --- main ------------------------------------------------------------------------------

async function main(argv: string[]): Promise<number> {
  const args = argvBytes(argv), facts = hostFacts();
  const planned = cliStep("plan", args, PROG, version, Buffer.from(facts));
  if (planned.code >= 0) {
    process.stdout.write(planned.out);
    process.stderr.write(planned.err);
    return planned.code;
  }
  const plan: Plan = Buffer.from(planned.state).toString("utf8").split("\0").slice(0, -1)
    .map((r) => [r.slice(0, r.indexOf("=")), r.slice(r.indexOf("=") + 1)]);
  const num = (k: string) => Number(plan.find(([key]) => key === k)?.[1] ?? 0);
  const chunk = num("chunk");
  const policy: Policy = { workers: num("workers"), inflight: num("inflight"), queue: num("queue"),
    takeback: num("takeback") === 1, deal: num("deal") === 1 };
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(process.exitCode ?? 0); // the reader left (| head): stop quietly
    throw err;
  });
  progress = process.stderr.isTTY === true;
  let state: Uint8Array = new Uint8Array(0), tools: Uint8Array | null = null;
  let pool: Jobs | null = null, lines = 0, chunks = 0, stop = false;
  const here: Here = (file, first, bytes) => {
    const r = cliStep("chunk", file, state, String(first), bytes);
    state = r.state;
    stop = r.code === 1; // why found the call itself
    return r;
  };
  try {
    for (const [step, file] of plan) {
      if (stop) break;
      if (step === "tools" || step === "target") {
        // Read whole and handed over, or the error's name; the core answers (a usage error, why's call).
        let bytes: Uint8Array = new Uint8Array(0), err = "";
        try { bytes = await readAll(file, chunk); } catch (e) { err = errName(e); }
        const r = cliStep(step, file, "", err, bytes);
        if (step === "tools") {
          if (r.code >= 0) { await write(r); return r.code; }
          tools = bytes;
        } else {
          await write(r);
          if (r.code !== 0) return r.code;
          state = r.state;
        }
        continue;
      }
      if (step !== "load" && step !== "here" && step !== "shared") continue;
      if (step === "shared") pool ??= new Jobs(policy, args, facts, tools, write);
      const total = progress && file !== "-" ? size(file) ?? 0 : 0;
      let first = 1, read = 0;
      try {
        for await (const c of wholeLines(file, chunk)) {
          read += c.length;
          chunks++;
          let n: number;
          if (step === "shared") n = await pool!.push(file, first, c, here);
          else {
            if (pool) await pool.drain(); // answered as its lines arrive, after what came before
            const r = step === "load" ? cliStep("load", file, "", String(first), c) : here(file, first, c);
            await write(r);
            n = r.lines;
          }
          first += n;
          lines += n;
          if (progress) showProgress(file, total, read, lines);
          if (stop) break;
        }
      } catch (err) {
        if (pool) await pool.drain();
        await write(cliStep("unreadable", file, "", errName(err)));
      }
    }
    const counts = pool ? await pool.counts(here) : new Uint8Array(0);
    const end = cliStep("finish", "", state, "", counts);
    await write(end);
    if (TRACE) writeFileSync(TRACE, JSON.stringify(pool?.trace() ?? { workers: 0, chunks: [chunks] }) + "\n");
    return end.code;
  } finally {
    if (progress) process.stderr.write(cliStep("progress").err);
  }
}

if (isMainThread) {
  main(process.argv.slice(2)).then((code) => { process.exitCode = code; });
} else {
  // A worker: its own core instance, planned from the same argv; chunks in, bytes out, in order.
  const data = workerData as { argv: Uint8Array; facts: string; tools: Uint8Array | null };
  cliStep("plan", data.argv, PROG, version, Buffer.from(data.facts));
  if (data.tools) cliStep("tools", "", "", "", data.tools);
  parentPort!.postMessage("ready");
  type Task = { file: string; first: number; bytes: Uint8Array; flag: Int32Array } | { counts: true };
  parentPort!.on("message", (m: Task) => {
    if (!("counts" in m) && Atomics.compareExchange(m.flag, 0, 0, 1) !== 0) { parentPort!.postMessage(null); return; }
    const r = "counts" in m ? cliStep("counts") : cliStep("chunk", m.file, "", String(m.first), m.bytes);
    const text = Buffer.concat([r.out, r.err, r.state]);
    const o = r.out.length, e = r.err.length;
    const reply: CliResult = { out: text.subarray(0, o), err: text.subarray(o, o + e), state: text.subarray(o + e), lines: r.lines, code: r.code };
    parentPort!.postMessage(reply);
  });
}
