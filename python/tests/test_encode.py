"""The host-side encoder (internal): the slow, iterative walk must mean exactly
what the fast C-encoder path means, since either may run for a given value.
"""
from __future__ import annotations

import json
import sys

from overturn.fingerprint import _encode, canonical_json, canonicalize_json
from test_parity import make_cases


def test_slow_walk_means_what_the_fast_path_means():
    for c in make_cases()[:1500]:
        v = c["py"]
        fast = _encode.to_json_text(v)
        slow = _encode.slow_text(v).encode("utf-8", "surrogatepass")
        if fast != slow:  # only the spelling of NaN/Infinity (null) and huge ints may differ
            assert canonicalize_json(slow) == canonicalize_json(fast), repr(v)[:200]
        assert canonicalize_json(slow) == canonical_json(v)


def test_fast_path_output_is_plain_json_dumps():
    v = {"a": [1, 2.5, "\u00e9\ud800", None, True], 7: {"x": float("nan")}}
    assert _encode.to_json_text(v) == json.dumps(v, separators=(",", ":")).encode("ascii")


def test_recursion_limit_falls_back_to_the_walk():
    depth = sys.getrecursionlimit() + 50
    v: object = 1
    for _ in range(depth):
        v = [v]
    assert canonical_json(v) == "[" * depth + "1" + "]" * depth


def test_key_list_materializes_iterables():
    assert _encode.key_list(iter(["a", "b"]), "match_on") == ("a", "b")
    assert _encode.key_list({"a"}, "match_on") == ("a",)


def test_iso_datetime_outside_datetime_range():
    from datetime import datetime, timedelta, timezone
    assert canonical_json(datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=23, minutes=59)))) == \
        '"0000-12-31T00:01:00.000Z"'
    assert canonical_json(datetime(9999, 12, 31, 23, 59, 59, 999999,
                                         tzinfo=timezone(-timedelta(hours=23, minutes=59)))) == \
        '"+010000-01-01T23:58:59.999Z"'  # node: new Date(Date.UTC(10000, 0, 1, 23, 58, 59, 999))
