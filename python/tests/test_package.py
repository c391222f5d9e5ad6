"""The installed package: the shipped wasm bytes, the namespace package, the API,
the wasmtime layer, and traps (which must never reach the user as such).
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
    import wasmtime  # the wasmtime package's own classes, independent of _wasmtime.py
    store = wasmtime.Store()
    ex = wasmtime.Instance(store, wasmtime.Module(store.engine, _core.wasm_bytes()), []).exports(store)
    assert ex["FINGERPRINT_VERSION"].value(store) == 1 == ex["version"](store)
    assert _core.instance().checked(_core.instance().func("version")) == 1


def _swap_instance(new):
    old = _core._local.__dict__.get("inst")
    _core._local.inst = new
    _core._local.__dict__.pop("plain", None)  # the thread's plain function is bound to its instance
    _core._local.__dict__.pop("value", None)
    return old


def _restore(old):
    _core._local.__dict__.pop("plain", None)
    _core._local.__dict__.pop("value", None)
    if old is None:
        _core._local.__dict__.pop("inst", None)
    else:
        _core._local.inst = old


def test_the_sdk_never_imports_the_wasmtime_package_s_classes():
    # _wasmtime.py calls the native library the wasmtime package ships: importing the package's
    # Python side costs ~33 ms of every process. Every entry point, in a fresh process.
    program = r"""
import io, json, sys
import overturn.fingerprint as fp
from overturn.fingerprint import _cli
out = [fp.fingerprint("t", {"a": [1, 2]}), fp.fingerprint_json("t", '{"a":[1,2]}'), fp.canonical_json({"b": 1})]
out += fp.fingerprint_batch([{"name": "t", "args": {"a": [1, 2]}}] * 3)
out.append(fp.fingerprint_call({"type": "function", "function": {"name": "t", "arguments": '{"a": [1, 2]}'}}))
rec = fp.Recording.loads('{"name": "t", "args": {"a": [1, 2]}, "result": 7}\n')
out.append(rec.answer({"name": "t", "args": {"a": [1, 2]}})["value"]["result"])
sys.stdin = io.TextIOWrapper(io.BytesIO(b'{"name": "t", "args": {"a": [1, 2]}}\n'))
_cli.main(["-"])
sys.stdout.flush()
print(json.dumps({"out": out, "wasmtime": sorted(m for m in sys.modules if m.split(".")[0] == "wasmtime")}), file=sys.stderr)
"""
    import json
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
    got = dict(json.loads(run.stderr), cli=run.stdout)
    want = hashlib.sha256(b"tool_call\nt\n{\"a\":[1,2]}").hexdigest()  # the contract's preimage, by hand
    assert got["out"] == [want, want, '{"b":1}', want, want, want, want, 7]
    assert got["cli"].split() == [want, "t"]
    assert got["wasmtime"] == []


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


def _trapping_module():
    import wasmtime  # the wasmtime package's wat2wasm, as a test tool
    from overturn.fingerprint import _wasmtime
    return _wasmtime.Module.compile(_wasmtime.engine(), wasmtime.wat2wasm(TRAP_WAT % ABI_ID))


def test_traps_become_fingerprint_errors():
    from overturn.fingerprint._wasmtime import WasmError
    fake = _trapping_module()
    first = _core._Instance(fake)
    old = _swap_instance(first)
    try:
        with pytest.raises(FingerprintError) as e:
            fp.canonicalize_json("[1, 2]")
        assert e.value.code == "internal-error"
        assert "core failed" in str(e.value) and "unreachable" in str(e.value)
        assert not isinstance(e.value, WasmError)
        # The trapping instance was dropped (the error's wording may have made a real one); the next call runs on a real one.
        assert _core._local.__dict__.get("inst") is not first
        assert fp.canonicalize_json("[1, 2]") == "[1,2]"
        # The value path's plain function meets the trap too: the trapping
        # instance is dropped and the full path answers on a fresh one.
        trapping = _core._Instance(fake)
        _swap_instance(trapping)
        want = hashlib.sha256(b"tool_call\nt\n{\"a\":[1,2]}").hexdigest()  # the contract's preimage, by hand
        assert fp.fingerprint("t", {"a": [1, 2]}) == want
        assert _core._local.__dict__.get("inst") is not trapping
        _swap_instance(_core._Instance(fake))
        with pytest.raises(FingerprintError) as e:
            fp.canonicalize_json("1")  # request of 25 bytes: infinite recursion
        assert e.value.code == "too-deep"
        assert fp.canonicalize_json("1") == "1"
    finally:
        _restore(old)


def test_the_wasmtime_layer_names_missing_exports_and_keeps_handles():
    from overturn.fingerprint import _wasmtime
    w = _wasmtime.Instance(_trapping_module())
    assert w.func("run") is w.func("run")  # a handle asked twice is the same (one a caller holds stays valid)
    assert w.call(w.func("reserve"), 5) == 1024 and w.call(w.func("abiId")) == ABI_ID
    with pytest.raises(_wasmtime.WasmError, match="no function export 'nope'"):
        w.func("nope")
    with pytest.raises(_wasmtime.WasmError, match="no function export 'memory'"):
        w.func("memory")  # a memory is not a function
    with pytest.raises(_wasmtime.WasmError) as e:
        w.call(w.func("run"), 25)
    assert e.value.stack_overflow
    with pytest.raises(_wasmtime.WasmError) as e:
        w.call(w.func("run"), 1)
    assert not e.value.stack_overflow and "unreachable" in str(e.value)
    assert w.call(w.func("version")) == 1  # the store still answers after traps
    assert len(w.view()) == 2 * 65536 == w.memory_size()


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
    def broken(self, module=None):
        raise RuntimeError("no wasm here")

    old = _core._local.__dict__.pop("inst", None)
    _core._local.__dict__.pop("plain", None)
    _core._local.__dict__.pop("value", None)
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
    from overturn.fingerprint import _api
    package = doctest.testmod(fp, optionflags=doctest.ELLIPSIS)
    assert package.attempted >= 2 and package.failed == 0
    result = doctest.testmod(_api, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 5 and result.failed == 0
