/**
 * `overturn-fingerprint`: a thin shell over the core's CLI engine
 * (assembly/cli/run.ts, through cliStep). The core reads the arguments,
 * splits and reads the lines, fingerprints and formats every byte printed,
 * keeps the counts and returns the exit status; this file only moves bytes:
 * argv in, files and stdin in 1 MiB chunks of whole lines, stdout/stderr
 * out, TTY progress, EPIPE, and `--jobs N`: this thread and N−1 worker threads,
 * each with its own core instance (class Jobs: output in input order, at most
 * 2 chunks per worker in flight, so memory stays constant; workers only for
 * big files). `why` runs in one job: its nearest call is the first of equals
 * in file order.
 * The Python twin (`python -m overturn.fingerprint`) prints the same bytes.
 * @module
 */
import { existsSync, statSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { once } from "node:events";
import { availableParallelism } from "node:os";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import "./index.js"; // the embedded modules (sets the diagnostics module's source)
import { cliStep, type CliResult } from "./_engine.js";
import { version } from "../package.json";

const PROG = "overturn-fingerprint";
const CHUNK = 1 << 20;
/** Room before each read chunk for the previous chunk's unfinished line (wholeLines). */
const HEAD = 1 << 16;

interface Plan { command: string; json: boolean; files: string[]; in: string[]; tools: string | null; jobs: number }

/** argv as the core reads it: per argument "1" if it names an existing path, its bytes, NUL. */
function argvBytes(argv: string[]): Uint8Array {
  return Buffer.concat(argv.map((a) => Buffer.from(`${existsSync(a) ? 1 : 0}${a}\0`)));
}

// --- output ------------------------------------------------------------------------

let progress: Progress | null = null;

async function write(r: CliResult): Promise<void> {
  if (r.err.length) { progress?.clear(); process.stderr.write(r.err); }
  if (!r.out.length) return;
  if (process.stdout.isTTY) progress?.clear();
  if (!process.stdout.write(r.out)) await once(process.stdout, "drain");
}

/** "label: N lines, X MB of Y MB (P%)" on stderr, only on a terminal and after the first second. */
class Progress {
  private readonly start = Date.now();
  private last = 0;
  private shown = false;
  label = "";
  total: number | undefined;

  update(bytes: number, lines: number): void {
    const now = Date.now();
    if (now - this.start < 1000 || now - this.last < 250) return;
    this.last = now;
    const mb = (n: number) => (n / 1048576).toFixed(1);
    const of = this.total ? ` of ${mb(this.total)} MB (${Math.floor((100 * bytes) / this.total)}%)` : " MB";
    process.stderr.write(`\r\x1b[K${this.label}: ${lines.toLocaleString("en-US")} lines, ${mb(bytes)}${of}`);
    this.shown = true;
  }

  clear(): void {
    if (this.shown) process.stderr.write("\r\x1b[K");
    this.shown = false;
  }
}

// --- reading -----------------------------------------------------------------------

function reason(err: unknown): string {
  const code = (err as { code?: string }).code;
  if (code === "ENOENT") return "no such file";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EISDIR") return "is a directory";
  return (err as Error).message;
}

/** A file's bytes in chunks of whole lines (the last may lack its "\n"). */
async function* wholeLines(file: string): AsyncGenerator<Uint8Array> {
  let carry: Uint8Array = new Uint8Array(0);
  const split = function* (data: Uint8Array, last: boolean) {
    const cut = last ? data.length : data.lastIndexOf(10) + 1;
    carry = data.subarray(cut);
    if (cut > 0) yield data.subarray(0, cut);
  };
  if (file === "-") {
    for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
      yield* split(carry.length ? Buffer.concat([carry, chunk]) : chunk, false);
    }
  } else {
    // The next chunk is read while the core runs this one (issue 13: the main
    // thread sat idle ~10% of a run waiting for each read). Each buffer keeps
    // HEAD bytes in front, where the last chunk's unfinished line is put back
    // before the new bytes: no 1 MiB concat per chunk.
    const fh = await open(file, "r");
    const next = () => {
      const read = fh.read(Buffer.allocUnsafe(HEAD + CHUNK), HEAD, CHUNK, null);
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

// --- jobs ----------------------------------------------------------------------------

/**
 * Below this many bytes of files, `--jobs N` starts no worker (issue 13): a
 * worker thread is ready ~50 ms after it is made on an idle machine (100–250 ms
 * under load), --jobs 2 costs ~100 ms more CPU than --jobs 1 (at 45 MB and at
 * 224 MB alike), and the main thread reads ~85 MB/s alone, so a worker pays
 * only once the main thread has tens of MB to go. Measured on 2 cores shared
 * with other jobs, medians of 5–7, --jobs 2 / --jobs 1 wall with workers
 * forced, at load 2–5: 4 MB 0.80–0.88×, 8 MB 0.82–0.87×, 16 MB 0.86–1.09×,
 * 32 MB 0.68–1.24×, 45 MB 0.76–1.4×, 224 MB 1.77×; at load ~1: 16 MB 1.08×,
 * 32 MB 1.15×, 45 MB 1.36× (bench/cli.mjs). Python's worker threads (an
 * instance of an already compiled module) have a threshold of their own (_cli.py).
 */
const MIN_BYTES = Number(process.env.OVERTURN_FINGERPRINT_JOBS_MIN_BYTES ?? 32 << 20);
// For tests (test/cli-vectors.test.ts): write the chunks each job ran to this file at the end; deal the chunks in turn
// (main, worker 1, worker 2, …) once every worker has started, so each job's share does not depend on timing.
const TRACE = process.env.OVERTURN_FINGERPRINT_JOBS_TRACE;
const DEAL = process.env.OVERTURN_FINGERPRINT_JOBS_DEAL === "1";

interface Slot { w: Worker; ready: boolean; started: Promise<void>; busy: number; done: number; waiting: ((r: CliResult) => void)[] }
type Entry = { r?: CliResult; p?: Promise<CliResult> };

/**
 * The main thread's core instance and N−1 worker threads (each with its own).
 * A chunk goes to a started worker with fewer than 2 chunks in flight, else
 * the main thread runs it itself: workers start up while the main works, and
 * a slow core gets fewer chunks. Results are written in input order, at most
 * 4 per job waiting, so memory stays constant.
 */
class Jobs {
  private readonly slots: Slot[];
  private readonly queue: Entry[] = [];
  private readonly limit: number;
  /** Chunks run by the main thread (for the trace). */
  main = 0;

  constructor(workers: number, argv: Uint8Array, tools: Uint8Array | null, private readonly sink: (r: CliResult) => Promise<void>) {
    this.limit = 4 * (workers + 1);
    this.slots = Array.from({ length: workers }, () => {
      const w = new Worker(new URL(import.meta.url), { workerData: { argv, tools } });
      let started = () => {};
      const s: Slot = { w, ready: false, started: new Promise((r) => { started = r; }), busy: 0, done: 0, waiting: [] };
      // The first message says the worker is planned; then it answers its requests in order.
      w.on("message", (r: CliResult | "ready") => {
        if (r === "ready") { s.ready = true; started(); } else s.waiting.shift()!(r);
      });
      s.w.on("error", (err) => { throw err; });
      return s;
    });
  }

  private ask(s: Slot, msg: unknown, transfer: ArrayBuffer[] = []): Promise<CliResult> {
    s.busy++;
    return new Promise((resolve) => {
      s.waiting.push((r) => { s.busy--; s.done++; resolve(r); });
      s.w.postMessage(msg, transfer);
    });
  }

  private dealt = 0;

  /** The worker to send the next chunk to, if any can take it now. */
  private async free(): Promise<Slot | undefined> {
    if (DEAL) {
      await Promise.all(this.slots.map((s) => s.started));
      const s = this.slots[this.dealt++ % (this.slots.length + 1) - 1];
      while (s && s.busy >= 2) await this.writeOldest();
      return s;
    }
    let best: Slot | undefined;
    for (const s of this.slots) if (s.ready && s.busy < 2 && (!best || s.busy < best.busy)) best = s;
    return best;
  }

  /** Runs a chunk here or in a worker; writes what is ready in order. Returns its line count. */
  async push(file: string, first: number, bytes: Uint8Array, here: () => CliResult): Promise<number> {
    const s = file === "-" ? undefined : await this.free();
    let n: number;
    if (s) {
      n = cliStep("lines", "", "", "", bytes).lines; // counted by the core: the next chunk's first line
      const copy = new Uint8Array(bytes); // a copy: its buffer is transferred
      const e: Entry = {};
      e.p = this.ask(s, { file, first, bytes: copy }, [copy.buffer as ArrayBuffer]).then((r) => (e.r = r));
      this.queue.push(e);
    } else {
      if (file === "-") await this.drain(); // standard input is answered as its lines arrive
      this.main++;
      const r = here();
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

  /** The counts of every worker that ran a chunk, for finish; ends the workers (one still starting is not waited for). */
  async counts(): Promise<Uint8Array> {
    await this.drain();
    const chunks = this.slots.map((s) => s.done);
    const all = await Promise.all(this.slots.filter((s) => s.done > 0).map((s) => this.ask(s, { counts: true })));
    await Promise.all(this.slots.map((s) => s.w.terminate()));
    this.chunks = chunks;
    return Buffer.concat(all.map((r) => r.state));
  }

  private chunks: number[] = [];

  /** Chunks per job, the main thread's first. */
  trace(): { workers: number; chunks: number[] } {
    return { workers: this.slots.length, chunks: [this.main, ...this.chunks] };
  }
}

// --- main ------------------------------------------------------------------------------

async function main(argv: string[]): Promise<number> {
  const args = argvBytes(argv);
  const planned = cliStep("plan", args, PROG, version);
  if (planned.code >= 0) {
    process.stdout.write(planned.out);
    process.stderr.write(planned.err);
    return planned.code;
  }
  const plan = JSON.parse(Buffer.from(planned.state).toString("utf8")) as Plan;
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(process.exitCode ?? 0); // the reader left (| head): stop quietly
    throw err;
  });
  if (process.stderr.isTTY) progress = new Progress();
  // --tools FILE: its bytes to the core (which checks and keeps them), or why they could not be read.
  let tools: Uint8Array | null = null;
  if (plan.tools !== null) {
    let why = "";
    try { tools = await readAll(plan.tools); } catch (err) { why = reason(err); }
    const t = cliStep("tools", plan.tools, "", why, tools ?? new Uint8Array(0));
    if (t.code >= 0) { await write(t); return t.code; }
  }
  let state: Uint8Array = new Uint8Array(0);
  if (plan.command === "why") {
    const src = plan.files[0];
    let bytes: Uint8Array;
    try {
      bytes = await readAll(src);
    } catch (err) {
      process.stderr.write(`${src}: ${reason(err)}\n`);
      return 1;
    }
    const t = cliStep("target", src, "", "", bytes);
    await write(t);
    if (t.code !== 0) return t.code;
    state = t.state;
  }
  if (plan.command === "replay") await loadRecording(plan.in[0]);
  const jobs = plan.command === "why" || plan.command === "replay" ? 1 : plan.jobs || availableParallelism();
  const inputs = plan.command === "why" ? plan.in : plan.files;
  // Workers for big files only (MIN_BYTES), never more than the chunks after the first; stdin's size is unknown.
  const total = inputs.reduce((n, f) => n + (f === "-" ? 0 : size(f)), 0);
  const workers = jobs > 1 && total >= MIN_BYTES ? Math.min(jobs - 1, Math.ceil(total / CHUNK) - 1) : 0;
  const pool = workers > 0 ? new Jobs(workers, args, tools, write) : null;
  let lines = 0, bytesRead = 0, chunks = 0;
  try {
    files: for (const file of inputs) {
      if (progress) {
        progress.label = file;
        progress.total = file === "-" ? undefined : size(file) || undefined;
      }
      let first = 1;
      try {
        for await (const chunk of wholeLines(file)) {
          bytesRead += chunk.length;
          chunks++;
          const here = (): CliResult => {
            const r = cliStep("chunk", file, state, String(first), chunk);
            state = r.state;
            return r;
          };
          if (pool) {
            const n = await pool.push(file, first, chunk, here);
            first += n;
            lines += n;
          } else {
            const r = here();
            await write(r);
            first += r.lines;
            lines += r.lines;
            if (r.code === 1) break files; // why found the call itself
          }
          progress?.update(bytesRead, lines);
        }
      } catch (err) {
        if (pool) await pool.drain();
        await write(cliStep("unreadable", file, "", reason(err)));
      }
    }
    const counts = pool ? await pool.counts() : new Uint8Array(0);
    const end = cliStep("finish", "", state, "", counts);
    await write(end);
    if (TRACE) writeFileSync(TRACE, JSON.stringify(pool?.trace() ?? { workers: 0, chunks: [chunks] }) + "\n");
    return end.code;
  } finally {
    progress?.clear();
  }
}

/** replay's recording (--in), streamed into the core's index ("load"); its bad lines are reported as they come. */
async function loadRecording(file: string): Promise<void> {
  let first = 1;
  try {
    for await (const chunk of wholeLines(file)) {
      const r = cliStep("load", file, "", String(first), chunk);
      await write(r);
      first += r.lines;
    }
  } catch (err) {
    await write(cliStep("unreadable", file, "", reason(err)));
  }
}

function size(file: string): number {
  try { return statSync(file).size; } catch { return 0; }
}

async function readAll(file: string): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const c of wholeLines(file)) parts.push(c);
  return Buffer.concat(parts);
}

if (isMainThread) {
  main(process.argv.slice(2)).then((code) => { process.exitCode = code; });
} else {
  // A worker: its own core instance, planned from the same argv; chunks in, bytes out, in order.
  const data = workerData as { argv: Uint8Array; tools: Uint8Array | null };
  cliStep("plan", data.argv, PROG, version);
  if (data.tools) cliStep("tools", "", "", "", data.tools);
  parentPort!.postMessage("ready");
  parentPort!.on("message", (m: { file: string; first: number; bytes: Uint8Array } | { counts: true }) => {
    const r = "counts" in m ? cliStep("counts") : cliStep("chunk", m.file, "", String(m.first), m.bytes);
    const text = Buffer.concat([r.out, r.err, r.state]);
    const o = r.out.length, e = r.err.length;
    const reply: CliResult = { out: text.subarray(0, o), err: text.subarray(o, o + e), state: text.subarray(o + e), lines: r.lines, code: r.code };
    parentPort!.postMessage(reply);
  });
}
