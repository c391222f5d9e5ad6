"""Replay's transport edges in the Python SDK (the answers themselves:
test_replay_vectors.py; the TypeScript twin: test/replay.test.ts). Expected
values from json.loads of the recorded line and hashlib, never the core."""
from __future__ import annotations

import hashlib
import io
import json

import pytest

from overturn.fingerprint import FingerprintError, Recording


def line(i: int) -> str:
    return json.dumps({"name": "t", "args": {"i": i}, "result": i}, separators=(",", ":"))


def test_index_survives_the_input_region_growing():
    rec = Recording.loads("\n".join(line(i) for i in range(1000)))
    pad = "x" * (3 << 20)  # another tool: no nearest to look for; 3 MB > the region the load left
    miss = rec.answer({"name": "u", "args": {"pad": pad}})
    assert miss["hit"] is False
    want = hashlib.sha256(('tool_call\nu\n{"pad":"%s"}' % pad).encode()).hexdigest()
    assert miss["fingerprint"] == want
    for i in (0, 1, 500, 999):
        a = rec.answer({"name": "t", "args": {"i": i}})
        assert a["hit"] and a["value"] == json.loads(line(i)) and a["recordedLine"] == i + 1
    assert len(rec.unused()) == 996


def test_binary_file_and_long_line():
    long = json.dumps({"name": "t", "args": {"s": "y" * ((1 << 20) + 17)}, "result": "long"})
    rec = Recording.load(io.BytesIO(("%s\n%s\n%s" % (line(1), long, line(2))).encode()))
    assert rec.size == 3
    a = rec.answer({"name": "t", "args": {"s": "y" * ((1 << 20) + 17)}})
    assert a["hit"] and a["recordedLine"] == 2 and a["value"] == json.loads(long)


def test_refuses_what_is_not_a_recording_or_a_call_and_keeps_working():
    with pytest.raises(FingerprintError):
        Recording.load(42)
    with pytest.raises(FingerprintError):
        Recording.load(io.StringIO(line(1)))  # text mode
    rec = Recording.loads(line(1))
    with pytest.raises(FingerprintError):
        rec.answer(42)
    with pytest.raises(FingerprintError):
        rec.answer("{")
    assert rec.answer({"name": "t", "args": {"i": 1}})["hit"]


def test_text_with_a_lone_surrogate_is_a_bad_line():
    rec = Recording.loads('%s\n{"name":"t","args":{"s":"\ud800"}}\n%s\n' % (line(1), line(2)))
    assert [(n, e.code) for n, e in rec.bad_lines] == [(2, "invalid-utf8")]
    assert rec.size == 2
