"""Every vector of vectors/fingerprint.vectors.json, from Python (both input paths).

Expected values come from the vectors file (made by the independent JS oracle
test/reference/contract.mjs) and from hashlib, never from the SDK itself.
"""
from __future__ import annotations

import pytest

from _support import Unrepresentable, call_options, decode_tagged, load_vectors, oracle_digest
from overturn.fingerprint import (
    FINGERPRINT_VERSION, FingerprintError, canonical_json, canonicalize_json, fingerprint, fingerprint_json,
)

DOC = load_vectors()
VECTORS = DOC["vectors"]
IDS = [v["id"] for v in VECTORS]


def _selected(v):
    return "matchOn" in v or "ignoreArgs" in v


def test_file_shape_and_version():
    assert DOC["FINGERPRINT_VERSION"] == FINGERPRINT_VERSION == 1
    assert len(VECTORS) >= 100
    assert len(set(IDS)) == len(IDS)
    for v in VECTORS:
        assert ("error" in v) != ("fingerprint" in v), v["id"]
        assert "args" in v or "argsJSON" in v or "argsBytesHex" in v, v["id"]


@pytest.mark.parametrize("v", [v for v in VECTORS if "fingerprint" in v], ids=lambda v: v["id"])
def test_hashlib_oracle_agrees_with_vector(v):
    assert oracle_digest(v.get("kind", "tool_call"), v["name"], v["canonical"]) == v["fingerprint"]


@pytest.mark.parametrize("v", [v for v in VECTORS if "args" in v], ids=lambda v: v["id"])
def test_value_input(v):
    try:
        args = decode_tagged(v["args"])
    except Unrepresentable as e:
        pytest.skip("no Python value for %s" % e)
    if "error" in v:
        with pytest.raises(FingerprintError):
            fingerprint(v["name"], args, **call_options(v))
        return
    assert fingerprint(v["name"], args, **call_options(v)) == v["fingerprint"]
    if not _selected(v):
        assert canonical_json(args) == v["canonical"]


@pytest.mark.parametrize("v", [v for v in VECTORS if "argsJSON" in v], ids=lambda v: v["id"])
def test_text_input_str(v):
    text = v["argsJSON"]
    if "error" in v:
        with pytest.raises(FingerprintError):
            fingerprint_json(v["name"], text, **call_options(v))
        if v["decision"] == "D17":  # a bad kind/name: the text itself is fine
            canonicalize_json(text)
        else:
            with pytest.raises(FingerprintError):
                canonicalize_json(text)
        return
    assert fingerprint_json(v["name"], text, **call_options(v)) == v["fingerprint"]
    if not _selected(v):
        assert canonicalize_json(text) == v["canonical"]
    if not text.startswith("\ufeff"):
        # The same text as bytes (a BOM would be skipped there, D12).
        data = text.encode("utf-8", "surrogatepass")
        assert fingerprint_json(v["name"], data, **call_options(v)) == v["fingerprint"]


@pytest.mark.parametrize("v", [v for v in VECTORS if "argsBytesHex" in v], ids=lambda v: v["id"])
def test_text_input_bytes(v):
    data = bytes.fromhex(v["argsBytesHex"])
    if "error" in v:
        with pytest.raises(FingerprintError) as e:
            fingerprint_json(v["name"], data, **call_options(v))
        assert e.value.code in {"unexpected-end", "unexpected-character", "invalid-utf8", "bad-escape",
                                "control-character", "bad-number", "trailing-content", "empty-input"}
        return
    assert fingerprint_json(v["name"], data, **call_options(v)) == v["fingerprint"]
    assert fingerprint_json(v["name"], bytearray(data), **call_options(v)) == v["fingerprint"]
    assert fingerprint_json(v["name"], memoryview(data), **call_options(v)) == v["fingerprint"]
    if not _selected(v):
        assert canonicalize_json(data) == v["canonical"]


def test_every_decision_is_covered():
    seen = {v["decision"] for v in VECTORS}
    assert {"D%d" % i for i in range(1, 20)} <= seen | {"D16"}
