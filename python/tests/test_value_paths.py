"""The path of a refused value is written by the core (abi.ts F_PATH) from
the keys and indices the host sends; expected paths are built here by D15's
rule (an identifier key as ``.key``, any other as its JSON literal in
brackets, ``json.dumps``), independent of the SDK."""
from __future__ import annotations

import json
import re

import pytest

from overturn.fingerprint import FingerprintError, canonical_json, fingerprint

_IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*\Z")


def expected(*at: object) -> str:
    out = "args"
    for s in at:
        if isinstance(s, int):
            out += "[%d]" % s
        else:
            out += "." + s if _IDENT.match(s) else "[%s]" % json.dumps(s, ensure_ascii=False)
    return out


KEYS = ["a b", "", "1a", "a1", "$_x9", "é", "a\nb", 'q"\\', "\x01\x1f\x7f", "😀", "\u2028", "a.b", "[0]"]


@pytest.mark.parametrize("key", KEYS)
def test_a_key_that_may_need_quoting(key: str) -> None:
    value = {"outer": [0, {key: [1, 2, {1}]}]}
    with pytest.raises(FingerprintError) as e:
        canonical_json(value)
    assert e.value.code == "unsupported-value"
    assert e.value.path == expected("outer", 1, key, 2)
    assert str(e.value) == ("cannot fingerprint a value of type set at %s: only dict, list, tuple, str, int, float, "
                            "bool, None, datetime and date are allowed (D16)" % e.value.path)


def test_a_lone_surrogate_key_is_escaped_as_json_stringify_escapes_it() -> None:
    with pytest.raises(FingerprintError) as e:
        canonical_json({"a\ud800": {1}})
    assert e.value.path == 'args["a\\ud800"]'


def test_a_long_path_is_whole_under_a_byte_limit_of_the_call() -> None:
    v: object = [{1}]
    for _ in range(300):
        v = {"k k": v}
    with pytest.raises(FingerprintError) as e:
        fingerprint("t", v, limits={"max_input_bytes": 5})
    assert e.value.path == expected(*(["k k"] * 300), 0)


def test_a_key_type_error_names_the_object_that_holds_the_key() -> None:
    with pytest.raises(FingerprintError) as e:
        canonical_json({"x": [{(1, 2): 3}]})
    assert e.value.path == "args.x[0]"
    assert "dict key of type tuple in the object at args.x[0]" in str(e.value)
