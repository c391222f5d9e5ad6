// Benchmark payloads (internal, never shipped): deterministic tool-call
// arguments of four shapes, each as a host value and as JSON text.
//
//   small   ~150 B  a typical tool call: ids, a priority, a title with
//                   spaces to trim, a few tags, a request id
//   medium  ~5 KB   nested records with unicode strings and floats
//   large   ~1 MB   5,000 records of the same kind
//   wide    one object with 2,000 keys in random order (sorting cost)
//
// Seeded (splitmix32), so every run and every machine sees the same bytes;
// the JSON text is JSON.stringify of the value (compact, what an LLM's
// `arguments` string usually is). Python's bench can read the same payloads
// from `node bench/payloads.mjs --write DIR`.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** splitmix32: small, fast, well-mixed; enough for test data. */
function rng(seed) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  const r = {
    u32: next,
    /** uniform in [0, 1) with 53 random bits: full-precision doubles */
    f64: () => (next() * 2 ** 21 + (next() >>> 11)) / 2 ** 53,
    int: (n) => next() % n,
    pick: (a) => a[next() % a.length],
    id: (prefix, n) => {
      const abc = "0123456789abcdefghijklmnopqrstuvwxyz";
      let s = prefix;
      for (let i = 0; i < n; i++) s += abc[next() % 36];
      return s;
    },
  };
  return r;
}

const WORDS = ["refund", "order", "late", "delivery", "invoice", "account", "billing", "urgent", "shipping",
  "address", "password", "reset", "upgrade", "plan", "coupon", "damaged", "item", "return", "label", "tracking"];
// Unicode: Latin-1, CJK, Cyrillic, Greek, an emoji (astral: a surrogate pair in JS).
const UNICODE = ["Café Zürich", "naïve façade", "東京駅", "Москва", "Ελλάδα", "São Paulo", "Kraków",
  "crème brûlée", "☕ espresso", "🚚 express", "Ångström", "Düsseldorf", "señor", "日本語テキスト"];
const TAGS = ["billing", "refund", "urgent", "vip", "eu", "us", "mobile", "web", "api", "beta"];

function title(r) {
  const n = 3 + r.int(5);
  const w = [];
  for (let i = 0; i < n; i++) w.push(r.pick(WORDS));
  // Leading/trailing spaces (and sometimes a tab/newline) the contract trims.
  return `${r.pick(["  ", " ", "\t", ""])}${w.join(" ")}${r.pick(["  ", " ", "\n", ""])}`;
}

function tags(r, max) {
  const out = [];
  const n = 1 + r.int(max);
  for (let i = 0; i < n; i++) out.push(r.pick(TAGS));
  return out;
}

/** One ~200 B record: strings, unicode, ints, short and full-precision floats, a null. */
function record(r, i) {
  return {
    id: i,
    sku: r.id("SKU-", 8),
    name: `${r.pick(UNICODE)} ${r.pick(WORDS)}`,
    price: Math.round(r.f64() * 100000) / 100, // two decimals, like 1234.56
    qty: r.int(50),
    score: r.f64(), // 17-digit shortest forms: the expensive number case
    geo: { lat: Math.round((r.f64() * 180 - 90) * 1e6) / 1e6, lng: Math.round((r.f64() * 360 - 180) * 1e6) / 1e6 },
    tags: tags(r, 3),
    active: r.int(2) === 0,
    note: r.int(4) === 0 ? null : title(r),
  };
}

function small() {
  const r = rng(0x5eed0001);
  return {
    ticketId: r.id("T-", 6),
    userId: r.id("u_", 8),
    priority: "P1",
    title: "  Refund for order 48213 ",
    tags: ["billing", "refund", "urgent"],
    requestId: r.id("req_", 12),
  };
}

function medium() {
  const r = rng(0x5eed0002);
  const items = [];
  for (let i = 0; i < 21; i++) items.push(record(r, i));
  return {
    query: { text: title(r), locale: "de-CH", filters: { minPrice: 9.99, maxPrice: 1e4, inStock: true } },
    items,
    page: { cursor: r.id("cur_", 24), size: 20, total: 4817 },
    requestId: r.id("req_", 20),
  };
}

function large() {
  const r = rng(0x5eed0003);
  const records = [];
  for (let i = 0; i < 5000; i++) records.push(record(r, i));
  return { batchId: r.id("batch_", 16), records };
}

function wide() {
  const r = rng(0x5eed0004);
  const keys = [];
  for (let i = 0; i < 2000; i++) keys.push(`${r.pick(WORDS)}_${r.id("", 6)}_${i}`);
  // Fisher–Yates with the same generator: insertion order is random.
  for (let i = keys.length - 1; i > 0; i--) {
    const j = r.int(i + 1);
    [keys[i], keys[j]] = [keys[j], keys[i]];
  }
  const o = {};
  for (const k of keys) o[k] = r.int(3) === 0 ? r.pick(WORDS) : r.int(100000);
  return o;
}

/** The payloads in table order: [{ name, value, json }]. */
export function payloads() {
  return [
    ["small", small()],
    ["medium", medium()],
    ["large", large()],
    ["wide", wide()],
  ].map(([name, value]) => ({ name, value, json: JSON.stringify(value) }));
}

/** The tool name every row fingerprints under. */
export const TOOL_NAME = "create_ticket";

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop()) && process.argv.includes("--write")) {
  const dir = process.argv[process.argv.indexOf("--write") + 1];
  mkdirSync(dir, { recursive: true });
  for (const p of payloads()) writeFileSync(join(dir, `${p.name}.json`), p.json);
  console.log(`wrote ${payloads().length} payloads to ${dir}`);
}
