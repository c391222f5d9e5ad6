import stringify from "safe-stable-stringify";
import { hash } from "node:crypto";
import { payloads } from "./payloads.mjs";
const A = await import("/tmp/wa/1513248.mjs"), B = await import("/tmp/wa/cur.mjs");
const P = payloads();
for (const name of ["small", "medium", "wide"]) {
  const v = P.find((p) => p.name === name).value;
  const reps = name === "small" ? 20000 : name === "medium" ? 1000 : 60;
  const rows = { A: () => A.fingerprint("create_ticket", v), B: () => B.fingerprint("create_ticket", v), sss: () => hash("sha256", "tool_call\ncreate_ticket\n" + stringify(v), "hex") };
  const t = { A: [], B: [], sss: [] };
  for (let r = 0; r < 21; r++) for (const k of r % 2 ? ["A", "B", "sss"] : ["sss", "B", "A"]) { const c0 = process.cpuUsage(); for (let i = 0; i < reps; i++) rows[k](); const c = process.cpuUsage(c0); t[k].push((c.user + c.system) / reps); }
  const med = (a) => a.sort((x, y) => x - y)[10];
  console.log(name, "A", med(t.A).toFixed(2), "B", med(t.B).toFixed(2), "sss", med(t.sss).toFixed(2), " sss/A", (med(t.sss) / med(t.A)).toFixed(2), "sss/B", (med(t.sss) / med(t.B)).toFixed(2));
}
