/**
 * `overturn-fingerprint`: the host of the core's CLI driver
 * (assembly/cli/drive.ts). The core plans the run, splits and reads the
 * lines, deals them to the jobs, formats every byte printed and says the exit
 * status; it drives this loop one action at a time (CLI_* in abi.ts) and this
 * file does each and reports back: argv and the sizes at its paths, file and
 * stdin reads, stdout/stderr, the terminal, EPIPE, and the worker threads
 * (each with its own core instance). The Python and Go CLIs run the same loop.
 * @module
 */
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { once } from "node:events";
import { availableParallelism } from "node:os";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import "./index.js"; // the embedded modules (sets the engine module's source)
import { cliStep } from "./_engine.js";
import {
  CLI_EXIT, CLI_HOLD, CLI_POLL, CLI_READ, CLI_READ_ALL, CLI_SEND, CLI_SPAWN, CLI_TAKE, CLI_WAIT, CLI_WRITE,
} from "./_abi.gen.js";
import { version } from "../package.json";

const PROG = "overturn-fingerprint";
const EMPTY = new Uint8Array(0);
const env = process.env;

/** argv as the core reads it: per argument the size found at that path ("-": none), ":", its bytes, NUL. */
function argvBytes(argv: string[]): Uint8Array {
  const size = (a: string) => { try { return statSync(a).size; } catch { return "-"; } };
  return Buffer.concat(argv.map((a) => Buffer.from(`${size(a)}:${a}\0`)));
}

/** What the core needs to know of this host (cli/plan.ts, cli/drive.ts); a worker thread compiles its own module. */
function hostFacts(): Buffer {
  const min = env.OVERTURN_FINGERPRINT_JOBS_MIN_BYTES; // tests: workers whatever the size, chunks dealt in turn
  return Buffer.from(`cores=${availableParallelism()}\0worker=isolate\0${min ? `min-bytes=${min}\0` : ""}` +
    `${env.OVERTURN_FINGERPRINT_JOBS_DEAL === "1" ? "deal=1\0" : ""}${process.stderr.isTTY ? "progress=1\0" : ""}` +
    `${process.stdout.isTTY ? "tty=1\0" : ""}`);
}

/** The name of a read error (ENOENT), worded by the core; "-" when it has none. */
const errName = (err: unknown) => (err as { code?: string }).code ?? "-";

async function write(err: Uint8Array, out: Uint8Array): Promise<void> {
  if (err.length) process.stderr.write(err);
  if (out.length && !process.stdout.write(out)) await once(process.stdout, "drain");
}

/** A worker's message: its number when started, or a task's number, answer and output. */
interface Message { aux: string; bytes: Uint8Array; out?: Uint8Array; err?: Uint8Array }

async function main(argv: string[]): Promise<number> {
  const args = argvBytes(argv), started = Date.now();
  const workers: Worker[] = [], inbox: Message[] = [], kept = new Map<number, Uint8Array[]>();
  const tasks = new Map<number, { data: Uint8Array; flag: Int32Array }>();
  let wake = () => {}, block = EMPTY, fh: FileHandle | null = null, path: string | null = null;
  let stdin: AsyncIterator<Buffer> | null = null;
  let r = cliStep("start", args, PROG, version, hostFacts());
  for (;;) {
    let aux = "", bytes = EMPTY;
    if (r.op === CLI_HOLD) kept.set(r.lines, [r.err, r.out]);
    else await write(r.err, r.out);
    const file = r.op === CLI_READ || r.op === CLI_READ_ALL ? Buffer.from(r.data).toString("utf8") : "";
    switch (r.op) {
      case CLI_EXIT:
        await Promise.all(workers.map((w) => w.terminate()));
        if (env.OVERTURN_FINGERPRINT_JOBS_TRACE && r.data.length) writeFileSync(env.OVERTURN_FINGERPRINT_JOBS_TRACE, r.data);
        return r.code;
      case CLI_READ: {
        const head = block.subarray(block.length - r.lines);
        try {
          if (file !== path) {
            await fh?.close();
            fh = file === "-" ? null : await open(file, "r");
            path = file;
          }
          let more: Uint8Array = EMPTY;
          if (fh) {
            const buf = Buffer.allocUnsafe(head.length + r.arg);
            buf.set(head);
            const { bytesRead } = await fh.read(buf, head.length, r.arg, null);
            block = buf.subarray(0, head.length + bytesRead);
            more = block.subarray(head.length);
          } else {
            const next = await (stdin ??= (process.stdin as AsyncIterable<Buffer>)[Symbol.asyncIterator]()).next();
            more = next.done ? EMPTY : next.value;
            block = head.length ? Buffer.concat([head, more]) : more;
          }
          if (!more.length) aux = "EOF";
        } catch (err) {
          aux = errName(err);
          block = EMPTY;
        }
        if (aux) {
          await fh?.close().catch(() => undefined);
          fh = path = null;
        }
        bytes = block;
        break;
      }
      case CLI_READ_ALL:
        try { bytes = readFileSync(file === "-" ? 0 : file); } catch (err) { aux = errName(err); }
        break;
      case CLI_SPAWN:
        for (let k = 0; k < r.lines; k++) {
          const w = new Worker(new URL(import.meta.url), { workerData: { argv: args, tools: r.data.slice(), k } });
          w.on("message", (m: Message) => { inbox.push(m); wake(); });
          w.on("error", (err) => { throw err; });
          workers.push(w);
        }
        break;
      case CLI_SEND: {
        // Flag: claimed by whoever runs the task (1: its worker, 2: taken back here).
        const task = { data: r.data.slice(), flag: new Int32Array(new SharedArrayBuffer(4)) };
        tasks.set(r.arg, task);
        workers[r.lines].postMessage({ j: r.arg, ...task });
        break;
      }
      case CLI_POLL: case CLI_WAIT: {
        if (r.op === CLI_WAIT && !inbox.length) await new Promise<void>((resolve) => { wake = resolve; });
        const m = inbox.shift();
        if (m) {
          ({ aux, bytes } = m);
          if (m.out) { kept.set(Number(aux), [m.err!, m.out]); tasks.delete(Number(aux)); }
        }
        break;
      }
      case CLI_WRITE:
        await write(kept.get(r.lines)![0], kept.get(r.lines)![1]);
        kept.delete(r.lines);
        break;
      case CLI_TAKE: {
        const t = tasks.get(r.lines);
        if (t && Atomics.compareExchange(t.flag, 0, 0, 2) === 0) bytes = t.data;
        tasks.delete(r.lines);
        break;
      }
    }
    r = cliStep("next", r.state, String(Date.now() - started), aux, bytes);
  }
}

if (isMainThread) {
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(process.exitCode ?? 0); // the reader left (| head): stop quietly
    throw err;
  });
  main(process.argv.slice(2)).then((code) => { process.exitCode = code; });
} else {
  // A worker: its own core instance with the run's options; tasks in, answers out.
  const data = workerData as { argv: Uint8Array; tools: Uint8Array; k: number };
  cliStep("worker", data.argv, "", "", data.tools);
  parentPort!.postMessage({ aux: String(data.k), bytes: EMPTY });
  parentPort!.on("message", (m: { j: number; data: Uint8Array; flag: Int32Array }) => {
    if (Atomics.compareExchange(m.flag, 0, 0, 1) !== 0) return; // taken back
    const r = cliStep("job", "", "", "", m.data);
    parentPort!.postMessage({ aux: String(m.j), bytes: r.state, out: r.out, err: r.err });
  });
}
