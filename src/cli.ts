/**
 * `overturn-fingerprint` — fingerprints, explanations and replay checks for
 * recordings of tool calls (issue 6). The Python twin is
 * `python -m overturn.fingerprint` (python/overturn/fingerprint/_cli.py):
 * both print the same bytes for the same input, so keep them in step.
 *
 * A recording is JSON Lines, one call a line: {"name", "args" | "argsJSON",
 * "kind"?, "matchOn"?, "ignoreArgs"?, "fingerprint"?}; other members are
 * ignored, null means absent. Files stream: read in 64 KiB chunks and split
 * on "\n" by hand (a trailing "\r" is dropped), so memory stays constant
 * whatever the file size, and output is flushed after every chunk, so a pipe
 * sees results while its input is still being written. Lines are decoded as
 * strict UTF-8 (a bad byte is a reported error, not a U+FFFD); a UTF-8 BOM
 * at the start of a file is skipped; blank lines are skipped. A bad line is
 * reported with its number and reason and the run goes on; the exit status
 * is 1 when anything failed, 2 for a usage error.
 * @module
 */
import { createReadStream, existsSync, readFileSync, statSync } from "node:fs";
import { once } from "node:events";
import { FingerprintError, diff, type Diff, type Explanation } from "./index.js";
import { explainRecord } from "./diagnostics.js";
import { explainCalls, type Explained } from "./_diagnostics_wasm.js";
import { version } from "../package.json";
import { cliText, type CallRecord } from "./_diagnostics_wasm.js";

const PROG = "overturn-fingerprint";
const PACKAGE_VERSION = version;
const CHUNK = 64 * 1024;

// --- help --------------------------------------------------------------------

/** Help text of `topic` from the core (assembly/cli/help.ts), or null for an unknown topic. */
function help(topic: string): string | null {
  try {
    return cliText("help", topic, PROG, PACKAGE_VERSION);
  } catch (err) {
    if (err instanceof FingerprintError && err.code === "bad-request") return null;
    throw err;
  }
}

// --- arguments ---------------------------------------------------------------

class UsageError extends Error {}

interface Args {
  command: "fingerprint" | "explain" | "verify" | "why" | "help";
  json: boolean;
  help: boolean;
  version: boolean;
  files: string[];
  inFiles: string[];
}

const COMMANDS = new Set(["explain", "verify", "why", "help"]);

function parseArgs(argv: string[]): Args {
  const a: Args = { command: "fingerprint", json: false, help: false, version: false, files: [], inFiles: [] };
  let optionsDone = false;
  let first = true;
  for (let i = 0; i < argv.length; i++) {
    const s = argv[i];
    if (!optionsDone && s.startsWith("-") && s !== "-") {
      if (s === "--") optionsDone = true;
      else if (s === "--json") a.json = true;
      else if (s === "-h" || s === "--help") a.help = true;
      else if (s === "--version") a.version = true;
      else if (s === "--in" || s.startsWith("--in=")) {
        if (a.command !== "why") throw new UsageError(`--in belongs to the why command`);
        const v = s === "--in" ? argv[++i] : s.slice(5);
        if (v === undefined || v === "") throw new UsageError("--in needs a FILE");
        a.inFiles.push(v);
      } else throw new UsageError(`unknown option ${s}`);
      continue;
    }
    if (first && !optionsDone && COMMANDS.has(s)) a.command = s as Args["command"];
    else if (first && !optionsDone && /^[a-z][a-z-]*$/.test(s) && !existsSync(s)) {
      // A bare word that is no file: a mistyped command, not a missing recording.
      throw new UsageError(`unknown command "${s}" (commands: explain, verify, why, help; or a FILE)`);
    } else a.files.push(s);
    first = false;
  }
  return a;
}

// --- output ------------------------------------------------------------------

let progress: Progress | null = null;

/** Buffered stdout, flushed after each input chunk; waits when the pipe is full. */
class Output {
  private parts: string[] = [];

  line(s: string): void {
    this.parts.push(s, "\n");
  }

  /** Bytes made by the core, newlines included. */
  text(s: string): void {
    this.parts.push(s);
  }

  record(o: unknown): void {
    this.line(JSON.stringify(o));
  }

  async flush(): Promise<void> {
    if (this.parts.length === 0) return;
    if (process.stdout.isTTY) progress?.clear(); // same terminal: no output on the progress line
    const text = this.parts.join("");
    this.parts = [];
    if (!process.stdout.write(text)) await once(process.stdout, "drain");
  }
}

function warn(s: string): void {
  progress?.clear();
  process.stderr.write(s + "\n");
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

// --- reading -----------------------------------------------------------------

class LineError extends Error {
  constructor(message: string, readonly code: string) {
    super(message);
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The text of a line, or a LineError; null for a blank line. */
function decodeLine(bytes: Uint8Array, lineNo: number): string | null {
  let end = bytes.length;
  if (end > 0 && bytes[end - 1] === 0x0d) end--;
  let start = 0;
  if (lineNo === 1 && end >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
  let blank = true;
  for (let i = start; i < end && blank; i++) blank = bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0d;
  if (blank) return null;
  try {
    return utf8.decode(bytes.subarray(start, end));
  } catch {
    throw new LineError("invalid UTF-8", "invalid-utf8");
  }
}

function fileError(file: string, err: unknown): string {
  const code = (err as { code?: string }).code;
  if (code === "ENOENT") return `${file}: no such file`;
  if (code === "EACCES" || code === "EPERM") return `${file}: permission denied`;
  if (code === "EISDIR") return `${file}: is a directory`;
  return `${file}: ${(err as Error).message}`;
}

interface Counts { lines: number; failed: number; fileErrors: number }

/**
 * Streams each file's lines into `each` (which may throw LineError or
 * FingerprintError: reported, counted, the run goes on). `stop` ends the
 * whole read early.
 */
async function eachLine(files: string[], out: Output, json: boolean,
  each: (text: string, file: string, line: number) => void | "stop"): Promise<Counts> {
  const counts: Counts = { lines: 0, failed: 0, fileErrors: 0 };
  const fail = (file: string, line: number, err: LineError | FingerprintError) => {
    counts.failed++;
    if (json) out.record({ file, line, error: err.message, code: err.code });
    else warn(`${file}:${line}: ${err.message}`);
  };
  for (const file of files) {
    let total: number | undefined;
    try {
      if (file !== "-") total = statSync(file).size;
    } catch { /* reported by the stream */ }
    if (progress) { progress.label = file; progress.total = total; }
    const stream = file === "-" ? process.stdin : createReadStream(file, { highWaterMark: CHUNK });
    const chunks = (stream as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
    let lineNo = 0, bytes = 0;
    let parts: Buffer[] = [];
    let stop = false;
    let fatal: unknown = null; // not a bad line but a defect: rethrown after the file is closed
    const handle = (b: Uint8Array) => {
      lineNo++;
      let counted = false;
      try {
        const text = decodeLine(b, lineNo);
        if (text === null) return;
        counts.lines++;
        counted = true;
        if (each(text, file, lineNo) === "stop") stop = true;
      } catch (err) {
        if (!counted) counts.lines++; // a line that is not even UTF-8
        if (err instanceof LineError || err instanceof FingerprintError) fail(file, lineNo, err);
        else { fatal = err; stop = true; }
      }
    };
    for (;;) {
      let r: IteratorResult<Buffer>;
      try {
        r = await chunks.next();
      } catch (err) {
        counts.fileErrors++;
        if (json) out.record({ file, error: fileError(file, err).slice(file.length + 2), code: "unreadable-file" });
        else warn(fileError(file, err));
        break;
      }
      if (r.done) {
        if (parts.length) handle(Buffer.concat(parts));
        break;
      }
      const chunk = r.value;
      bytes += chunk.length;
      let start = 0;
      for (let nl = chunk.indexOf(10); nl !== -1 && !stop; nl = chunk.indexOf(10, start)) {
        const piece = chunk.subarray(start, nl);
        handle(parts.length ? Buffer.concat([...parts, piece]) : piece);
        parts = [];
        start = nl + 1;
      }
      if (stop) break;
      if (start < chunk.length) parts.push(chunk.subarray(start));
      progress?.update(bytes, lineNo);
      await out.flush();
    }
    if (file !== "-") (stream as ReturnType<typeof createReadStream>).destroy();
    else if (stop) await chunks.return?.();
    if (fatal !== null) throw fatal;
    await out.flush();
    if (stop) break;
  }
  return counts;
}

// --- one line → one call ---------------------------------------------------------

/** A line as the core read it (assembly/call.ts): its record and explanation. */
interface Line { rec: CallRecord; e: Explanation }

/** The core reads the line (no JSON.parse here): one call model for both CLIs and SDKs. */
function readLine(text: string): Line {
  return lineOf(explainRecord(text));
}

/**
 * Every call of a line: a recording line or one provider call is one; a
 * message holding several (assembly/shapes.ts) is each of them, in order.
 */
function readCalls(text: string): Line[] {
  return explainCalls(text).map(lineOf);
}

function lineOf(x: Explained): Line {
  const { kind, name, selected, canonical, preimage } = x.record;
  return { rec: x.record, e: { version: 1, kind, name, selected, canonical, preimage, fingerprint: x.digest } };
}

// --- text formats --------------------------------------------------------------

function selectionText(o: CallRecord, e: Explanation): string {
  const keys = (l: readonly string[]) => JSON.stringify(l);
  const what = o.matchOn ? `matchOn ${keys(o.matchOn)}` : o.ignoreArgs ? `ignoreArgs ${keys(o.ignoreArgs)}` : null;
  if (what === null) return "none";
  const s = e.selected;
  let t = `${what}: kept ${keys(s.kept)}, dropped ${keys(s.dropped)}`;
  if (s.missing.length) t += `, missing ${keys(s.missing)}`;
  if (o.matchOn && o.ignoreArgs) t += " (matchOn wins over ignoreArgs)";
  return t;
}

function selectionName(o: CallRecord): string {
  if (o.matchOn) return `matchOn ${JSON.stringify(o.matchOn)}`;
  if (o.ignoreArgs) return `ignoreArgs ${JSON.stringify(o.ignoreArgs)}`;
  return "no selection";
}

/** At most `max` code points, then "…" (counted in code points, as Python does). */
function clip(s: string, max = 100): string {
  if (s.length <= max) return s;
  const cps = Array.from(s);
  return cps.length <= max ? s : cps.slice(0, max).join("") + "…";
}

function changeLines(d: Diff): string[] {
  return d.changes.map((c) => {
    const where = c.path === "" ? "(args)" : c.path;
    const what = c.kind === "changed" ? `${clip(c.before!)} → ${clip(c.after!)}`
      : c.kind === "added" ? clip(c.after!) : clip(c.before!);
    return `  ${c.kind.padEnd(8)} ${where}: ${what}`;
  });
}

// --- commands --------------------------------------------------------------------

async function runFingerprint(a: Args, out: Output): Promise<number> {
  const counts = await eachLine(a.files, out, a.json, (text, file, line) => {
    for (const { e } of readCalls(text)) {
      if (a.json) out.record({ file, line, name: e.name, fingerprint: e.fingerprint });
      else out.line(`${e.fingerprint}  ${e.name}`);
    }
  });
  return finish(counts);
}

async function runExplain(a: Args, out: Output): Promise<number> {
  const counts = await eachLine(a.files, out, a.json, (text, file, line) => {
    for (const { rec, e } of readCalls(text)) {
      if (a.json) {
        out.record({ file, line, ...e });
        continue;
      }
      out.line(`${file}:${line}  ${e.name}  ${e.fingerprint}`);
      out.line(`  kind       ${e.kind}`);
      out.line(`  selection  ${selectionText(rec, e)}`);
      out.line(`  canonical  ${e.canonical}`);
    }
  });
  return finish(counts);
}

async function runVerify(a: Args, out: Output): Promise<number> {
  let match = 0, differ = 0, unrecorded = 0;
  const counts = await eachLine(a.files, out, a.json, (text, file, line) => {
    const { rec, e } = readLine(text);
    const stored = rec.recorded;
    if (stored === undefined) {
      unrecorded++;
      return;
    }
    const hex = e.fingerprint;
    if (hex === stored) {
      match++;
      return;
    }
    differ++;
    const { canonical } = e;
    if (a.json) {
      out.record({ file, line, name: e.name, recorded: stored, fingerprint: hex, canonical });
    } else {
      out.line(`${file}:${line}  ${e.name}  recorded ${stored}  computed ${hex}`);
      out.line(`  canonical  ${canonical}`);
    }
  });
  const summary = { match, differ, unrecorded, failed: counts.failed };
  if (a.json) out.record({ summary });
  else out.line(`verify: ${match} match, ${differ} differ, ${unrecorded} without "fingerprint", ${counts.failed} failed`);
  await out.flush();
  const code = finish(counts);
  if (match + differ === 0) {
    warn('verify: nothing to verify (no line has a "fingerprint")');
    return 1;
  }
  return differ ? 1 : code;
}

async function runWhy(a: Args, out: Output): Promise<number> {
  if (a.files.length !== 1) throw new UsageError("why takes one CALL.json (see why --help)");
  if (a.inFiles.length === 0) throw new UsageError("why needs the recording: --in FILE");
  const src = a.files[0];
  if (src === "-" && a.inFiles.includes("-")) throw new UsageError("only one of CALL.json and --in can be standard input");
  let target: Explanation;
  let call: CallRecord;
  try {
    let bytes: Uint8Array = readFileSync(src === "-" ? 0 : src);
    if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      throw new LineError("invalid UTF-8", "invalid-utf8");
    }
    ({ rec: call, e: target } = readLine(text));
  } catch (err) {
    if (err instanceof LineError || err instanceof FingerprintError) warn(`${src}: ${err.message}`);
    else if ((err as { code?: string }).code) warn(fileError(src, err));
    else throw err;
    return 1;
  }

  let best = null as { file: string; line: number; call: CallRecord; explanation: Explanation; diff: Diff } | null;
  let candidates = 0;
  const counts = await eachLine(a.inFiles, out, a.json, (text, file, line) => {
    const { rec, e: explanation } = readLine(text);
    if (rec.name !== target.name || rec.kind !== target.kind) return;
    candidates++;
    const d = diff(explanation, target);
    if (best === null || d.changes.length < best.diff.changes.length) best = { file, line, call: rec, explanation, diff: d };
    return d.same ? "stop" : undefined;
  });
  const found = best;
  const seen = found !== null && found.diff.same;
  if (a.json) {
    out.record({
      call: target, seen, candidates,
      nearest: found && { file: found.file, line: found.line, explanation: found.explanation, diff: found.diff },
    });
  } else {
    out.line(`call       ${target.name}  ${target.fingerprint}`);
    out.line(`           ${target.canonical}`);
    if (found === null) {
      out.line(`unseen     no recorded call of ${JSON.stringify(target.name)} (kind ${target.kind})`);
    } else if (seen) {
      out.line(`seen       ${found.file}:${found.line} has this fingerprint`);
    } else {
      out.line(`unseen     no recorded call has this fingerprint (recorded calls of ${target.name}: ${candidates})`);
      out.line(`nearest    ${found.file}:${found.line}  ${found.explanation.fingerprint}`);
      out.line(`           ${found.explanation.canonical}`);
      out.line(`changes    ${found.diff.changes.length} (before: the recording, after: this call)`);
      for (const l of changeLines(found.diff)) out.line(l);
      const mine = selectionName(call), theirs = selectionName(found.call);
      if (mine !== theirs) out.line(`note       selection differs: this call has ${mine}, the recording ${theirs}`);
      if (!call.matchOn) {
        out.line("hint       if a changed key is noise (a request id, a timestamp, a cursor), leave it out with ignoreArgs or matchOn");
      }
    }
  }
  await out.flush();
  return finish(counts);
}

function finish(c: Counts): number {
  if (c.failed) warn(`${c.failed} of ${c.lines} lines failed`);
  return c.failed || c.fileErrors ? 1 : 0;
}

async function main(argv: string[]): Promise<number> {
  let a: Args;
  try {
    a = parseArgs(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      warn(`error: ${err.message} (see --help)`);
      return 2;
    }
    throw err;
  }
  if (a.version) {
    process.stdout.write(cliText("version", "", PROG, PACKAGE_VERSION));
    return 0;
  }
  if (a.command === "help") {
    const topic = a.files[0];
    const text = topic === undefined ? null : help(topic);
    process.stdout.write(text ?? help("main")!);
    return topic !== undefined && text === null ? 2 : 0;
  }
  if (a.help) {
    process.stdout.write(help(a.command === "fingerprint" ? "main" : a.command)!);
    return 0;
  }
  if (a.files.length === 0 && a.command !== "why") {
    if (a.command === "fingerprint") {
      process.stderr.write(help("main")!);
      return 2;
    }
    warn(`error: ${a.command} needs a FILE (- for standard input) (see --help)`);
    return 2;
  }
  if (process.stderr.isTTY) progress = new Progress();
  const out = new Output();
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(process.exitCode ?? 0); // the reader left (| head): stop quietly
    throw err;
  });
  try {
    switch (a.command) {
      case "explain": return await runExplain(a, out);
      case "verify": return await runVerify(a, out);
      case "why": return await runWhy(a, out);
      default: return await runFingerprint(a, out);
    }
  } catch (err) {
    if (err instanceof UsageError) {
      warn(`error: ${err.message}`);
      return 2;
    }
    throw err;
  } finally {
    progress?.clear();
  }
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; });
