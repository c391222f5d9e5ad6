// Renders bench results JSON (bench/run.mjs --json) as a hand-written SVG
// for docs/performance.md and bench/README.md (bench-only, no dependencies):
//   1. per payload, every row's speed relative to the reference
//      implementation + node:crypto (= 1×; longer is faster): the median of
//      the per-round ratios, with their quartiles as a whisker;
//   2. SHA-256 alone at 1 MiB, MB/s.
// Usage: node bench/chart.mjs [results.json] [out.svg]
//        (defaults: bench/results/latest.json → bench/results/chart.svg)
import { readFileSync, writeFileSync } from "node:fs";

const REF = "reference + node:crypto";
const W = 920;
const LABEL_W = 350;
const BAR_X = LABEL_W + 10;
const BAR_W = W - BAR_X - 70;
const ROW_H = 17;
const esc = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const fmt = (x) => (x >= 10 ? x.toFixed(1) : x.toFixed(2));
const fmtNs = (ns) => (ns >= 1e6 ? `${(ns / 1e6).toPrecision(3)} ms` : ns >= 1e3 ? `${(ns / 1e3).toPrecision(3)} µs` : `${ns.toFixed(0)} ns`);

function color(name) {
  if (name.startsWith("ours, wasm")) return name.includes("JSON") ? "#8fb8e8" : "#5b8fcc";
  if (name.startsWith("ours")) return name.includes("JSON") ? "#2f7ed8" : "#174f9c";
  if (name.startsWith("floor")) return "#c9c9c9";
  if (name.startsWith("reference")) return "#e08a2c";
  return "#8c8c8c";
}

/** Returns the SVG text for a results object. */
export function renderChart(results) {
  const out = [];
  let y = 0;
  const text = (x, yy, s, attrs = "") => out.push(`<text x="${x}" y="${yy}" ${attrs}>${esc(s)}</text>`);

  // Common scale for every payload panel (speedup over the reference, per-round ratios).
  let max = 1;
  for (const pl of results.payloads) for (const v of Object.values(pl.vsReference)) max = Math.max(max, v.q3);
  max = Math.ceil(max);
  const sx = (v) => BAR_X + (Math.min(v, max) / max) * BAR_W;

  y += 28;
  text(10, y, "Overturn fingerprint — speed relative to a reference implementation + node:crypto (1×; longer is faster)", 'font-size="15" font-weight="bold"');
  const m = results.meta;
  y += 18;
  text(10, y, `${m.date.slice(0, 10)} · Node ${m.node} · ${m.cpu} × ${m.cores} (shared, loaded: read ratios) · ${m.timing.clock} time, median of ${m.timing.rounds} interleaved rounds${m.quick ? " · QUICK run" : ""}`, 'font-size="11" fill="#555"');
  y += 10;

  for (const pl of results.payloads) {
    const ref = pl.rows[REF].median;
    y += 24;
    text(10, y, `${pl.name} — ${pl.bytes.toLocaleString("en-US")} B of JSON (reference + node:crypto: ${fmtNs(ref)} per call)`, 'font-size="13" font-weight="bold"');
    y += 6;
    const top = y;
    for (const [name, { median: v, q1: lo, q3: hi }] of Object.entries(pl.vsReference)) {
      const cy = y + ROW_H / 2;
      text(LABEL_W, y + 12, name, `text-anchor="end" font-size="11.5"${name.startsWith("ours") ? ' font-weight="bold"' : ""}`);
      out.push(`<rect x="${BAR_X}" y="${y + 3}" width="${(sx(v) - BAR_X).toFixed(1)}" height="${ROW_H - 6}" fill="${color(name)}"/>`);
      out.push(`<line x1="${sx(lo).toFixed(1)}" x2="${sx(hi).toFixed(1)}" y1="${cy}" y2="${cy}" stroke="#333" stroke-width="1"/>`);
      text(sx(Math.max(v, hi)) + 4, y + 12, `${fmt(v)}×`, 'font-size="11"');
      y += ROW_H;
    }
    // 1× line (the reference) and axis ticks.
    out.push(`<line x1="${sx(1)}" x2="${sx(1)}" y1="${top}" y2="${y}" stroke="#e08a2c" stroke-dasharray="3,2"/>`);
    for (let t = 0; t <= max; t++) out.push(`<line x1="${sx(t)}" x2="${sx(t)}" y1="${y}" y2="${y + 3}" stroke="#999"/>`);
    y += 3;
    for (let t = 0; t <= max; t++) text(sx(t), y + 10, `${t}×`, 'font-size="9" fill="#777" text-anchor="middle"');
    y += 10;
  }

  const mib = results.sha?.find((s) => s.size === 1 << 20);
  if (mib) {
    y += 30;
    text(10, y, "SHA-256 alone, 1 MiB (MB/s; longer is faster)", 'font-size="13" font-weight="bold"');
    y += 6;
    const mbps = Object.fromEntries(Object.entries(mib.rows).map(([k, r]) => [k, (mib.size / r.median) * 1e3]));
    const top = Math.max(...Object.values(mbps));
    for (const [name, v] of Object.entries(mbps)) {
      text(LABEL_W, y + 12, name, `text-anchor="end" font-size="11.5"${name.startsWith("ours") ? ' font-weight="bold"' : ""}`);
      const w = (v / top) * BAR_W;
      out.push(`<rect x="${BAR_X}" y="${y + 3}" width="${w.toFixed(1)}" height="${ROW_H - 6}" fill="${color(name)}"/>`);
      text(BAR_X + w + 4, y + 12, `${v.toFixed(0)}`, 'font-size="11"');
      y += ROW_H;
    }
  }
  y += 20;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${y}" viewBox="0 0 ${W} ${y}" font-family="system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif">
<rect width="${W}" height="${y}" fill="#fff"/>
${out.join("\n")}
</svg>
`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = new URL("..", import.meta.url).pathname;
  const src = process.argv[2] ?? `${root}bench/results/latest.json`;
  const dst = process.argv[3] ?? `${root}bench/results/chart.svg`;
  writeFileSync(dst, renderChart(JSON.parse(readFileSync(src, "utf8"))));
  console.log(`wrote ${dst}`);
}
