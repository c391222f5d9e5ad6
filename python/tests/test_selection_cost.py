"""Selection cost (D9): O(keys + list), not O(keys × list).

A quadratic selection took ~6 s for 100,000 keys and a 50,000-key match_on.
Each run is bounded relative to fingerprinting the same args unselected (so a
loaded machine slows both alike); a quadratic run is tens of times over it.
Expected digests: json.dumps(sort_keys=True) of the selected keys (ASCII keys
and int values, where its text is the canonical one) and hashlib.
"""
from __future__ import annotations

import json
import time

from _support import oracle_digest
from overturn.fingerprint import fingerprint


def canonical(d) -> str:
    return json.dumps(d, sort_keys=True, separators=(",", ":"))


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


def test_ignore_args_20000_keys_20000_listed():
    args = {"k%d" % i: i for i in range(20_000)}
    ignore = ["k%d" % i for i in range(0, 40_000, 2)]  # half of them present
    _, base = timed(lambda: fingerprint("t", args))
    got, took = timed(lambda: fingerprint("t", args, ignore_args=ignore))
    want = {k: v for k, v in args.items() if v % 2}
    assert got == oracle_digest("tool_call", "t", canonical(want))
    assert took < 10 * base + 0.5, (took, base)


def test_match_on_100000_keys_50000_listed():
    args = {"k%d" % i: i for i in range(100_000)}
    match = ["k%d" % i for i in range(1, 100_000, 2)]
    _, base = timed(lambda: fingerprint("t", args))
    got, took = timed(lambda: fingerprint("t", args, match_on=match))
    want = {k: v for k, v in args.items() if v % 2}
    assert got == oracle_digest("tool_call", "t", canonical(want))
    assert took < 10 * base + 0.5, (took, base)


def test_str_subclass_keys_and_lists_stay_linear():
    class S(str):
        pass

    args = {S("k%d" % i): i for i in range(50_000)}
    match = [S("k%d" % i) for i in range(0, 50_000, 5)]
    _, base = timed(lambda: fingerprint("t", {str.__str__(k): v for k, v in args.items()}))
    got, took = timed(lambda: fingerprint("t", args, match_on=match))
    assert got == oracle_digest("tool_call", "t", canonical({"k%d" % i: i for i in range(0, 50_000, 5)}))
    assert took < 10 * base + 0.5, (took, base)
