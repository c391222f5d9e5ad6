/** Base64 → bytes without Buffer or atob-dependence on Node globals. Internal. @module */
export function decodeBase64(s: string): Uint8Array<ArrayBuffer> {
  if (typeof atob === "function") {
    const bin = atob(s);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }
  throw new Error("no atob in this runtime");
}
