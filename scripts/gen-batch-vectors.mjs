// Writes vectors/batch.vectors.json: batches of names and JSON texts with
// shared options, and what each SDK's batch of texts must give, item by item
// (a fingerprint, or null for a bad item with onError "null"), and the error
// its first bad item raises otherwise (its index, the "item N: " its message
// starts with, and where the oracle words it, the whole message). Expected
// values come from the independent oracle (test/reference/contract.mjs,
// limits.mjs), never the core. Read by test/batch-vectors.test.ts and
// python/tests/test_batch_vectors.py.
//
// A case's items: `items` ([name, text]; a text {"bytesHex"} is bytes, which
// may start with a BOM, D12), or `fill` (count copies of one item) with
// `set` (index → item) over it; `want` alike (a fingerprint or null per item).
//   node scripts/gen-batch-vectors.mjs           write
//   node scripts/gen-batch-vectors.mjs --check   exit 1 when the file is stale
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { FINGERPRINT_VERSION, OracleError, fingerprintOfText } from "../test/reference/contract.mjs";
import { textLimitError } from "../test/reference/limits.mjs";
import { BATCH_CHUNK_ITEMS as CHUNK_ITEMS } from "../bench/_abi.gen.mjs"; // the cases cross a chunk

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const PATH = resolve(ROOT, "vectors/batch.vectors.json");

const bytes = (s) => ({ bytesHex: Buffer.from(s, "utf8").toString("hex") });
const BOM = "\ufeff";
const record = (i) => JSON.stringify({ id: i, note: ` row ${i} `, tags: ["a", "b"], ratio: i / 7, text: "x".repeat(1400) });
// 12.5 KB in, 55 KB canonical (1e20 is 21 digits): more than all the room a chunk of these has for preimages.
// Not ASCII, so each SDK sends the texts with their exact lengths (offsets), as the core then sizes the room.
const wide = `["\u00e9",${Array(2500).fill("1e20").join(",")}]`;

const CASES = [
  { id: "shared-options", why: "a shared kind and matchOn apply to every item (D9, D17)",
    items: [["search", '{"q":"a","page":1}'], ["search", '{"q":"a","page":2}'], ["lookup", '{"page":3,"q":" b "}']],
    options: { kind: "query", matchOn: ["q"] } },
  { id: "shared-ignore-args", why: "a shared ignoreArgs drops keys from every item",
    items: [["t", '{"a":1,"ts":5}'], ["t", '{"a":1,"ts":6}'], ["t", "[1,2]"]], options: { ignoreArgs: ["ts"] } },
  { id: "non-ascii", why: "names and texts beyond ASCII, escaped and not, in one chunk",
    items: [["r\u00e9sum\u00e9", '{"k":"\u00e9\u{1F600}"}'], ["t", '{"k":"\\u00e9"}'], ["\u{1F600}", '["\u4e2d"]'], ["t", "{}"]] },
  { id: "strings-and-bytes", why: "one chunk of strings and bytes: bytes may start with a BOM, a string may not (D12)",
    items: [["t", "{}"], ["t", bytes(`${BOM}{"a":1}`)], ["t", `${BOM}{}`], ["t", bytes('{"b":2}')], ["t", "[1]"]] },
  { id: "bad-items", why: "every sort of bad text is null, the rest computed; the first one raises",
    items: [["t", "[1]"], ["t", "{"], ["t", ""], ["t", '{"a":1,}'], ["t", "[2]"]] },
  { id: "limits", why: "the batch's limits hold for each item, worded as the oracle words them",
    items: [["t", "[[1]]"], ["t", "[[[[1]]]]"], ["t", '{"a":[1]}']], options: { limits: { maxDepth: 3 } } },
  { id: "chunk-crossing", why: "more items than a chunk: indexes and order hold across chunks",
    fill: { count: CHUNK_ITEMS + 5, item: ["tool", '{"q":"same"}'] },
    set: { 7: ["tool", '{"q":"other"}'], [CHUNK_ITEMS + 1]: ["tool", '{"q":'], [CHUNK_ITEMS + 3]: ["other", '{"q":"same"}'] } },
  { id: "preimage-past-the-room", why: "items whose canonical text outgrows their input (1e20 is 21 digits), around a long item",
    items: [["t", wide], ["t", record(1)], ["t", wide], ["t", record(2)], ["t", "{"]] },
];

/** The oracle's answer for one item: its fingerprint, or the error (its message where the oracle words it). */
function answer([name, text], options) {
  const argsJSON = typeof text === "string" ? text : Uint8Array.from(Buffer.from(text.bytesHex, "hex"));
  try {
    const fp = fingerprintOfText({ kind: options.kind, name, argsJSON, matchOn: options.matchOn, ignoreArgs: options.ignoreArgs });
    const over = options.limits && typeof argsJSON === "string" ? textLimitError(argsJSON, options.limits) : null;
    return over ? { error: over } : { fingerprint: fp.fingerprint };
  } catch (e) {
    if (!(e instanceof OracleError)) throw e;
    return { error: {} };
  }
}

function itemsOf(c) {
  if (c.items) return c.items;
  const items = Array(c.fill.count).fill(c.fill.item);
  for (const [i, item] of Object.entries(c.set)) items[Number(i)] = item;
  return items;
}

const vectors = CASES.map((c) => {
  const options = c.options ?? {};
  const answers = itemsOf(c).map((item) => answer(item, options));
  const want = answers.map((a) => a.fingerprint ?? null);
  const first = answers.findIndex((a) => a.error);
  const error = first < 0 ? null : { index: first, messageStarts: `item ${first}: ` };
  if (error && answers[first].error.message) {
    error.code = answers[first].error.code;
    error.message = `item ${first}: ${answers[first].error.message}`;
  }
  const out = { id: c.id, why: c.why };
  if (c.items) Object.assign(out, { items: c.items, options, want });
  else {
    const fillWant = answer(c.fill.item, options).fingerprint;
    const set = Object.fromEntries(Object.keys(c.set).map((i) => [i, want[Number(i)]]));
    Object.assign(out, { fill: c.fill, set: c.set, options, want: { fill: fillWant, set } });
  }
  return Object.assign(out, { error });
});

const text = JSON.stringify({
  FINGERPRINT_VERSION,
  about: "Batches of names and JSON texts (shared options; TypeScript option names, Python: match_on, ignore_args, max_depth) and what each item gives (null: a bad item, with onError \"null\"), and the error the first bad item raises. Generated by scripts/gen-batch-vectors.mjs from test/reference/.",
  vectors,
}, null, 2) + "\n";

if (process.argv.includes("--check")) {
  let old = "";
  try { old = readFileSync(PATH, "utf8"); } catch { /* missing: stale */ }
  if (old !== text) {
    console.error("vectors/batch.vectors.json is stale: run node scripts/gen-batch-vectors.mjs");
    process.exit(1);
  }
} else {
  writeFileSync(PATH, text);
  console.log(`wrote ${PATH}: ${vectors.length} cases`);
}
