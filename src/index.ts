/**
 * Entry for Node, Deno, Bun and the default condition: the core's bytes are
 * embedded, so every function works synchronously right after import, with
 * no file system and no node:* module.
 * @module
 */
import { setSyncSource } from "./core.js";
import { ENGINE_WASM_BASE64, WASM_BASE64 } from "./_wasm.gen.js";
import { setEngineSource } from "./_engine.js";
import { decodeBase64 } from "./base64.js";
import { setDefaultSource } from "./init.js";

setSyncSource(() => decodeBase64(WASM_BASE64));
setDefaultSource(async () => decodeBase64(WASM_BASE64));
// explain/diff/nearest and the CLI: decoded and compiled on their first use only.
setEngineSource(() => decodeBase64(ENGINE_WASM_BASE64));

export * from "./api.js";
export { init, initDiagnostics } from "./init.js";
