"""Limits on every path: each case of vectors/limits.vectors.json (expected errors from the oracle
test/reference/limits.mjs) through every function that reads input, under ``configure(limits)`` and,
where a call takes its own, per call. test/limits-vectors.test.ts runs the same table, so both SDKs
give the same words.
"""
from __future__ import annotations

import json
import math

import pytest

from _support import ROOT
from overturn.fingerprint import (
    FingerprintError, Recording, canonical_json, canonicalize_json, configure, diff, explain, explain_call,
    explain_calls, explain_json, fingerprint, fingerprint_batch, fingerprint_batch_json, fingerprint_call,
    fingerprint_json, nearest,
)
from overturn.fingerprint import _limits

V = json.loads((ROOT / "vectors" / "limits.vectors.json").read_text("utf-8"))
CASES = V["cases"]
NAMES = {"maxInputBytes": "max_input_bytes", "maxDepth": "max_depth", "maxMembers": "max_members"}


@pytest.fixture(autouse=True)
def fresh_settings():
    saved = _limits.active
    yield
    _limits.active = saved


def py_limits(lim):
    return {NAMES[k]: v for k, v in lim.items()}


def line(c):
    return V["callPrefix"] + c["args"] + "}"


def call(c):
    return {"name": "t", "args": json.loads(c["args"])}


def _load(c):
    # A bad line is reported like any bad line (the rest is kept).
    r = Recording.loads(line(c) + "\n" + '{"name":"ok","args":1}\n')
    if r.bad_lines:
        raise r.bad_lines[0][1]
    return r


# (name, expectation key, takes its own limits, message prefix, run(case, own limits or None))
WAYS = [
    ("fingerprint_json", "argsText", True, "", lambda c, o: fingerprint_json("t", c["args"], limits=o)),
    ("fingerprint_json(bytes)", "argsText", True, "", lambda c, o: fingerprint_json("t", c["args"].encode(), limits=o)),
    ("canonicalize_json", "argsText", False, "", lambda c, o: canonicalize_json(c["args"])),
    ("fingerprint", "argsValue", True, "", lambda c, o: fingerprint("t", json.loads(c["args"]), limits=o)),
    ("canonical_json", "argsValue", False, "", lambda c, o: canonical_json(json.loads(c["args"]))),
    ("fingerprint_batch_json", "argsText", True, "item 0: ", lambda c, o: fingerprint_batch_json(["t"], [c["args"]], limits=o)),
    # explain_json reads its argsJSON as text of its own: the args' depth, members and offsets.
    ("explain_json", "argsText", True, "", lambda c, o: explain_json("t", c["args"], limits=o)),
    ("explain", "callValue", True, "", lambda c, o: explain("t", json.loads(c["args"]), limits=o)),
    ("explain_call(text)", "callText", False, "", lambda c, o: explain_call(line(c))),
    ("explain_call(mapping)", "callValue", False, "", lambda c, o: explain_call(call(c))),
    ("explain_calls(text)", "callText", False, "", lambda c, o: explain_calls(line(c))),
    ("fingerprint_call(text)", "callText", False, "", lambda c, o: fingerprint_call(line(c))),
    ("fingerprint_call(mapping)", "callValue", False, "", lambda c, o: fingerprint_call(call(c))),
    ("fingerprint_batch(text)", "callText", True, "item 0: ", lambda c, o: fingerprint_batch([line(c)], limits=o)),
    ("fingerprint_batch(mapping)", "callValue", True, "item 0: ", lambda c, o: fingerprint_batch([call(c)], limits=o)),
    ("diff", "callValue", False, "", lambda c, o: diff(call(c), {"name": "t", "args": 1})),
    ("nearest", "callValue", False, "", lambda c, o: nearest({"name": "t", "args": 1}, [call(c)])),
    ("Recording.answer(text)", "callText", False, "", lambda c, o: Recording.loads("").answer(line(c))),
    ("Recording.answer(mapping)", "callValue", False, "", lambda c, o: Recording.loads("").answer(call(c))),
    ("Recording.loads", "callText", False, "", lambda c, o: _load(c)),
]


def outcome(fn):
    try:
        fn()
        return None
    except FingerprintError as e:
        return {"code": e.code, "message": str(e), "offset": e.offset}


def want(prefix, e):
    return None if e is None else dict(e, message=prefix + e["message"])


def test_the_vectors_have_cases_over_and_within():
    assert len(CASES) >= 12
    assert any(c["argsText"] is None for c in CASES) and any(c["argsText"] is not None for c in CASES)


@pytest.mark.parametrize("name,key,per_call,prefix,run", WAYS, ids=[w[0] for w in WAYS])
def test_every_way_in_under_configure(name, key, per_call, prefix, run):
    for c in CASES:
        configure(limits=py_limits(c["limits"]))
        assert outcome(lambda: run(c, None)) == want(prefix, c[key]), c["id"]
        configure(limits={"max_input_bytes": math.inf, "max_depth": math.inf, "max_members": math.inf})
        assert outcome(lambda: run(c, None)) is None, c["id"] + " without limits"


@pytest.mark.parametrize("name,key,per_call,prefix,run", [w for w in WAYS if w[2]], ids=[w[0] for w in WAYS if w[2]])
def test_a_calls_own_limits_only_tighten(name, key, per_call, prefix, run):
    for c in CASES:
        assert outcome(lambda: run(c, py_limits(c["limits"]))) == want(prefix, c[key]), c["id"]
        # None, math.inf or a looser own limit keep the configured one.
        configure(limits=py_limits(c["limits"]))
        loose = {NAMES[k]: 10 ** 9 for k in c["limits"]}
        for own in ({"max_depth": None}, {"max_input_bytes": math.inf, "max_depth": math.inf, "max_members": math.inf}, loose):
            assert outcome(lambda: run(c, own)) == want(prefix, c[key]), (c["id"], own)
        configure(limits={"max_input_bytes": math.inf, "max_depth": math.inf, "max_members": math.inf})


def test_an_unknown_key_is_invalid_argument():
    for bad in ({"maxdepth": 3}, {"max_depth": 3, "depth": 1}, {"maxDepth": 3}):
        for fn in (lambda: fingerprint_json("t", "1", limits=bad), lambda: fingerprint_batch_json(["t"], ["1"], limits=bad),
                   lambda: explain_json("t", "1", limits=bad), lambda: configure(limits=bad)):
            assert outcome(fn)["code"] == "invalid-argument"
    assert str(outcome(lambda: fingerprint_json("t", "1", limits={"maxdepth": 3}))["message"]) == \
        "unknown limits maxdepth: allowed are max_input_bytes, max_depth, max_members"
    assert len(fingerprint_json("t", "[[[[1]]]]")) == 64  # the failed configure set nothing


def test_kept_recording_lines_are_not_checked_again_when_the_limits_tighten():
    rec = Recording.loads('{"name":"t","args":{"a":[[[1]]]}}\n{"name":"t","args":{"a":[[[2]]]}}\n')
    configure(limits={"max_depth": 4})
    assert rec.answer('{"name":"t","args":{"a":[[3]]}}')["hit"] is False  # the recorded calls are read again
    assert len(rec.unused()) == 2
    assert outcome(lambda: rec.answer('{"name":"t","args":{"a":[[[3]]]}}'))["code"] == "limit-exceeded"
