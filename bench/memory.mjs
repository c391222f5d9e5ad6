// Peak memory of one call: the extra peak RSS a 50 MB and a
// 200 MB document cost on the text path (fingerprintJSON) and the value path
// (fingerprint), as a multiple of the document's size. Each case runs in a
// fresh process: build the input, settle (gc), reset the RSS high-water mark
// (Linux /proc/self/clear_refs), make one call, read the mark. Not part of
// the test gate.
//   node bench/memory.mjs [sizesMB...]      (default: 50 200)
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const DIST = fileURLToPath(new URL("../dist/index.cjs", import.meta.url));

/** One record of ~100 bytes of JSON; repeated to the size asked. */
const CHILD = `
  const f = require(${JSON.stringify(DIST)});
  const [mode, mb] = [process.argv[1], Number(process.argv[2])];
  const n = Math.round(mb * 2 ** 20 / 100);
  const rows = new Array(n);
  for (let i = 0; i < n; i++) rows[i] = { id: "row-" + i, value: i / 7, tag: " t ", ok: (i & 1) === 0, x: null };
  let text = JSON.stringify({ rows });
  const bytes = Buffer.byteLength(text);
  let value = mode === "value" ? { rows } : null;
  if (mode === "text") rows.length = 0;
  global.gc(); global.gc();
  // Reset the peak (VmHWM) to the current RSS, so only the call counts (Linux: clear_refs 5).
  const fs = require("node:fs");
  fs.writeFileSync("/proc/self/clear_refs", "5");
  const kb = (k) => 1024 * Number(fs.readFileSync("/proc/self/status", "utf8").split(String.fromCharCode(10)).find((l) => l.startsWith(k + ":")).split(/ +/)[1]);
  const base = kb("VmRSS");
  if (mode === "text") f.fingerprintJSON("bench", text); else f.fingerprint("bench", value);
  console.log(JSON.stringify({ bytes, extra: Math.max(0, kb("VmHWM") - base) }));
`;

const sizes = process.argv.slice(2).map(Number).filter((x) => x > 0);
const rows = [];
for (const mb of sizes.length ? sizes : [50, 200]) {
  for (const mode of ["text", "value"]) {
    const r = spawnSync(process.execPath, ["--expose-gc", "--max-old-space-size=8192", "-e", CHILD, mode, String(mb)], { encoding: "utf8" });
    if (r.status !== 0) { console.error(r.stderr); process.exit(1); }
    const { bytes, extra } = JSON.parse(r.stdout);
    rows.push({ mb, mode, ratio: extra / bytes });
    console.log(`${String(mb).padStart(4)} MB  ${mode.padEnd(5)}  extra peak ${(extra / 2 ** 20).toFixed(0).padStart(5)} MB  = ${(extra / bytes).toFixed(2)}× the document`);
  }
}
const worst = Math.max(...rows.map((r) => r.ratio));
console.log(`worst: ${worst.toFixed(2)}× (target ≤ 4×): ${worst <= 4 ? "PASS" : "MISS"}`);
