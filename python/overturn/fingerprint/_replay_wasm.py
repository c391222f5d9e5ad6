"""Transport for a recording (``_replay.py``): its own instance of the engine (``_instance.py``),
whose linear memory keeps the index (``assembly/ops/replay.ts``, F_REPLAY). Bytes in, the core's
bytes out; nothing is parsed or decided here. Internal; the TypeScript twin is ``src/_replay_wasm.ts``.
"""
from __future__ import annotations

import struct
import threading
from typing import Any

from ._abi import R_ANSWER, R_LOAD, R_TOOLS, R_UNUSED, U_CODE_POINTS, W_BROKEN, W_REENTERED
from ._engine import _new_instance
from ._errors import host_error

_OP = struct.Struct("<IIII")  # the kind part (REPLAY_KIND_BYTES): op, argument, the line the caller holds, the items' unit


class ReplayCore:
    def __init__(self) -> None:
        self._st = _new_instance()
        # One store, not to be entered by two threads at once; re-entrant, so that a call re-entered on
        # the same thread (a __del__ or signal handler mid-call) is refused, never a deadlock.
        self._lock = threading.RLock()

    def tools(self, text: bytes) -> bytes:
        return self._run(0, R_TOOLS, 0, text)

    def load(self, chunk: bytes, flags: int) -> bytes:
        return self._run(0, R_LOAD, flags, chunk)

    def answer(self, text: bytes, flags: int, index: int, known: int) -> bytes:
        """``known``: the recorded line whose text and value the caller holds (the core leaves it out).
        The record's JSON, then unless known "\\n", the recorded line it names, "\\n" and its items."""
        return self._run(flags, R_ANSWER, index, text, known)

    def memory_bytes(self) -> int:
        """Bytes of linear memory this instance holds (its index, line bytes and scratch)."""
        return self._st.memory_size()

    def unused(self) -> bytes:
        """The unused calls' JSON, "\\n", then for each text it gives u32 n and n bytes of its items."""
        return self._run(0, R_UNUSED, 0, b"")

    def _run(self, flags: int, op: int, arg: int, data: bytes, known: int = 0) -> bytes:
        st = self._st
        with self._lock:
            # Its index lives in this instance: a call re-entered while it is busy cannot take a spare.
            if st.busy:
                raise host_error(W_REENTERED)
            if st.dead:
                raise host_error(W_BROKEN)
            st.busy = True
            try:
                view, ptr, size, _ = st.ask("replay", {"kind": _OP.pack(op, arg, known, U_CODE_POINTS), "args": data}, flags)
                return bytes(view[ptr:ptr + size])
            finally:
                st.busy = False
