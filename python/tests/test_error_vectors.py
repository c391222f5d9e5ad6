"""Every error code and message, as data: each case of vectors/errors.vectors.json (messages written
by hand in scripts/gen-error-vectors.mjs) through its entry point, asserting code, message, offset and
path. test/error-vectors.test.ts runs the same file: the two SDKs give the same error for the same
bad input.
"""
from __future__ import annotations

import json

import pytest

from _support import ROOT
from overturn.fingerprint import (
    FingerprintError, Recording, canonical_json, canonicalize_json, configure, explain, explain_call, explain_calls,
    explain_json, fingerprint, fingerprint_batch, fingerprint_batch_json, fingerprint_call, fingerprint_json, nearest,
)
from overturn.fingerprint import _limits

V = json.loads((ROOT / "vectors" / "errors.vectors.json").read_text("utf-8"))
OPTION = {"matchOn": "match_on", "ignoreArgs": "ignore_args", "onError": "on_error", "kind": "kind", "limits": "limits",
          "tools": "tools"}
LIMIT = {"maxInputBytes": "max_input_bytes", "maxDepth": "max_depth", "maxMembers": "max_members",
         "retainMemoryBytes": "retain_memory_bytes"}


@pytest.fixture(autouse=True)
def fresh_settings():
    saved = _limits.active
    yield
    _limits.active = saved


def host(v):
    """A JSON input as a host value: {"$host": "set"} a set, {"$host": "cycle"} a dict holding itself."""
    if isinstance(v, list):
        return [host(x) for x in v]
    if not isinstance(v, dict):
        return v
    if v.get("$host") == "set":
        return {1}
    if v.get("$host") == "cycle":
        c = {}
        c["self"] = c
        return c
    return {k: host(x) for k, x in v.items()}


def text(i):
    return bytes(i["bytes"]) if "bytes" in i else i["text"] if "text" in i else i.get("value")


def kw(i):
    out = {}
    for k, v in (i.get("options") or {}).items():
        if k == "onError":
            v = "raise" if v == "throw" else v
        if k == "limits" and isinstance(v, dict):
            v = {LIMIT.get(n, n): x for n, x in v.items()}
        out[OPTION[k]] = v
    return out


def _load(i):
    src = i["text"] if "text" in i else bytes(i["bytes"]) if "bytes" in i else i["value"]
    r = Recording.loads(src) if isinstance(src, str) else Recording.load(src)
    if r.bad_lines:
        raise r.bad_lines[0][1]


OPS = {
    "fingerprint": lambda i: fingerprint(i["name"], host(i["args"]), **kw(i)),
    "fingerprintJSON": lambda i: fingerprint_json(i["name"], text(i), **kw(i)),
    "canonicalJSON": lambda i: canonical_json(host(i["value"])),
    "canonicalizeJSON": lambda i: canonicalize_json(text(i)),
    "explain": lambda i: explain(i["name"], host(i["args"]), **kw(i)),
    "explainJSON": lambda i: explain_json(i["name"], text(i), **kw(i)),
    "explainCall": lambda i: explain_call(i["call"]),
    "explainCalls": lambda i: explain_calls(i["message"]),
    "fingerprintCall": lambda i: fingerprint_call(i["call"], **kw(i)),
    "fingerprintBatch": lambda i: fingerprint_batch(i["calls"], **kw(i)),
    "fingerprintBatchJSON": lambda i: fingerprint_batch_json(i["names"], i["argsJSON"], **kw(i)),
    "nearest": lambda i: nearest(i["call"], i["recording"]),
    "Recording.load": _load,
    "Recording.answer": lambda i: Recording.loads(i["recording"]).answer(i["call"], i.get("index", 0)),
    "configure": lambda i: configure(**{LIMIT.get(k, k): {LIMIT.get(n, n): x for n, x in v.items()} if k == "limits" else v
                                        for k, v in i["settings"].items()}),
}


def outcome(f):
    try:
        f()
    except FingerprintError as e:
        return {"code": e.code, "message": str(e), "offset": e.offset, "path": e.path}
    return None


def test_every_entry_point_is_covered():
    assert {c["op"] for c in V["cases"]} == set(OPS)


@pytest.mark.parametrize("case", [c for c in V["cases"] if c.get("only") != "ts"], ids=lambda c: c["id"])
def test_error_vector(case):
    assert outcome(lambda: OPS[case["op"]](case["input"])) == {**case["expect"], **case.get("py", {})}
