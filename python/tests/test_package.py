"""The installed package: the shipped wasm bytes, the namespace package, the API,
both wasmtime call paths, and traps (which must never reach the user as such).
"""
from __future__ import annotations

import hashlib
from importlib import resources
from pathlib import Path

import pytest

import overturn
import overturn.fingerprint as fp
from _support import WASM_SHA256, load_vectors
from overturn.fingerprint import FingerprintError, _core
from overturn.fingerprint._abi import ABI_ID

KNOWN = [v for v in load_vectors()["vectors"] if "fingerprint" in v and "argsJSON" in v][:40]


def test_installed_wasm_is_the_committed_build():
    want = WASM_SHA256.read_text(encoding="ascii").split()[0]
    shipped = resources.files("overturn.fingerprint").joinpath("fingerprint.wasm").read_bytes()
    assert hashlib.sha256(shipped).hexdigest() == want, \
        "the installed package carries a different fingerprint.wasm: reinstall ./python"
    assert _core.wasm_bytes() == shipped
    recorded = resources.files("overturn.fingerprint").joinpath("fingerprint.wasm.sha256").read_text("ascii")
    assert recorded.split()[0] == want


def test_overturn_is_a_namespace_package():
    assert getattr(overturn, "__file__", None) is None
    for where in overturn.__path__:
        assert not (Path(where) / "__init__.py").exists()


def test_public_api():
    assert fp.FINGERPRINT_VERSION == 1
    assert set(fp.__all__) == {"FINGERPRINT_VERSION", "FingerprintError", "Limits", "canonical_json",
                               "canonicalize_json", "configure", "fingerprint", "fingerprint_json", "explain",
                               "fingerprint_batch", "fingerprint_batch_json",
                               "explain_json", "explain_call", "explain_calls", "diff", "nearest",
                               "fingerprint_call", "Recording"}
    assert issubclass(FingerprintError, ValueError)
    assert resources.files("overturn.fingerprint").joinpath("py.typed").is_file()
    assert isinstance(fp.__version__, str)


def test_wasm_exports_version_1():
    inst = _core.instance()
    ex = inst.instance.exports(inst.store)
    assert ex["FINGERPRINT_VERSION"].value(inst.store) == 1


def _swap_instance(new):
    old = _core._local.__dict__.get("inst")
    _core._local.inst = new
    _core._local.__dict__.pop("plain", None)  # the thread's plain function is bound to its instance
    return old


def _restore(old):
    _core._local.__dict__.pop("plain", None)
    if old is None:
        _core._local.__dict__.pop("inst", None)
    else:
        _core._local.inst = old


def test_checked_call_path_gives_the_same_results():
    old = _swap_instance(_core._Instance(low_level=False))
    try:
        assert _core._local.inst.low is None
        for v in KNOWN:
            assert fp.fingerprint_json(v["name"], v["argsJSON"], match_on=v.get("matchOn"),
                                       ignore_args=v.get("ignoreArgs"), kind=v.get("kind", "tool_call")) \
                == v["fingerprint"], v["id"]
        with pytest.raises(FingerprintError) as e:
            fp.canonicalize_json("[1,")
        assert e.value.code == "unexpected-end"
        assert fp.canonicalize_json("[" * 5000 + "]" * 5000).startswith("[[[")  # grows memory
    finally:
        _restore(old)


def test_large_input_grows_the_input_region():
    text = '{"a":"%s"}' % ("x" * 3_000_000)
    assert fp.canonicalize_json(text) == text
    assert fp.canonicalize_json(b"[1]") == "[1]"


# A stand-in module with the core's exports (and ABI identity), whose run() traps.
TRAP_WAT = """
(module
  (memory (export "memory") 2)
  (func (export "reserve") (param i32) (result i32) i32.const 1024)
  (func (export "result") (result i32) i32.const 0)
  (func (export "version") (result i32) i32.const 1)
  (func (export "abiId") (result i32) i32.const %d)
  (func (export "limits") (param i32 i32))
  (func $deep (param i32) (result i32) (call $deep (i32.add (local.get 0) (i32.const 1))))
  (func (export "run") (param i32) (result i32)
    (if (i32.eq (local.get 0) (i32.const 25)) (then (return (call $deep (i32.const 0)))))
    unreachable)
  (global (export "FINGERPRINT_VERSION") i32 (i32.const 1)))
"""


@pytest.mark.parametrize("low_level", [True, False])
def test_traps_become_fingerprint_errors(low_level):
    import wasmtime
    real = _core._compiled()
    w, engine, _, low, fixed = real
    fake = (w, engine, wasmtime.Module(engine, wasmtime.wat2wasm(TRAP_WAT % ABI_ID)), low, fixed)
    _core._module = fake
    try:
        old = _swap_instance(_core._Instance(low_level=low_level))
    finally:
        _core._module = real
    try:
        with pytest.raises(FingerprintError) as e:
            fp.canonicalize_json("[1, 2]")
        assert e.value.code == "internal-error"
        assert "trapped" in str(e.value)
        assert not isinstance(e.value, wasmtime.WasmtimeError)
        # The trapping instance was dropped; the next call makes a real one.
        assert "inst" not in _core._local.__dict__
        assert fp.canonicalize_json("[1, 2]") == "[1,2]"
        # The value path's plain function meets the trap too: the trapping
        # instance is dropped and the full path answers on a fresh one.
        _core._module = fake
        trapping = _core._Instance(low_level=low_level)
        _swap_instance(trapping)
        _core._module = real
        want = hashlib.sha256(b"tool_call\nt\n{\"a\":[1,2]}").hexdigest()  # the contract's preimage, by hand
        assert fp.fingerprint("t", {"a": [1, 2]}) == want
        assert _core._local.__dict__.get("inst") is not trapping
        _core._module = fake
        _swap_instance(_core._Instance(low_level=low_level))
        _core._module = real
        with pytest.raises(FingerprintError) as e:
            fp.canonicalize_json("1")  # request of 25 bytes: infinite recursion
        assert e.value.code == "too-deep"
        assert fp.canonicalize_json("1") == "1"
    finally:
        _core._module = real
        _restore(old)


def test_reentered_call_gets_its_own_instance():
    v = KNOWN[0]
    st = _core.instance()
    st.busy = True  # as if a call on this thread were half-way through writing its request
    try:
        p = st.in_ptr
        before = bytes(st.view[p:p + 64])
        assert fp.fingerprint_json(v["name"], v["argsJSON"]) == v["fingerprint"]
        assert bytes(st.view[p:p + 64]) == before  # the outer call's request is untouched
    finally:
        st.busy = False
    assert fp.fingerprint_json(v["name"], v["argsJSON"]) == v["fingerprint"]


def test_load_failures_are_fingerprint_errors(monkeypatch):
    def broken(self, low_level=True):
        raise RuntimeError("no wasm here")

    old = _core._local.__dict__.pop("inst", None)
    _core._local.__dict__.pop("plain", None)
    monkeypatch.setattr(_core._Instance, "__init__", broken)
    try:
        with pytest.raises(FingerprintError) as e:
            fp.canonical_json(1)
        assert e.value.code == "internal-error" and "no wasm here" in str(e.value)
    finally:
        monkeypatch.undo()
        _restore(old)
    assert fp.canonical_json(1) == "1"


def test_docstring_examples():
    import doctest
    result = doctest.testmod(fp, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 5 and result.failed == 0
