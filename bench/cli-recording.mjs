// A deterministic recording for the CLI bench: tool calls of
// ~215 bytes with an `ignoreArgs`, like a day of an agent's traffic. Made on
// demand, never committed.   node bench/cli-recording.mjs OUT.jsonl [LINES]
import { createWriteStream } from "node:fs";
import { pathToFileURL } from "node:url";

const TOOLS = ["search_docs", "create_ticket", "get_weather", "send_email", "lookup_customer", "list_orders"];
const WORDS = ["refund", "policy", "login", "error", "invoice", "shipping", "password", "reset", "billing", "account"];

/** Line i of the recording (a small LCG keeps it deterministic without a dependency). */
export function recordingLine(i) {
  let s = (i * 2654435761) >>> 0;
  const r = (n) => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return s % n; };
  const tool = TOOLS[i % TOOLS.length];
  const q = Array.from({ length: 3 + r(3) }, () => WORDS[r(WORDS.length)]).join(" ");
  const args = {
    query: ` ${q} `, limit: 10 + r(40), lang: ["en", "de", "fr"][r(3)],
    filters: { since: `2024-0${1 + r(9)}-1${r(9)}`, tag: WORDS[r(10)] },
    requestId: `req-${i.toString(16).padStart(8, "0")}`, ts: 1717000000000 + i,
  };
  return JSON.stringify({ name: tool, args, ignoreArgs: ["requestId", "ts"] }) + "\n";
}

/** Writes `lines` lines to `path`; resolves with the byte count. */
export async function writeRecording(path, lines) {
  const out = createWriteStream(path);
  let bytes = 0, batch = "";
  for (let i = 0; i < lines; i++) {
    batch += recordingLine(i);
    if (batch.length > 1 << 20) {
      bytes += Buffer.byteLength(batch);
      if (!out.write(batch)) await new Promise((res) => out.once("drain", res));
      batch = "";
    }
  }
  bytes += Buffer.byteLength(batch);
  out.end(batch);
  await new Promise((res) => out.on("finish", res));
  return bytes;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const bytes = await writeRecording(process.argv[2], Number(process.argv[3] ?? 200_000));
  console.log(`${process.argv[2]}: ${bytes} bytes`);
}
