/**
 * Value-side selection (D9, D10): narrows a host value's top level before
 * anything else reads it, so values that matchOn or ignoreArgs leave out are
 * never inspected (no getter runs, no D15 check). Internal.
 * @module
 */

const objectProto = Object.prototype;
const propertyIsEnumerable = Object.prototype.propertyIsEnumerable;

/**
 * Only a plain object is selected from; anything else — arrays, strings,
 * Dates, class instances with toJSON — passes through untouched (D10). Keys
 * are own enumerable properties, as JSON.stringify sees them; each selected
 * value is read exactly once. Costs O(keys + list) with a Set.
 */
export function selectValue(args: unknown, matchOn: readonly string[] | null, ignoreArgs: readonly string[] | null): unknown {
  if (!matchOn && !ignoreArgs) return args;
  if (typeof args !== "object" || args === null || Array.isArray(args)) return args;
  const p = Object.getPrototypeOf(args);
  if (p !== objectProto && p !== null) return args;
  const src = args as Record<string, unknown>;
  // Null prototype: a "__proto__" key stays an ordinary key.
  const out = Object.create(null) as Record<string, unknown>;
  if (matchOn) {
    for (const k of matchOn) if (propertyIsEnumerable.call(src, k) && !(k in out)) out[k] = src[k];
  } else {
    const drop = new Set(ignoreArgs);
    for (const k of Object.keys(src)) if (!drop.has(k)) out[k] = src[k];
  }
  return out;
}
