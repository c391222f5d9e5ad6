// Baseline for cold-worker.mjs: the same program without the package.
// Test-only.
globalThis.__overturnProbe = "empty";

export default {
  async fetch() {
    return new Response("empty");
  },
};
