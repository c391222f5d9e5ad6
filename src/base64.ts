/**
 * The embedded modules (index.ts, node.ts): their base64 (RFC 4648 §4,
 * standard alphabet, "=" padding) decoded when first compiled; it runs on
 * every cold start, so speed matters. The runtime's native decoder:
 * `Uint8Array.fromBase64` (ES2026), else the global `Buffer` (Node, Bun, Deno
 * for npm packages; read off globalThis so bundlers see no free `Buffer` and
 * add no polyfill), else `atob` (browsers, where it is native). Node's `atob`
 * comes last: on the ~46 KB core it took 8–15 ms, against ~0.15 ms for Buffer.
 * Input is our own generated constant, so malformed text is a build bug. Internal.
 * @module
 */
import { setSyncSource } from "./core.js";
import { setEngineSource } from "./_engine.js";
import { coreLoader } from "./init.js";

function decodeBase64(s: string): Uint8Array<ArrayBuffer> {
  const fromBase64 = (Uint8Array as unknown as { fromBase64?: (s: string) => Uint8Array<ArrayBuffer> }).fromBase64;
  if (typeof fromBase64 === "function") return fromBase64(s);
  const buffer = (globalThis as { Buffer?: { from(s: string, enc: "base64"): Uint8Array } }).Buffer;
  if (typeof buffer?.from === "function") {
    const b = buffer.from(s, "base64");
    return new Uint8Array(b.buffer as ArrayBuffer, b.byteOffset, b.byteLength);
  }
  const text = atob(s), out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

/** The core from its base64, and the engine module's (explain, diff, nearest, the CLI): decoded and compiled on first use. */
export function embed(core: string, engine?: string): void {
  setSyncSource(() => decodeBase64(core));
  coreLoader.defaultSource = async () => decodeBase64(core);
  if (engine !== undefined) setEngineSource(() => decodeBase64(engine));
}
