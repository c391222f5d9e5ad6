"""Batches of names and JSON texts, as vectors/batch.vectors.json says (the oracle's fingerprints, None
for a bad item, the first bad item's error): from lists, generators and (all str, where pyarrow is
installed) Arrow arrays. test/batch-vectors.test.ts runs the same table.
"""
from __future__ import annotations

import json

import pytest

from _support import ROOT
from overturn.fingerprint import FingerprintError, fingerprint_batch_json

V = json.loads((ROOT / "vectors" / "batch.vectors.json").read_text("utf-8"))["vectors"]
OPTION = {"kind": "kind", "matchOn": "match_on", "ignoreArgs": "ignore_args", "limits": "limits"}
LIMIT = {"maxInputBytes": "max_input_bytes", "maxDepth": "max_depth", "maxMembers": "max_members"}


def _options(v):
    o = {OPTION[k]: x for k, x in v["options"].items()}
    if "limits" in o:
        o["limits"] = {LIMIT[k]: x for k, x in o["limits"].items()}
    return o


def _items(v):
    items = list(v["items"]) if "items" in v else [v["fill"]["item"]] * v["fill"]["count"]
    for i, item in v.get("set", {}).items():
        items[int(i)] = item
    return [(n, t if isinstance(t, str) else t["number"] if "number" in t else bytes.fromhex(t["bytesHex"])) for n, t in items]


def _want(v):
    if isinstance(v["want"], list):
        return v["want"]
    w = [v["want"]["fill"]] * v["fill"]["count"]
    for i, d in v["want"]["set"].items():
        w[int(i)] = d
    return w


def _forms(items):
    names, texts = [n for n, _ in items], [t for _, t in items]
    yield "lists", lambda: (names, texts)
    yield "generators", lambda: (iter(names), iter(texts))
    if all(isinstance(t, str) for t in texts):
        try:
            import pyarrow as pa
        except ImportError:
            return
        yield "arrow", lambda: (pa.array(names, pa.string()), pa.array(texts, pa.string()))


@pytest.mark.parametrize("v", V, ids=[v["id"] for v in V])
def test_every_case_gives_its_answers_and_its_first_error(v):
    for form, make in _forms(_items(v)):
        got = fingerprint_batch_json(*make(), on_error="null", **_options(v))
        if form == "arrow":
            got = got.to_pylist()
        assert got == _want(v), (v["id"], form)
        if v["error"] is None:
            fingerprint_batch_json(*make(), **_options(v))
            continue
        with pytest.raises(FingerprintError) as e:
            fingerprint_batch_json(*make(), **_options(v))
        msg, want = str(e.value), v["error"]
        assert e.value.index == want["index"], (v["id"], form)
        assert msg.startswith(want["messageStarts"]) and not msg[len(want["messageStarts"]):].startswith("item "), msg
        if "message" in want:
            assert (e.value.code, msg) == (want["code"], want["message"]), (v["id"], form)
