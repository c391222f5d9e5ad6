// Which changed keys look like noise, for why's hint (cli/why.ts): the hint
// to leave a key out with ignoreArgs or matchOn is only useful when the key
// is one that changes on every call without changing what the call asks.
// Decided by the key's name alone (the last key of a change's path, after
// any array indexes), ASCII, case-insensitive, "_" and "-" dropped:
//   ids         id, *Id / *ID (after a lowercase letter or digit), *_id / *-id, uuid, guid, nonce, etag
//   timestamps  ts, *timestamp, *At (createdAt) / *_at
//   cursors     *cursor, *pagetoken, *nexttoken
// Internal; engine module only.

/** The change path [p, p + n) (diff.ts notation: `a.b`, `a["k-1"]`, `a[3]`) ends in a key that looks like noise. */
export function noisePath(p: usize, n: usize): bool {
  let e = n;
  // Array indexes after the key: `ids[3]` is about "ids".
  while (e > 0 && load<u8>(p + e - 1) == 0x5D && e >= 2 && isDigit(load<u8>(p + e - 2))) {
    let s = e - 2;
    while (s > 0 && isDigit(load<u8>(p + s - 1))) s--;
    if (s == 0 || load<u8>(p + s - 1) != 0x5B) return false;
    e = s - 1;
  }
  let s = e;
  if (e >= 4 && load<u8>(p + e - 1) == 0x5D && load<u8>(p + e - 2) == 0x22) { // ["raw key"]: its bytes as written
    e -= 2;
    s = e;
    while (s >= 2 && !(load<u8>(p + s - 1) == 0x22 && load<u8>(p + s - 2) == 0x5B)) s--;
    if (s < 2) return false;
  } else {
    while (s > 0 && isIdent(load<u8>(p + s - 1))) s--;
  }
  return noiseKey(p + s, e - s);
}

/** The key [k, k + n) looks like noise (see the module comment). */
function noiseKey(k: usize, n: usize): bool {
  if (n == 0 || n > 64) return false;
  // Camel case suffixes need the raw bytes: "requestId", "createdAt" (not "format", "valid").
  if (n > 2) {
    const a = load<u8>(k + n - 2), b = load<u8>(k + n - 1);
    const before = load<u8>(k + n - 3);
    const lowerBefore = before - 0x61 < 26 || before - 0x30 < 10;
    if (a == 0x49 && (b == 0x64 || b == 0x44) && lowerBefore) return true; // …Id, …ID after a lowercase letter or digit
    if (a == 0x41 && b == 0x74 && before - 0x61 < 26) return true; // …At after a lowercase letter (not "format")
    if ((before == 0x5F || before == 0x2D) && (lower(a) == 0x69 && lower(b) == 0x64 || lower(a) == 0x61 && lower(b) == 0x74)) return true; // _id, _at
  }
  // The rest on the name lowercased without "_" and "-".
  const w = memory.data(64);
  let m: usize = 0;
  for (let i: usize = 0; i < n; i++) {
    const c = load<u8>(k + i);
    if (c == 0x5F || c == 0x2D) continue;
    store<u8>(w + m++, <u8>lower(c));
  }
  return is(w, m, "id") || is(w, m, "uuid") || is(w, m, "guid") || is(w, m, "nonce") || is(w, m, "etag") || is(w, m, "ts")
    || ends(w, m, "timestamp") || ends(w, m, "cursor") || ends(w, m, "pagetoken") || ends(w, m, "nexttoken");
}

@inline function lower(c: u32): u32 { return c - 0x41 < 26 ? c | 0x20 : c; }
@inline function isDigit(c: u32): bool { return c - 0x30 < 10; }
@inline function isIdent(c: u32): bool { return c - 0x30 < 10 || (c | 0x20) - 0x61 < 26 || c == 0x5F || c == 0x24; }

function is(w: usize, m: usize, s: string): bool {
  return m == <usize>s.length && ends(w, m, s);
}

function ends(w: usize, m: usize, s: string): bool {
  const l = <usize>s.length;
  if (m < l) return false;
  for (let j: usize = 0; j < l; j++) if (<u32>load<u8>(w + m - l + j) != <u32>s.charCodeAt(<i32>j)) return false;
  return true;
}
