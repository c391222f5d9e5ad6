"""The thin runner of vectors/call-shapes.vectors.json for the Python SDK and
CLI (the TypeScript twin: test/call-shapes-vectors.test.ts). Each call goes in
as JSON text, as a Python mapping and as a line of a file for the CLI; expected
values come from the independent oracles (test/reference/shapes.mjs,
diagnostics.mjs), never from the core."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from _support import ROOT
from overturn.fingerprint import FingerprintError, explain_call, explain_calls

CASES = json.loads((ROOT / "vectors" / "call-shapes.vectors.json").read_text("utf-8"))["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_vector(case):
    for call in (case["call"], json.loads(case["call"])):
        if case["op"] == "calls":
            assert explain_calls(call) == case["expect"]
        elif case["op"] == "calls-error":
            with pytest.raises(FingerprintError) as e:
                explain_calls(call)
            assert {"code": e.value.code, "message": str(e.value)} == case["expect"]
        elif case["op"] == "explain":
            assert explain_call(call) == case["expect"]
        else:
            with pytest.raises(FingerprintError) as e:
                explain_call(call)
            assert {"code": e.value.code, "message": str(e.value)} == case["expect"]


def _cli_want(path: str):
    """Every case is a line: a message expands to one record per call, in order."""
    out = []
    for i, c in enumerate(CASES):
        line = i + 1
        if c["op"] in ("error", "calls-error"):
            out.append({"file": path, "line": line, "code": c["expect"]["code"], "error": c["expect"]["message"]})
            continue
        for e in (c["expect"] if c["op"] == "calls" else [c["expect"]]):
            out.append({"file": path, "line": line, "name": e["name"], "fingerprint": e["fingerprint"]})
    return out


def test_cli_reads_every_shape_and_message(tmp_path):
    p = tmp_path / "calls.jsonl"
    p.write_text("".join(c["call"] + "\n" for c in CASES), "utf-8")
    r = subprocess.run([sys.executable, "-m", "overturn.fingerprint", "--json", str(p)], cwd=ROOT,
                       capture_output=True, timeout=120)
    got = [json.loads(line) for line in r.stdout.decode("utf-8").strip().split("\n")]
    assert got == _cli_want(str(p))
    assert r.returncode == 1
