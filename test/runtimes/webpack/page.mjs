// Page script for a webpack 5 bundle of the default entry (browser
// condition → dist/browser.js): webpack must emit fingerprint.wasm as an
// asset from `new URL("./fingerprint.wasm", import.meta.url)` for `await
// init()` to find it. Main thread only (run.mjs does the checks); results
// land on window.__results for the runner. Test-only.
import { runInBrowser } from "../browser/run.mjs";

runInBrowser()
  .catch((err) => ({ crash: String((err && err.stack) || err) }))
  .then((main) => {
    window.__results = { main };
    document.body.textContent = JSON.stringify(main);
  });
