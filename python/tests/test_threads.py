"""Threads: 8 threads × 10,000 calls give exactly what one thread gives.

Each thread has its own Store/instance (D19: no corrupted instance, no races);
the inputs mix value and text input, selection, big outputs that grow memory,
and errors, so every branch of the call path runs concurrently.
"""
from __future__ import annotations

import threading
from datetime import datetime, timezone

from overturn.fingerprint import FingerprintError, canonical_json, canonicalize_json, fingerprint, fingerprint_json

THREADS = 8
CALLS = 10_000


def _inputs():
    big = [{"id": i, "name": " item %d \u00e9 " % i, "x": i / 7} for i in range(3000)]  # ~150 KB: grows memory
    cases = [
        lambda: fingerprint("search", {"q": " cats ", "n": 3}),
        lambda: fingerprint("search", {"q": " cats ", "n": 3, "rid": "x"}, match_on=["q", "n"]),
        lambda: fingerprint("create", {"a": 1.5, "b": [True, None]}, ignore_args=["b"], kind="agent"),
        lambda: fingerprint_json("search", '{"q":" dogs ","n":[1e21,-0]}'),
        lambda: fingerprint_json("search", b'\xef\xbb\xbf{"q":"\xc3\xa9"}'),
        lambda: canonical_json({"d": datetime(2024, 5, 6, 7, 8, 9, 999999, tzinfo=timezone.utc)}),
        lambda: canonicalize_json('{"b":1,"a":[0.1,2e-7]}'),
        lambda: fingerprint("bulk", big),
        lambda: canonicalize_json('{"broken":'),          # core error
        lambda: canonical_json({"bad": {1, 2}}),         # host error
        lambda: fingerprint("", {}),                      # bad name
    ]
    return cases


def _outcome(fn):
    try:
        return ("ok", fn())
    except FingerprintError as e:
        return ("error", e.code, e.offset, e.path, str(e))


def test_threads_match_single_thread():
    cases = _inputs()
    expected = [_outcome(fn) for fn in cases]
    # The big input is slow; call it less often so the test stays short.
    schedule = [i for i in range(len(cases)) if i != 7] * 50 + [7]
    failures: list = []
    counts = [0] * THREADS
    start = threading.Barrier(THREADS)

    def worker(t: int) -> None:
        start.wait()
        for j in range(CALLS):
            i = schedule[(j * 7 + t) % len(schedule)]
            got = _outcome(cases[i])
            counts[t] += 1
            if got != expected[i] and len(failures) < 5:
                failures.append((t, j, i, got, expected[i]))

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(THREADS)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not failures
    assert counts == [CALLS] * THREADS


def test_each_thread_has_its_own_instance():
    from overturn.fingerprint import _core
    seen = []

    def grab() -> None:
        fingerprint("t", 1)
        seen.append(_core.instance())  # kept alive, so ids stay distinct

    ts = [threading.Thread(target=grab) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert len({id(x) for x in seen}) == 4
