// Cold start probe (internal), run in a fresh `node` by bench/run.mjs:
// time from the first import to the first fingerprint of the small payload,
// for our SDK (import dist/index.js — or the snapshot path given as the second
// argument — which compiles the embedded wasm on first use) or for the
// reference + node:crypto. Prints one JSON line.
import { pathToFileURL } from "node:url";

const which = process.argv[2];
const sdkUrl = process.argv[3] ? pathToFileURL(process.argv[3]).href : new URL("../dist/index.js", import.meta.url).href;
const args = { ticketId: "T-80hrfy", priority: "P1", title: "  Refund for order 48213 ", tags: ["billing", "refund"] };
const t0 = performance.now();
let fp;
if (which === "ours") {
  const { fingerprint } = await import(sdkUrl);
  fp = fingerprint("create_ticket", args);
} else {
  const [ref, { hash }] = await Promise.all([import("./reference.mjs"), import("node:crypto")]);
  fp = ref.fingerprint("create_ticket", args, undefined, (s) => hash("sha256", s));
}
const ms = performance.now() - t0;
console.log(JSON.stringify({ which, ms, fp }));
