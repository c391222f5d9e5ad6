// Types for scripts/gen-selftest.mjs (test-only use).
export declare const SELFTEST_PATH: string;
export declare function buildSelftestText(): string;
