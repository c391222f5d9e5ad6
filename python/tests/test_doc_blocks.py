"""Every ```python block of the user documents runs as written, from the
repository root, and prints the ```text block that follows it (when there is
one); so does every ``python -m overturn.fingerprint`` command of a ```sh or
```console block. The documents and the rules are those of
test/helpers/doc-blocks.ts, which runs the TypeScript blocks and the other
commands."""
from __future__ import annotations

import re
import subprocess
import sys
from typing import List, Optional, Tuple

import pytest

from _support import ROOT

DOCUMENTS = ["README.md", "CONTRIBUTING.md", "python/README.md", "bench/README.md"] + sorted(
    "docs/" + p.name for p in (ROOT / "docs").glob("*.md"))
_FENCE = re.compile(r"^```([a-z]*)\n(.*?)^```$", re.S | re.M)


def _blocks(file: str) -> List[Tuple[str, str, str, Optional[str]]]:
    """(id, lang, code, expected stdout) of each fenced block."""
    text = (ROOT / file).read_text("utf-8")
    fences = list(_FENCE.finditer(text))
    out = []
    for i, m in enumerate(fences):
        nxt = fences[i + 1] if i + 1 < len(fences) else None
        expected = None
        if nxt is not None and nxt.group(1) == "text" and text[m.end():nxt.start()] == "\n\n":
            expected = nxt.group(2)
        out.append(("%s:%d" % (file, text.count("\n", 0, m.start()) + 1), m.group(1), m.group(2), expected))
    return out


BLOCKS = [b for f in DOCUMENTS for b in _blocks(f)]
PYTHON = [b for b in BLOCKS if b[1] == "python"]


def _commands() -> List[Tuple[str, str, Optional[str]]]:
    out = []
    for id_, lang, code, expected in BLOCKS:
        if lang == "sh":
            lines = [ln for ln in code.split("\n") if ln.strip() and not ln.startswith("#")]
            out += [(id_, ln, expected if len(lines) == 1 else None) for ln in lines]
        elif lang == "console":
            for part in re.split(r"^\$ ", code, flags=re.M)[1:]:
                cmd, _, shown = part.partition("\n")
                out.append((id_, cmd, shown))
    return [c for c in out if re.match(r"python3? -m overturn\.fingerprint\b", c[1])]


COMMANDS = _commands()


def test_has_blocks():
    assert len(PYTHON) >= 8


@pytest.mark.parametrize("id_,lang,code,expected", PYTHON, ids=[b[0] for b in PYTHON])
def test_python_block(id_, lang, code, expected):
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stderr == "", r.stderr[-2000:]
    if expected is not None:
        assert r.stdout == expected


@pytest.mark.parametrize("id_,command,expected", COMMANDS, ids=["%s %s" % (c[0], c[1][:40]) for c in COMMANDS])
def test_cli_command(id_, command, expected):
    args = command.split()[3:]
    r = subprocess.run([sys.executable, "-m", "overturn.fingerprint", *args], cwd=ROOT, capture_output=True, timeout=120)
    assert r.returncode in (0, 1), r.stderr.decode("utf-8", "replace")
    if expected is not None:
        assert r.stdout.decode("utf-8") == expected
