// A straightforward reference implementation of fingerprint contract v1, for
// the benchmark only (internal, never shipped). It is what a careful user
// would write by hand: recursion over JS values, String.prototype.trim,
// JSON.stringify for string escaping, String(x) for numbers, a code-point
// key comparator. Obviously correct rather than fast; checked against every
// non-error shared vector by test/bench-reference.test.ts.
//
// Follows the contract page and ../shared/contract-decisions.md:
//   fingerprint = sha256(kind "\n" name "\n" canonical(select(args)))  (D17, D18)
// The hash is passed in (hex of the UTF-8 preimage), so the same code runs
// with node:crypto and with @noble/hashes.

/** Code point order (D5); a lone surrogate compares by its own value. */
export function compareCodePoints(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n;) {
    const x = a.codePointAt(i), y = b.codePointAt(i);
    if (x !== y) return x - y;
    i += x > 0xffff ? 2 : 1;
  }
  return a.length - b.length;
}

function isPlainObject(v) {
  const p = Object.getPrototypeOf(v);
  return p === Object.prototype || p === null;
}

/** Canonical text of v, or undefined when v is dropped (null, undefined, NaN, functions, symbols: D1). */
function write(v, key, stack) {
  if (v !== null && typeof v === "object" && typeof v.toJSON === "function") v = v.toJSON(key); // Date → ISO, D15
  switch (typeof v) {
    case "string": return JSON.stringify(v.trim()); // D3, D4, D6
    case "number": return Number.isFinite(v) ? String(v) : undefined; // D7 (String(-0) is "0"), D1
    case "boolean": return v ? "true" : "false";
    case "bigint": throw new TypeError("BigInt is not allowed (D15)");
    case "object": break;
    default: return undefined; // undefined, function, symbol
  }
  if (v === null) return undefined;
  if (stack.includes(v)) throw new TypeError("circular reference (D15)");
  stack.push(v);
  let out;
  if (Array.isArray(v)) {
    const parts = [];
    for (let i = 0; i < v.length; i++) {
      const s = write(v[i], String(i), stack);
      if (s !== undefined) parts.push(s);
    }
    out = `[${parts.join(",")}]`;
  } else if (isPlainObject(v)) {
    const parts = [];
    for (const k of Object.keys(v).sort(compareCodePoints)) {
      const s = write(v[k], k, stack);
      if (s !== undefined) parts.push(`${JSON.stringify(k)}:${s}`);
    }
    out = `{${parts.join(",")}}`;
  } else {
    throw new TypeError(`${Object.prototype.toString.call(v)} is not allowed (D15)`);
  }
  stack.pop();
  return out;
}

/** canonicalJSON(value): the contract's canonical text; a dropped top level is "null" (D2). */
export function canonicalJSON(value) {
  return write(value, "", []) ?? "null";
}

/** select(args) (D9, D10): matchOn wins, even when empty; only plain objects are selected from. */
export function selectArgs(args, matchOn, ignoreArgs) {
  if (matchOn == null && ignoreArgs == null) return args;
  if (args === null || typeof args !== "object" || Array.isArray(args) || !isPlainObject(args)) return args;
  const out = Object.create(null);
  const keep = matchOn != null ? (k) => matchOn.includes(k) : (k) => !ignoreArgs.includes(k);
  for (const k of Object.keys(args)) if (keep(k)) out[k] = args[k];
  return out;
}

/** The text that is hashed (D17). Throws on an empty kind/name, a line feed in kind, a lone surrogate. */
export function preimage(name, args, { kind = "tool_call", matchOn = null, ignoreArgs = null } = {}) {
  for (const [what, s] of [["kind", kind], ["name", name]]) {
    if (typeof s !== "string" || s === "" || !s.isWellFormed()) throw new TypeError(`bad ${what} (D17)`);
  }
  if (kind.includes("\n")) throw new TypeError("kind has a line feed (D17)");
  return `${kind}\n${name}\n${canonicalJSON(selectArgs(args, matchOn, ignoreArgs))}`;
}

/**
 * fingerprint(name, args, options, sha256Hex): sha256Hex receives the
 * preimage string (always well-formed: JSON.stringify escapes lone
 * surrogates) and returns lowercase hex of its UTF-8 bytes.
 */
export function fingerprint(name, args, options, sha256Hex) {
  return sha256Hex(preimage(name, args, options));
}

// ---------------------------------------------------------------------------
// JSON text in (D11–D14), for the vectors that only have text. A plain
// recursive-descent reader of RFC 8259 that yields a JS value; the value then
// goes through canonicalJSON like any other. Only what the contract needs
// for valid input: Number(s) gives the nearest double (D11), the bare tokens
// NaN / Infinity / -Infinity read as null (D12), the last duplicate key wins
// by plain assignment (D13), and JS strings are UTF-16, so escaped or
// WTF-8-encoded surrogate pairs join by themselves (D14).

/** WTF-8 bytes → JS string, one code unit per encoded surrogate (D14); skips a leading BOM (D12). */
export function decodeWtf8(bytes) {
  let i = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  let s = "";
  while (i < bytes.length) {
    const b = bytes[i];
    let cp, n;
    if (b < 0x80) { cp = b; n = 1; }
    else if (b < 0xe0) { cp = b & 0x1f; n = 2; }
    else if (b < 0xf0) { cp = b & 0x0f; n = 3; }
    else { cp = b & 0x07; n = 4; }
    for (let k = 1; k < n; k++) cp = (cp << 6) | (bytes[i + k] & 0x3f);
    s += String.fromCodePoint(cp);
    i += n;
  }
  return s;
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const ESCAPES = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/** Parses JSON text (a string, or bytes as WTF-8) into a JS value. Throws SyntaxError. */
export function parseJSONText(input) {
  const s = typeof input === "string" ? input : decodeWtf8(input);
  let i = 0;
  const fail = () => { throw new SyntaxError(`bad JSON at ${i}`); };
  const ws = () => { while (i < s.length && " \t\n\r".includes(s[i])) i++; };
  const word = (w, v) => { if (s.startsWith(w, i)) { i += w.length; return v; } return fail(); };
  const str = () => {
    let out = "";
    i++; // opening quote
    for (;;) {
      const c = s[i++];
      if (c === undefined || c < " ") fail();
      if (c === '"') return out;
      if (c !== "\\") { out += c; continue; }
      const e = s[i++];
      if (e === "u") {
        const h = s.slice(i, i + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(h)) fail();
        out += String.fromCharCode(parseInt(h, 16));
        i += 4;
      } else if (e in ESCAPES) {
        out += ESCAPES[e];
      } else {
        fail();
      }
    }
  };
  const value = () => {
    ws();
    const c = s[i];
    if (c === "{") {
      i++;
      const o = Object.create(null); // "__proto__" stays an ordinary key
      ws();
      if (s[i] === "}") { i++; return o; }
      for (;;) {
        ws();
        if (s[i] !== '"') fail();
        const k = str();
        ws();
        if (s[i++] !== ":") fail();
        const v = value();
        Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
        ws();
        if (s[i] === ",") { i++; continue; }
        if (s[i] === "}") { i++; return o; }
        fail();
      }
    }
    if (c === "[") {
      i++;
      const a = [];
      ws();
      if (s[i] === "]") { i++; return a; }
      for (;;) {
        a.push(value());
        ws();
        if (s[i] === ",") { i++; continue; }
        if (s[i] === "]") { i++; return a; }
        fail();
      }
    }
    if (c === '"') return str();
    if (c === "t") return word("true", true);
    if (c === "f") return word("false", false);
    if (c === "n") return word("null", null);
    if (c === "N") return word("NaN", null);
    if (c === "I") return word("Infinity", null);
    if (s.startsWith("-Infinity", i)) return word("-Infinity", null);
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(s);
    if (!m) fail();
    i += m[0].length;
    return Number(m[0]);
  };
  const v = value();
  ws();
  if (i !== s.length) fail();
  return v;
}
