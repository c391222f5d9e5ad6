"""The thin runner of vectors/replay.vectors.json for the Python SDK (the
TypeScript twin: test/replay-vectors.test.ts). Each recording is loaded from a
file, in 7-byte chunks and (for text) with ``loads``; each live call is asked
as JSON text and as a Python mapping. Expected values come from the
independent oracle (test/reference/replay.mjs), never from the core."""
from __future__ import annotations

import base64
import json

import pytest

from _support import ROOT
from overturn.fingerprint import FingerprintError, Recording, explain_call

CASES = json.loads((ROOT / "vectors" / "replay.vectors.json").read_text("utf-8"))["cases"]


def _bytes(case):
    if "recordingBase64" in case:
        return base64.b64decode(case["recordingBase64"])
    return case["recording"].encode("utf-8")


def _line_text(data: bytes, n: int) -> str:
    """The recorded line by number (the oracle's rules: "\\n", then a trailing "\\r" dropped)."""
    text = data.split(b"\n")[n - 1].decode("utf-8")
    if text.endswith("\r"):
        text = text[:-1]
    return text[1:] if text.startswith("\ufeff") else text


def _core(a, data):
    if a["hit"]:
        assert a["text"] == _line_text(data, a["recordedLine"])
        assert a["value"] == json.loads(a["text"])
        return {k: a[k] for k in ("name", "kind", "fingerprint", "hit", "recordedLine", "recordedCall")}
    near = a["nearest"]
    if near is not None:
        assert near["text"] == _line_text(data, near["line"])
        assert near["value"] == json.loads(near["text"])
        near = {"line": near["line"], "call": near["call"]}
    out = {k: a[k] for k in ("name", "kind", "fingerprint", "hit", "recordedLine", "why", "recorded", "asked", "changes")}
    out["nearest"] = near
    return out


def _run(rec, case, as_objects):
    data = _bytes(case)
    answers = [_core(rec.answer(json.loads(t) if as_objects else t), data) for t in case["calls"]]
    unused = []
    for u in rec.unused():
        assert u["text"] == _line_text(data, u["line"])
        assert u["value"] == json.loads(u["text"])
        unused.append({k: u[k] for k in ("line", "call", "name", "fingerprint")})
    return {"lines": rec.lines, "calls": rec.size, "bad": [n for n, _ in rec.bad_lines], "answers": answers,
            "unused": unused}


def _error(f):
    with pytest.raises(FingerprintError) as e:
        f()
    return {"code": e.value.code, "message": str(e.value)}


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_vector(case, tmp_path):
    tools = case["tools"]
    if case["op"] == "tools-error":
        assert _error(lambda: Recording.loads("", tools=tools)) == case["expect"]
        assert _error(lambda: explain_call({"name": "t"}, tools=json.dumps(tools))) == case["expect"]
        return
    if case["op"] == "conflict":
        rec = Recording.loads("", tools=tools)
        assert _error(lambda: rec.answer(case["calls"][0])) == case["expect"]
        assert _error(lambda: rec.answer(json.loads(case["calls"][0]))) == case["expect"]
        assert _error(lambda: explain_call(case["calls"][0], tools=tools)) == case["expect"]
        assert rec.answer({"name": "other"})["hit"] is False  # the recording keeps working
        return
    data = _bytes(case)
    p = tmp_path / "recording.jsonl"
    p.write_bytes(data)
    assert _run(Recording.load(p, tools=tools), case, False) == case["expect"]
    chunks = [data[i:i + 7] for i in range(0, len(data), 7)]
    assert _run(Recording.load(chunks, tools=tools), case, True) == case["expect"]
    if "recording" in case:
        assert _run(Recording.loads(case["recording"], tools=tools), case, True) == case["expect"]
