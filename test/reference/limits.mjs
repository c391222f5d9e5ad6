// The limits oracle (maxInputBytes, maxDepth, maxMembers), written
// independently of the core (assembly/base/limits.ts): whether an input is over a
// limit, where, and the one message both SDKs must give for it. Behind
// vectors/limits.vectors.json.
//
// Rules: the byte limit counts the input's UTF-8 bytes and is checked first
// (no offset); then the input is read in order and the first container that
// opens deeper than maxDepth (offset: its bracket), or the first object
// member past maxMembers (offset: the first member's first byte, or the comma
// before a later one) fails. A host value has no offsets: depth, then its
// member count, when each container opens (pre-order).

const REASONS = {
  maxInputBytes: "input larger than the maxInputBytes limit",
  maxDepth: "nesting deeper than the maxDepth limit",
  maxMembers: "an object with more members than the maxMembers limit",
};

/** The message of a limit failure. */
export function limitMessage(limit, value, offset) {
  return `limit exceeded: ${REASONS[limit]}${offset === null ? "" : ` at byte ${offset}`} (${limit} is ${value})`;
}

const isWs = (c) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/**
 * The failure of JSON text `text` (valid JSON) under `limits`, or null:
 * { code: "limit-exceeded", message, offset }.
 */
export function textLimitError(text, limits) {
  const bytes = Buffer.from(text, "utf8");
  const { maxInputBytes = Infinity, maxDepth = Infinity, maxMembers = Infinity } = limits;
  if (bytes.length > maxInputBytes) return fail("maxInputBytes", maxInputBytes, null);
  const stack = []; // per open container: { obj, members }
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === 0x22) { // skip the string
      for (i++; bytes[i] !== 0x22; i++) if (bytes[i] === 0x5c) i++;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      stack.push({ obj: c === 0x7b, members: 0 });
      if (stack.length > maxDepth) return fail("maxDepth", maxDepth, i);
      let j = i + 1;
      while (isWs(bytes[j])) j++;
      if (bytes[j] !== c + 2 && c === 0x7b) {
        stack[stack.length - 1].members = 1;
        if (1 > maxMembers) return fail("maxMembers", maxMembers, j);
      }
    } else if (c === 0x7d || c === 0x5d) {
      stack.pop();
    } else if (c === 0x2c) {
      const top = stack[stack.length - 1];
      if (top.obj && ++top.members > maxMembers) return fail("maxMembers", maxMembers, i);
    }
  }
  return null;
}

/** The failure of a host value (JSON.parse of valid text without duplicate keys), or null; bytes are not judged. */
export function valueLimitError(value, limits) {
  const { maxDepth = Infinity, maxMembers = Infinity } = limits;
  const walk = [[value, 1]];
  while (walk.length > 0) {
    const [v, depth] = walk.pop();
    if (v === null || typeof v !== "object") continue;
    if (depth > maxDepth) return fail("maxDepth", maxDepth, null);
    const kids = Array.isArray(v) ? v : Object.values(v);
    if (!Array.isArray(v) && kids.length > maxMembers) return fail("maxMembers", maxMembers, null);
    for (let k = kids.length - 1; k >= 0; k--) walk.push([kids[k], depth + 1]);
  }
  return null;
}

function fail(limit, value, offset) {
  return { code: "limit-exceeded", message: limitMessage(limit, value, offset), offset };
}
