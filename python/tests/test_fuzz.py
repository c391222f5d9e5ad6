"""The seeded mutation fuzzer (fuzz.py) on a fixed budget, and its teeth.

Default: ~6 s per kind (JSON text, host values), seeds from 1 (or
``OVERTURN_FUZZ_SEED``). ``OVERTURN_FUZZ_SECONDS=N`` gives each kind N
seconds instead (``npm run test:slow`` runs 300). A failure lists up to five
one-line reproductions (``python python/tests/fuzz.py --kind K --seed N``).
"""
from __future__ import annotations

import os

import pytest

import fuzz

SECONDS = float(os.environ.get("OVERTURN_FUZZ_SECONDS", "6"))
BASE = int(os.environ.get("OVERTURN_FUZZ_SEED", "1"))


@pytest.mark.parametrize("kind", ["text", "value"])
def test_fuzz_agrees_with_the_oracle(kind):
    stats = fuzz.run(kind, SECONDS, BASE)
    assert not stats["failures"], "\n".join(stats["failures"])
    # Not vacuous: enough cases, and both accepted and rejected inputs among them.
    assert stats["cases"] >= 200, stats
    assert stats["ok"] >= 50 and stats["reject"] >= 20, stats


def test_fuzz_cases_are_determined_by_their_seed():
    for make in (fuzz.text_case, fuzz.value_case):
        a, b = make(4242), make(4242)
        assert repr(a.input) == repr(b.input) and a.options == b.options


def test_fuzz_check_catches_a_wrong_digest_and_a_wrong_rejection(monkeypatch):
    c = fuzz.value_case(3)
    while fuzz.oracle_outcome(c)[0] != "ok":
        c = fuzz.value_case(c.seed + 1)
    assert fuzz.check(c) is None
    monkeypatch.setattr(fuzz, "fingerprint", lambda *a, **k: "0" * 64)
    assert "oracle" in fuzz.check(c)

    def leak(*a, **k):
        raise TypeError("leaked")

    monkeypatch.setattr(fuzz, "fingerprint", leak)
    assert fuzz.check(c).startswith("SDK raised TypeError")
    t = fuzz.text_case(1)
    while fuzz.oracle_outcome(t)[0] != "reject":
        t = fuzz.text_case(t.seed + 1)
    monkeypatch.setattr(fuzz, "canonicalize_json", lambda *a, **k: "{}")
    monkeypatch.setattr(fuzz, "fingerprint_json", lambda *a, **k: "0" * 64)
    assert "oracle ('reject'" in fuzz.check(t)
