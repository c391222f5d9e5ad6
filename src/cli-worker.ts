/**
 * A worker thread of `overturn-fingerprint --jobs N` (src/cli.ts): its own
 * core instance with the run's options, lines in, answers out. An entry of
 * its own (dist/cli-worker.cjs), so a worker's start parses this small file,
 * never the CLI's bundle with both modules embedded, while the host thread
 * is already at work.
 * @module
 */
import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import { cliStep, setEngineSource } from "./_engine.js";

const data = workerData as { argv: Uint8Array; tools: Uint8Array; k: number; module: WebAssembly.Module; port: MessagePort };
setEngineSource(() => data.module); // the host thread's compiled module, its optimized code shared
cliStep("worker", data.argv, "", "", data.tools);
data.port.postMessage({ aux: String(data.k), bytes: new Uint8Array(0) });
// Tasks in (their buffer moved back with the answer, for reuse), answers out (their buffer moved, not copied).
parentPort!.on("message", (m: { j: number; task: ArrayBuffer; n: number }) => {
  const r = cliStep("job", "", "", "", new Uint8Array(m.task, 0, m.n));
  data.port.postMessage({ aux: String(m.j), bytes: r.state, out: r.out, err: r.err, task: m.task }, [r.out.buffer as ArrayBuffer, m.task]);
});
