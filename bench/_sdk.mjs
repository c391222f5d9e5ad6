// Bench helper (internal): the SDK under test, as a private snapshot of
// dist/index.js (self-contained: the wasm is embedded) copied to a temp dir
// when the bench starts. Others rebuilding dist/ in the same tree mid-run
// (tsup cleans it) then cannot break or change a run; the table, the profile
// and the cold-start children all use the same bytes.
import { copyFileSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "./_wasm.mjs";

const src = join(ROOT, "dist", "index.js");
/** File path of the snapshot. */
export const SDK_PATH = join(mkdtempSync(join(tmpdir(), "fp-bench-sdk-")), "index.mjs");
copyFileSync(src, SDK_PATH);
/** file: URL of the snapshot (append a query to load an independent copy). */
export const SDK_URL = pathToFileURL(SDK_PATH).href;
/** The snapshot's source text. */
export const SDK_SOURCE = readFileSync(SDK_PATH, "utf8");
export const sdk = await import(SDK_URL);
