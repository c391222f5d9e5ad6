"""``match_on``/``ignore_args`` given a bare ``str``.

A ``str`` is an iterable of str, so ``match_on="ticketId"`` would select the
keys "t", "i", "c", … . At run time it is a FingerprintError; for type
checkers the parameters are ``KeyList`` (list, tuple or set of str), which a
``str`` is not — checked with ``mypy --strict`` where mypy runs (Python ≥ 3.10).
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from overturn.fingerprint import FingerprintError, explain, explain_json, fingerprint, fingerprint_json


@pytest.mark.parametrize("call", [
    lambda o: fingerprint("search", {"q": 1}, **o),
    lambda o: fingerprint_json("search", '{"q":1}', **o),
    lambda o: explain("search", {"q": 1}, **o),
    lambda o: explain_json("search", '{"q":1}', **o),
])
@pytest.mark.parametrize("option", ["match_on", "ignore_args"])
@pytest.mark.parametrize("bare", ["q", b"q", ""])
def test_a_bare_string_is_rejected_at_run_time(call, option: str, bare) -> None:
    with pytest.raises(FingerprintError) as e:
        call({option: bare})
    assert e.value.code == "invalid-argument"
    assert option in str(e.value) and "array of strings" in str(e.value)


@pytest.mark.parametrize("keys", [["q"], ("q",), {"q"}, frozenset(["q"]), {"q": 0}.keys(), (k for k in ["q"])])
def test_collections_of_keys_are_accepted(keys) -> None:
    assert fingerprint("search", {"q": 1, "x": 2}, match_on=keys) == fingerprint("search", {"q": 1})


SNIPPET = """\
from overturn.fingerprint import KeyList, explain, fingerprint, fingerprint_json
fingerprint("a", {}, match_on="q")  # E
fingerprint_json("a", "{}", ignore_args="q")  # E
explain("a", {}, match_on="q")  # E
fingerprint("a", {}, match_on=["q"])
fingerprint("a", {}, ignore_args=("q",))
fingerprint_json("a", "{}", match_on={"q"}, ignore_args=frozenset(["x"]))
keys: KeyList = ["q"]
explain("a", {}, match_on=keys)
"""


@pytest.mark.skipif(sys.version_info < (3, 10), reason="mypy 2.x runs on Python >= 3.10 (pinned in test-python.sh)")
def test_mypy_strict_rejects_a_bare_string_and_accepts_key_lists(tmp_path: Path) -> None:
    (tmp_path / "use.py").write_text(SNIPPET)
    out = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path / "c"),
                          "use.py"], cwd=tmp_path, capture_output=True, text=True)
    flagged = sorted({int(line.split(":")[1]) for line in out.stdout.splitlines() if ": error:" in line})
    want = [i + 1 for i, line in enumerate(SNIPPET.splitlines()) if line.endswith("# E")]
    assert flagged == want, out.stdout
    assert all("[arg-type]" in line for line in out.stdout.splitlines() if ": error:" in line)
