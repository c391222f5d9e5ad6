"""Test helpers (internal): repository paths, the shared vectors and their tags.

The tag format is the one ``test/vectors-decode.mjs`` reads: any JSON value
stands for itself, except an object whose only meaning is a ``"$ov"`` tag:
``undefined`` (Python: the member/element is absent; None at top level),
``NaN``/``Infinity``/``-Infinity``/``-0`` (floats), ``date`` (an aware UTC
datetime), ``object`` (a dict from ``entries``, the way to spell a "$ov" key).
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Dict, List

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "vectors" / "fingerprint.vectors.json"
REJECT = ROOT / "vectors" / "reject.jsonl"
WASM_SHA256 = ROOT / "build" / "fingerprint.wasm.sha256"
REFERENCE_PY = ROOT / "python" / "bench" / "reference.py"


def load_reference() -> Any:
    """python/bench/reference.py, the pure-Python oracle (independent of the SDK)."""
    spec = importlib.util.spec_from_file_location("overturn_reference", REFERENCE_PY)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class Unrepresentable(Exception):
    """A tagged value with no Python equivalent (e.g. a Date outside datetime's years)."""


ABSENT = object()


def load_vectors() -> Dict[str, Any]:
    with open(VECTORS, encoding="utf-8") as f:
        return json.load(f)


def load_reject() -> List[Dict[str, str]]:
    with open(REJECT, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def decode_tagged(v: Any) -> Any:
    """The Python host value a tagged vector value stands for."""
    out = _decode(v)
    return None if out is ABSENT else out


def _decode(v: Any) -> Any:
    if isinstance(v, list):
        items = [_decode(x) for x in v]
        return [x for x in items if x is not ABSENT]
    if not isinstance(v, dict):
        return v
    if "$ov" in v:
        return _tag(v)
    return _from_entries(v.items())


def _from_entries(entries: Any) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for k, val in entries:
        x = _decode(val)
        if x is ABSENT:
            out.pop(k, None)  # a later undefined member hides an earlier one
        else:
            out[k] = x
    return out


def _tag(v: Dict[str, Any]) -> Any:
    t = v["$ov"]
    if t == "undefined":
        return ABSENT
    if t in ("NaN", "Infinity", "-Infinity"):
        return float(t.lower().replace("infinity", "inf"))
    if t == "-0":
        return -0.0
    if t == "date":
        iso = v["iso"]
        if not (len(iso) == 24 and iso.endswith("Z")):
            raise Unrepresentable(iso)
        return datetime.strptime(iso[:-1] + "000", "%Y-%m-%dT%H:%M:%S.%f").replace(tzinfo=timezone.utc)
    if t == "object":
        return _from_entries(v["entries"])
    raise ValueError("unknown tag %r" % (t,))


def call_options(case: Dict[str, Any]) -> Dict[str, Any]:
    """Keyword options of fingerprint()/fingerprint_json() for a vector-shaped case (camelCase keys)."""
    o: Dict[str, Any] = {}
    if "kind" in case:
        o["kind"] = case["kind"]
    if "matchOn" in case:
        o["match_on"] = case["matchOn"]
    if "ignoreArgs" in case:
        o["ignore_args"] = case["ignoreArgs"]
    return o


def oracle_digest(kind: str, name: str, canonical: str) -> str:
    """hashlib's SHA-256 of kind "\\n" name "\\n" canonical (D17, D18)."""
    text = kind + "\n" + name + "\n" + canonical
    # A two-char surrogate pair in a Python str is one code point (UTF-16 reading, D14).
    text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
