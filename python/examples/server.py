"""An HTTP fingerprint server on the standard library, with limits set.

Example, not part of the package. ``POST /fingerprint/<name>`` with the
tool call's args as JSON text in the body; optional ``?matchOn=a,b`` or
``?ignoreArgs=a,b`` (comma-separated top-level keys; ``matchOn=`` empty
selects nothing, D9). Answers, always JSON:

* 200 ``{"fingerprint": "<64 hex>"}``
* 413 ``{"error": "limit-exceeded", "message": ...}``: the body is over
  ``--max-input-bytes`` (by its Content-Length, answered before a byte of it
  is read), or nested deeper / wider than ``--max-depth`` / ``--max-members``
* 400 ``{"error": <FingerprintError code>, "message": ...}``: malformed JSON
  (``unexpected-character``, ``invalid-utf8``, ...), a bad name (``bad-name``
  also for a name that is not valid percent-encoded UTF-8)
* 411 without a Content-Length (chunked bodies are not read), 404 elsewhere

The limits are set once with ``configure``, and the core instance of a
handler thread whose call grew it past ``--retain-mib`` is dropped after
that call, so a large request does not keep its memory.

    python python/examples/server.py [--port 8080] [--max-input-bytes N] [--max-depth N] [--max-members N]

It prints ``listening on http://HOST:PORT`` once ready (``--port 0``: any
free port). Binds 127.0.0.1 unless ``--host`` says otherwise.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List, Optional
from urllib.parse import parse_qs, unquote_to_bytes, urlsplit

from overturn.fingerprint import FingerprintError, Limits, configure, fingerprint_json

PREFIX = "/fingerprint/"
BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")


def _name(raw: str) -> Optional[str]:
    """The name as the client percent-encoded it (strict UTF-8), or None: never a U+FFFD it did not send."""
    if BAD_ESCAPE.search(raw):
        return None
    try:
        return unquote_to_bytes(raw).decode("utf-8")
    except UnicodeDecodeError:
        return None


class Server(ThreadingHTTPServer):
    # socketserver listens with a queue of 5: a burst of clients connecting at once
    # was refused or reset. The kernel caps it at net.core.somaxconn.
    request_queue_size = 1024
    daemon_threads = True


def _keys(query: Dict[str, List[str]], name: str) -> Optional[List[str]]:
    """A comma-separated key list from the query string; "" is the empty list."""
    if name not in query:
        return None
    raw = query[name][-1]
    return raw.split(",") if raw else []


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: a client's thread (and its core instance) serves many calls
    max_input_bytes = 1 << 20      # set from the command line in main()

    def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
        url = urlsplit(self.path)
        if not url.path.startswith(PREFIX):
            self._answer(404, {"error": "not-found", "message": "POST /fingerprint/<name>"}, close=True)
            return
        length = self.headers.get("Content-Length")
        if length is None or not length.isdigit():
            # Unknown size: refusing is the only way to read at most the limit.
            self._answer(411, {"error": "length-required", "message": "a Content-Length is required"}, close=True)
            return
        n = int(length)
        if n > self.max_input_bytes:
            # Worded as the SDK words it; answered before the body is read, then the connection is closed.
            self._answer(413, {"error": "limit-exceeded", "message": "limit exceeded: input larger than the "
                               "maxInputBytes limit (maxInputBytes is %d)" % self.max_input_bytes}, close=True)
            return
        body = self.rfile.read(n)
        name = _name(url.path[len(PREFIX):])
        if name is None:
            self._answer(400, {"error": "bad-name", "message": "the name in the path is not valid percent-encoded UTF-8"})
            return
        query = parse_qs(url.query, keep_blank_values=True)
        try:
            digest = fingerprint_json(name, body,
                                      match_on=_keys(query, "matchOn"), ignore_args=_keys(query, "ignoreArgs"))
        except FingerprintError as e:
            status = 413 if e.code == "limit-exceeded" else 400
            self._answer(status, {"error": e.code, "message": str(e)})
            return
        finally:
            del body
        self._answer(200, {"fingerprint": digest})

    def _answer(self, status: int, doc: Dict[str, Any], close: bool = False) -> None:
        data = json.dumps(doc).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        if close:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (http.server's signature)
        pass  # one line per request would dominate a load test's output


def main(argv: Optional[List[str]] = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8080)
    ap.add_argument("--max-input-bytes", type=int, default=16 << 20)
    ap.add_argument("--max-depth", type=int, default=256)
    ap.add_argument("--max-members", type=int, default=100_000)
    ap.add_argument("--retain-mib", type=int, default=64, help="core memory a handler thread keeps between calls")
    opt = ap.parse_args(argv)

    configure(limits=Limits(max_input_bytes=opt.max_input_bytes, max_depth=opt.max_depth,
                            max_members=opt.max_members),
              retain_memory_bytes=opt.retain_mib << 20)
    Handler.max_input_bytes = opt.max_input_bytes
    server = Server((opt.host, opt.port), Handler)
    print("listening on http://%s:%d" % server.server_address[:2], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    sys.exit(main())
