"""The thin runner of vectors/diagnostics.vectors.json for the Python SDK (the
TypeScript twin: test/diagnostics-vectors.test.ts). Inputs are recording lines;
expected values come from the independent oracle (test/reference/diagnostics.mjs)."""
from __future__ import annotations

import json

import pytest

from _support import ROOT
from overturn.fingerprint import FingerprintError, diff, explain_call, nearest

CASES = json.loads((ROOT / "vectors" / "diagnostics.vectors.json").read_text("utf-8"))["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_vector(case):
    op = case["op"]
    if op == "explain":
        assert explain_call(case["line"]) == case["expect"]
    elif op == "diff":
        assert diff(explain_call(case["a"]), explain_call(case["b"])) == case["expect"]
    elif op == "diff-calls":
        assert diff(json.loads(case["a"]), json.loads(case["b"])) == case["expect"]
    elif op == "diff-mixed":
        assert diff(explain_call(case["a"]), json.loads(case["b"])) == case["expect"]
    elif op == "nearest-calls":
        n = nearest(json.loads(case["line"]), [json.loads(ln) for ln in case["recording"]])
        assert (n and {"index": n["index"], "diff": n["diff"]}) == case["expect"]
    elif op == "nearest":
        n = nearest(explain_call(case["line"]), [explain_call(ln) for ln in case["recording"]])
        assert (n and {"index": n["index"], "diff": n["diff"]}) == case["expect"]
    else:
        with pytest.raises(FingerprintError) as e:
            explain_call(case["line"])
        assert {"code": e.value.code, "message": str(e.value)} == case["expect"]
