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
        elif case["op"] == "error-includes":
            # The code, and a part of the message (JSON text errors are worded by the host).
            with pytest.raises(FingerprintError) as e:
                explain_call(call)
            assert e.value.code == case["expect"]["code"]
            assert case["expect"]["includes"] in str(e.value)
        elif case["op"] == "explain":
            assert explain_call(call) == case["expect"]
        else:
            with pytest.raises(FingerprintError) as e:
                explain_call(call)
            assert {"code": e.value.code, "message": str(e.value)} == case["expect"]


class _Includes:
    """Equal to any string that holds part (the CLI adds line and column to a JSON text error)."""

    def __init__(self, part: str) -> None:
        self.part = part

    def __eq__(self, other: object) -> bool:
        return isinstance(other, str) and self.part in other

    def __repr__(self) -> str:
        return "<a string holding %r>" % self.part


def _cli_want(path: str):
    """Every case is a line: a message or an array expands to one record per call, in order (its "cli")."""
    out = []
    for i, c in enumerate(CASES):
        line = i + 1
        cli = c["cli"]
        if "calls" in cli:
            out.extend({"file": path, "line": line, "name": e["name"], "fingerprint": e["fingerprint"]} for e in cli["calls"])
        else:
            error = _Includes(cli["includes"]) if "includes" in cli else cli["message"]
            out.append({"file": path, "line": line, "code": cli["code"], "error": error})
    return out


def test_cli_reads_every_shape_and_message(tmp_path):
    p = tmp_path / "calls.jsonl"
    p.write_text("".join(c["call"] + "\n" for c in CASES), "utf-8")
    r = subprocess.run([sys.executable, "-m", "overturn.fingerprint", "--json", str(p)], cwd=ROOT,
                       capture_output=True, timeout=120)
    got = [json.loads(line) for line in r.stdout.decode("utf-8").strip().split("\n")]
    assert got == _cli_want(str(p))
    assert r.returncode == 1
