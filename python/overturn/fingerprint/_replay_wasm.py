"""Transport for a recording (``_replay.py``): its own instance of the
diagnostics module, whose linear memory keeps the index
(``assembly/replay.ts``, F_REPLAY). Bytes in, the core's text out; nothing is
parsed or decided here. Internal; the TypeScript twin is ``src/_replay_wasm.ts``.

Calls go through wasmtime's unchecked C call and a memoryview over linear
memory, as ``_core.py`` does for the fingerprint module (its module comment
has the measurements): wasmtime-py's checked ``Func.__call__`` and
``Memory.read``/``write`` cost ~80 µs per answer. Without the low-level
symbols (or with ``OVERTURN_FINGERPRINT_PUBLIC_API=1``) the checked path runs.
"""
from __future__ import annotations

import ctypes
import struct
import threading
from typing import Any, Optional

from ._abi import (F_REPLAY, F_STRING_INPUT, R_ANSWER, R_LOAD, R_TOOLS, R_UNUSED, RESULT_STATUS)
from . import _core
from ._diagnostics_wasm import _HEADER, _RESULT, _Instance, run_request
from ._errors import FingerprintError, core_error

_OP = struct.Struct("<II")  # the kind part: op, argument


class ReplayCore:
    def __init__(self) -> None:
        try:
            self._st = _Instance()
        except FingerprintError:
            raise
        except Exception as e:  # a wasmtime failure never leaks as such
            raise FingerprintError("internal-error", "could not load the diagnostics core: %s" % e) from e
        self._broken = False
        self._lock = threading.Lock()  # one store, not to be entered by two threads at once
        self._low: Optional[Any] = None
        low = _core._compiled()[3]
        if low is not None:
            try:
                self._bind(low)
                self._low = low
            except (AttributeError, TypeError, ctypes.ArgumentError):  # pragma: no cover - private layout changed
                self._low = None

    def _bind(self, low: Any) -> None:
        """Addresses and buffers for wasmtime_func_call_unchecked, made once (as _core._Instance does)."""
        st = self._st
        self._ctx = ctypes.c_void_p(ctypes.cast(st.store._context(), ctypes.c_void_p).value)
        self._mem = ctypes.addressof(st.memory._memory)
        self._raw = (low.val_raw * 1)()
        self._raw_addr = ctypes.c_void_p(ctypes.addressof(self._raw))
        self._slot = ctypes.c_int32.from_address(ctypes.addressof(self._raw))
        self._trap = ctypes.c_void_p(0)
        self._trap_addr = ctypes.c_void_p(ctypes.addressof(self._trap))
        self._one = ctypes.c_size_t(1)
        self._run_addr = ctypes.c_void_p(ctypes.addressof(st.run._func))
        self._reserve_addr = ctypes.c_void_p(ctypes.addressof(st.reserve._func))
        self._view = memoryview(b"")

    def _refresh(self) -> None:
        """Re-takes the view over linear memory (it may have grown, or moved without memory_may_move=False)."""
        assert self._low is not None
        base = self._low.memory_data(self._ctx, self._mem)
        size = self._low.memory_data_size(self._ctx, self._mem)
        self._view = memoryview((ctypes.c_char * size).from_address(base)).cast("B")

    def _call(self, func: ctypes.c_void_p, arg: int) -> int:
        """One unchecked call of an (i32) -> i32 export; a trap breaks this recording's core."""
        low = self._low
        assert low is not None
        self._slot.value = arg
        err = low.call_unchecked(self._ctx, func, self._raw_addr, self._one, self._trap_addr)
        if err or self._trap.value:
            w = self._st_wasmtime()
            if err:
                exc: Exception = w.WasmtimeError._from_ptr(ctypes.cast(err, low.error_ptr))
            else:
                exc = w.Trap._from_ptr(ctypes.cast(self._trap, low.trap_ptr))
                self._trap.value = 0
            self._broken = True
            raise FingerprintError("internal-error", "the replay core trapped: %s" % (str(exc).splitlines() or [""])[0])
        return self._slot.value

    @staticmethod
    def _st_wasmtime() -> Any:
        return _core._compiled()[0]

    def tools(self, text: bytes) -> str:
        return self._run(0, R_TOOLS, 0, text)

    def load(self, chunk: bytes, last: bool) -> str:
        return self._run(0, R_LOAD, 1 if last else 0, chunk)

    def answer(self, text: bytes, from_str: bool, index: int) -> str:
        return self._run(F_STRING_INPUT if from_str else 0, R_ANSWER, index, text)

    def memory_bytes(self) -> int:
        """Bytes of linear memory this instance holds (its index, line bytes and scratch)."""
        return int(self._st.memory.data_len(self._st.store))

    def unused(self) -> str:
        return self._run(0, R_UNUSED, 0, b"")

    def _run(self, flags: int, op: int, arg: int, data: bytes) -> str:
        with self._lock:
            return self._run_locked(flags, op, arg, data)

    def _run_locked(self, flags: int, op: int, arg: int, data: bytes) -> str:
        if self._broken:
            raise FingerprintError("internal-error", "this recording's core failed earlier; load the recording again")
        request = _HEADER.pack(F_REPLAY | flags, 8, 0, 0, 0, len(data)) + _OP.pack(op, arg) + data
        if self._low is not None:
            return self._run_fast(request, len(request))
        return run_request(self._st, request, "replay", self._mark_broken)

    def _mark_broken(self) -> None:
        self._broken = True

    def _run_fast(self, request: bytes, n: int) -> str:
        st = self._st
        if n > st.cap:
            p = self._call(self._reserve_addr, n) & 0xFFFFFFFF
            if p == 0:
                raise FingerprintError("out-of-memory", "a request of %d bytes does not fit in wasm memory" % n)
            st.ptr, st.cap = p, n
            self._refresh()
        view = self._view
        if st.ptr + n > len(view) or st.result + 20 > len(view):
            self._refresh()
            view = self._view
        view[st.ptr:st.ptr + n] = request
        self._call(self._run_addr, n)
        r = st.result
        status, offset, part, ptr, size = _RESULT.unpack_from(view, r + RESULT_STATUS)
        if ptr + size > len(view):  # the run grew memory
            self._refresh()
            view = self._view
        text = str(view[ptr:ptr + size], "utf-8", "surrogatepass")
        if status:
            raise core_error(status, offset, part, text)
        return text
