"""Replay's transport edges in the Python SDK (the answers themselves:
test_replay_vectors.py; the TypeScript twin: test/replay.test.ts). Expected
values from json.loads of the recorded line and hashlib, never the core."""
from __future__ import annotations

import hashlib
import io
import json

import pytest

from overturn.fingerprint import FingerprintError, Recording
from overturn.fingerprint import _replay
from overturn.fingerprint._abi import R_ANSWER, R_UNUSED


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


# A recorded line is handed back as the caller's value: never a foreign exception.

def _depth(v):
    d = 0
    while isinstance(v, list) and len(v) == 1:
        v, d = v[0], d + 1
    return d + 1 if v == [] else -1


def test_a_hit_on_a_line_nested_100000_levels_returns_it():
    n = 100_000
    text = '{"name":"t","args":{"q":1},"result":%s%s}' % ("[" * n, "]" * n)
    rec = Recording.loads(text + "\n")
    a = rec.answer({"name": "t", "args": {"q": 1}})
    assert a["hit"] and a["text"] == text
    assert list(a["value"]) == ["name", "args", "result"] and _depth(a["value"]["result"]) == n
    [u] = Recording.loads(text).unused()
    assert u["text"] == text and _depth(u["value"]["result"]) == n


def test_bare_nan_and_infinity_come_back_as_json_loads_reads_them():
    text = '{"name":"t","args":{"q":1},"result":{"a":NaN,"b":[Infinity,-Infinity,1.5e3,-0,12345678901234567890],"c":"\\u00e9\\ud800x"}}'
    want = json.loads(text)  # the oracle: float nan/inf, int for an integer literal
    rec = Recording.loads(text)
    [u] = rec.unused()
    a = rec.answer({"name": "t", "args": {"q": 1}})
    miss = rec.answer({"name": "t", "args": {"q": 2}})
    for value in (a["value"], u["value"], miss["nearest"]["value"]):
        r = value["result"]
        assert r["a"] != r["a"]  # nan
        assert r["b"] == want["result"]["b"] and [type(x) for x in r["b"]] == [float, float, float, int, int]
        assert r["c"] == want["result"]["c"]


def test_every_other_line_reads_as_json_loads_reads_it():
    lines = [
        '{"name":"t","args":{"q":1},"result":{"__proto__":{"x":1},"a":1,"b":2,"a":3}}',
        '{ "name" : "t" , "args" : { "q" : 2 } , "r" : [ 1E2 , 0.1 , 12345678901234567890 , true , false , null , "" ,'
        ' "\\"\\\\\\/\\b\\f\\n\\r\\t" , {} , [ ] ] }',
        '{"name":"t","args":{"q":3},"\U0001F600":"\U0001F600\u00e9\\ud83d\\ude00","k\\u0000":{"":[[{"y":[]}]]}}',
    ]
    rec = Recording.loads("\n".join(lines))
    for i, text in enumerate(lines):
        a = rec.answer({"name": "t", "args": {"q": i + 1}})
        want = json.loads(text)
        assert a["hit"] and a["value"] == want and list(a["value"]) == list(want)
        assert repr(a["value"]) == repr(want)  # types too: 1E2 a float, an integer literal an int


def test_a_line_json_loads_refuses_is_a_fingerprint_error():
    # An integer literal past sys.get_int_max_str_digits() (4,300 by default): the core reads it
    # as a number (D11); json.loads raises ValueError, which must not reach the caller.
    text = '{"name":"t","args":{"q":1},"result":%s}' % ("9" * 5000)
    rec = Recording.loads(text)
    with pytest.raises(FingerprintError) as e:
        rec.answer({"name": "t", "args": {"q": 1}})
    assert e.value.code == "internal-error" and isinstance(e.value.__cause__, ValueError)


def _message(n: int) -> str:
    """One message holding n calls (OpenAI Chat Completions' tool_calls)."""
    return json.dumps({"role": "assistant", "tool_calls": [
        {"id": "c%d" % i, "type": "function", "function": {"name": "t", "arguments": '{"i":%d}' % i}}
        for i in range(n)]})


def test_unused_shares_a_lines_text_and_value_among_its_calls():
    rec = Recording.loads(_message(3) + "\n" + _message(2))
    u = rec.unused()
    assert [(x["line"], x["call"]) for x in u] == [(1, 0), (1, 1), (1, 2), (2, 0), (2, 1)]
    assert u[0]["text"] == _message(3) and u[3]["value"] == json.loads(_message(2))
    assert u[1]["value"] is u[0]["value"] and u[2]["text"] is u[0]["text"]
    assert u[3]["value"] is not u[0]["value"]


def test_unused_answer_grows_linearly_with_the_calls_of_one_line():
    def size(n: int) -> int:
        rec = Recording.loads(_message(n))
        return len(rec._run(R_UNUSED, 0, b""))

    a, b, c = size(250), size(500), size(1000)
    # Doubling the calls doubles the core's answer (a copy of the line per call made it 4x).
    assert b / a < 2.5 and c / b < 2.5


def test_its_calls_answered_in_order_send_the_line_once():
    # The transport as the Recording drives it: "held" after the first answer, the line left out.
    def size(n: int) -> int:
        rec, total = Recording.loads(_message(n)), 0
        for k in range(n):
            out = rec._run(R_ANSWER, 0, b'{"name":"t","args":{"i":%d}}' % k, 0, 1 if k else 0)
            assert json.loads(out.partition(b"\n")[0])["call"] == k
            total += len(out)
        return total

    a, b, c = size(250), size(500), size(1000)
    assert b / a < 2.5 and c / b < 2.5


def test_a_line_whose_value_could_not_be_built_is_built_again_never_stale(monkeypatch):
    # Forced: the builder fails once. The host then holds nothing, tells the core, and the line comes again.
    other = '{"name":"u","args":{},"result":"other"}'
    rec = Recording.loads(_message(3) + "\n" + other + "\n")
    assert rec.answer({"name": "u", "args": {}})["value"] == json.loads(other)  # line 2 held
    real, failed = _replay.build_value, []

    def once(text, items):
        if not failed:
            failed.append(1)
            raise ValueError("forced")
        return real(text, items)

    monkeypatch.setattr(_replay, "build_value", once)
    with pytest.raises(FingerprintError) as e:
        rec.answer({"name": "t", "args": {"i": 0}})
    assert e.value.code == "internal-error"
    a = rec.answer({"name": "t", "args": {"i": 1}})
    assert (a["line"], a["call"], a["text"]) == (1, 1, _message(3)) and a["value"] == json.loads(_message(3))
    b = rec.answer({"name": "t", "args": {"i": 2}})
    assert b["value"] is a["value"] and b["text"] is a["text"]
    miss = rec.answer({"name": "t", "args": {"i": 1, "x": 1}})
    assert miss["nearest"]["value"] is a["value"]
    rec2 = Recording.loads(_message(2) + "\n" + other)
    failed.clear()
    with pytest.raises(FingerprintError):
        rec2.unused()
    u = rec2.unused()
    assert [(x["line"], x["call"]) for x in u] == [(1, 0), (1, 1), (2, 0)] and u[1]["value"] is u[0]["value"]
