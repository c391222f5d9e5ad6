"""Every ```python block of the README runs as written (from the repository
root, without an error): a reader can paste any of them. What the replay
blocks print is checked by test_readme_replay.py."""
from __future__ import annotations

import re
import subprocess
import sys

import pytest

from _support import ROOT

BLOCKS = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text("utf-8"), re.S)


def test_has_blocks():
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize("code", BLOCKS, ids=["block-%d" % (i + 1) for i in range(len(BLOCKS))])
def test_block_runs(code):
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stderr == "", r.stderr[-2000:]
