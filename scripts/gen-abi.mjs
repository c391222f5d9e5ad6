// Generates the hosts' copies of the ABI from its one definition,
// assembly/abi.ts (flags, layouts, value-stream tags, parts, error codes and
// messages), plus the ABI identity the core exports and the hosts check:
//   assembly/_abi_id.gen.ts                  ABI_ID for the core's abiId() export
//   assembly/_limit_words.gen.ts             the limit errors' words, for the messages limits.ts writes
//   src/_abi.gen.ts                          TypeScript SDK
//   python/overturn/fingerprint/_abi.py      Python SDK
//   bench/_abi.gen.mjs                       the benchmark harness (plain JS)
//   go/internal/abi/abi_gen.go               Go SDK (and its CLI)
// Each host gets the constants, the error table, the part names and the table
// of request kinds (abi.ts "request:" lines); a new host adds an emitter here.
// ABI_ID is the first 20 bits of SHA-256 over abi.ts: a positive i32 in every
// host, and a 3-byte constant in the fingerprint module, whose 48 KiB ceiling
// is nearly spent (one mismatched build in a million would pass unnoticed).
//   node scripts/gen-abi.mjs           write the files
//   node scripts/gen-abi.mjs --check   fail (exit 1) when a written file is stale
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeOrCheck } from "./_generated.mjs";

const root = new URL("..", import.meta.url).pathname;
const SOURCE = "assembly/abi.ts";
const text = readFileSync(join(root, SOURCE), "utf8").replace(/\r\n/g, "\n");
const ABI_ID = parseInt(createHash("sha256").update(text).digest("hex").slice(0, 5), 16);

const consts = [];
const errors = [];
const words = [];
const strings = [];
for (const line of text.split("\n")) {
  const str = /^export const ([A-Z][A-Z0-9_]*): string = ("[ -~]*");$/.exec(line);
  if (str) { strings.push([str[1], JSON.parse(str[2])]); continue; }
  const m = /^export const ([A-Z][A-Z0-9_]*): [iu](?:8|32) = (\d+);\s*(?:\/\/\s*(.*))?$/.exec(line);
  if (!m) {
    if (line.startsWith("export")) throw new Error(`${SOURCE}: cannot read "${line}"`);
    continue;
  }
  const [, name, value, comment = ""] = m;
  consts.push([name, Number(value)]);
  const e = /^error: ([a-z0-9-]+) \| (.+)$/.exec(comment);
  if (e) errors.push({ status: Number(value), code: e[1], message: e[2] });
  const w = /^word: ([a-z0-9-]+|-) \| (.+)$/.exec(comment);
  if (w) words.push({ id: Number(value), code: w[1], template: w[2] });
}
// Each area of the core owns a range of word ids: the unused ids between them are empty entries.
for (let i = 0; i < words.length; i++) if (words[i].id > i + 1 && words[i].id > words[i - 1]?.id) words.splice(i, 0, { id: i + 1, code: "-", template: "" });
words.forEach((w, i) => {
  if (w.id !== i + 1) throw new Error(`${SOURCE}: word ids must be 1..n, in order (${w.template})`);
  if (!/^[\x20-\x7e]*$/.test(w.template)) throw new Error(`${SOURCE}: a word template is ASCII (${w.template})`);
  // Each parameter at most once: a message is then at most its template + the parameters' bytes (base/words.ts).
  for (const k of ["{1}", "{2}", "{3}", "{4}", "{5}"]) {
    if (w.template.split(k).length > 2) throw new Error(`${SOURCE}: ${k} twice in a word template (${w.template})`);
  }
});
// Request kinds ("// request: name | module | flags | optional flags | parts | result" lines).
const value = Object.fromEntries(consts);
const PART_NAMES = ["kind", "name", "matchOn", "ignoreArgs", "args"];
const requests = [];
for (const line of text.split("\n")) {
  const m = /^\/\/ request: (.*)$/.exec(line);
  if (!m) continue;
  const f = m[1].split("|").map((x) => x.trim());
  if (f.length !== 6) throw new Error(`${SOURCE}: a request line has six fields: ${line}`);
  const [name, module, always, optional, partText, resultText] = f;
  const flagsOf = (t) => t.split(/\s+/).filter(Boolean).reduce((acc, n) => {
    if (!n.startsWith("F_") || value[n] === undefined) throw new Error(`${SOURCE}: request ${name}: unknown flag ${n}`);
    return acc | value[n];
  }, 0) >>> 0;
  if (!/^[a-z][A-Za-z]*$/.test(name) || !["fingerprint", "engine"].includes(module)) throw new Error(`${SOURCE}: bad request line: ${line}`);
  const pairs = (t, keys) => Object.fromEntries(t.split(/\s+/).filter(Boolean).map((p) => {
    const [k, v] = p.split("=");
    if (!keys.includes(k) || !v) throw new Error(`${SOURCE}: request ${name}: cannot read ${p}`);
    return [k, v];
  }));
  const parts = pairs(partText, PART_NAMES), result = pairs(resultText, ["text", "digest", "words"]);
  // What a host's one request routine needs besides: each u32 part's fields in order (a
  // constant's name is its fixed value), and the result's u32 words at RESULT_DIGEST by name
  // ("CLI": the RESULT_CLI_* words).
  const u32 = Object.fromEntries(Object.entries(parts).filter(([, v]) => v.startsWith("u32:"))
    .map(([k, v]) => [k, v.slice(4).split(",").map((f) => (value[f] !== undefined ? value[f] : f))]));
  const cli = consts.filter(([n]) => n.startsWith("RESULT_CLI_"));
  if (cli.some(([, v], i) => v !== value.RESULT_DIGEST + 4 * i)) throw new Error(`${SOURCE}: RESULT_CLI_* are not u32 words from RESULT_DIGEST`);
  const words = !result.words ? [] : result.words === "CLI" ? cli.map(([n]) => n.slice(11).toLowerCase()) : result.words.split(",");
  requests.push({ name, module, flags: flagsOf(always), optional: flagsOf(optional), parts, result, u32, words });
}
if (requests.length === 0) throw new Error(`${SOURCE}: no request lines`);
const pyDict = (o) => `{${Object.entries(o).map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(", ")}}`;
const goMap = (o) => `map[string]string{${Object.entries(o).map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(", ")}}`;
const goU32 = (o) => `map[string][]string{${Object.entries(o).map(([k, v]) => `${JSON.stringify(k)}: {${v.map((f) => JSON.stringify(String(f))).join(", ")}}`).join(", ")}}`;
const goWords = (w) => `[]string{${w.map((x) => JSON.stringify(x)).join(", ")}}`;
const upper = (n) => n.replace(/[A-Z]/g, (c) => "_" + c).toUpperCase();

errors.sort((a, b) => a.status - b.status);
errors.forEach((e, i) => {
  if (e.status !== i + 1) throw new Error(`${SOURCE}: error codes must be 1..n without gaps (${e.code})`);
});
const parts = consts.filter(([n]) => n.startsWith("PART_")).sort((a, b) => a[1] - b[1])
  .map(([n]) => n.slice(5).toLowerCase().replace(/_([a-z])/g, (_, c) => c.toUpperCase()).replace("Json", "JSON"));
const hex = "0x" + ABI_ID.toString(16).padStart(8, "0");
const head = (c) => `${c} GENERATED by scripts/gen-abi.mjs from ${SOURCE} — do not edit.`;

const ts = `${head("//")}
// The core's ABI for the TypeScript host; abiId() of the module must equal ABI_ID.
export const ABI_ID = ${hex};
${consts.map(([n, v]) => `export const ${n} = ${v};`).join("\n")}
${strings.map(([n, v]) => `export const ${n} = ${JSON.stringify(v)};`).join("\n")}
/** Core status 1..${errors.length} → [FingerprintError.code, reason]. */
export const CORE_ERRORS = [
${errors.map((e) => `  [${JSON.stringify(e.code)}, ${JSON.stringify(e.message)}],`).join("\n")}
] as const;
/** PART_* values → names, for error messages. */
export const PARTS = ${JSON.stringify(parts)} as const;
/** Word id 1..${words.length} → the FingerprintError.code of the error the core words ("-": a frame). */
export const WORD_CODES = ${JSON.stringify(words.map((w) => w.code))} as const;
/**
 * Request kinds (abi.ts "request:" lines): each operation's flags always set (RQ_*), flags a caller may add,
 * parts, result; u32: each u32 part's fields (a number: its fixed value); words: the result's u32 words at RESULT_DIGEST.
 */
${requests.map((r) => `export const RQ_${upper(r.name)} = ${r.flags};`).join("\n")}
export const REQUESTS = {
${requests.map((r) => `  ${r.name}: { module: ${JSON.stringify(r.module)}, flags: ${r.flags}, optional: ${r.optional}, parts: ${JSON.stringify(r.parts)}, result: ${JSON.stringify(r.result)}, u32: ${JSON.stringify(r.u32)}, words: ${JSON.stringify(r.words)} },`).join("\n")}
} as const;
`;

const mjs = ts.replace(/ as const;/g, ";").replace(/\/\*\* (.*) \*\//g, "// $1");

const py = `${head("#")}
"""The core's ABI for the Python host; abiId() of the module must equal ABI_ID."""
ABI_ID = ${hex}
${consts.map(([n, v]) => `${n} = ${v}`).join("\n")}
${strings.map(([n, v]) => `${n} = ${JSON.stringify(v)}`).join("\n")}
#: Core status 1..${errors.length} → (FingerprintError.code, reason).
CORE_ERRORS = (
${errors.map((e) => `    (${JSON.stringify(e.code)}, ${JSON.stringify(e.message)}),`).join("\n")}
)
#: PART_* values → names, for error messages.
PARTS = (${parts.map((p) => JSON.stringify(p)).join(", ")},)
#: Word id 1..${words.length} → the FingerprintError.code of the error the core words ("-": a frame).
WORD_CODES = (${words.map((w) => JSON.stringify(w.code)).join(", ")},)
#: Request kinds (abi.ts "request:" lines): each operation's flags always set (RQ_*), flags a caller may add,
#: parts, result; u32: each u32 part's fields (a number: its fixed value); words: the result's u32 words at RESULT_DIGEST.
${requests.map((r) => `RQ_${upper(r.name)} = ${r.flags}`).join("\n")}
REQUESTS = {
${requests.map((r) => `    ${JSON.stringify(r.name)}: {"module": ${JSON.stringify(r.module)}, "flags": ${r.flags}, "optional": ${r.optional}, "parts": ${pyDict(r.parts)}, "result": ${pyDict(r.result)}, "u32": ${pyDict(r.u32)}, "words": (${r.words.map((w) => JSON.stringify(w) + ",").join(" ")})},`).join("\n")}
}
`;

// Go: exported names in an internal package (the module's users never see them), aligned as gofmt does.
const goPad = Math.max(...[...consts, ...strings].map(([n]) => n.length));
const goSrc = `// Code generated by scripts/gen-abi.mjs from ${SOURCE}; DO NOT EDIT.

// Package abi is the core's ABI for the Go host; abiId() of the module must equal ABI_ID.
package abi

const ABI_ID = ${hex}

// PACKAGE_VERSION is package.json's version, which the CLI prints (--version).
const PACKAGE_VERSION = ${JSON.stringify(JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version)}

const (
${[...consts, ...strings.map(([n, v]) => [n, JSON.stringify(v)])].map(([n, v]) => `\t${n.padEnd(goPad)} = ${v}`).join("\n")}
)

// CoreErrors maps core status 1..${errors.length} to FingerprintError.Code and the reason.
var CoreErrors = [...][2]string{
${errors.map((e) => `\t{${JSON.stringify(e.code)}, ${JSON.stringify(e.message)}},`).join("\n")}
}

// WordCodes maps word id 1..${words.length} (W_*) to FingerprintError.Code ("-": a frame of a core error).
var WordCodes = [...]string{${words.map((w) => JSON.stringify(w.code)).join(", ")}}

// RequestKind is one operation a host can ask (abi.ts "request:" lines).
type RequestKind struct {
\tModule   string
\tFlags    uint32 // always set
\tOptional uint32 // a caller may add
\tParts    map[string]string
\tResult   map[string]string
\tU32      map[string][]string // each u32 part's fields (a number: its fixed value)
\tWords    []string            // the result's u32 words at RESULT_DIGEST
}

// Request kinds: flags always set (RQ_*) and the whole table.
const (
${requests.map((r) => `\tRQ_${upper(r.name).padEnd(Math.max(...requests.map((q) => upper(q.name).length)))} = ${r.flags}`).join("\n")}
)

var RequestKinds = map[string]RequestKind{
${requests.map((r) => `\t${(JSON.stringify(r.name) + ":").padEnd(Math.max(...requests.map((q) => q.name.length)) + 3)} {${JSON.stringify(r.module)}, ${r.flags}, ${r.optional}, ${goMap(r.parts)}, ${goMap(r.result)}, ${goU32(r.u32)}, ${goWords(r.words)}},`).join("\n")}
}
`;

const as = `${head("//")}
// The ABI identity exported as abiId() (assembly/entry/fingerprint.ts).
export const ABI_ID: i32 = ${hex};
${strings.map(([n, v]) => `
// ${n} (abi.ts) as UTF-8 bytes in static data, and their count.
export function ${n.toLowerCase().replace(/_([a-z])/g, (_, c) => c.toUpperCase())}Bytes(): usize {
  return memory.data<u8>([${[...Buffer.from(v)].join(", ")}]);
}
export const ${n}_LEN: usize = ${Buffer.byteLength(v)};
`).join("")}`;

// The error table for the core's own messages (the CLI engine, assembly/cli/):
// switch over string literals, so they live in static data (no runtime strings).
const asErrors = `${head("//")}
// Core status → FingerprintError.code and reason, for messages the core writes
// itself (assembly/cli/message.ts). Diagnostics module only.
export function errorCode(status: i32): string {
  switch (status) {
${errors.map((e) => `    case ${e.status}: return ${JSON.stringify(e.code)};`).join("\n")}
    default: return "bad-request";
  }
}

export function errorReason(status: i32): string {
  switch (status) {
${errors.map((e) => `    case ${e.status}: return ${JSON.stringify(e.message)};`).join("\n")}
    default: return "malformed request to the core";
  }
}
`;

// The limit errors' messages, which the core writes whole (limits.ts):
//   "limit exceeded: <reason>[ at byte N] (<the limit's name> is <its value>)"
// as UTF-8 byte strings, [length][bytes] each, in one block of static data
// (a byte a character: both modules carry them, and the fingerprint
// module's 48 KiB ceiling leaves no room for UTF-16 string literals): the
// frame's "limit exceeded: " and " at byte ", then per status its reason
// and " (<name> is ".
// (A limit-exceeded error that names no one limit, such as the marshal reader's
// shared-container budget, keeps its whole message in the error table.)
const limitErrors = errors.filter((e) => e.code === "limit-exceeded" && /\bmax[A-Za-z]+ limit\b/.test(e.message));
const counted = (t) => [t.length, ...Buffer.from(t)];
const limitBlock = [...counted("limit exceeded: "), ...counted(" at byte ")];
const limitAt = limitErrors.map((e) => {
  const name = /\b(max[A-Za-z]+) limit\b/.exec(e.message)?.[1];
  if (!name) throw new Error(`${SOURCE}: a limit-exceeded message must name "the maxX limit" (${e.message})`);
  const at = limitBlock.length;
  limitBlock.push(...counted(e.message), ...counted(` (${name} is `));
  return [e.status, at];
});
const asLimits = `${head("//")}
// The limit errors' messages (abi.ts, code "limit-exceeded") in pieces of
// UTF-8, [length][bytes] each: "limit exceeded: ", " at byte ", then per
// status its reason and " (<name> is ". For limits.ts.
export function limitFrame(): usize {
  return memory.data<u8>([${limitBlock.join(", ")}]);
}

/** The status's pieces (its reason, then " (<name> is "). */
export function limitWords(status: i32): usize {
  return limitFrame() + (${limitAt.slice(0, -1).map(([st, at]) => `status == ${st} ? ${at} : `).join("")}${limitAt[limitAt.length - 1][1]});
}
`;

// Every message the core words (base/words.ts), as one block of static
// data: [length][bytes] per entry — first the phrases, then the reasons of
// statuses 1..n, then the word templates 1..m. In an entry, a parameter {k}
// is the byte k and the byte 0x80 + j stands for phrase j: phrases shared by
// the messages, picked greedily here, keep the fingerprint module within its
// 48 KiB (a list the core matches bytes against, a frame without
// parameters, stays plain).
const texts = [...errors.map((e) => [e.message, true]), ...words.map((w) => [w.template, w.code !== "-" || /\{[1-5]\}/.test(w.template)])]
  .map(([t, packed]) => {
    if (Buffer.byteLength(t) > 255) throw new Error(`${SOURCE}: a message of more than 255 bytes (${t})`);
    return [t.replace(/\{([1-5])\}/g, (_, k) => String.fromCharCode(Number(k))), packed];
  });
const phrases = [];
for (;;) {
  const count = new Map();
  for (const [t, packed] of texts) {
    if (!packed) continue;
    for (let i = 0; i < t.length; i++) {
      for (let n = 3; n <= 40 && i + n <= t.length; n++) {
        const p = t.slice(i, i + n);
        if (/[^\x20-\x7e]/.test(p)) break;
        count.set(p, (count.get(p) ?? 0) + 1);
      }
    }
  }
  let best = "", gain = 2;
  for (const [p, c] of count) if (c * (p.length - 1) - p.length - 1 > gain) { best = p; gain = c * (p.length - 1) - p.length - 1; }
  if (best === "" || phrases.length === 127) break;
  const code = String.fromCharCode(0x80 + phrases.length);
  phrases.push(best);
  for (const e of texts) if (e[1]) e[0] = e[0].split(best).join(code);
}
const wordBlock = [];
for (const t of [...phrases, ...texts.map(([t]) => t)]) wordBlock.push(t.length, ...Buffer.from(t, "latin1"));
const asWords = `${head("//")}
// The core's messages (abi.ts): [length][bytes] per entry, ${phrases.length} phrases, the
// reasons of statuses 1..${errors.length}, then the word templates 1..${words.length} ({k}: the
// byte k; 0x80 + j: phrase j). For base/words.ts.
export const PHRASE_COUNT: i32 = ${phrases.length};
export const STATUS_COUNT: i32 = ${errors.length};
export const WORD_COUNT: i32 = ${words.length};
export function wordBlock(): usize {
  return memory.data<u8>([${wordBlock.join(", ")}]);
}
`;

const outputs = {
  "assembly/_words.gen.ts": asWords,
  "assembly/_abi_id.gen.ts": as,
  "assembly/_limit_words.gen.ts": asLimits,
  "assembly/cli/_errors.gen.ts": asErrors,
  "src/_abi.gen.ts": ts,
  "python/overturn/fingerprint/_abi.py": py,
  "bench/_abi.gen.mjs": mjs,
  "go/internal/abi/abi_gen.go": goSrc,
};

writeOrCheck(root, outputs, "ABI", "gen-abi.mjs", `ABI files are current (ABI_ID ${hex})`);
