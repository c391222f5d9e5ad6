// Bench timing (internal). Rows are zero-argument ops; each is warmed up and
// calibrated to a batch of about `sliceMs`, then all rows of a group run in
// interleaved rounds (the order rotates each round), so load on a shared
// machine hits every row alike. Per row: the median ns/op over the rounds,
// min, max and the spread (median absolute deviation / median). Compare rows
// only within one run: read the ratios, not the absolute numbers.
//
// Clock: "cpu" (default) is the process's user+system CPU time
// (process.cpuUsage), which on an oversubscribed machine leaves out the time
// other processes hold the core — wall time there swung 2–5× between rounds.
// It includes V8's helper threads (concurrent GC, background compiles),
// which is real cost of the row. "wall" is process.hrtime. Both are recorded.

let sink; // keeps results observable so no op is optimized away
let clock = "cpu";

/** Selects the clock the medians use: "cpu" or "wall". */
export function setClock(c) {
  if (c !== "cpu" && c !== "wall") throw new Error(`unknown clock ${c}`);
  clock = c;
}

export function getClock() {
  return clock;
}

let lastWall = 0;
function batch(op, reps) {
  let r;
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < reps; i++) r = op();
  const wall = Number(process.hrtime.bigint() - t0);
  const c = process.cpuUsage(c0);
  sink = r;
  lastWall = wall;
  return clock === "cpu" ? (c.user + c.system) * 1e3 : wall;
}

/** Repetitions for one batch of ~sliceMs (at least 1), after warming up for ~warmMs. */
function calibrate(op, sliceMs, warmMs) {
  let reps = 1;
  let spent = 0;
  for (;;) {
    const ns = batch(op, reps);
    spent += ns;
    if (ns >= sliceMs * 1e6 * 0.5 && spent >= warmMs * 1e6) return Math.max(1, Math.round((reps * sliceMs * 1e6) / ns));
    reps = ns < 1e5 ? reps * 10 : Math.max(reps + 1, Math.ceil(reps * Math.min(10, (sliceMs * 1e6) / ns)));
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * Median over rounds of a[r] / b[r]: the ratio of two rows of one measure()
 * taken round by round, so drift in machine load between rounds (rows of a
 * round run within a fraction of a second) cancels out.
 */
export function ratioOfRounds(a, b) {
  return median(a.samples.map((x, r) => x / b.samples[r]));
}

/** The per-round ratios a[r] / b[r]: median and quartiles (for whiskers). */
export function ratioStats(a, b) {
  const xs = a.samples.map((x, r) => x / b.samples[r]).sort((p, q) => p - q);
  const at = (f) => xs[Math.round(f * (xs.length - 1))];
  return { median: median(xs), q1: at(0.25), q3: at(0.75) };
}

/** Median over rounds of f(get), where get(name) is that row's sample in the round. */
export function combineRounds(m, f) {
  const n = Object.values(m)[0].samples.length;
  const xs = [];
  for (let r = 0; r < n; r++) xs.push(f((k) => m[k]?.samples[r]));
  return median(xs);
}

/**
 * Times every op in `rows` ({ name: op }) in interleaved rounds.
 * Returns { name: { median, min, max, spread, wallMedian, reps, samples } } in ns
 * per op (median/min/max/spread on the selected clock).
 */
export function measure(rows, { rounds = 7, sliceMs = 100, warmMs = sliceMs } = {}) {
  const names = Object.keys(rows);
  const reps = {};
  for (const k of names) reps[k] = calibrate(rows[k], sliceMs, warmMs);
  const samples = Object.fromEntries(names.map((k) => [k, []]));
  const walls = Object.fromEntries(names.map((k) => [k, []]));
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < names.length; i++) {
      const k = names[(i + r) % names.length];
      samples[k].push(batch(rows[k], reps[k]) / reps[k]);
      walls[k].push(lastWall / reps[k]);
    }
  }
  const out = {};
  for (const k of names) {
    const xs = samples[k];
    const med = median(xs);
    out[k] = {
      median: med,
      min: Math.min(...xs),
      max: Math.max(...xs),
      spread: median(xs.map((x) => Math.abs(x - med))) / med,
      wallMedian: median(walls[k]),
      reps: reps[k],
      samples: xs,
    };
  }
  return out;
}

/** "1.23 µs" style: ns in, three significant digits out. */
export function fmtTime(ns) {
  const [v, u] = ns >= 1e6 ? [ns / 1e6, "ms"] : ns >= 1e3 ? [ns / 1e3, "µs"] : [ns, "ns"];
  return `${v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)} ${u}`;
}

export { sink as _sink };
