"""The common value call's per-thread function (_value.py): what it binds
once must never hide what changes between calls — the configured settings,
the name, the limits the instance was told — and every other case answers
as the general path does. Oracle: python/bench/reference.py."""
from __future__ import annotations

import math
from datetime import datetime, timezone
from typing import Any, Iterator

import pytest

from _support import load_reference
from overturn.fingerprint import FingerprintError, Limits, canonical_json, configure, fingerprint
from overturn.fingerprint import _core, _limits

ref = load_reference()
VALUES: Any = [{"q": " cats ", "n": [1, 2.5, None]}, [], "x", 7, {"t": ("a", "b")}, {"a": {"b": {"c": [True]}}}]


def unbind() -> None:
    _core._local.__dict__.pop("plain", None)
    _core._local.__dict__.pop("value", None)


@pytest.fixture
def no_limits() -> Iterator[None]:
    saved = _limits.active  # the settings as they were, not a stand-in for them: later tests see the defaults
    yield
    _limits.active = saved


def test_names_alternate_and_each_keeps_its_own_literal() -> None:
    class Name(str):
        def __hash__(self) -> int:
            return 1

    for round_ in range(3):
        for name in ["search", "lookup", "search", Name("other"), "s" * 300, "é😀"]:
            for v in VALUES:
                assert fingerprint(name, v) == ref.fingerprint(str.__str__(name), v), (round_, name, v)
    for bad in ["", 5, None, b"search", "\ud800"]:
        with pytest.raises(FingerprintError) as e:
            fingerprint(bad, {})  # type: ignore[arg-type]
        assert e.value.code in ("bad-name", "invalid-argument")


def test_configured_limits_are_seen_by_the_next_call(no_limits: None) -> None:
    v = {"a": {"b": {"c": 1}}}
    want = ref.fingerprint("t", v)
    assert fingerprint("t", v) == want
    configure(limits=Limits(max_depth=2))
    with pytest.raises(FingerprintError) as e:
        fingerprint("t", v)
    assert e.value.code == "limit-exceeded"
    with pytest.raises(FingerprintError):
        fingerprint("t", v, limits={"max_depth": 3})  # a call's own limits only tighten
    configure(limits=Limits(max_depth=3))
    assert fingerprint("t", v) == want  # the instance told the new limits
    configure(limits=Limits(max_depth=2))
    with pytest.raises(FingerprintError):
        fingerprint("t", v)  # and the configured ones again, on the same instance
    configure(limits=Limits(max_depth=math.inf, max_input_bytes=10))
    with pytest.raises(FingerprintError) as e:
        fingerprint("t", v)  # the byte limit: the text path, which knows the text's size
    assert e.value.code == "limit-exceeded" and "maxInputBytes" in str(e.value)
    configure(limits=Limits(max_input_bytes=math.inf))
    assert fingerprint("t", v) == want


def test_values_marshal_refuses_and_large_values_take_their_paths() -> None:
    when = datetime(2024, 5, 6, 7, 8, 9, 123456, tzinfo=timezone.utc)
    assert fingerprint("t", {"when": when}) == ref.fingerprint("t", {"when": when})
    big = {"rows": [{"i": i, "s": "x" * 50} for i in range(3000)]}  # past the input region bound at first use
    assert fingerprint("t", big) == ref.fingerprint("t", big)
    with pytest.raises(FingerprintError) as e:
        fingerprint("t", {"s": {1, 2}})
    assert e.value.code == "unsupported-value" and e.value.path == "args.s"
    assert fingerprint("t", {"n": 2**70}) == ref.fingerprint("t", {"n": 2**70})


def test_an_instance_without_the_shortcuts_answers_alike() -> None:
    st = _core.instance()
    unbind()
    st.fast = False
    try:
        for v in VALUES + [{"when": datetime(2024, 1, 1)}, [[1]] * 3]:
            assert fingerprint("t", v) == ref.fingerprint("t", v)
            assert canonical_json(v) == ref.canonical_json(v)
    finally:
        st.fast = True
        unbind()
    assert fingerprint("t", VALUES[0]) == ref.fingerprint("t", VALUES[0])
