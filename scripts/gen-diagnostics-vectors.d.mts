// Types for scripts/gen-diagnostics-vectors.mjs (test-only use).
export declare const DIAGNOSTICS_VECTORS_PATH: string;
export declare function buildDiagnosticsVectors(): { description: string; version: 1; cases: unknown[] };
export declare function renderDiagnosticsVectors(): string;
