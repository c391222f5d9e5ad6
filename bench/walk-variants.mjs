// Experiment (bench-only): how fast could the D15 validation walk of
// src/encode.ts be? Times the SDK's own toJsonText (type-stripped copy)
// against JSON.stringify alone and against two sketches of the same check
// written here: iterating Object.values (no keyed lookup per member) and
// primitives tested before the recursive call (fewer calls). The sketches
// only answer "is the value acceptable" for plain data; they are evidence
// for the lead, not a replacement (no toJSON / Date / error paths).
//   node bench/walk-variants.mjs [--quick]
import { loadEncode } from "./_core.mjs";
import { fmtTime, measure, setClock } from "./_timer.mjs";
import { payloads } from "./payloads.mjs";

setClock("cpu");
const quick = process.argv.includes("--quick");
const { toJsonText } = await loadEncode();
const objectProto = Object.prototype;

/** Sketch A: Object.values instead of Object.keys + v[k]. */
function checkValues(v) {
  if (typeof v !== "object" || v === null) return typeof v !== "bigint";
  if (typeof v.toJSON === "function") return v instanceof Date;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (!checkValues(v[i])) return false;
    return true;
  }
  const p = Object.getPrototypeOf(v);
  if (p !== objectProto && p !== null) return false;
  for (const x of Object.values(v)) if (!checkValues(x)) return false;
  return true;
}

/** Sketch B: as A, but strings and numbers (most members) never cost a call. */
function checkInline(v) {
  if (typeof v.toJSON === "function") return v instanceof Date;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (typeof x === "object" ? x !== null && !checkInline(x) : typeof x === "bigint") return false;
    }
    return true;
  }
  const p = Object.getPrototypeOf(v);
  if (p !== objectProto && p !== null) return false;
  for (const x of Object.values(v)) {
    if (typeof x === "object" ? x !== null && !checkInline(x) : typeof x === "bigint") return false;
  }
  return true;
}

const ps = payloads();
for (const p of ps) for (let i = 0; i < (p.name === "large" ? 3 : 200); i++) { toJsonText(p.value); checkValues(p.value); checkInline(p.value); }
console.log("D15 walk variants (cpu time, median; walk = variant − JSON.stringify)");
for (const p of ps) {
  const v = p.value;
  const m = measure({
    stringify: () => JSON.stringify(v),
    "toJsonText (SDK)": () => toJsonText(v),
    "values walk + stringify": () => checkValues(v) && JSON.stringify(v),
    "inline walk + stringify": () => checkInline(v) && JSON.stringify(v),
  }, quick ? { rounds: 5, sliceMs: 15 } : { rounds: 11, sliceMs: 30 });
  const s = m.stringify.median;
  console.log(`  ${p.name.padEnd(7)} stringify ${fmtTime(s).padStart(8)} | walk: SDK ${fmtTime(m["toJsonText (SDK)"].median - s).padStart(8)}, values ${fmtTime(m["values walk + stringify"].median - s).padStart(8)}, inline ${fmtTime(m["inline walk + stringify"].median - s).padStart(8)}`);
}
