/**
 * Entry for Node, Deno, Bun and the default condition: the core's bytes are
 * embedded, so every function works synchronously right after import, with
 * no file system and no node:* module.
 * @module
 */
import { ENGINE_WASM_BASE64, WASM_BASE64 } from "./_wasm.gen.js";
import { embed } from "./base64.js";

embed(WASM_BASE64, ENGINE_WASM_BASE64);

export * from "./api.js";
