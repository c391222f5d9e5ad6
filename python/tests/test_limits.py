"""Limits: maxInputBytes, maxDepth, maxMembers — configured and per call.

Expected digests come from hashlib over canonical text written here by hand
(``oracle_digest``); expected messages are the core's one wording (the
oracle's: test/reference/limits.mjs), and are also compared with the
TypeScript SDK itself, run in one node process for all cases (skipped
without node). Every entry point: test_limits_vectors.py.
"""
from __future__ import annotations

import json
import math
import subprocess

import pytest

from _support import oracle_digest
from overturn.fingerprint import (
    FingerprintError, Limits, canonical_json, canonicalize_json, configure, fingerprint, fingerprint_json,
)
from overturn.fingerprint import _core, _limits
from test_parity import ts_bundle  # noqa: F401  (the fixture: the TypeScript SDK bundle)

NO = math.inf


@pytest.fixture(autouse=True)
def fresh_settings():
    """Every test starts and ends with the defaults (no limits, 64 MiB retained)."""
    saved = _limits.active
    yield
    _limits.active = saved


def nested(depth: int) -> str:
    return "[" * depth + "1" + "]" * depth


def members(k: int) -> str:
    return "{" + ",".join('"k%d":%d' % (i, i) for i in range(k)) + "}"


def limit_error(fn, *a, **kw) -> FingerprintError:
    with pytest.raises(FingerprintError) as e:
        fn(*a, **kw)
    assert e.value.code == "limit-exceeded", e.value
    return e.value


# --- validation ---------------------------------------------------------------

@pytest.mark.parametrize("bad", [-1, 1.5, float("nan"), -math.inf, True, "10", [1]])
def test_bad_limit_values_are_invalid_argument(bad):
    for field in ("max_input_bytes", "max_depth", "max_members"):
        with pytest.raises(FingerprintError) as e:
            Limits(**{field: bad})
        assert e.value.code == "invalid-argument" and field in str(e.value)
        with pytest.raises(FingerprintError) as e:
            fingerprint("t", 1, limits={field: bad})
        assert e.value.code == "invalid-argument"
    if bad != 1.5:  # retain_memory_bytes is any non-negative number, as retainMemoryBytes is
        with pytest.raises(FingerprintError) as e:
            configure(retain_memory_bytes=bad)
        assert e.value.code == "invalid-argument"


@pytest.mark.parametrize("bad", [{"maxDepth": 3}, {"max_depth": 3, "depth": 1}, 3, "max_depth", [("max_depth", 3)]])
def test_bad_limits_objects_are_invalid_argument(bad):
    with pytest.raises(FingerprintError) as e:
        fingerprint_json("t", "1", limits=bad)
    assert e.value.code == "invalid-argument"
    with pytest.raises(FingerprintError) as e:
        configure(limits=bad)
    assert e.value.code == "invalid-argument"
    assert _limits.active.limits == Limits()  # a failed configure changes nothing


def test_limits_is_a_frozen_value():
    lim = Limits(max_depth=3)
    with pytest.raises(Exception):
        lim.max_depth = 4  # type: ignore[misc]
    assert lim == Limits(None, 3, None) and hash(lim) == hash(Limits(max_depth=3))


# --- behaviour at the boundaries ------------------------------------------------

def test_depth_limit_boundary_text_and_value():
    want = oracle_digest("tool_call", "t", nested(10))
    assert fingerprint_json("t", nested(10), limits={"max_depth": 10}) == want
    assert fingerprint("t", json.loads(nested(10)), limits=Limits(max_depth=10)) == want
    e = limit_error(fingerprint_json, "t", nested(11), limits={"max_depth": 10})
    assert e.offset == 10
    assert str(e) == "limit exceeded: nesting deeper than the maxDepth limit at byte 10 (maxDepth is 10)"
    e = limit_error(fingerprint, "t", json.loads(nested(11)), limits={"max_depth": 10})
    assert e.offset is None  # an offset into text the caller never saw is not given
    assert str(e) == "limit exceeded: nesting deeper than the maxDepth limit (maxDepth is 10)"


def test_members_limit_boundary_and_duplicates_count():
    want = oracle_digest("tool_call", "t", members(10))
    assert fingerprint_json("t", members(10), limits={"max_members": 10}) == want
    assert fingerprint("t", json.loads(members(10)), limits={"max_members": 10}) == want
    limit_error(fingerprint_json, "t", members(11), limits={"max_members": 10})
    limit_error(fingerprint, "t", json.loads(members(11)), limits={"max_members": 10})
    # Duplicate keys cost sorting: they count, though the last one wins (D13).
    limit_error(fingerprint_json, "t", '{"a":1,"a":2,"a":3}', limits={"max_members": 2})
    assert fingerprint_json("t", '{"a":1,"a":2,"a":3}', limits={"max_members": 3}) == \
        oracle_digest("tool_call", "t", '{"a":3}')
    # Arrays are not objects: members does not cap their length.
    assert canonicalize_json("[" + ",".join("1" * 50) + "]") == "[" + ",".join("1" * 50) + "]"
    assert fingerprint_json("t", "[1,2,3]", limits={"max_members": 1}) == oracle_digest("tool_call", "t", "[1,2,3]")


def test_byte_limit_boundary_all_input_types():
    text = '{"q":"' + "x" * 92 + '"}'  # 100 bytes
    assert len(text) == 100
    want = oracle_digest("tool_call", "t", text)
    over = "limit exceeded: input larger than the maxInputBytes limit (maxInputBytes is 99)"
    for form in (text, text.encode(), bytearray(text.encode()), memoryview(text.encode())):
        assert fingerprint_json("t", form, limits={"max_input_bytes": 100}) == want
        e = limit_error(fingerprint_json, "t", form, limits={"max_input_bytes": 99})
        assert str(e) == over and e.offset is None
    # A str within the limit by characters but over it in UTF-8: the same one message.
    e = limit_error(fingerprint_json, "t", '"' + "é" * 60 + '"', limits={"max_input_bytes": 100})
    assert str(e) == over.replace("99", "100")
    # The value path counts the JSON text the value becomes: {"q":"xx…"} is 100 bytes too.
    value = {"q": "x" * 92}
    assert fingerprint("t", value, limits={"max_input_bytes": 100}) == want
    e = limit_error(fingerprint, "t", value, limits={"max_input_bytes": 99})
    assert str(e) == over


def test_no_more_than_the_byte_limit_is_copied_in():
    # Over the limit, only its first limit + 1 bytes go in (the core refuses them by their length).
    fingerprint_json("t", "1")
    st = _core.instance()
    st.refresh()
    before = len(st.view)
    big = "[" + "1," * 4_000_000 + "1]"  # 8 MB: would grow memory far past the 64 KiB input region
    for form in (big, big.encode()):
        limit_error(fingerprint_json, "t", form, limits={"max_input_bytes": 32 << 10})
    limit_error(fingerprint, "t", [1] * 4_000_000, limits={"max_input_bytes": 32 << 10})
    assert _core.instance() is st
    st.refresh()
    assert len(st.view) == before


# --- configured vs per call -----------------------------------------------------

def test_configure_merges_and_per_call_limits_only_tighten():
    configure(limits={"max_depth": 3})
    configure(limits=Limits(max_members=2))  # keeps max_depth
    limit_error(fingerprint_json, "t", nested(4))
    limit_error(canonicalize_json, '{"a":1,"b":2,"c":3}')
    limit_error(canonical_json, [[[[1]]]])
    # A call's own limit can only tighten: looser, None or math.inf keep the configured one.
    for own in (4, None, NO):
        limit_error(fingerprint_json, "t", nested(4), limits={"max_depth": own})
    limit_error(fingerprint_json, "t", nested(3), limits={"max_depth": 2})
    limit_error(fingerprint_json, "t", '{"a":1,"b":2,"c":3}', limits={"max_depth": 4})  # members still configured
    assert canonicalize_json(nested(3)) == nested(3)
    # configure's math.inf lifts a configured limit.
    configure(limits=Limits(NO, NO, NO))
    assert canonicalize_json(nested(50)) == nested(50)
    assert _limits.active.core == (_limits.NO_LIMIT,) * 6


def test_limits_are_sent_only_when_changed(monkeypatch):
    fingerprint_json("t", "1")
    st = _core.instance()
    sent = []
    real = st.checked
    monkeypatch.setattr(st, "checked", lambda fn, *a: (sent.append(a) if fn is st.limits_addr else None, real(fn, *a))[1])
    for _ in range(5):
        fingerprint_json("t", "[1]")
    assert sent == []
    N = _limits.NO_LIMIT
    for _ in range(5):
        fingerprint_json("t", "[1]", limits={"max_depth": 5})
    # The configured limits, then the call's own (the core takes the smaller of each).
    assert sent == [(N, N, N, N, 5, N)]  # told once: equal limits are not sent again
    fingerprint_json("t", "[1]")
    assert sent[-1] == (N,) * 6
    # Huge values are the core's "none" (u32).
    fingerprint_json("t", "[1]", limits={"max_depth": 1 << 40, "max_members": 7})
    assert sent[-1] == (N, N, N, N, N, 7)


def test_a_new_instance_is_told_the_configured_limits():
    configure(limits={"max_depth": 2})
    limit_error(fingerprint_json, "t", nested(3))
    _core._forget(_core._local.inst)  # as after a retirement
    limit_error(fingerprint_json, "t", nested(3))


# --- messages: the TypeScript SDK's, byte for byte ------------------------------

MESSAGE_CASES = [
    # (JSON text, limits in TS spelling)
    (nested(11), {"maxDepth": 10}),
    ("[" * 20, {"maxDepth": 3}),
    (members(71), {"maxMembers": 70}),
    ('{"a":{"b":1,"c":2}}', {"maxMembers": 1}),
    ("x" * 2000, {"maxInputBytes": 1000}),
    ('"' + "é" * 600 + '"', {"maxInputBytes": 1000}),
    ('"' + "\U0001F600" * 300 + '"', {"maxInputBytes": 601}),   # UTF-16 units 602 > 601 ≥ code points 302
    ('"' + "\U0001F600" * 300 + '"', {"maxInputBytes": 1000}),  # 1202 UTF-8 bytes
    ('"' + "\U0001F600" * 300 + '"', {"maxInputBytes": 301}),
    (nested(5), {"maxInputBytes": 0}),
    # Over 64 Ki characters: the str is encoded in pieces (_core._call, _pieces), same words.
    ('"' + "é" * 70_000 + '"', {"maxInputBytes": 100_000}),          # 140,002 UTF-8 bytes
    ('"' + "\U0001F600" * 40_000 + '"', {"maxInputBytes": 70_000}),  # 80,002 UTF-16 units
    ("[" + "1," * 50_000 + "1]", {"maxInputBytes": 100_000}),
]

def test_messages_match_typescript(ts_bundle, monkeypatch):  # noqa: F811
    from overturn.fingerprint import _core
    monkeypatch.setattr(_core, "_SMALL_TEXT", 1 << 16)  # the cases over 64 Ki characters take the pieces
    script = (
        'import { pathToFileURL } from "node:url";\n'
        'import { readFileSync } from "node:fs";\n'
        "const sdk = await import(pathToFileURL(process.argv[1]).href);\n"
        'const cases = JSON.parse(readFileSync(0, "utf8"));\n'
        "const out = cases.map(([text, limits, bytes]) => {\n"
        "  try { sdk.fingerprintJSON('t', bytes ? new TextEncoder().encode(text) : text, { limits }); return null; }\n"
        "  catch (e) { return [e.code, e.message]; }\n"
        "});\n"
        "const values = cases.map(([text, limits]) => {\n"
        "  if ('maxInputBytes' in limits) return null;\n"
        "  let v; try { v = JSON.parse(text); } catch { return null; }\n"
        "  try { sdk.fingerprint('t', v, { limits }); return 'ok'; } catch (e) { return [e.code, e.message]; }\n"
        "});\n"
        "out.push(values);\n"
        "process.stdout.write(JSON.stringify(out));\n")
    cases = [[t, lim, b] for t, lim in MESSAGE_CASES for b in (False, True)]
    proc = subprocess.run(["node", "--input-type=module", "-e", script, str(ts_bundle)], input=json.dumps(cases),
                          capture_output=True, text=True, timeout=60, check=True)
    ts = json.loads(proc.stdout)
    ts_values = ts.pop()
    names = {"maxDepth": "max_depth", "maxMembers": "max_members", "maxInputBytes": "max_input_bytes"}
    for (text, lim, as_bytes), want in zip(cases, ts):
        py_limits = {names[k]: v for k, v in lim.items()}
        with pytest.raises(FingerprintError) as e:
            fingerprint_json("t", text.encode("utf-8") if as_bytes else text, limits=py_limits)
        assert want is not None, (text[:30], lim)
        assert [e.value.code, str(e.value)] == want, (text[:30], lim, as_bytes)
    # The value path, for the depth and member limits (the byte limit counts different bytes by design).
    checked = 0
    for (text, lim, _), want in zip(cases, ts_values):
        if want is None:
            continue
        assert want != "ok", (text[:30], lim)
        with pytest.raises(FingerprintError) as e:
            fingerprint("t", json.loads(text), limits={names[k]: v for k, v in lim.items()})
        assert [e.value.code, str(e.value)] == want, (text[:30], lim)
        checked += 1
    assert checked >= 6


def test_strided_and_typed_buffers_are_read_as_their_bytes():
    strided = memoryview(b"[[11,,22]]")[::2]  # bytes 0, 2, 4, 6, 8: "[1,2]"
    assert not strided.c_contiguous
    assert fingerprint_json("t", strided) == oracle_digest("tool_call", "t", "[1,2]")
    limit_error(fingerprint_json, "t", strided, limits={"max_input_bytes": 4})
    import array
    words = memoryview(array.array("B", b'{"a": 1}')).cast("B", (2, 4))  # 2-D, C-contiguous
    assert fingerprint_json("t", words) == oracle_digest("tool_call", "t", '{"a":1}')


def test_threads_alternating_limits_each_get_their_own():
    import threading
    want = oracle_digest("tool_call", "t", nested(4))
    errors = []

    def work(k: int) -> None:
        try:
            for i in range(300):
                if (i + k) % 2:
                    limit_error(fingerprint_json, "t", nested(4), limits={"max_depth": 3})
                else:
                    assert fingerprint_json("t", nested(4)) == want
        except BaseException as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors, errors[0]
