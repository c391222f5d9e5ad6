// Decodes the tagged host values of vectors/fingerprint.vectors.json into JS
// values (test-only, internal). The Python suite decodes the same tags.
//
// Format: any JSON value stands for itself, except an object that has a "$ov"
// member, which is a tag:
//   {"$ov":"undefined"}                  undefined (no Python equivalent)
//   {"$ov":"NaN"} {"$ov":"Infinity"} {"$ov":"-Infinity"} {"$ov":"-0"}
//   {"$ov":"date","iso":"2024-05-06T07:08:09.123Z"}
//                                        a Date (Python: aware UTC datetime)
//   {"$ov":"object","entries":[[key, value], …]}
//                                        a plain object from entries; the way
//                                        to write an object with a "$ov" key
// Objects are built with defineProperty so keys like "__proto__" stay own
// data properties, as JSON.parse makes them.

/** The JS host value a tagged vector value stands for. */
export function decodeTagged(v) {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map(decodeTagged);
  if (Object.prototype.hasOwnProperty.call(v, "$ov")) return decodeTag(v);
  return fromEntries(Object.keys(v).map((k) => [k, v[k]]));
}

function fromEntries(entries) {
  const out = {};
  for (const [k, val] of entries) {
    Object.defineProperty(out, k, { value: decodeTagged(val), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function decodeTag(v) {
  switch (v.$ov) {
    case "undefined":
      return undefined;
    case "NaN":
      return NaN;
    case "Infinity":
      return Infinity;
    case "-Infinity":
      return -Infinity;
    case "-0":
      return -0;
    case "date": {
      const d = new Date(v.iso);
      if (typeof v.iso !== "string" || Number.isNaN(d.getTime())) throw new Error(`bad date tag ${JSON.stringify(v)}`);
      return d;
    }
    case "object":
      if (!Array.isArray(v.entries)) throw new Error(`bad object tag ${JSON.stringify(v)}`);
      return fromEntries(v.entries);
    default:
      throw new Error(`unknown tag ${JSON.stringify(v.$ov)}`);
  }
}
