// Writes a generator's outputs, or (with --check, as CI runs it) fails when a committed one differs from
// what the generator would write now. Shared by gen-abi.mjs and gen-records.mjs.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** outputs: path (from root) → text. `what` names them in messages; `current`: the line --check prints when all match. */
export function writeOrCheck(root, outputs, what, generator, current) {
  if (process.argv.includes("--check")) {
    const stale = Object.entries(outputs)
      .filter(([f, body]) => !existsSync(join(root, f)) || readFileSync(join(root, f), "utf8") !== body).map(([f]) => f);
    if (stale.length) {
      console.error(`stale generated ${what} files (run node scripts/${generator}): ${stale.join(", ")}`);
      process.exit(1);
    }
    console.log(current);
  } else {
    for (const [f, body] of Object.entries(outputs)) writeFileSync(join(root, f), body);
    console.log(`${what}: wrote ${Object.keys(outputs).join(", ")}`);
  }
}
