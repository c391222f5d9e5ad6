// Batch API bench (bench-only): fingerprintBatchJSON / fingerprintBatch
// against a loop of single calls over the same items, side by side in one
// process (interleaved rounds, bench/_timer.mjs), per item, ratio = loop / batch.
// Target: ≥ 3× at the small payload. Also the Arrow-style column input
// ({ offsets, data }: no string per item). Run by bench/run.mjs.
import { ratioOfRounds } from "./_timer.mjs";
import { TOOL_NAME } from "./payloads.mjs";

export const BATCH_ITEMS = 4096;
export const BATCH_TARGET = 3;

export const BATCH_ROW = {
  loopJSON: "loop: fingerprintJSON",
  batchJSON: "fingerprintBatchJSON (arrays)",
  batchCols: "fingerprintBatchJSON (columns)",
  loopValue: "loop: fingerprint (value)",
  batchCalls: "fingerprintBatch (call objects)",
};

function column(texts) {
  const enc = new TextEncoder();
  const parts = texts.map((t) => enc.encode(t));
  const offsets = new Uint32Array(parts.length + 1);
  parts.forEach((p, i) => { offsets[i + 1] = offsets[i] + p.length; });
  const data = new Uint8Array(offsets[parts.length]);
  parts.forEach((p, i) => data.set(p, offsets[i]));
  return { offsets, data };
}

/** Rows over BATCH_ITEMS copies of payload p; each row does all items. */
export function batchRows(sdk, p) {
  const n = BATCH_ITEMS;
  const names = Array(n).fill(TOOL_NAME), texts = Array(n).fill(p.json);
  const calls = Array.from({ length: n }, () => ({ name: TOOL_NAME, args: p.value }));
  const nameCol = column(names), textCol = column(texts);
  const want = sdk.fingerprintJSON(TOOL_NAME, p.json);
  for (const got of [sdk.fingerprintBatchJSON(names, texts), sdk.fingerprintBatchJSON(nameCol, textCol), sdk.fingerprintBatch(calls)]) {
    if (got.length !== n || got.some((x) => x !== want)) throw new Error(`${p.name}: a batch disagrees with fingerprintJSON`);
  }
  return {
    [BATCH_ROW.loopJSON]: () => { let r; for (let i = 0; i < n; i++) r = sdk.fingerprintJSON(names[i], texts[i]); return r; },
    [BATCH_ROW.batchJSON]: () => sdk.fingerprintBatchJSON(names, texts),
    [BATCH_ROW.batchCols]: () => sdk.fingerprintBatchJSON(nameCol, textCol),
    [BATCH_ROW.loopValue]: () => { let r; for (let i = 0; i < n; i++) r = sdk.fingerprint(TOOL_NAME, calls[i].args); return r; },
    [BATCH_ROW.batchCalls]: () => sdk.fingerprintBatch(calls),
  };
}

/** The ratios of one payload's measured rows. */
export function batchRatios(m) {
  return {
    arrays: ratioOfRounds(m[BATCH_ROW.loopJSON], m[BATCH_ROW.batchJSON]),
    columns: ratioOfRounds(m[BATCH_ROW.loopJSON], m[BATCH_ROW.batchCols]),
    calls: ratioOfRounds(m[BATCH_ROW.loopValue], m[BATCH_ROW.batchCalls]),
  };
}

export function printBatch(b, fmtTime) {
  console.log(`\nBatch API — ${b.items} items per row, per item; ratio = loop / batch`);
  for (const pl of b.payloads) {
    const r = pl.ratios;
    const per = (k) => fmtTime(pl.rows[k].median / b.items);
    console.log(`  ${pl.name}: ${Object.values(BATCH_ROW).map((k) => `${k} ${per(k)}`).join(" · ")}`);
    console.log(`    ratios: arrays ${r.arrays.toFixed(2)}×, columns ${r.columns.toFixed(2)}×, call objects ${r.calls.toFixed(2)}×`);
  }
}

/** Targets: the batch (arrays, columns) at the small payload vs a loop of fingerprintJSON. */
export function batchTargets(b) {
  const small = b.payloads.find((p) => p.name === "small");
  if (!small) return [];
  return [["arrays", small.ratios.arrays], ["columns", small.ratios.columns]].map(([k, v]) => ({
    id: `batch-${k}`, what: `small: fingerprintBatchJSON (${k}) vs a loop of fingerprintJSON`, value: v,
    need: BATCH_TARGET, pass: v >= BATCH_TARGET,
  }));
}
