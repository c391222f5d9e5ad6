"""vectors/cli.vectors.json run against both CLIs: ``python -m overturn.fingerprint``
and, when node and the built dist/ are there, ``node dist/cli.js``. Expected
bytes come from the oracle (test/reference/cli.mjs); the twin runner is
test/cli-vectors.test.ts.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from _support import ROOT
from overturn.fingerprint import __version__

CASES = json.loads((ROOT / "vectors" / "cli.vectors.json").read_text("utf-8"))["cases"]
NODE = shutil.which("node")
CLIS = [("python -m overturn.fingerprint", [sys.executable, "-m", "overturn.fingerprint"])]
if NODE and (ROOT / "dist" / "cli.js").exists():
    CLIS.append(("overturn-fingerprint", [NODE, str(ROOT / "dist" / "cli.js")]))


def _fill(s: str, prog: str) -> bytes:
    return s.replace("{prog}", prog).replace("{pkg}", __version__).encode("utf-8")


@pytest.mark.parametrize("prog,cmd", CLIS, ids=[p for p, _ in CLIS])
@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_cli_vector(prog, cmd, case):
    r = subprocess.run(cmd + case["args"], cwd=ROOT, capture_output=True, timeout=120)
    assert (r.stdout, r.stderr, r.returncode) == (_fill(case["stdout"], prog), _fill(case["stderr"], prog), case["exit"])


# Inputs too large for the vectors file, made here; expected bytes from hashlib over hand-written preimages.

def _sha(s: str) -> str:
    import hashlib
    return hashlib.sha256(s.encode("utf-8")).hexdigest()


@pytest.mark.parametrize("prog,cmd", CLIS, ids=[p for p, _ in CLIS])
def test_nested_100000_levels(prog, cmd, tmp_path):
    n = 100_000
    p = tmp_path / "deep.jsonl"
    p.write_text('{"name":"deep","args":%s1%s}\n' % ("[" * n, "]" * n), encoding="utf-8")
    r = subprocess.run(cmd + [str(p)], cwd=ROOT, capture_output=True, timeout=120)
    assert (r.stdout, r.stderr, r.returncode) == (
        ("%s  deep\n" % _sha("tool_call\ndeep\n%s1%s" % ("[" * n, "]" * n))).encode(), b"", 0)


@pytest.mark.parametrize("prog,cmd", CLIS, ids=[p for p, _ in CLIS])
def test_bom_crlf_blank_and_last_line(prog, cmd, tmp_path):
    p = tmp_path / "crlf.jsonl"
    p.write_bytes(b'\xef\xbb\xbf{"name":"a","args":1}\r\n\r\n  \t\n{"name":"b","argsJSON":"[1.0]"}')
    r = subprocess.run(cmd + [str(p)], cwd=ROOT, capture_output=True, timeout=120)
    assert r.stdout.decode() == "%s  a\n%s  b\n" % (_sha("tool_call\na\n1"), _sha("tool_call\nb\n[1]"))


@pytest.mark.parametrize("prog,cmd", CLIS, ids=[p for p, _ in CLIS])
def test_jobs_keep_input_order_and_merge_counts(prog, cmd, tmp_path):
    n, bad = 40_000, 12_345  # ~2.6 MB: three 1 MiB chunks
    lines = ["{bad\n" if i == bad else '{"name":"t%d","args":{"i":%d,"pad":"%s","rid":"r%d"},"ignoreArgs":["rid"]}\n'
             % (i % 3, i, "x" * 40, i) for i in range(n)]
    p = tmp_path / "big.jsonl"
    p.write_text("".join(lines), encoding="utf-8")
    want = "".join("" if i == bad else "%s  t%d\n" % (_sha('tool_call\nt%d\n{"i":%d,"pad":"%s"}' % (i % 3, i, "x" * 40)), i % 3)
                   for i in range(n))
    for jobs in ("1", "2"):
        r = subprocess.run(cmd + ["--jobs", jobs, str(p)], cwd=ROOT, capture_output=True, timeout=300)
        assert r.stdout.decode() == want, "--jobs %s" % jobs
        assert r.stderr.decode() == ('%s:%d: invalid JSON: unexpected character at byte 1 (line 1, column 2, "b")\n'
                                     "1 of %d lines failed\n" % (p, bad + 1, n))
        assert r.returncode == 1


def test_json_error_positions():
    """Where a JSON error is, as the SDKs' error path asks the core (assembly/cli/message.ts); expected by hand."""
    from overturn.fingerprint._diagnostics_wasm import json_error_at
    for p in json.loads((ROOT / "vectors" / "cli.vectors.json").read_text("utf-8"))["positions"]:
        text = bytes.fromhex(p["hex"]) if "hex" in p else p["text"]
        assert json_error_at(text, p["offset"]) == p["want"]
