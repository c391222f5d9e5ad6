"""The example server under mixed load: loopback only, bounded.

``python/examples/server.py`` runs as a subprocess (so its RSS can be read
from /proc/<pid>/status) on 127.0.0.1, port 0, with a 12 MB byte limit,
depth 64, members 5,000 and 16 MiB of core memory retained per thread.
Six client threads at once, each on its own keep-alive connection, send
small calls, one large call (5-9 MB), calls over the depth/member limits and
malformed bodies; bodies over the byte limit are announced by Content-Length
and must be refused before they are sent. Expected digests: the pure-Python
reference (``python/bench/reference.py``) for small calls, hashlib over
canonical text written by hand for large ones — never the SDK under test.
"""
from __future__ import annotations

import http.client
import json
import random
import re
import socket
import subprocess
import sys
import threading
import time
from typing import Any, Dict, List, Optional, Tuple

import pytest

from _support import ROOT, oracle_digest

sys.path.insert(0, str(ROOT / "python" / "bench"))
import reference  # noqa: E402

MAX_BYTES = 12_000_000
MAX_DEPTH = 64
MAX_MEMBERS = 5000
CLIENTS = 6
SMALL_PER_CLIENT = 30
RSS_BOUND = 40 * 1024 * 1024  # kept after the run; measured ~0-10 MB


def rss(pid: int) -> int:
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


@pytest.fixture(scope="module")
def server():
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "python" / "examples" / "server.py"), "--port", "0",
         "--max-input-bytes", str(MAX_BYTES), "--max-depth", str(MAX_DEPTH), "--max-members", str(MAX_MEMBERS),
         "--retain-mib", "16"],
        stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()  # type: ignore[union-attr]
        m = re.match(r"listening on http://127\.0\.0\.1:(\d+)", line)
        assert m, line
        yield proc, int(m.group(1))
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def post(conn: http.client.HTTPConnection, path: str, body: bytes) -> Tuple[int, Dict[str, Any]]:
    conn.request("POST", path, body=body, headers={"Content-Type": "application/json"})
    r = conn.getresponse()
    return r.status, json.loads(r.read())


# --- what is sent, with what is expected ------------------------------------------

def small_case(r: random.Random, k: int) -> Tuple[str, bytes, int, Dict[str, Any]]:
    args = {"q": " %s " % r.choice(["cats", "Zürich", "東京", "a b"]), "n": r.randint(-5, 10 ** 6),
            "x": r.choice([1.5, 0.1, 1e21, -0.0, None]), "tags": [r.choice(["t", " u "]) for _ in range(3)],
            "deep": {"k%d" % k: {"v": True}}}
    if r.random() < 0.3:
        return ("/fingerprint/search?matchOn=q,n", json.dumps(args).encode(), 200,
                {"fingerprint": reference.fingerprint("search", args, match_on=["q", "n"])})
    if r.random() < 0.3:
        return ("/fingerprint/find%20me?ignoreArgs=deep", json.dumps(args, ensure_ascii=False).encode(), 200,
                {"fingerprint": reference.fingerprint("find me", args, ignore_args=["deep"])})
    return "/fingerprint/search", json.dumps(args, indent=1).encode(), 200, \
        {"fingerprint": reference.fingerprint("search", args)}


def large_case(k: int) -> Tuple[str, bytes, int, Dict[str, Any]]:
    """5-9 MB of records, unsorted and padded; the canonical text is written alongside."""
    rows = 170_000 + 25_000 * k  # ~30 B a row: 5.2 MB (k=0) to 9.1 MB (k=5)
    body = '{"rows":[%s], "id": " big-%d "}' % (",".join('{"v":"  r%d ","i":%d.0}' % (i, i) for i in range(rows)), k)
    canon = '{"id":"big-%d","rows":[%s]}' % (k, ",".join('{"i":%d,"v":"r%d"}' % (i, i) for i in range(rows)))
    return "/fingerprint/bulk", body.encode(), 200, {"fingerprint": oracle_digest("tool_call", "bulk", canon)}


def rejected_cases(k: int) -> List[Tuple[str, bytes, int, Dict[str, Any]]]:
    p = "/fingerprint/t"
    return [
        (p, b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1), 413, {"error": "limit-exceeded"}),
        (p, ("{" + ",".join('"k%d":1' % i for i in range(MAX_MEMBERS + 1)) + "}").encode(), 413,
         {"error": "limit-exceeded"}),
        (p, b'{"a":1,}', 400, {"error": "unexpected-character"}),
        (p, b'{"a":1} x', 400, {"error": "trailing-content"}),
        (p, b"", 400, {"error": "empty-input"}),
        (p, b'{"a":"\xff"}', 400, {"error": "invalid-utf8"}),
        (p, b'{"a":[1,2', 400, {"error": "unexpected-end"}),
        ("/fingerprint/", b"{}", 400, {"error": "bad-name"}),
    ]


def over_limit(port: int, n: int) -> Tuple[int, Dict[str, Any]]:
    """Announces n body bytes, sends 1 KB of them, and reads the answer: it must come before the rest."""
    with socket.create_connection(("127.0.0.1", port), timeout=20) as s:
        s.sendall(b"POST /fingerprint/t HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % n + b"[" * 1024)
        data = b""
        while b"\r\n\r\n" not in data or len(data.split(b"\r\n\r\n", 1)[1]) < _length(data):
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    return int(head.split()[1]), json.loads(body)


def _length(data: bytes) -> int:
    m = re.search(rb"Content-Length: (\d+)", data.split(b"\r\n\r\n", 1)[0])
    return int(m.group(1)) if m else 0


def check(got: Tuple[int, Dict[str, Any]], status: int, want: Dict[str, Any], what: str) -> None:
    assert got[0] == status, (what, got)
    for k, v in want.items():
        assert got[1].get(k) == v, (what, got)
    if status != 200:
        assert isinstance(got[1].get("message"), str) and got[1]["message"], (what, got)


# --- the run ----------------------------------------------------------------------

@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the server's RSS from /proc")
def test_server_under_mixed_load(server):
    proc, port = server
    sizes = [len(large_case(k)[1]) for k in (0, CLIENTS - 1)]
    assert 5_000_000 < sizes[0] and sizes[1] < 10_000_000 and sizes[1] < MAX_BYTES, sizes
    warm = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    check(post(warm, "/fingerprint/t", b'{"a":1}'), 200, {"fingerprint": reference.fingerprint("t", {"a": 1})}, "warm")
    warm.close()
    time.sleep(0.2)
    before = rss(proc.pid)

    failures: List[BaseException] = []
    counts = {"ok": 0, "4xx": 0}
    lock = threading.Lock()

    def client(k: int) -> None:
        try:
            r = random.Random(k)
            cases = [small_case(r, k) for _ in range(SMALL_PER_CLIENT)] + rejected_cases(k) + [large_case(k)]
            r.shuffle(cases)
            conn: Optional[http.client.HTTPConnection] = None
            for i, (path, body, status, want) in enumerate(cases):
                if conn is None:
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                check(post(conn, path, body), status, want, "client %d case %d %s" % (k, i, path))
                with lock:
                    counts["ok" if status == 200 else "4xx"] += 1
                if i % 10 == 3:  # over the byte limit: refused before the body, on a connection of its own
                    got = over_limit(port, MAX_BYTES + 1 + k)
                    check(got, 413, {"error": "limit-exceeded"}, "over limit")
                    assert got[1]["message"] == \
                        "limit exceeded: input larger than the maxInputBytes limit (maxInputBytes is %d)" % MAX_BYTES
                    with lock:
                        counts["4xx"] += 1
            assert conn is not None
            conn.close()
        except BaseException as e:  # reported by the main thread
            failures.append(e)

    t0 = time.monotonic()
    threads = [threading.Thread(target=client, args=(k,)) for k in range(CLIENTS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "clients did not finish in time"
    assert not failures, failures[0]
    assert counts["ok"] == CLIENTS * (SMALL_PER_CLIENT + 1)
    assert counts["4xx"] >= CLIENTS * (len(rejected_cases(0)) + 3)
    assert time.monotonic() - t0 < 60

    # Still answering, and the memory of the large calls is back.
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    for i in range(20):
        check(post(conn, "/fingerprint/t", b'{"i":%d}' % i), 200,
              {"fingerprint": reference.fingerprint("t", {"i": i})}, "after")
    conn.close()
    time.sleep(0.3)
    after = rss(proc.pid)
    assert after - before < RSS_BOUND, (before, after)
    assert proc.poll() is None
    print("server RSS before %.1f MB, after %.1f MB" % (before / 1e6, after / 1e6))


def test_a_name_not_percent_encoded_utf8_is_a_400(server):
    _, port = server
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    for name in ("%ff", "%zz", "caf%C3", "%ED%A0%80", "a%2"):
        got = post(conn, "/fingerprint/" + name, b'{"a":1}')
        assert got == (400, {"error": "bad-name", "message": "the name in the path is not valid percent-encoded UTF-8"}), name
    check(post(conn, "/fingerprint/caf%C3%A9%20%F0%9F%98%80", b'{"a":1}'), 200,
          {"fingerprint": reference.fingerprint("caf\u00e9 \U0001F600", {"a": 1})}, "a good name")
    conn.close()


def test_200_clients_connecting_at_once_are_all_answered(server):
    """A burst of new connections (one request each, 5 rounds: 1,000 requests): none refused or reset."""
    _, port = server
    clients, rounds = 200, 5
    failures: List[str] = []
    lock = threading.Lock()

    def client(i: int, start: threading.Barrier) -> None:
        body = b'{"i":%d}' % i
        try:
            start.wait(timeout=30)
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            got = post(conn, "/fingerprint/burst", body)
            conn.close()
            if got != (200, {"fingerprint": reference.fingerprint("burst", {"i": i})}):
                raise AssertionError(got)
        except BaseException as e:  # reported by the main thread
            with lock:
                failures.append("%d: %r" % (i, e))

    for r in range(rounds):
        start = threading.Barrier(clients)
        threads = [threading.Thread(target=client, args=(r * clients + k, start)) for k in range(clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
    assert not failures, (len(failures), failures[:5])
