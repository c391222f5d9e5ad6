// Types for bench/reference.mjs (the benchmark's reference implementation of
// contract v1; internal, never shipped).
export interface ReferenceOptions {
  kind?: string;
  matchOn?: readonly string[] | null;
  ignoreArgs?: readonly string[] | null;
}
export function compareCodePoints(a: string, b: string): number;
export function canonicalJSON(value: unknown): string;
export function selectArgs(args: unknown, matchOn: readonly string[] | null, ignoreArgs: readonly string[] | null): unknown;
export function preimage(name: string, args: unknown, options?: ReferenceOptions): string;
export function fingerprint(name: string, args: unknown, options: ReferenceOptions | undefined, sha256Hex: (s: string) => string): string;
export function decodeWtf8(bytes: Uint8Array): string;
export function parseJSONText(input: string | Uint8Array): unknown;
