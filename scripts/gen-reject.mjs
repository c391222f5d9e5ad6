// Generates vectors/reject.jsonl: malformed JSON documents (as UTF-8 bytes in
// hex) that every reader of fingerprint contract v1 must reject (D12 strict
// RFC 8259 + RFC 3629 UTF-8 with D14's encoded surrogates; D19: an error,
// never a crash). Run: node scripts/gen-reject.mjs
//
// One line per case: {"id","hex","why"}. Deterministic: fixed lists plus a
// seeded PRNG (splitmix64) for random mutations. Every line is asserted to be
// rejected by the independent oracle's parseJSONText
// (test/reference/contract.mjs); a duplicate document keeps its first id.

import { writeFileSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseJSONText } from "../test/reference/contract.mjs";
import { splitmix64 } from "./_prng.mjs";

export const REJECT_PATH = resolve(dirname(fileURLToPath(import.meta.url)), "../vectors/reject.jsonl");

const utf8 = (text) => Buffer.from(text, "utf8");
const cat = (...parts) => Buffer.concat(parts.map((p) => (typeof p === "string" ? utf8(p) : Buffer.from(p))));

function rejects(bytes) {
  try {
    parseJSONText(new Uint8Array(bytes));
    return false;
  } catch (e) {
    if (e.name !== "OracleError") throw e;
    return true;
  }
}


function cases() {
  const out = [];
  const add = (id, bytes, why) => out.push({ id, bytes: Buffer.isBuffer(bytes) ? bytes : cat(bytes), why });

  // Truncations at every byte of valid container documents: every proper
  // prefix is unclosed (or cuts a UTF-8 sequence), so each must be rejected.
  const DOCS = {
    a: '{"id":"T-1","n":[1,-2.5e+3,0.25,true,false,null],"s":"é\\u00e9😀\\n"}',
    b: '[{"a":{"b":[]}},"x\\"y",-0.0e-0,{"":{}},"\\ud83d\\ude00"]',
    c: '{"k":"中文","deep":[[[[{"z":NaN,"w":-Infinity}]]]]}',
  };
  for (const [name, doc] of Object.entries(DOCS)) {
    const full = utf8(doc);
    if (rejects(full)) throw new Error(`truncation source ${name} is not valid`);
    for (let n = 0; n < full.length; n++) {
      add(`trunc-${name}-${String(n).padStart(3, "0")}`, full.subarray(0, n), `document ${name} truncated to ${n} of ${full.length} bytes`);
    }
  }

  // Invalid UTF-8 (RFC 3629 §4; encoded surrogates ED A0–BF are allowed by D14).
  const BAD_UTF8 = [
    ["cont-80", [0x80], "lone continuation byte"], ["cont-bf", [0xbf], "lone continuation byte"],
    ["cont-run", [0x80, 0x80, 0x80], "run of continuation bytes"], ["lead-c0", [0xc0, 0x80], "overlong 2-byte (C0)"],
    ["lead-c1", [0xc1, 0xbf], "overlong 2-byte (C1)"], ["overlong-3-nul", [0xe0, 0x80, 0x80], "overlong 3-byte U+0000"],
    ["overlong-3-7ff", [0xe0, 0x9f, 0xbf], "overlong 3-byte U+07FF"], ["overlong-4-nul", [0xf0, 0x80, 0x80, 0x80], "overlong 4-byte U+0000"],
    ["overlong-4-ffff", [0xf0, 0x8f, 0xbf, 0xbf], "overlong 4-byte U+FFFF"], ["above-10ffff", [0xf4, 0x90, 0x80, 0x80], "U+110000"],
    ["f5", [0xf5, 0x80, 0x80, 0x80], "lead F5"], ["f7", [0xf7, 0xbf, 0xbf, 0xbf], "lead F7 (U+1FFFFF)"], ["f8", [0xf8, 0x88, 0x80, 0x80, 0x80], "5-byte form"],
    ["fc", [0xfc, 0x84, 0x80, 0x80, 0x80, 0x80], "6-byte form"], ["fe", [0xfe], "byte FE"], ["ff", [0xff], "byte FF"],
    ["trunc-2", [0xc3], "2-byte sequence missing its continuation"], ["trunc-3a", [0xe2], "3-byte sequence missing two bytes"],
    ["trunc-3b", [0xe2, 0x82], "3-byte sequence missing one byte"], ["trunc-4a", [0xf0, 0x9f], "4-byte sequence missing two bytes"],
    ["trunc-4b", [0xf0, 0x9f, 0x98], "4-byte sequence missing one byte"], ["trunc-surrogate", [0xed, 0xa0], "encoded surrogate missing a byte"],
    ["bad-second", [0xc3, 0x28], "continuation replaced by ASCII"], ["bad-third", [0xe2, 0x82, 0x28], "third byte not a continuation"],
    ["bad-fourth", [0xf0, 0x9f, 0x98, 0x28], "fourth byte not a continuation"], ["extra-cont", [0xc3, 0xa9, 0x80], "extra continuation"],
    ["latin1-e9", [0xe9], "Latin-1 é"], ["cp1252-quote", [0x93], "CP1252 quote byte"],
  ];
  for (const [name, seq, why] of BAD_UTF8) {
    add(`utf8-value-${name}`, cat('["a', seq, 'b"]'), `${why} inside a string`);
    add(`utf8-key-${name}`, cat('{"', seq, '":1}'), `${why} inside a key`);
    add(`utf8-bare-${name}`, cat("[", seq, "]"), `${why} outside a string`);
  }
  add("utf8-surrogate-outside-string", [0xed, 0xa0, 0x80], "encoded surrogate outside a string");
  add("utf16le-bom", cat([0xff, 0xfe], "{}"), "UTF-16 LE byte order mark");
  add("utf16be-bom", cat([0xfe, 0xff], "{}"), "UTF-16 BE byte order mark");
  add("utf16le-text", utf8("{}").reduce((b, x) => cat(b, [x, 0]), Buffer.alloc(0)), "UTF-16 LE text");

  // Bad escapes (RFC 8259 §7).
  const BAD_ESC = [
    ["x", "\\x41"], ["u-short-2", "\\u12"], ["u-short-3", "\\u123"], ["U-upper", "\\U0041"], ["u-brace", "\\u{41}"], ["a", "\\a"],
    ["zero", "\\0"], ["squote", "\\'"], ["space", "\\ "], ["u-nonhex", "\\u00g0"], ["u-letters", "\\uZZZZ"], ["v", "\\v"],
    ["e", "\\e"], ["newline", "\\\n"], ["u-minus", "\\u-123"], ["u-plus", "\\u+123"],
  ];
  for (const [name, esc] of BAD_ESC) add(`escape-${name}`, `["${esc}"]`, `invalid escape ${JSON.stringify(esc)}`);
  add("escape-at-end", '"abc\\', "backslash at the end of text");
  add("escape-quote-unclosed", '"abc\\"', "escaped quote leaves the string open");
  add("escape-in-key", '{"\\x":1}', "invalid escape in a key");

  // Leading zeros (RFC 8259 §6: int = zero / digit1-9 *DIGIT).
  for (const t of ["01", "-01", "00.5", "00", "-00", "0123", "[01]", '{"a":007}', "-0123.5", "00e1"]) add(`leading-zero-${t}`, t, `leading zero in ${t}`);

  // Bad numbers and non-finite look-alikes (only NaN, Infinity, -Infinity are tolerated).
  const BAD_NUM = [
    "1.", ".5", "+1", "1e", "1e+", "1e-", "-", "--1", "0x10", "1.e5", "-.5", "1.5.5", "1e5e5", "1_000", "0b1", "0o7", ".", "e5",
    "1E", "-e5", "- 1", "1 .5", "1,5", "1.5e", "0.e1", "infinity", "+Infinity", "NaN1", "nan", "NAN", "-NaN", "+NaN", "Inf", "-Inf",
    "INFINITY", "Infinit", "NaN.0", "Infinity1", "1Infinity", "\u221e", "-\u221e", "NaN-", "Infinity-", "--Infinity", "[Infinity,+1]",
    "Nan", "nAN", "-infinity", "InfinityInfinity", "NaNNaN", "1NaN",
  ];
  for (const t of BAD_NUM) add(`number-${Buffer.from(t).toString("hex")}`, t, `not a JSON number: ${JSON.stringify(t)}`);

  // Trailing content.
  const TRAIL = ["{}x", "[]]", "{}}", "1 2", '"a" "b"', "null null", "true false", "{} ,", "[1] [2]", "nullx", "truex", '"a"x', "1a",
    "{}\u0000", "{}//", "0 0", "[]\u00a0", "{}\u3000"];
  for (const t of TRAIL) add(`trailing-${Buffer.from(t).toString("hex")}`, t, `trailing content after a value: ${JSON.stringify(t)}`);

  // Comments.
  const COMMENTS = ["// c\n{}", "{} // c", "/* */{}", "{/* */}", "[1,/*x*/2]", "# c\n{}", "{}/**/", "[1//c\n]", '{"a"/**/:1}', "/**/"];
  for (const [i, t] of COMMENTS.entries()) add(`comment-${i}`, t, `comment: ${JSON.stringify(t)}`);

  // Commas.
  const COMMAS = ["[1,]", '{"a":1,}', "[,1]", "[1,,2]", '{,"a":1}', "[[],]", '{"a":[1,],"b":2}', ",", "[,]", "{,}", '{"a":1,,"b":2}', "1,"];
  for (const [i, t] of COMMAS.entries()) add(`comma-${i}`, t, `misplaced comma: ${t}`);

  // Quotes and keys.
  const QUOTES = ["'a'", "['a']", "{'a':1}", "{\"a\":'b'}", "\"a'", "`a`", "\u201ca\u201d"];
  for (const [i, t] of QUOTES.entries()) add(`quote-${i}`, t, `not a JSON string: ${t}`);
  const KEYS = ["{a:1}", "{$a:1}", "{1:1}", "{true:1}", "{null:1}", '{"a":1,b:2}', "{a b:1}", "{[]:1}", "{{}:1}", "{-1:1}"];
  for (const [i, t] of KEYS.entries()) add(`key-${i}`, t, `object key is not a string: ${t}`);

  // Unescaped control characters inside strings (RFC 8259 §7).
  for (let c = 0; c < 0x20; c++) {
    const h = c.toString(16).padStart(2, "0");
    add(`control-value-${h}`, cat('["a', [c], 'b"]'), `raw U+00${h.toUpperCase()} inside a string`);
  }
  for (const c of [0x00, 0x09, 0x0a, 0x1f]) {
    const h = c.toString(16).padStart(2, "0");
    add(`control-key-${h}`, cat('{"k', [c], '":1}'), `raw U+00${h.toUpperCase()} inside a key`);
  }

  // Empty and whitespace-only text, BOM placement.
  for (const [name, t] of [["empty", ""], ["space", " "], ["mixed-ws", "\t\n\r "], ["newlines", "\n\n\n"]]) add(`empty-${name}`, t, "no value");
  const BOM = [0xef, 0xbb, 0xbf];
  add("bom-only", BOM, "lone BOM: no value");
  add("bom-space", cat(BOM, " "), "BOM then whitespace: no value");
  add("bom-twice", cat(BOM, BOM, "{}"), "second BOM is U+FEFF, not whitespace");
  add("bom-middle", cat("[1,", BOM, "2]"), "BOM between tokens");
  add("bom-after-value", cat("{}", BOM), "BOM after the value");
  add("bom-after-space", cat(" ", BOM, "{}"), "BOM after whitespace");
  add("bom-in-number", cat("1", BOM, "2"), "BOM inside a number");

  // Unclosed and mismatched containers.
  const NEST = ["[[[", '{"a":{"b":{', '[{"a":[', '{"a":[1,{"b":2}]', "[[[[[]]]]", "[}", "{]", '{"a":1]', "[1}", "[", "{", "]", "}",
    '{"a"', '{"a":', "[1", '["a"'];
  for (const [i, t] of NEST.entries()) add(`nest-${i}`, t, `unbalanced containers: ${t}`);
  add("nest-deep-1000-unclosed", "[".repeat(1000), "1,000 unclosed arrays");
  add("nest-deep-1000-objects-unclosed", '{"a":'.repeat(1000), "1,000 unclosed objects");
  add("nest-deep-1000-short-by-one", `${"[".repeat(1000)}${"]".repeat(999)}`, "1,000 arrays, one left open");
  add("nest-deep-1000-extra-close", `${"[".repeat(1000)}${"]".repeat(1001)}`, "1,000 arrays, one close too many");
  add("nest-deep-100000", "[".repeat(100000), "100,000 unclosed arrays (must be an error, not a crash)");

  // Other structure errors.
  const STRUCT = ['{"a" 1}', "[1 2]", '{"a":1 "b":2}', '{"a"}', '{"a":}', "{:1}", '{"a"::1}', "[:]", ":", '{"a":1:2}', '["a":1]', "[1:2]"];
  for (const [i, t] of STRUCT.entries()) add(`struct-${i}`, t, `structure: ${t}`);

  // Seeded random documents, each broken by one mutation that cannot leave it valid.
  const next = splitmix64(0x5eed0fbadc0ffeen);
  const rnd = (n) => Number(next() % BigInt(n));
  const ALPH = ["a", "Z", " ", "é", "中", "😀", "\\n", "\\u00e9", "\\\"", "\\\\", "\\ud83d\\ude00", "/"];
  const randString = () => `"${Array.from({ length: rnd(5) }, () => ALPH[rnd(ALPH.length)]).join("")}"`;
  const randValue = (d) => {
    const k = rnd(d > 3 ? 5 : 7);
    if (k === 0) return String(rnd(2000) - 1000);
    if (k === 1) return `${rnd(100)}.${rnd(1000)}e${rnd(40) - 20}`;
    if (k === 2) return randString();
    if (k === 3) return ["true", "false", "null", "NaN", "-Infinity"][rnd(5)];
    if (k === 4) return "[]";
    if (k === 5) return `[${Array.from({ length: rnd(4) + 1 }, () => randValue(d + 1)).join(",")}]`;
    return `{${Array.from({ length: rnd(4) + 1 }, () => `${randString()}:${randValue(d + 1)}`).join(",")}}`;
  };
  const MUTATIONS = [
    ["drop-last", (b) => b.subarray(0, b.length - 1), "last byte removed"],
    ["byte-ff", (b) => { const c = Buffer.from(b); c[rnd(c.length)] = 0xff; return c; }, "one byte replaced by 0xFF"],
    ["append-x", (b) => cat(b, "x"), "garbage appended"],
    ["append-comma", (b) => cat(b, ","), "trailing comma after the value"],
    ["control", (b) => { const i = b.indexOf(0x22); return i < 0 ? null : cat(b.subarray(0, i + 1), [rnd(0x20)], b.subarray(i + 1)); }, "raw control character after the first quote"],
    ["comment", (b) => cat(b.subarray(0, 1), "/*c*/", b.subarray(1)), "comment after the first byte"],
    ["single-quote", (b) => { const i = b.indexOf(0x22); if (i < 0) return null; const c = Buffer.from(b); c[i] = 0x27; return c; }, "first double quote made single"],
    ["trunc-lead", (b) => cat(b.subarray(0, b.length - 1), [0xe2]), "last byte replaced by a truncated UTF-8 lead"],
  ];
  let made = 0;
  for (let attempt = 0; made < 80 && attempt < 1000; attempt++) {
    const doc = utf8(rnd(2) ? `[${randValue(1)},${randValue(1)}]` : `{"k":${randValue(1)}}`);
    if (rejects(doc)) throw new Error(`random source not valid: ${doc}`);
    const [name, mutate, why] = MUTATIONS[rnd(MUTATIONS.length)];
    const bad = mutate(doc);
    if (bad === null || !rejects(bad)) continue; // e.g. a comma that landed inside a string
    add(`random-${String(made).padStart(3, "0")}-${name}`, bad, `seeded random document, ${why}`);
    made++;
  }
  return out;
}

/** The reject corpus as {id, hex, why} rows, each asserted rejected by the oracle. */
export function buildRejectRows() {
  const rows = [];
  const ids = new Set();
  const seen = new Set();
  for (const { id, bytes, why } of cases()) {
    if (ids.has(id)) throw new Error(`duplicate id ${id}`);
    ids.add(id);
    const hex = bytes.toString("hex");
    if (seen.has(hex)) continue;
    seen.add(hex);
    if (!rejects(bytes)) throw new Error(`${id}: oracle accepts ${hex}`);
    rows.push({ id, hex, why });
  }
  return rows;
}

/** Exact text of vectors/reject.jsonl. */
export function buildRejectText() {
  return buildRejectRows().map((r) => `${JSON.stringify(r)}\n`).join("");
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const text = buildRejectText();
  mkdirSync(dirname(REJECT_PATH), { recursive: true });
  writeFileSync(REJECT_PATH, text);
  console.log(`wrote ${REJECT_PATH}: ${text.split("\n").length - 1} lines`);
}
