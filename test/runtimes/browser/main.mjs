// Page script: the main-thread run, then the same run in a module Web
// Worker; the results land on window.__results for the runner. With
// ?cold-only, only the main thread's timing (no vectors, no worker).
// Test-only.
import { runInBrowser } from "./run.mjs";

const crash = (err) => ({ crash: String((err && err.stack) || err) });

async function inWorker() {
  const worker = new Worker(new URL("./worker.mjs", import.meta.url), { type: "module" });
  try {
    return await new Promise((resolve) => {
      worker.onmessage = (e) => resolve(e.data);
      worker.onerror = (e) => resolve(crash(e.message || "worker error"));
    });
  } finally {
    worker.terminate();
  }
}

const results = {};
if (location.search.includes("cold-only")) {
  results.main = await runInBrowser({ vectors: false }).catch(crash);
} else {
  results.main = await runInBrowser().catch(crash);
  results.worker = await inWorker().catch(crash);
}
window.__results = results;
document.getElementById("out").textContent = JSON.stringify(results, null, 2);
