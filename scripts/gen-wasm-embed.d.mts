// Types for scripts/gen-wasm-embed.mjs (build configs).
export declare function writeWasmEmbed(): string;
