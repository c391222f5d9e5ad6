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
import { closeSync, openSync, readFileSync, readSync, statSync, writeFileSync } from "node:fs";
import { once } from "node:events";
import { availableParallelism } from "node:os";
import { MessageChannel, type MessagePort, Worker, receiveMessageOnPort } from "node:worker_threads";
import "./index.js"; // the embedded modules (sets the engine module's source)
import { cliStep, engine } from "./_engine.js";
import {
  CLI_EXIT, CLI_HOLD, CLI_POLL, CLI_READ, CLI_READ_ALL, CLI_SEND, CLI_SPAWN, CLI_WAIT, CLI_WRITE,
} from "./_abi.gen.js";
import { version } from "../package.json";

const PROG = "overturn-fingerprint";
const EMPTY = new Uint8Array(0);
const env = process.env;

/**
 * What the core needs to know of this host (cli/plan.ts, cli/drive.ts): a worker thread compiles its own module;
 * the tests' settings (workers whatever the size, chunks dealt in turn), an empty one being none.
 */
const hostFacts = () => Buffer.from(`cores=${availableParallelism()}\0worker=isolate\0` +
  `min-bytes=${env.OVERTURN_FINGERPRINT_JOBS_MIN_BYTES ?? ""}\0deal=${env.OVERTURN_FINGERPRINT_JOBS_DEAL ?? ""}\0` +
  `progress=${+!!process.stderr.isTTY}\0tty=${+!!process.stdout.isTTY}\0`);

/** The name of a read error (ENOENT), worded by the core; "-" when it has none. */
const errName = (err: unknown) => (err as { code?: string }).code ?? "-";

async function write(err: Uint8Array, out: Uint8Array): Promise<void> {
  if (err.length) process.stderr.write(err);
  if (out.length && !process.stdout.write(out)) await once(process.stdout, "drain");
}

/** A worker's message: its number when started, or a task's number, answer and output. */
interface Message { aux: string; bytes: Uint8Array; out?: Uint8Array; err?: Uint8Array; task?: ArrayBuffer }

async function main(argv: string[]): Promise<number> {
  // argv as the core reads it: per argument the size found at that path ("-": none), ":", its bytes, NUL.
  const size = (a: string) => { try { return statSync(a).size; } catch { return "-"; } };
  const args = Buffer.concat(argv.map((a) => Buffer.from(`${size(a)}:${a}\0`))), started = Date.now();
  const workers: Worker[] = [], ports: MessagePort[] = [], inbox: Message[] = [], spare: ArrayBuffer[] = [], kept = new Map<number, [Uint8Array, Uint8Array]>();
  let readBuf = Buffer.alloc(0), wake = () => {}, fd: number | null = null, stdin: AsyncIterator<Buffer> | null = null;
  // Whether a message waits: one the ports' listeners took, else one still queued on a port (read now, into the inbox).
  const take = () => {
    for (const p of ports) if (!inbox.length) { const m = receiveMessageOnPort(p); if (m) inbox.push(m.message as Message); }
    return inbox.length > 0;
  };
  let r = cliStep("start", args, PROG, version, hostFacts());
  for (;;) {
    let aux = "", bytes = EMPTY;
    if (r.op === CLI_HOLD) kept.set(r.lines, [r.err, r.out]);
    else await write(r.err, r.out);
    const file = r.op === CLI_READ || r.op === CLI_READ_ALL ? Buffer.from(r.data).toString("utf8") : "";
    switch (r.op) {
      case CLI_EXIT:
        await Promise.all(workers.map((w, k) => (ports[k].close(), w.terminate())));
        if (env.OVERTURN_FINGERPRINT_JOBS_TRACE && r.data.length) writeFileSync(env.OVERTURN_FINGERPRINT_JOBS_TRACE, r.data);
        return r.code;
      case CLI_READ: // the file stays open from its first read to its end or an error
        try {
          if (file === "-") {
            const next = await (stdin ??= (process.stdin as AsyncIterable<Buffer>)[Symbol.asyncIterator]()).next();
            bytes = next.done ? EMPTY : next.value;
          } else {
            // One buffer for every read (the core copies what it is given): no new megabyte to fault in per read.
            if (readBuf.length < r.arg) readBuf = Buffer.allocUnsafe(r.arg);
            const bytesRead = readSync(fd ??= openSync(file, "r"), readBuf, 0, r.arg, null);
            bytes = readBuf.subarray(0, bytesRead);
          }
          if (!bytes.length) aux = "EOF";
        } catch (err) {
          aux = errName(err);
        }
        if (aux && fd !== null) { try { closeSync(fd); } catch { /* nothing more is read from it */ } fd = null; }
        break;
      case CLI_READ_ALL:
        try { bytes = readFileSync(file === "-" ? 0 : file); } catch (err) { aux = errName(err); }
        break;
      case CLI_SPAWN:
        for (let k = 0; k < r.lines; k++) {
          // Answers come on a port of their own, which a poll reads at once (receiveMessageOnPort): a worker
          // that finished is seen before the host's next chunk, not after the next event-loop turn.
          const { port1, port2 } = new MessageChannel();
          const w = new Worker(new URL("./cli-worker.cjs", import.meta.url), {
            workerData: { argv: args, tools: r.data.slice(), k, module: engine.compiled(), port: port2 }, transferList: [port2],
          });
          port1.on("message", (m: Message) => { inbox.push(m); wake(); });
          w.on("error", (err) => { throw err; });
          workers.push(w), ports.push(port1);
        }
        break;
      case CLI_SEND: {
        // In a buffer moved to the worker and back with the answer, reused: a fresh megabyte per task costs more
        // than the copy, and a copy into or out of shared memory (SharedArrayBuffer) runs at a sixth of memcpy's speed.
        let s = spare.pop();
        if (!s || s.byteLength < r.data.length) s = new ArrayBuffer(Math.max(r.data.length, 2 << 20));
        new Uint8Array(s).set(r.data);
        workers[r.lines].postMessage({ j: r.arg, task: s, n: r.data.length }, [s]);
        break;
      }
      case CLI_POLL: case CLI_WAIT: {
        if (!take() && r.op === CLI_WAIT) await new Promise<void>((resolve) => { wake = resolve; });
        const m = inbox.shift();
        if (m) {
          ({ aux, bytes } = m);
          if (m.out) kept.set(Number(aux), [m.err!, m.out]);
          if (m.task) spare.push(m.task);
        }
        break;
      }
      case CLI_WRITE:
        await write(...kept.get(r.lines)!);
        kept.delete(r.lines);
        break;
    }
    r = cliStep("next", String(Date.now() - started), aux, r.state, bytes);
  }
}

process.stdout.on("error", (err: NodeJS.ErrnoException) => {
  if (err.code === "EPIPE") process.exit(process.exitCode ?? 0); // the reader left (| head): stop quietly
  throw err;
});
main(process.argv.slice(2)).then((code) => { process.exitCode = code; });
