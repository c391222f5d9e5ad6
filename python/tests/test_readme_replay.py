"""The README's "Replay in five lines" runs as written: each ```python block
of the section is run by this interpreter from the repository root, and its
output must be the ```text block that follows it. The TypeScript blocks:
test/readme-replay.test.ts."""
from __future__ import annotations

import re
import subprocess
import sys

import pytest

from _support import ROOT

_README = (ROOT / "README.md").read_text("utf-8")
_START = _README.index("## Replay in five lines")
_SECTION = _README[_START:_README.index("\n## ", _START + 3)]
BLOCKS = re.findall(r"```python\n(.*?)```\n\n```text\n(.*?)```", _SECTION, re.S)


def test_has_examples():
    assert len(BLOCKS) >= 2


@pytest.mark.parametrize("code,want", BLOCKS, ids=["example-%d" % (i + 1) for i in range(len(BLOCKS))])
def test_example_prints_what_the_readme_shows(code, want):
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.stderr == ""
    assert r.stdout == want


# The CLI gate (```sh blocks): the command as written, run by the Python CLI;
# its stdout must be the ```text block, and the exit status 1 when a call missed.
GATES = re.findall(r"```sh\n(?:npx )?overturn-fingerprint ([^\n]*)\n```\n\n```text\n(.*?)```", _SECTION, re.S)


def test_has_gate():
    assert len(GATES) >= 1


@pytest.mark.parametrize("args,want", GATES, ids=["gate-%d" % (i + 1) for i in range(len(GATES))])
def test_gate_prints_what_the_readme_shows(args, want):
    r = subprocess.run([sys.executable, "-m", "overturn.fingerprint", *args.split(" ")], cwd=ROOT, capture_output=True,
                       timeout=60)
    assert r.stderr == b""
    assert r.stdout.decode("utf-8") == want
    assert r.returncode == (1 if "  miss  " in want else 0)
