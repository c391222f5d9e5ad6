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
