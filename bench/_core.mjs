// Bench helper (internal): the pieces of one `fingerprint` call, callable
// one at a time, for the profile in bench/run.mjs and bench/cpuprof.mjs.
//
//   loadWalk()        src/values.ts's writeValue (the D15 walk that writes
//                     the core's value stream), type-stripped with
//                     TypeScript into a fresh temp dir: the SDK's own code.
//   directCore(bytes) the core (shippedCore(): the bytes dist/ embeds)
//                     instantiated directly, with the request written once
//                     by hand (ABI in the header of assembly/entry/fingerprint.ts: six
//                     u32 — flags, kindLen, nameLen, matchLen, ignoreLen,
//                     argsLen — then the parts), so
//                     run() alone can be timed: with DIGEST (all in wasm,
//                     SHA-256 included) or PREIMAGE (the core writes
//                     kind "\n" name "\n" canonical; src/core.ts hashes it
//                     with node:crypto when the request is large).
//   loadParts()       bench/wasm/core-parts.ts: the parse stage alone.
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { SDK_SOURCE } from "./_sdk.mjs";
import { F_DIGEST, F_STRING_INPUT, HEADER_BYTES, HEADER_WORDS, RESULT_DIGEST, RESULT_TEXT_PTR } from "./_abi.gen.mjs";
import { ROOT, compileEntry, instantiate } from "./_wasm.mjs";

export async function loadWalk() {
  const dir = mkdtempSync(join(tmpdir(), "fp-bench-walk-"));
  for (const f of ["values", "errors", "_wtf8", "_abi.gen"]) {
    const src = readFileSync(join(ROOT, "src", `${f}.ts`), "utf8");
    const js = ts.transpileModule(src, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } });
    writeFileSync(join(dir, `${f}.js`), js.outputText);
  }
  const { retarget, writeValue } = await import(join(dir, "values.js"));
  let buf = new Uint8Array(1 << 16);
  const grow = (need) => {
    const b = new Uint8Array(Math.max(need, 2 * buf.length));
    b.set(buf);
    buf = b;
    retarget(buf, buf.length);
  };
  /** Writes value's stream into a scratch buffer (as core.ts does into linear memory); returns its length. */
  return { walk: (value) => writeValue(value, buf, 0, buf.length, grow) };
}

// The ABI's numbers, generated from assembly/abi.ts (scripts/gen-abi.mjs).
export { F_DIGEST, F_PREIMAGE, F_STRING_INPUT, F_TEXT } from "./_abi.gen.mjs";

/**
 * The core's bytes exactly as the SDK under test uses them: the base64 that
 * the dist/index.js snapshot embeds (src/_wasm.gen.ts), so the profile and
 * the table run the same module. Falls back to build/fingerprint.wasm.
 */
export function shippedCore() {
  const dist = SDK_SOURCE;
  // The bundle may be minified (names gone): the core is the smaller of the
  // embedded modules, the base64 literals that start with the wasm magic.
  const b64 = [...dist.matchAll(/"(AGFzbQ[A-Za-z0-9+/]+=*)"/g)].map((m) => m[1]).sort((a, b) => a.length - b.length)[0];
  const bytes = b64 ? Buffer.from(b64, "base64") : readFileSync(join(ROOT, "build", "fingerprint.wasm"));
  return { bytes, source: b64 ? "dist/index.js snapshot (embedded)" : "build/fingerprint.wasm", sha256: createHash("sha256").update(bytes).digest("hex") };
}

/**
 * The core with one request pre-written: `run()` hashes/canonicalizes args
 * (JSON text) under tool `name` with the given flags. The request region is
 * not modified by run (checked by the caller comparing digests).
 */
export function directCore(bytes, name, argsJSON, flags = F_DIGEST | F_STRING_INPUT) {
  const e = instantiate(bytes);
  const enc = new TextEncoder();
  const nameLit = enc.encode(JSON.stringify(name));
  const args = enc.encode(argsJSON);
  const len = HEADER_BYTES + nameLit.length + args.length;
  // Reserve as src/core.ts does (64 KiB first, then 3 bytes per UTF-16 unit of
  // the strings): the arena starts right after the input region, and its
  // placement measurably changes the speed of run() (cache set conflicts).
  e.reserve(64 * 1024);
  const ptr = e.reserve(HEADER_BYTES + 3 * JSON.stringify(name).length + 3 * argsJSON.length);
  const mem = new Uint8Array(e.memory.buffer);
  mem.set(nameLit, ptr + HEADER_BYTES);
  mem.set(args, ptr + HEADER_BYTES + nameLit.length);
  new Uint32Array(e.memory.buffer, ptr, HEADER_WORDS).set([flags, 0, nameLit.length, 0, 0, args.length]);
  const res = e.result();
  const latin1 = new TextDecoder("latin1");
  return {
    exports: e,
    /** Total request bytes (src/core.ts moves hashing to the host from 2048 on). */
    requestBytes: len,
    run: () => e.run(len),
    digest: () => latin1.decode(new Uint8Array(e.memory.buffer, res + RESULT_DIGEST, 64)),
    /** After a PREIMAGE or TEXT run: a view of the returned text. */
    text: () => {
      const [ptr, n] = new Uint32Array(e.memory.buffer, res + RESULT_TEXT_PTR, 2);
      return new Uint8Array(e.memory.buffer, ptr, n);
    },
    /** A Uint8Array over the input region with room for n bytes (for timing the host's copy). */
    inputView: (n) => {
      const at = e.reserve(n); // may grow memory, which detaches the old buffer
      return new Uint8Array(e.memory.buffer, at, n);
    },
  };
}

/** The parse-only entry with argsJSON written at its input region. */
export function loadParts(argsJSON) {
  const e = instantiate(compileEntry("bench/wasm/core-parts.ts"));
  const args = new TextEncoder().encode(argsJSON);
  const p = e.reserve(args.length);
  new Uint8Array(e.memory.buffer).set(args, p);
  const n = args.length;
  return { parse: () => e.parse(n) };
}
