"""The malformed corpus vectors/reject.jsonl: every document is a FingerprintError
with a byte offset, and the SDK still computes a known vector right after (D19).
"""
from __future__ import annotations

import pytest

from _support import load_reject, load_vectors
from overturn.fingerprint import FingerprintError, canonicalize_json, fingerprint, fingerprint_json

CASES = load_reject()
KNOWN = next(v for v in load_vectors()["vectors"] if v["id"] == "page-trim-email")
READER_CODES = {"unexpected-end", "unexpected-character", "invalid-utf8", "bad-escape", "control-character",
                "bad-number", "trailing-content", "empty-input"}


def _still_works():
    assert fingerprint_json(KNOWN["name"], KNOWN["argsJSON"]) == KNOWN["fingerprint"]
    assert fingerprint(KNOWN["name"], KNOWN["args"]) == KNOWN["fingerprint"]


def test_corpus_is_large():
    assert len(CASES) >= 100


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["id"])
def test_rejected(case):
    data = bytes.fromhex(case["hex"])
    with pytest.raises(FingerprintError) as e:
        fingerprint_json("search", data)
    err = e.value
    assert err.code in READER_CODES, (case["why"], err.code)
    if err.code != "empty-input":
        assert isinstance(err.offset, int) and 0 <= err.offset <= len(data), (case["why"], err.offset)
        assert "at byte %d" % err.offset in str(err)
    _still_works()
    with pytest.raises(FingerprintError) as e2:
        canonicalize_json(data)
    assert (e2.value.code, e2.value.offset) == (err.code, err.offset)
    _still_works()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return
    if not text.startswith("\ufeff"):  # a str's BOM is a character (another error)
        # The same text as a str (the common call's short path reports errors through the full one).
        with pytest.raises(FingerprintError) as e3:
            fingerprint_json("search", text)
        assert (e3.value.code, e3.value.offset) == (err.code, err.offset)
        _still_works()
