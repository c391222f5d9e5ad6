"""Transport for a recording (``_replay.py``): its own instance of the
diagnostics module, whose linear memory keeps the index
(``assembly/ops/replay.ts``, F_REPLAY). Bytes in, the core's text out; nothing is
parsed or decided here. Internal; the TypeScript twin is ``src/_replay_wasm.ts``.

Calls go through ``_wasmtime.py``'s unchecked call and a view of linear
memory, as every module here is called (``_core.py`` has the measurements).
"""
from __future__ import annotations

import struct
import threading
from typing import Any

from ._abi import F_FROM_VALUE, F_REPLAY, F_STRING_INPUT, REPLAY_KIND_BYTES, R_ANSWER, R_LOAD, R_TOOLS, R_UNUSED, R_VALUE, U_CODE_POINTS, W_BROKEN, W_REENTERED
from ._diagnostics_wasm import _HEADER, _new_instance, run_request, run_request_bytes
from ._errors import FingerprintError, host_error

_OP = struct.Struct("<III")  # the kind part (REPLAY_KIND_BYTES): op, argument, the line whose text the caller holds


class ReplayCore:
    def __init__(self) -> None:
        self._st = _new_instance()
        self._broken = False
        # One store, not to be entered by two threads at once; re-entrant, so that a call re-entered on
        # the same thread (a __del__ or signal handler mid-call) is refused, never a deadlock.
        self._lock = threading.RLock()
        self._busy = False

    def tools(self, text: bytes) -> str:
        return self._run(0, R_TOOLS, 0, text)

    def load(self, chunk: bytes, flags: int) -> str:
        return self._run(0, R_LOAD, flags, chunk)

    def answer(self, text: bytes, from_str: bool, index: int, from_value: bool = False, known: int = 0) -> str:
        """``from_value``: the text was made here from the caller's mapping (a limit error names no offset into it);
        ``known``: the recorded line whose text the caller holds (the core leaves it out)."""
        return self._run((F_STRING_INPUT if from_str else 0) | (F_FROM_VALUE if from_value else 0), R_ANSWER, index, text,
                         known=known)

    def memory_bytes(self) -> int:
        """Bytes of linear memory this instance holds (its index, line bytes and scratch)."""
        return self._st.w.memory_size()

    def unused(self) -> str:
        return self._run(0, R_UNUSED, 0, b"")

    def items(self, line: bytes) -> bytes:
        """A recorded line's items (``assembly/ops/items.ts``), positions in code points (str indices)."""
        return self._run(F_STRING_INPUT, R_VALUE, U_CODE_POINTS, line, raw=True)

    def _run(self, flags: int, op: int, arg: int, data: bytes, raw: bool = False, known: int = 0) -> Any:
        with self._lock:
            if self._busy:  # its index lives in this instance: no temporary one can answer for it
                raise host_error(W_REENTERED)
            if self._broken:
                raise host_error(W_BROKEN)
            request = _HEADER.pack(F_REPLAY | flags, REPLAY_KIND_BYTES, 0, 0, 0, len(data)) + _OP.pack(op, arg, known) + data
            self._busy = True
            try:
                run = run_request_bytes if raw else run_request
                return run(self._st, request, "replay", self._mark_broken)
            finally:
                self._busy = False

    def _mark_broken(self) -> None:
        self._broken = True
