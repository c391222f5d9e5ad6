// Types for the test-only oracle test/reference/contract.mjs (internal).
export declare const FINGERPRINT_VERSION: 1;
export declare const DEFAULT_KIND: "tool_call";
export declare class OracleError extends Error {}
export interface Selection {
  matchOn?: readonly string[] | null;
  ignoreArgs?: readonly string[] | null;
}
export interface Digest {
  canonical: string;
  fingerprint: string;
}
export declare function compareCodePoints(a: string, b: string): number;
export declare function canonicalValue(value: unknown, rootPath?: string): string;
export declare function select(args: unknown, selection?: Selection): unknown;
export declare function decodeWtf8(bytes: Uint8Array): string;
export declare function replaceNonFiniteTokens(text: string): string;
export declare function parseJSONText(input: string | Uint8Array): unknown;
export declare function sha256Hex(text: string): string;
export declare function fingerprintOf(call: { kind?: string; name: string; args?: unknown } & Selection): Digest;
export declare function fingerprintOfText(call: { kind?: string; name: string; argsJSON: string | Uint8Array } & Selection): Digest;
