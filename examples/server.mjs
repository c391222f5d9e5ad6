// A fingerprint server on node:http with limits set.
//
//   POST /fingerprint/<name>[?matchOn=a,b | ?ignoreArgs=a,b]   body: the args as JSON text
//   → 200 {"fingerprint": "<64 hex>"}
//   → 413 {"error": "limit-exceeded", "message": …}   body, nesting or an object over a limit
//   → 400 {"error": "<code>", "message": …}           malformed JSON, bad name (one that is not
//                                                      percent-encoded UTF-8 is "bad-name" too)
//
// The body is read as bytes and handed to the core as they are (no JSON.parse
// on the host). A body over maxInputBytes is refused from its Content-Length,
// or once it has streamed that far: the rest is read and dropped, never kept.
// Run: node examples/server.mjs [port]   (port 0 picks a free one; the port is printed)
// In an application, import from "@overturn/fingerprint" instead of ../dist.
import { createServer } from "node:http";
import { FingerprintError, configure, fingerprintJSON } from "../dist/index.js";

const LIMITS = {
  maxInputBytes: Number(process.env.MAX_INPUT_BYTES ?? 16 * 1024 * 1024),
  maxDepth: Number(process.env.MAX_DEPTH ?? 512),
  maxMembers: Number(process.env.MAX_MEMBERS ?? 100_000),
};
// Keep at most 64 MiB of core memory between requests: a large request's memory is given back.
configure({ limits: LIMITS, retainMemoryBytes: 64 * 1024 * 1024 });

function answer(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

function refuse(res, err) {
  if (err instanceof FingerprintError) {
    answer(res, err.code === "limit-exceeded" ? 413 : 400, { error: err.code, message: err.message });
  } else {
    answer(res, 500, { error: "internal-error", message: String(err) });
  }
}

function tooLarge(res, bytes) {
  answer(res, 413, { error: "limit-exceeded", message: `limit exceeded: input larger than the maxInputBytes limit (maxInputBytes is ${LIMITS.maxInputBytes})` });
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://localhost");
  const m = /^\/fingerprint\/([^/]+)$/.exec(url.pathname);
  if (req.method !== "POST" || !m) return answer(res, 404, { error: "not-found", message: "POST /fingerprint/<name>" });
  // The name as the client encoded it, or a 400: never a replacement character it did not send.
  let name;
  try {
    name = decodeURIComponent(m[1]);
  } catch {
    req.resume(); // the body is read and dropped, then answered (as over the limit below)
    req.on("end", () => answer(res, 400, { error: "bad-name", message: "the name in the path is not valid percent-encoded UTF-8" }));
    return;
  }
  // Over the limit: the rest of the body is read and dropped, never kept,
  // and answered once it has arrived (a client still sending would see a
  // reset instead of the 413).
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > LIMITS.maxInputBytes) { req.resume(); req.on("end", () => tooLarge(res, declared)); return; }
  const list = (k) => (url.searchParams.has(k) ? url.searchParams.get(k).split(",").filter((s) => s !== "") : undefined);
  const options = { matchOn: list("matchOn"), ignoreArgs: list("ignoreArgs") };
  const chunks = [];
  let size = 0;
  let refused = false;
  req.on("data", (chunk) => {
    size += chunk.length;
    if (refused) return;
    if (size > LIMITS.maxInputBytes) {
      refused = true;
      chunks.length = 0;
      return;
    }
    chunks.push(chunk);
  });
  req.on("end", () => {
    if (refused) return tooLarge(res, size);
    try {
      const body = new Uint8Array(Buffer.concat(chunks, size));
      answer(res, 200, { fingerprint: fingerprintJSON(name, body, options) });
    } catch (err) {
      refuse(res, err);
    }
  });
});

// Idle keep-alive sockets are closed by the client first (undici: 4 s), not by this
// server: after a large call blocks the event loop, Node's 5 s default can expire
// while a client's next request on that socket is already in flight (a reset).
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;

// A burst of clients connecting at once waits in the kernel's queue (capped by
// net.core.somaxconn) instead of being refused.
const BACKLOG = 1024;

server.listen({ port: Number(process.argv[2] ?? 8787), host: "127.0.0.1", backlog: BACKLOG }, () => {
  console.log(`listening on ${server.address().port}`);
});
