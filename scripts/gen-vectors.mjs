// Generates vectors/fingerprint.vectors.json, the shared test vectors of
// fingerprint contract v1, from the independent oracle
// test/reference/contract.mjs. Run: node scripts/gen-vectors.mjs
//
// Each vector names the decision it pins (D1–D19 of
// ../shared/contract-decisions.md, or "page" for the contract page's own
// examples). The inputs are written here; every expected value (canonical,
// fingerprint, error) comes from the oracle, never by hand. A vector may
// carry text input (argsJSON, or argsBytesHex for byte-level cases) and/or a
// tagged host value (args, decoded by test/vectors-decode.mjs); when it
// carries both, the generator asserts both give the same result.
// Deterministic: fixed order, seeded PRNG, no clock. test/vectors-fresh.test.ts
// fails when the committed file differs from buildVectorsText().

import { writeFileSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { FINGERPRINT_VERSION, fingerprintOf, fingerprintOfText } from "../test/reference/contract.mjs";
import { decodeTagged } from "../test/vectors-decode.mjs";
import { splitmix64 } from "./_prng.mjs";

export const VECTORS_PATH = resolve(dirname(fileURLToPath(import.meta.url)), "../vectors/fingerprint.vectors.json");

// ---------------------------------------------------------------------------
// Tagged host values (format documented in test/vectors-decode.mjs).

const UNDEF = { $ov: "undefined" };
const NAN = { $ov: "NaN" };
const INF = { $ov: "Infinity" };
const NINF = { $ov: "-Infinity" };
const NEG0 = { $ov: "-0" };
const date = (iso) => ({ $ov: "date", iso });
const obj = (entries) => ({ $ov: "object", entries });

/** Throws unless `v` survives a JSON round trip as written (tags for the rest). */
function checkTaggedJSON(v, path = "args") {
  if (typeof v === "number") {
    if (!Number.isFinite(v) || Object.is(v, -0)) throw new Error(`${path}: use a tag for ${v}`);
  } else if (Array.isArray(v)) {
    v.forEach((x, i) => checkTaggedJSON(x, `${path}[${i}]`));
  } else if (v !== null && typeof v === "object") {
    if (Object.getPrototypeOf(v) !== Object.prototype) throw new Error(`${path}: not a plain object`);
    if (Object.hasOwn(v, "$ov")) {
      if (v.$ov === "object") v.entries.forEach(([, x], i) => checkTaggedJSON(x, `${path}.entries[${i}]`));
      return;
    }
    for (const k of Object.keys(v)) checkTaggedJSON(v[k], `${path}.${k}`);
  } else if (!["string", "boolean"].includes(typeof v) && v !== null) {
    throw new Error(`${path}: ${typeof v} is not JSON`);
  }
}

const hexOf = (text) => Buffer.from(text, "utf8").toString("hex");
const str = (s) => JSON.stringify(s);

// ---------------------------------------------------------------------------
// Seeded PRNG: splitmix64 (scripts/_prng.mjs).

function doubleFromBits(bits) {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setBigUint64(0, bits);
  return dv.getFloat64(0);
}

function bitsOf(x) {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, x);
  return dv.getBigUint64(0);
}

/** Exact decimal text of m * 2^k (m a non-negative BigInt). */
function exactDecimal(m, k) {
  if (k >= 0) return (m << BigInt(k)).toString();
  const digits = (m * 5n ** BigInt(-k)).toString().padStart(-k + 1, "0");
  const cut = digits.length + k;
  return `${digits.slice(0, cut)}.${digits.slice(cut)}`.replace(/0+$/, "");
}

/** Exact decimal of the midpoint between positive finite x and the next double up. */
function midpointAbove(x) {
  const bits = bitsOf(x);
  const e = Number((bits >> 52n) & 0x7ffn);
  const f = bits & ((1n << 52n) - 1n);
  const [m, k] = e === 0 ? [f, -1074] : [f | (1n << 52n), e - 1075];
  return exactDecimal(2n * m + 1n, k - 1);
}

// ---------------------------------------------------------------------------
// The vector list. Fields: id, decision, description, and inputs (kind, name,
// matchOn, ignoreArgs, argsJSON | argsBytesHex, args); `error: true` marks a
// vector the oracle must reject (asserted).

function specs() {
  const out = [];
  const add = (decision, id, description, fields) => out.push({ decision, id, description, name: "search", ...fields });
  /** Host value and its JSON.stringify text: exercises both entry points. */
  const both = (args, extra = {}) => ({ args, argsJSON: JSON.stringify(args), ...extra });
  const cp = (c) => c.codePointAt(0).toString(16).padStart(4, "0");

  // -- page: the contract page's three examples ------------------------------
  add("page", "page-trim-email", "page example 1: string values are trimmed", both({ email: " a@b.c ", plan: "pro" }));
  add("page", "page-matchon-ticket", "page example 2: matchOn keeps only the listed key", {
    ...both({ ticketId: "T-1", priority: "P0", requestId: "x" }),
    matchOn: ["ticketId"],
  });
  add("page", "page-numbers-null", "page example 3: 1.0 prints 1, -0 prints 0, null is dropped", {
    args: { a: 1, b: NEG0, c: null },
    argsJSON: '{ "a": 1.0, "b": -0, "c": null }',
  });
  add("page", "page-guidance-two-keys", "page guidance: matchOn [ticketId, priority]", {
    ...both({ ticketId: "T-1", priority: "P0", requestId: "x", at: "2024-01-01" }),
    matchOn: ["ticketId", "priority"],
  });

  // -- D1: NaN/±Infinity are null, null is dropped ---------------------------
  add("D1", "d1-nan-member-dropped", "D1 example: {a: NaN, b: [1, Infinity]}", {
    args: { a: NAN, b: [1, INF] },
    argsJSON: '{"a":NaN,"b":[1,Infinity]}',
  });
  add("D1", "d1-null-member-dropped", "null member is dropped", both({ a: null, b: 1 }));
  add("D1", "d1-null-array-elements-dropped", "null array elements are dropped, order kept", both([null, 1, null, 2, null]));
  add("D1", "d1-neg-infinity-member-dropped", "-Infinity member is dropped", {
    args: { x: NINF, y: "k" },
    argsJSON: '{"x":-Infinity,"y":"k"}',
  });
  add("D1", "d1-all-nonfinite-array", "an array of only non-finite numbers becomes []", {
    args: [NAN, INF, NINF],
    argsJSON: "[NaN,Infinity,-Infinity]",
  });
  add("D1", "d1-nan-between-elements", "NaN between elements is dropped", { args: [1, NAN, 2], argsJSON: "[1,NaN,2]" });
  add("D1", "d1-nested-nulls", "nulls are dropped at every depth", both({ a: [{ b: null, c: [null] }], d: { e: null } }));
  add("D1", "d1-null-in-nested-array", "null inside nested arrays", both([[null, [null, 1]], null]));
  add("D1", "d1-only-null-members", "an object whose members are all null becomes {}", both({ a: null, b: null }));

  // -- D2: top level ----------------------------------------------------------
  add("D2", "d2-null-top", "top-level null prints null", both(null));
  add("D2", "d2-nan-top", "top-level NaN prints null", { args: NAN, argsJSON: "NaN" });
  add("D2", "d2-infinity-top", "top-level Infinity prints null", { args: INF, argsJSON: "Infinity" });
  add("D2", "d2-neg-infinity-top", "top-level -Infinity prints null", { args: NINF, argsJSON: "-Infinity" });
  add("D2", "d2-nan-token-top-whitespace", "top-level NaN token surrounded by whitespace", { argsJSON: " \n NaN \t" });
  add("D2", "d2-undefined-top", "top-level undefined prints null (JS host only)", { args: UNDEF });
  add("D2", "d2-string-top-trimmed", "top-level string is trimmed", both("  x  "));
  add("D2", "d2-string-top-all-whitespace", "top-level whitespace-only string becomes the empty string", both(" \t\n "));
  add("D2", "d2-string-top-empty", "top-level empty string stays", both(""));
  add("D2", "d2-number-top-int", "top-level integer", both(42));
  add("D2", "d2-number-top-fraction", "top-level fraction", both(-1.5));
  add("D2", "d2-number-top-neg-zero", "top-level -0 prints 0", { args: NEG0, argsJSON: "-0" });
  add("D2", "d2-number-top-exponent", "top-level 1e21 prints 1e+21", { args: 1e21, argsJSON: "1e21" });
  add("D2", "d2-true-top", "top-level true", both(true));
  add("D2", "d2-false-top", "top-level false", both(false));
  add("D2", "d2-empty-array-top", "top-level []", both([]));
  add("D2", "d2-empty-object-top", "top-level {}", both({}));

  // -- D3: only string values are trimmed, at every depth -------------------
  add("D3", "d3-keys-not-trimmed", "keys keep their spaces, values are trimmed", both({ " a ": " b " }));
  add("D3", "d3-key-trim-collision", "keys differing only by spaces stay distinct", both({ a: 1, " a": 2, "a ": 3 }));
  add("D3", "d3-nested-depth", "values trimmed in nested objects and arrays", both({ a: { b: [" x ", { c: "  y" }] } }));
  add("D3", "d3-array-elements", "array elements are trimmed", both([" a", "b ", " c "]));
  add("D3", "d3-whitespace-only-member", "a whitespace-only member value becomes \"\" and is kept", both({ a: "   " }));
  add("D3", "d3-inner-whitespace-kept", "inner whitespace is kept", both({ a: " a  b " }));
  add("D3", "d3-numeric-string-stays-string", "a trimmed numeric string stays a string", both({ a: " 1 " }));
  add("D3", "d3-escaped-whitespace-text", "whitespace given as escapes in text is trimmed", { argsJSON: '"\\t\\n x \\r\\n"' });
  add("D3", "d3-matchon-selected-value-trimmed", "a selected value is trimmed", { ...both({ a: " v ", b: " w " }), matchOn: ["a"] });

  // -- D4: the trim set is String.prototype.trim's --------------------------
  const TRIM = ["\t", "\n", "\v", "\f", "\r", " ", "\u00a0", "\u1680"];
  for (let c = 0x2000; c <= 0x200a; c++) TRIM.push(String.fromCharCode(c));
  TRIM.push("\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\ufeff");
  for (const c of TRIM) {
    add("D4", `d4-trim-u${cp(c)}`, `U+${cp(c).toUpperCase()} is trimmed at both ends, kept inside`, both({ s: `${c}x${c}y${c}${c}` }));
  }
  const KEEP = ["\u0000", "\u001c", "\u001d", "\u001e", "\u001f", "\u0085", "\u180e", "\u200b", "\u2060", "\ufffe"];
  for (const c of KEEP) {
    add("D4", `d4-keep-u${cp(c)}`, `U+${cp(c).toUpperCase()} is not in the trim set`, both({ s: `${c}x${c}` }));
  }
  add("D4", "d4-all-trim-chars", "every trim character on both sides", both({ s: `${TRIM.join("")}x${TRIM.join("")}` }));
  add("D4", "d4-only-trim-chars", "a string of only trim characters becomes \"\"", both([TRIM.join("")]));
  add("D4", "d4-trim-stops-at-nontrim", "trimming stops at the first non-trim character", both({ s: "\u0085 \u00a0x\u00a0 \u0085" }));
  add("D4", "d4-trim-under-nontrim-edge", "U+001F shields inner spaces", both({ s: " \u001f x \u001f " }));

  // -- D5: key order is code point order -------------------------------------
  add("D5", "d5-ff01-before-1f600", "D5 example: U+FF01 sorts before U+1F600 (UTF-16 order differs)", both({ "\u{1F600}": 1, "\uFF01": 2 }));
  add("D5", "d5-e000-before-10000", "U+E000 before U+10000", both({ "\u{10000}": 1, "\uE000": 2 }));
  add("D5", "d5-ffff-before-10000", "U+FFFF before U+10000", both({ "\u{10000}": 1, "\uFFFF": 2 }));
  add("D5", "d5-fffd-before-1f4a9", "U+FFFD before U+1F4A9", both({ "\u{1F4A9}": "b", "\uFFFD": "a" }));
  add("D5", "d5-bmp-vs-astral-mixed", "private use, specials and astral keys interleaved", both({
    "\u{10FFFF}": 1, "\uE000": 2, "\u{1F600}": 3, "\uF8FF": 4, "\u{10000}": 5, "\uFFFD": 6, a: 7, "\uD7FF": 8, "\uFFFF": 9,
  }));
  add("D5", "d5-lone-surrogate-keys", "lone surrogate keys sort by their own value", both({
    "\u{10000}": 1, "\uE000": 2, "\uDFFF": 3, "\uDC00": 4, "\uDBFF": 5, "\uD800": 6, "\uD7FF": 7,
  }));
  add("D5", "d5-lone-low-before-pair", "lone U+DC00 before U+10000 (UTF-16 order differs)", both({ "\u{10000}": 1, "\uDC00": 2 }));
  add("D5", "d5-lone-high-before-pair", "lone U+D800 before U+10000", both({ "\u{10000}": 1, "\uD800": 2 }));
  add("D5", "d5-astral-second-char", "U+FF01 vs U+1F600 after a common prefix", both({ "a\u{1F600}": 1, "a\uFF01": 2 }));
  add("D5", "d5-prefix-shorter-first", "a prefix sorts first; the empty key is first", both({ ab: 1, a: 2, "": 3 }));
  add("D5", "d5-case-order", "upper case before lower case", both({ b: 1, B: 2, a: 3, A: 4 }));
  add("D5", "d5-integer-like-keys", "integer-like keys sort as strings, not numbers", both({ 10: 1, 9: 2, 1: 3, "-1": 4, "01": 5, a: 6 }));
  add("D5", "d5-nested-sorted", "keys sorted recursively, also inside arrays", both({ b: { d: 1, c: 2 }, a: [{ z: 1, y: 2 }] }));
  add("D5", "d5-latin-accents", "U+00E9 after ASCII", both({ "é": 1, z: 2, e: 3 }));
  add("D5", "d5-utf8-length-boundaries", "keys at UTF-8 length boundaries", both({
    "\u{10000}": 5, "\uFFFF": 4, "\u0800": 3, "\u07FF": 2, "\u0080": 1, "\u007F": 0,
  }));
  add("D5", "d5-cjk-fullwidth-emoji", "CJK, full-width and emoji keys", both({ "😀": 2, "ｚ": 3, "中": 1 }));
  add("D5", "d5-prototype-names", "keys named like Object.prototype members are ordinary keys", {
    args: obj([["__proto__", 1], ["constructor", 2], ["toString", 3], ["hasOwnProperty", 4], ["valueOf", 5]]),
    argsJSON: '{"__proto__":1,"constructor":2,"toString":3,"hasOwnProperty":4,"valueOf":5}',
  });
  add("D5", "d5-control-char-keys", "keys with control characters sort by code point", both({ b: 1, "\u0001": 2, "\t": 3, " ": 4 }));

  // -- D6: escaping ------------------------------------------------------------
  for (let c = 0; c < 0x20; c++) {
    const ch = String.fromCharCode(c);
    add("D6", `d6-escape-u${cp(ch)}`, `U+${cp(ch).toUpperCase()} inside a string is escaped`, both({ s: `a${ch}b` }));
  }
  add("D6", "d6-quote-backslash", "quote and backslash", both({ s: 'say "hi" \\ done' }));
  add("D6", "d6-solidus-not-escaped", "/ is not escaped; \\/ in text reads as /", { args: { s: "a/b" }, argsJSON: '{"s":"a\\/b"}' });
  add("D6", "d6-del-raw", "U+007F stays raw", both({ s: "a\u007fb" }));
  add("D6", "d6-u2028-u2029-raw", "U+2028 and U+2029 inside stay raw", both({ s: "a\u2028b\u2029c" }));
  add("D6", "d6-non-ascii-raw", "non-ASCII stays raw UTF-8", both({ s: "é中😀\u0080\uFFFF\u{10FFFF}" }));
  add("D6", "d6-control-keys", "control characters in keys are escaped", both({ "\u0001": 1, "\n": 2, "\u001f": 3, '"': 4, "\\": 5 }));
  add("D6", "d6-trim-before-escape", "trimming happens before escaping", both({ s: "\t\u0001\n" }));
  add("D6", "d6-lone-high-value", "a lone high surrogate value prints \\ud800", both({ s: "\uD800" }));
  add("D6", "d6-lone-low-value", "a lone low surrogate value prints \\udfff", both({ s: "\uDFFF" }));
  add("D6", "d6-lone-high-at-end", "a lone high surrogate after text", both({ s: "a\uD83D" }));
  add("D6", "d6-lone-low-at-start", "a lone low surrogate before text", both({ s: "\uDE00b" }));
  add("D6", "d6-reversed-pair", "low then high: two lone surrogates", both({ s: "\uDE00\uD83D" }));
  add("D6", "d6-high-high-low", "a lone high surrogate followed by a pair", both({ s: "\uD83D\uD83D\uDE00" }));
  add("D6", "d6-lone-surrogate-keys", "lone surrogates in keys are escaped", both({ "\uDBFF": 1, "k\uDC00": 2 }));
  add("D6", "d6-lowercase-hex", "escapes use lowercase hex", both({ s: "\u001b\u001a\uDABC" }));

  // -- D7: numbers print as Number::toString -------------------------------------
  const NUMS = [
    ["1e21", 1e21], ["1e-7", 1e-7], ["0.00001", 0.00001], ["1.5e300", 1.5e300], ["5e-324", 5e-324],
    ["0.1-plus-0.2", 0.1 + 0.2], ["2pow53-plus-2", 2 ** 53 + 2], ["1e20", 1e20], ["below-1e21", 999999999999999900000],
    ["1.2345678901234568e20", 123456789012345680000], ["1e-6", 0.000001], ["1.2e-6", 1.2e-6], ["max", Number.MAX_VALUE],
    ["min-normal", 2.2250738585072014e-308], ["max-subnormal", 2.225073858507201e-308], ["2pow53", 2 ** 53],
    ["2pow53-minus-1", 2 ** 53 - 1], ["2pow64", 2 ** 64], ["neg-1.5", -1.5], ["0.1", 0.1], ["one-third", 1 / 3],
    ["100", 100], ["1e16", 1e16], ["12345.6789", 12345.6789], ["4.35", 4.35], ["5e-7", 5e-7], ["neg-1e21", -1e21],
    ["1e100", 1e100], ["1e23", 1e23], ["9.007199254740993e15", 9007199254740.993], ["neg-5e-324", -5e-324],
    ["123e-20", 123e-20], ["0.5", 0.5], ["2pow-1074-times-3", 1.5e-323], ["1.7976931348623155e308", 1.7976931348623155e308],
  ];
  for (const [label, x] of NUMS) add("D7", `d7-num-${label}`, `Number::toString of ${String(x)}`, both({ n: x }));
  add("D7", "d7-neg-zero-member", "-0 member prints 0", { args: { n: NEG0, m: [NEG0] } });
  add("D7", "d7-number-array", "an array of assorted numbers", both([0, -1, 1.5, 1e21, 1e-7, 123456789, 0.000001, 2 ** 31]));
  const next = splitmix64(0x0f1e2d3c4b5a6978n);
  for (let i = 0; i < 40; i++) {
    let x;
    if (i < 20) {
      do x = doubleFromBits(next()); while (!Number.isFinite(x));
    } else {
      // Moderate exponents, where fixed and exponential notation meet.
      const m = Number(next() >> 11n);
      const e = Number(next() % 140n) - 70;
      x = m * 2 ** (e - 53);
    }
    add("D7", `d7-random-${String(i).padStart(2, "0")}`, `seeded random double 0x${bitsOf(x).toString(16).padStart(16, "0")}`, {
      args: { n: x },
      argsJSON: `{"n":${String(x)}}`,
    });
  }

  // -- D8: empty containers stay -------------------------------------------------
  add("D8", "d8-emptied-object", "D8 example: {a: {b: null}}", both({ a: { b: null } }));
  add("D8", "d8-emptied-array", "an array emptied by dropping stays []", { args: { a: [null, NAN] }, argsJSON: '{"a":[null,NaN]}' });
  add("D8", "d8-empty-member-containers", "empty members stay", both({ a: {}, b: [] }));
  add("D8", "d8-nested-empties", "nested empty containers", both([[], {}, [[]], [{}]]));
  add("D8", "d8-emptied-deep", "containers emptied at several levels", both({ a: [{ b: [null] }, { c: { d: null } }] }));
  add("D8", "d8-top-emptied-object", "a top-level object emptied by dropping prints {}", both({ x: null }));
  add("D8", "d8-top-emptied-array", "a top-level array emptied by dropping prints []", both([null, null]));

  // -- D9: selection ---------------------------------------------------------------
  const SEL = { a: 1, b: "two", c: [3], d: { e: 4 } };
  add("D9", "d9-matchon-empty", "matchOn [] selects {}", { ...both(SEL), matchOn: [] });
  add("D9", "d9-matchon-absent-key", "absent keys are omitted, not nulled", { ...both(SEL), matchOn: ["a", "zzz"] });
  add("D9", "d9-matchon-all-absent", "matchOn of only absent keys selects {}", { ...both(SEL), matchOn: ["x", "y"] });
  add("D9", "d9-matchon-listed-twice", "listing a key twice changes nothing", { ...both(SEL), matchOn: ["a", "a", "b"] });
  add("D9", "d9-matchon-listed-once", "same selection as d9-matchon-listed-twice", { ...both(SEL), matchOn: ["a", "b"] });
  add("D9", "d9-matchon-order-irrelevant", "matchOn order does not matter", { ...both(SEL), matchOn: ["b", "a"] });
  add("D9", "d9-matchon-null-value", "a selected key whose value is null is then dropped", { ...both({ a: null, b: 1 }), matchOn: ["a"] });
  add("D9", "d9-matchon-nan-value", "a selected NaN is dropped", { args: { a: NAN, b: 1 }, argsJSON: '{"a":NaN,"b":1}', matchOn: ["a"] });
  add("D9", "d9-matchon-case-sensitive-miss", "keys match case-sensitively (miss)", { ...both({ Id: 1, id: 2 }), matchOn: ["ID"] });
  add("D9", "d9-matchon-case-sensitive-hit", "keys match case-sensitively (hit)", { ...both({ Id: 1, id: 2 }), matchOn: ["id"] });
  add("D9", "d9-matchon-untrimmed-miss", "matchOn keys are not trimmed (miss)", { ...both({ " a": 1, a: 2 }), matchOn: ["a "] });
  add("D9", "d9-matchon-untrimmed-hit", "matchOn keys are not trimmed (hit)", { ...both({ " a": 1, a: 2 }), matchOn: [" a"] });
  add("D9", "d9-matchon-top-level-only", "nested keys are not selected", { ...both({ a: { b: 1, c: 2 } }), matchOn: ["b"] });
  add("D9", "d9-matchon-keeps-nested-whole", "a selected object is kept whole", { ...both({ a: { b: 1, c: null }, z: 0 }), matchOn: ["a"] });
  add("D9", "d9-matchon-wins-over-ignore", "matchOn wins when both are set", { ...both(SEL), matchOn: ["a"], ignoreArgs: ["a"] });
  add("D9", "d9-matchon-empty-wins-over-ignore", "an empty matchOn still wins", { ...both(SEL), matchOn: [], ignoreArgs: ["b"] });
  add("D9", "d9-ignore-drops", "ignoreArgs drops listed keys", { ...both({ q: "x", requestId: "r-1", ts: 5 }), ignoreArgs: ["requestId", "ts"] });
  add("D9", "d9-ignore-empty", "ignoreArgs [] keeps everything", { ...both(SEL), ignoreArgs: [] });
  add("D9", "d9-ignore-absent-key", "ignoring an absent key changes nothing", { ...both(SEL), ignoreArgs: ["zzz"] });
  add("D9", "d9-ignore-all", "ignoring every key gives {}", { ...both(SEL), ignoreArgs: ["a", "b", "c", "d"] });
  add("D9", "d9-ignore-listed-twice", "listing an ignored key twice", { ...both(SEL), ignoreArgs: ["a", "a"] });
  add("D9", "d9-ignore-case-sensitive", "ignoreArgs is case-sensitive", { ...both({ Id: 1, id: 2 }), ignoreArgs: ["ID"] });
  add("D9", "d9-ignore-top-level-only", "ignoreArgs does not reach nested keys", { ...both({ a: { b: 1 }, b: 2 }), ignoreArgs: ["b"] });
  add("D9", "d9-ignore-untrimmed", "ignoreArgs keys are not trimmed", { ...both({ " a": 1, a: 2 }), ignoreArgs: ["a"] });
  add("D9", "d9-matchon-lone-surrogate-key", "a lone-surrogate key is matched exactly", {
    ...both({ "\uD800": 1, "\uDC00": 2 }), matchOn: ["\uD800"],
  });
  add("D9", "d9-matchon-escaped-pair-key", "an escaped surrogate pair key matches its code point", {
    argsJSON: '{"\\ud83d\\ude00":1,"x":2}', args: { "😀": 1, x: 2 }, matchOn: ["😀"],
  });
  add("D9", "d9-matchon-proto-key", "a __proto__ key is an ordinary key", {
    argsJSON: '{"__proto__":{"x":1},"a":2}', args: obj([["__proto__", { x: 1 }], ["a", 2]]), matchOn: ["__proto__"],
  });
  add("D9", "d9-matchon-duplicate-key-text", "selection sees the last duplicate", { argsJSON: '{"a":1,"b":0,"a":2}', matchOn: ["a"] });
  add("D9", "d9-matchon-undefined-value", "a selected undefined is dropped (JS host only)", { args: { a: UNDEF, b: 1 }, matchOn: ["a", "b"] });
  add("D9", "d9-unselected-nonfinite-irrelevant", "unselected members do not matter", {
    args: { a: 1, junk: [NAN, INF, { x: null }] }, argsJSON: '{"a":1,"junk":[NaN,Infinity,{"x":null}]}', matchOn: ["a"],
  });
  add("D9", "d9-matchon-empty-key", "the empty key can be selected", { ...both({ "": 1, a: 2 }), matchOn: [""] });

  // -- D10: selection applies only to objects -----------------------------------
  add("D10", "d10-array-with-matchon", "an array passes through matchOn untouched", { ...both([1, { a: 1, b: 2 }]), matchOn: ["a"] });
  add("D10", "d10-array-with-ignore", "an array passes through ignoreArgs untouched", { ...both([{ a: 1 }]), ignoreArgs: ["a"] });
  add("D10", "d10-string-with-matchon", "a string passes through (and is trimmed)", { ...both("  x "), matchOn: ["a"] });
  add("D10", "d10-number-with-empty-matchon", "a number passes through an empty matchOn", { ...both(5), matchOn: [] });
  add("D10", "d10-bool-with-ignore", "a boolean passes through", { ...both(true), ignoreArgs: ["a"] });
  add("D10", "d10-null-with-empty-matchon", "null passes through: null, not {}", { ...both(null), matchOn: [] });
  add("D10", "d10-nan-with-matchon", "NaN passes through: null", { args: NAN, argsJSON: "NaN", matchOn: ["a"] });
  add("D10", "d10-empty-array-with-empty-matchon", "[] stays [] under matchOn []", { ...both([]), matchOn: [] });
  add("D10", "d10-date-with-matchon", "a Date is not an object for selection", { args: date("2024-05-06T07:08:09.123Z"), matchOn: ["a"] });

  // -- D11: numbers in text become the nearest double --------------------------
  const TEXT_NUMS = [
    ["1.0", "1.0"], ["1E2", "1E2"], ["neg-zero", "-0"], ["1e400", "1e400"], ["1e-400", "1e-400"], ["neg-1e400", "-1e400"],
    ["neg-zero-fraction", "-0.0"], ["neg-zero-exp", "-0e5"], ["zero-neg-exp", "0e-5"], ["1e0", "1e0"], ["1E-0", "1E-0"],
    ["1E+21", "1E+21"], ["1e21", "1e21"], ["1e-7", "1e-7"], ["0.00001", "0.00001"], ["0.1e1", "0.1e1"], ["100e-2", "100e-2"],
    ["1.5E-3", "1.5E-3"], ["0.30000000000000004", "0.30000000000000004"], ["12345678901234567e30", "12345678901234567e30"],
    ["2pow53-plus-1-ties-even-down", "9007199254740993"], ["2pow53-plus-3-ties-even-up", "9007199254740995"],
    ["2pow53-plus-2", "9007199254740994"], ["30-digit-int", "123456789012345678901234567890"],
    ["min-normal-neighbour-1", "2.2250738585072011e-308"], ["min-normal-neighbour-2", "2.2250738585072012e-308"],
    ["max-rounds-down", "1.7976931348623158e308"], ["max-overflows", "1.7976931348623159e308"],
    ["half-min-subnormal-to-zero", "2.4703282292062327e-324"], ["above-half-min-subnormal", "2.4703282292062328e-324"],
    ["min-subnormal-long", "4.9406564584124654e-324"], ["exact-0.1", "0.1000000000000000055511151231257827021181583404541015625"],
    ["one-with-800-zeros", `1${"0".repeat(800)}e-800`], ["tiny-long", `0.${"0".repeat(400)}1`], ["huge-long", `1${"0".repeat(400)}`],
    ["long-fraction-1", `1.${"0".repeat(30)}1`], ["0.1e-999999", "0.1e-999999"], ["1e999999", "1e999999"],
    ["1.00000000000000011102230246251565404236316680908203125", "1.00000000000000011102230246251565404236316680908203125"],
    ["8.98846567431158e307", "8.98846567431158e307"], ["neg-2.5e-5", "-2.5e-5"],
  ];
  for (const [label, text] of TEXT_NUMS) add("D11", `d11-num-${label}`, `text number ${text.length > 40 ? text.slice(0, 37) + "…" : text}`, { argsJSON: `{"n":${text}}` });
  add("D11", "d11-top-level-1.0", "top-level 1.0 prints 1", { argsJSON: "1.0" });
  add("D11", "d11-top-level-1e400", "top-level 1e400 is Infinity, prints null", { argsJSON: "1e400" });
  // Exact midpoints between adjacent doubles: ties go to the even significand;
  // one digit more or less decides the other way.
  const MIDS = [["1", 1], ["0.1", 0.1], ["1e23", 1e23], ["2pow53", 2 ** 53], ["5e-324", 5e-324], ["min-normal", 2.2250738585072014e-308],
    ["max", Number.MAX_VALUE], ["123.456", 123.456], ["1e-300", 1e-300], ["0.3", 0.3]];
  for (const [label, x] of MIDS) {
    const mid = midpointAbove(x);
    const above = mid.includes(".") ? `${mid}000000000000000000001` : `${mid}.000000000000000000001`;
    const below = mid.includes(".") ? `${mid.slice(0, -1)}4${"9".repeat(25)}` : `${(BigInt(mid) - 1n).toString()}.${"9".repeat(25)}`;
    add("D11", `d11-mid-${label}`, `exact midpoint above ${x}: ties to even`, { argsJSON: `[${mid}]` });
    add("D11", `d11-mid-${label}-above`, `just above the midpoint above ${x}`, { argsJSON: `[${above}]` });
    add("D11", `d11-mid-${label}-below`, `just below the midpoint above ${x}`, { argsJSON: `[${below}]` });
  }

  // -- D12: strict RFC 8259 with two tolerances ----------------------------------
  add("D12", "d12-bom-bytes", "a leading UTF-8 BOM in byte input is skipped", { argsBytesHex: `efbbbf${hexOf('{"a":1}')}` });
  add("D12", "d12-bom-bytes-then-whitespace", "BOM then whitespace", { argsBytesHex: `efbbbf${hexOf(' \n["x"]')}` });
  add("D12", "d12-bytes-plain-utf8", "byte input with raw multi-byte UTF-8", { argsBytesHex: hexOf('{"é":"中😀"}'), args: { "é": "中😀" } });
  add("D12", "d12-whitespace-everywhere", "RFC 8259 whitespace between all tokens", { argsJSON: ' \t\n\r{ "a" : [ 1 , 2 ] ,\r\n"b" :\t{ } }\r\n\t ' });
  add("D12", "d12-nan-token-member", "bare NaN token is null", { argsJSON: '{"a":NaN,"b":2}' });
  add("D12", "d12-infinity-tokens-array", "bare Infinity and -Infinity tokens are null", { argsJSON: "[Infinity, -Infinity, 3]" });
  add("D12", "d12-nonfinite-tokens-nested", "tokens in nested containers", { argsJSON: '{"a":[{"b":NaN},[Infinity]],"c":-Infinity}' });
  add("D12", "d12-token-words-in-strings", "NaN and Infinity inside strings stay strings", both(["NaN", "Infinity", "-Infinity", " NaN "]));
  add("D12", "d12-token-after-escaped-quote", "a string ending in an escaped quote", { argsJSON: '["a\\"",NaN,"\\"NaN"]' });
  add("D12", "d12-token-after-escaped-backslash", "a string ending in an escaped backslash", { argsJSON: '["\\\\",NaN,"\\\\\\\\"]' });
  add("D12", "d12-token-names-as-keys", "keys named NaN and Infinity", { argsJSON: '{"NaN":NaN,"Infinity":1,"-Infinity":-Infinity}' });
  add("D12", "d12-all-escapes", "every RFC 8259 escape", { argsJSON: '"\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\u00e9\\u00E9"' });
  add("D12", "d12-raw-del", "raw U+007F in a string is allowed", { argsJSON: '"a\u007fb"' });
  add("D12", "d12-raw-u2028", "raw U+2028 in a string is allowed", { argsJSON: '"a\u2028b"' });
  add("D12", "d12-raw-lone-surrogate-string-input", "a raw lone surrogate inside a string (string input)", { argsJSON: '"a\uD800b"' });
  add("D12", "d12-literals", "true, false, null literals", { argsJSON: "[true,false,null]" });
  const BAD_TEXT = [
    ["empty-text", "", "empty text"], ["whitespace-only", " \n\t\r ", "whitespace only"], ["line-comment", '{"a":1} // c', "// comment"],
    ["block-comment", '/* c */ {"a":1}', "/* */ comment"], ["trailing-comma-array", "[1,]", "trailing comma in array"],
    ["trailing-comma-object", '{"a":1,}', "trailing comma in object"], ["single-quoted-key", "{'a':1}", "single-quoted key"],
    ["single-quoted-value", "{\"a\":'x'}", "single-quoted string"], ["trailing-content", '{"a":1} x', "trailing content"],
    ["two-values", "1 2", "two top-level values"], ["two-objects", "{}{}", "two top-level objects"],
    ["unquoted-key", "{a:1}", "unquoted key"], ["leading-zero", "01", "leading zero"], ["neg-leading-zero", "-01", "leading zero after minus"],
    ["double-zero", "00", "double zero"], ["leading-zero-in-array", "[012]", "leading zero in array"], ["dot-no-digits", "1.", "1."],
    ["dot-leading", ".5", ".5"], ["plus-sign", "+1", "+1"], ["exp-no-digits", "1e", "1e"], ["lone-minus", "-", "lone minus"],
    ["hex-number", "0x10", "hex literal"], ["lowercase-nan", "nan", "nan is not a token"], ["uppercase-nan", "NAN", "NAN is not a token"],
    ["lowercase-infinity", "infinity", "infinity is not a token"], ["plus-infinity", "+Infinity", "+Infinity is not a token"],
    ["neg-nan", "-NaN", "-NaN is not a token"], ["nan-suffix", "NaN1", "NaN glued to a digit"], ["infinity-suffix", "[Infinityx]", "Infinity glued to letters"],
    ["minus-space-infinity", "- Infinity", "minus separated from Infinity"], ["nan-as-key", "{NaN:1}", "NaN as an unquoted key"],
    ["undefined-token", "[undefined]", "undefined is not JSON"], ["misspelled-true", "tru", "truncated literal"], ["capital-true", "True", "True"],
    ["bad-escape-x", '"\\x41"', "\\x escape"], ["bad-escape-short-u", '"\\u12"', "short \\u escape"], ["bad-escape-quote", "\"\\'\"", "\\' escape"],
    ["bad-escape-U", '"\\U0041"', "\\U escape"], ["raw-nul-in-string", '"a\u0000b"', "raw U+0000 in a string"],
    ["raw-0x01-in-string", '"a\u0001b"', "raw U+0001 in a string"], ["raw-tab-in-string", '"a\tb"', "raw tab in a string"],
    ["raw-lf-in-string", '"a\nb"', "raw LF in a string"], ["raw-0x1f-in-string", '{"k\u001f":1}', "raw U+001F in a key"],
    ["unclosed-array", "[1,2", "unclosed array"], ["unclosed-object", '{"a":1', "unclosed object"], ["unclosed-string", '"abc', "unclosed string"],
    ["missing-colon", '{"a" 1}', "missing colon"], ["missing-value", '{"a":}', "missing value"], ["lone-comma", ",", "lone comma"],
    ["bom-char-string-input", '\uFEFF{"a":1}', "U+FEFF at the start of string input (BOM tolerance is for bytes only)"],
    ["nbsp-whitespace", '\u00a0{"a":1}', "U+00A0 is not JSON whitespace"], ["vertical-tab-whitespace", '\u000b1', "U+000B is not JSON whitespace"],
    ["raw-lone-surrogate-outside-string", "\uD800", "a lone surrogate outside a string"],
  ];
  for (const [label, text, why] of BAD_TEXT) add("D12", `d12-reject-${label}`, `rejected: ${why}`, { argsJSON: text, error: true });
  const BAD_BYTES = [
    ["lone-continuation", `22${"80"}22`, "lone continuation byte 0x80"], ["overlong-nul", "22c08022", "overlong 2-byte NUL"],
    ["c1", "22c1bf22", "0xC1 lead (overlong)"], ["f5", "22f580808022", "0xF5 lead"], ["ff", "22ff22", "0xFF byte"],
    ["truncated-3-byte", "22e28222", "truncated 3-byte sequence"], ["truncated-surrogate", "22eda022", "truncated encoded surrogate"],
    ["above-10ffff", "22f490808022", "code point above U+10FFFF"], ["overlong-3-byte", "22e0808022", "overlong 3-byte form"],
    ["overlong-4-byte", "22f080808022", "overlong 4-byte form"], ["truncated-4-byte-at-end", "22f09f98", "input ends inside a 4-byte sequence"],
    ["double-bom", `efbbbfefbbbf${hexOf("{}")}`, "a second BOM is U+FEFF, not whitespace"],
    ["bom-after-whitespace", `20efbbbf${hexOf("{}")}`, "BOM after whitespace"], ["bom-only", "efbbbf", "BOM only: empty text"],
    ["bom-between-tokens", `${hexOf("[1,")}efbbbf${hexOf("2]")}`, "BOM in the middle"], ["empty-bytes", "", "no bytes"],
    ["encoded-surrogate-outside-string", "eda080", "encoded surrogate outside a string"],
  ];
  for (const [label, hex, why] of BAD_BYTES) add("D12", `d12-reject-bytes-${label}`, `rejected: ${why}`, { argsBytesHex: hex, error: true });

  // -- D13: duplicate keys, last one wins ----------------------------------------
  const DUPS = [
    ["last-wins", '{"a":1,"a":2}'], ["last-null-drops", '{"a":1,"a":null}'], ["first-null-last-value", '{"a":null,"a":1}'],
    ["no-merge", '{"a":{"b":1},"a":{"c":2}}'], ["interleaved", '{"a":1,"b":2,"a":3}'], ["three-times", '{"a":1,"a":2,"a":3}'],
    ["nested", '{"x":{"k":1,"k":" v "}}'], ["escaped-equivalent", '{"a":1,"\\u0061":2}'], ["pair-vs-raw", '{"😀":1,"\\ud83d\\ude00":2}'],
    ["proto-twice", '{"__proto__":1,"__proto__":2}'], ["last-is-nan-token", '{"a":1,"a":NaN}'], ["in-array-elements", '[{"a":1,"a":2},{"a":3}]'],
  ];
  for (const [label, text] of DUPS) add("D13", `d13-${label}`, `duplicate keys: ${text}`, { argsJSON: text });
  add("D13", "d13-encoded-vs-escaped-lone-key", "encoded and escaped lone surrogate keys are the same key", {
    argsBytesHex: `${hexOf('{"\\ud800":1,"')}eda080${hexOf('":2}')}`,
  });
  add("D13", "d13-with-ignore", "duplicates resolved before ignoreArgs", { argsJSON: '{"a":1,"a":2,"b":3,"b":4}', ignoreArgs: ["b"] });

  // -- D14: surrogates -------------------------------------------------------------
  add("D14", "d14-escaped-pair-joined", "an escaped pair is one code point, printed raw", { argsJSON: '"\\ud83d\\ude00"', args: "😀" });
  add("D14", "d14-escaped-pair-uppercase", "uppercase hex escapes", { argsJSON: '"\\uD83D\\uDE00"' });
  add("D14", "d14-escaped-lone-high", "an escaped lone high surrogate stays lone", { argsJSON: '"\\ud83d"', args: "\uD83D" });
  add("D14", "d14-escaped-lone-low", "an escaped lone low surrogate stays lone", { argsJSON: '"\\ude00"' });
  add("D14", "d14-escaped-reversed", "low then high: two lone surrogates", { argsJSON: '"\\ude00\\ud83d"' });
  add("D14", "d14-escaped-high-high-low", "lone high, then a pair", { argsJSON: '"\\ud83d\\ud83d\\ude00"' });
  add("D14", "d14-escaped-high-then-char", "high surrogate followed by an ordinary character", { argsJSON: '"\\ud83dx"' });
  add("D14", "d14-escaped-high-then-escaped-bmp", "high surrogate followed by an escaped BMP character", { argsJSON: '"\\ud83d\\u0041"' });
  add("D14", "d14-halves-in-separate-strings", "halves in different strings are not joined", { argsJSON: '["\\ud83d","\\ude00"]' });
  add("D14", "d14-escaped-pair-key", "an escaped pair in a key", { argsJSON: '{"\\ud83d\\ude00":1,"\\uff01":2}' });
  add("D14", "d14-trim-around-lone", "trimming around a lone surrogate", { argsJSON: '" \\ud800 "' });
  const Q = "22";
  add("D14", "d14-wtf8-pair-joined", "encoded high + encoded low surrogate is one code point", { argsBytesHex: `${Q}eda0bdedb880${Q}` });
  add("D14", "d14-utf8-four-byte", "the same code point as a 4-byte sequence", { argsBytesHex: `${Q}f09f9880${Q}` });
  add("D14", "d14-wtf8-lone-high", "an encoded lone high surrogate", { argsBytesHex: `${Q}eda0bd${Q}` });
  add("D14", "d14-wtf8-lone-low", "an encoded lone low surrogate", { argsBytesHex: `${Q}edb880${Q}` });
  add("D14", "d14-wtf8-reversed", "encoded low then high: two lone surrogates", { argsBytesHex: `${Q}edb880eda0bd${Q}` });
  add("D14", "d14-wtf8-extremes", "encoded U+D800, U+DBFF, U+DC00, U+DFFF, each lone", { argsBytesHex: `5b${Q}eda080${Q}2c${Q}edafbf${Q}2c${Q}edb080${Q}2c${Q}edbfbf${Q}5d` });
  add("D14", "d14-mixed-escaped-high-encoded-low", "escaped high + encoded low join (UTF-16 adjacency)", { argsBytesHex: `${Q}${hexOf("\\ud83d")}edb880${Q}` });
  add("D14", "d14-mixed-encoded-high-escaped-low", "encoded high + escaped low join (UTF-16 adjacency)", { argsBytesHex: `${Q}eda0bd${hexOf("\\ude00")}${Q}` });
  add("D14", "d14-wtf8-pair-in-key", "an encoded pair in a key sorts as U+1F600", { argsBytesHex: `${hexOf('{"')}eda0bdedb880${hexOf('":1,"\uff01":2}')}` });
  add("D14", "d14-wtf8-lone-key", "an encoded lone surrogate key", { argsBytesHex: `${hexOf('{"')}edb080${hexOf('":1,"\ue000":2}')}` });
  add("D14", "d14-wtf8-lone-trimmed", "trimming around an encoded lone surrogate", { argsBytesHex: `${Q}20eda08020${Q}` });

  // -- D15: JS host values expressible in the shared file ---------------------------
  const ISO = "2024-05-06T07:08:09.123Z";
  add("D15", "d15-date-member", "a Date prints toISOString()", { args: { when: date(ISO) }, argsJSON: `{"when":"${ISO}"}` });
  add("D15", "d15-date-top", "a top-level Date", { args: date(ISO) });
  add("D15", "d15-date-in-array", "Dates inside an array", { args: [date("2000-01-01T00:00:00.000Z"), date("1970-01-01T00:00:00.000Z")] });
  add("D15", "d15-date-pre-epoch", "a Date before 1970", { args: { d: date("1969-12-31T23:59:59.999Z") } });
  add("D15", "d15-date-year-1", "year 0001", { args: { d: date("0001-01-01T00:00:00.000Z") } });
  add("D15", "d15-date-year-9999", "year 9999", { args: { d: date("9999-12-31T23:59:59.999Z") } });
  add("D15", "d15-date-selected", "a selected Date", { args: { d: date(ISO), x: 1 }, matchOn: ["d"] });
  add("D15", "d15-undefined-member", "an undefined member is dropped", { args: { a: UNDEF, b: 2 } });
  add("D15", "d15-undefined-element", "an undefined element is dropped", { args: [1, UNDEF, 2] });
  add("D15", "d15-undefined-only", "an object of only undefined members is {}", { args: { a: UNDEF } });
  add("D15", "d15-tojson-not-callable", "a toJSON member that is not a function is an ordinary key", both({ toJSON: 1, a: " x " }));
  add("D15", "d15-dollar-ov-key", "a literal $ov key (tag escape of the vectors format)", {
    args: obj([["$ov", "x"], ["a", 1]]), argsJSON: '{"$ov":"x","a":1}',
  });

  // -- D16: Python host rules expressible here -----------------------------------
  add("D16", "d16-bool-not-number", "booleans are never numbers", both({ flag: true, off: false, n: 1, z: 0 }));
  // JSON.stringify writes these as integer literals that are not exact (2^64
  // prints 18446744073709552000): a Python int must round to the nearest double.
  add("D16", "d16-large-int", "a large integer literal becomes the nearest double", both({ a: 2 ** 64, b: 123456789012345680000, c: 2 ** 53 + 2 }));

  // -- D17: preimage -------------------------------------------------------------
  add("D17", "d17-default-kind", "kind defaults to tool_call", { ...both({ q: "x" }), name: "lookup" });
  add("D17", "d17-explicit-default-kind", "explicit tool_call equals the default", { ...both({ q: "x" }), name: "lookup", kind: "tool_call" });
  add("D17", "d17-custom-kind", "a custom kind", { ...both({ q: "x" }), name: "lookup", kind: "resource_read" });
  add("D17", "d17-kind-with-cr", "only \\n is banned from kind", { ...both({}), kind: "a\rb" });
  add("D17", "d17-kind-unicode", "a non-ASCII kind", { ...both({}), kind: "appel_outil_é" });
  add("D17", "d17-name-untrimmed", "the name is not trimmed", { ...both({}), name: " x " });
  add("D17", "d17-name-whitespace-only", "a whitespace-only name is non-empty", { ...both({}), name: " " });
  add("D17", "d17-name-with-newline", "a name may contain \\n", { ...both({}), name: "a\nb" });
  add("D17", "d17-name-unicode", "a non-ASCII name with an astral character", { ...both({}), name: "検索😀" });
  add("D17", "d17-name-json-specials", "the name is not JSON-escaped", { ...both({}), name: 'a"b\\c' });
  const BAD_LABELS = [
    ["empty-name", { name: "" }], ["empty-kind", { kind: "" }], ["kind-newline", { kind: "tool\ncall" }],
    ["kind-trailing-newline", { kind: "tool_call\n" }], ["name-lone-high", { name: "\uD800" }], ["name-lone-low", { name: "x\uDC00" }],
    ["name-reversed-pair", { name: "\uDE00\uD83D" }], ["kind-lone-surrogate", { kind: "k\uDBFF" }],
  ];
  for (const [label, f] of BAD_LABELS) add("D17", `d17-reject-${label}`, `rejected: ${label.replace(/-/g, " ")}`, { ...both({ a: 1 }), ...f, error: true });

  // -- D18: digest format and SHA-256 padding boundaries -------------------------
  // Preimage "tool_call\n" + name + "\n{}" is 13 + name.length bytes.
  for (const len of [55, 56, 63, 64, 119, 120]) {
    add("D18", `d18-preimage-${len}-bytes`, `preimage of ${len} bytes (SHA-256 padding boundary)`, { ...both({}), name: "n".repeat(len - 13) });
  }
  add("D18", "d18-preimage-multibyte", "preimage with multi-byte UTF-8 in name and canonical", { ...both({ "é": "😀" }), name: "ü" });
  add("D18", "d18-preimage-long", "preimage longer than several blocks", both({ s: "x".repeat(1000) }));

  // -- D19: deep nesting works, bad input is an error --------------------------
  const D = 1000;
  add("D19", "d19-deep-array-1000", "1,000 nested arrays", { argsJSON: `${"[".repeat(D)}1${"]".repeat(D)}` });
  add("D19", "d19-deep-object-1000", "1,000 nested objects", { argsJSON: `${'{"a":'.repeat(D)}1${"}".repeat(D)}` });
  add("D19", "d19-deep-mixed-1000", "1,000 levels alternating, trimmed string and NaN at the bottom", {
    argsJSON: `${'[{"k":'.repeat(D / 2)}[" x ",NaN]${"}]".repeat(D / 2)}`,
  });
  add("D19", "d19-deep-emptied-1000", "1,000 nested arrays around null: empties stay", { argsJSON: `${"[".repeat(D)}null${"]".repeat(D)}` });
  add("D19", "d19-deep-unsorted-1000", "1,000 levels, keys to sort at each level", { argsJSON: `${'{"b":1,"a":'.repeat(D)}{}${"}".repeat(D)}` });
  add("D19", "d19-deep-matchon", "selection at the top of a deep value", { argsJSON: `{"x":0,"a":${"[".repeat(D - 1)}2${"]".repeat(D - 1)}}`, matchOn: ["a"] });
  add("D19", "d19-reject-deep-unclosed", "1,000 unclosed arrays", { argsJSON: "[".repeat(D), error: true });
  add("D19", "d19-reject-deep-bad-token", "a bad token at depth 1,000", { argsJSON: `${"[".repeat(D)}nan${"]".repeat(D)}`, error: true });
  add("D19", "d19-reject-deep-trailing-comma", "a trailing comma at depth 1,000", { argsJSON: `${'{"a":'.repeat(D)}[1,]${"}".repeat(D)}`, error: true });
  add("D19", "d19-reject-deep-mismatch", "mismatched brackets at depth 1,000", { argsJSON: `${"[".repeat(D)}${"}".repeat(D)}`, error: true });
  add("D19", "d19-reject-invalid-utf8-deep", "invalid UTF-8 at depth 1,000", { argsBytesHex: `${"5b".repeat(D)}22ff22${"5d".repeat(D)}`, error: true });

  return out;
}

// ---------------------------------------------------------------------------

function runOracle(spec) {
  const common = { name: spec.name };
  for (const k of ["kind", "matchOn", "ignoreArgs"]) if (spec[k] !== undefined) common[k] = spec[k];
  const runs = [];
  const attempt = (via, f) => {
    try {
      runs.push({ via, ...f() });
    } catch (e) {
      if (e.name !== "OracleError") throw e;
      runs.push({ via, error: e.message });
    }
  };
  if (spec.argsJSON !== undefined && spec.argsBytesHex !== undefined) throw new Error(`${spec.id}: argsJSON and argsBytesHex both set`);
  if (spec.argsJSON !== undefined) attempt("argsJSON", () => fingerprintOfText({ ...common, argsJSON: spec.argsJSON }));
  if (spec.argsBytesHex !== undefined) attempt("argsBytesHex", () => fingerprintOfText({ ...common, argsJSON: Buffer.from(spec.argsBytesHex, "hex") }));
  if ("args" in spec) {
    checkTaggedJSON(spec.args);
    attempt("args", () => fingerprintOf({ ...common, args: decodeTagged(spec.args) }));
  }
  if (runs.length === 0) throw new Error(`${spec.id}: no input`);
  const [first, ...rest] = runs;
  for (const r of rest) {
    if ((r.error === undefined) !== (first.error === undefined) || r.fingerprint !== first.fingerprint) {
      throw new Error(`${spec.id}: ${first.via} and ${r.via} disagree: ${JSON.stringify(first)} vs ${JSON.stringify(r)}`);
    }
  }
  if (!!spec.error !== (first.error !== undefined)) {
    throw new Error(`${spec.id}: expected ${spec.error ? "an error" : "success"}, oracle gave ${JSON.stringify(first)}`);
  }
  return first;
}

/** The vectors file as a JS object, computed by the oracle. */
export function buildVectors() {
  const vectors = [];
  const ids = new Set();
  for (const spec of specs()) {
    if (ids.has(spec.id)) throw new Error(`duplicate id ${spec.id}`);
    ids.add(spec.id);
    const r = runOracle(spec);
    const v = { id: spec.id, decision: spec.decision, description: spec.description };
    for (const k of ["kind", "name", "matchOn", "ignoreArgs", "argsJSON", "argsBytesHex", "args"]) if (k in spec) v[k] = spec[k];
    if (r.error !== undefined) v.error = true;
    else Object.assign(v, { canonical: r.canonical, fingerprint: r.fingerprint });
    vectors.push(v);
  }
  const decisions = new Set(vectors.map((v) => v.decision));
  for (let d = 1; d <= 19; d++) if (!decisions.has(`D${d}`)) throw new Error(`no vector for D${d}`);
  return { FINGERPRINT_VERSION, generator: "scripts/gen-vectors.mjs (oracle: test/reference/contract.mjs)", vectors };
}

/** Exact text of vectors/fingerprint.vectors.json. */
export function buildVectorsText() {
  return `${JSON.stringify(buildVectors(), null, 2)}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const text = buildVectorsText();
  mkdirSync(dirname(VECTORS_PATH), { recursive: true });
  writeFileSync(VECTORS_PATH, text);
  const counts = {};
  for (const v of JSON.parse(text).vectors) counts[v.decision] = (counts[v.decision] ?? 0) + 1;
  console.log(`wrote ${VECTORS_PATH}: ${Object.values(counts).reduce((a, b) => a + b)} vectors`, counts);
}
