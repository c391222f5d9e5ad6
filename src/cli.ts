/**
 * `overturn-fingerprint FILE.jsonl…` — prints one fingerprint per tool call.
 * Each line is a JSON object: {"name": "...", "args": <value>} or
 * {"name": "...", "argsJSON": "<JSON text>"} (e.g. an LLM's `arguments` string), with
 * optional "kind", "matchOn", "ignoreArgs". Output: `<hex>  <name>` per line.
 * Reads standard input when FILE is "-". Exit status 1 if any line failed.
 * @module
 */
import { readFileSync } from "node:fs";
import { FINGERPRINT_VERSION, FingerprintError, fingerprint, fingerprintJSON, type FingerprintOptions } from "./index.js";

const USAGE = `usage: overturn-fingerprint FILE.jsonl [FILE.jsonl …]   (- for stdin)
Prints "<sha256 hex>  <name>" for every tool call line (fingerprint contract v${FINGERPRINT_VERSION}).`;

function main(argv: string[]): number {
  if (argv.length === 0 || argv.includes("-h") || argv.includes("--help")) {
    console.log(USAGE);
    return argv.length === 0 ? 2 : 0;
  }
  let failed = 0;
  const out: string[] = [];
  for (const file of argv) {
    let text: string;
    try {
      text = readFileSync(file === "-" ? 0 : file, "utf8");
    } catch (err) {
      console.error(`${file}: ${(err as Error).message}`);
      failed++;
      continue;
    }
    const lines = text.split("\n");
    lines.forEach((line, i) => {
      if (line.trim() === "") return;
      const where = `${file}:${i + 1}`;
      try {
        out.push(fingerprintLine(line));
      } catch (err) {
        failed++;
        const msg = err instanceof FingerprintError || err instanceof SyntaxError ? err.message : String(err);
        console.error(`${where}: ${msg}`);
      }
    });
  }
  if (out.length) process.stdout.write(out.join("\n") + "\n");
  return failed ? 1 : 0;
}

function fingerprintLine(line: string): string {
  const call = JSON.parse(line) as Record<string, unknown>;
  if (typeof call !== "object" || call === null || Array.isArray(call)) throw new SyntaxError("a line must be a JSON object");
  const name = call.name;
  if (typeof name !== "string") throw new SyntaxError('missing "name" (a string)');
  const options: FingerprintOptions = {};
  if (call.kind !== undefined) options.kind = call.kind as string;
  if (call.matchOn !== undefined) options.matchOn = call.matchOn as string[];
  if (call.ignoreArgs !== undefined) options.ignoreArgs = call.ignoreArgs as string[];
  const hex = typeof call.argsJSON === "string"
    ? fingerprintJSON(name, call.argsJSON, options)
    : fingerprint(name, call.args, options);
  return `${hex}  ${name}`;
}

process.exitCode = main(process.argv.slice(2));
