// Web Worker script: the same run as the page's, posted back. Test-only.
import { runInBrowser } from "./run.mjs";

runInBrowser().then(
  (r) => postMessage(r),
  (err) => postMessage({ crash: String((err && err.stack) || err) }),
);
