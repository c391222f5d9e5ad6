"""Replay: load a recording once, answer live calls from it.

Everything is decided by the core (``assembly/ops/replay.ts``): line rules,
fingerprints, the index, the order of repeated answers, the why answer of a
miss, the unused calls, which recorded line an answer sends. This host streams
bytes in (the "replay" request of the generated table, on an engine instance of
the recording's own) and turns the core's records into dicts; a recorded line
handed back is built from the core's items of it (``_json_value.py``). The
TypeScript twin is ``src/replay.ts``.
"""
from __future__ import annotations

import json
import os
import threading
from typing import Any, Dict, Iterable, List, Optional, Tuple, Union

from ._abi import F_FROM_VALUE, LOAD_CHUNK_BYTES, LOAD_ENDS_LINE, LOAD_LAST, R_ANSWER, R_LOAD, R_TOOLS, R_UNUSED, U_CODE_POINTS
from ._abi import W_BINARY, W_BROKEN, W_LINE_MISSING, W_PIECE, W_READ_BACK, W_RECORDING, W_REENTERED
from ._engine import _ask, _call_text, _new_instance
from ._encode import host_call_text
from ._errors import FingerprintError, core_error, host_error, type_word
from ._json_value import build_value
from ._tools import Tools, tools_text

_CHUNK = LOAD_CHUNK_BYTES

#: A hit: ``{"hit": True, "name", "kind", "fingerprint", "calls", "recordedLine", "recordedCall",
#: "line", "call", "text", "value"}``; a miss: ``{"hit": False, "name", "kind", "fingerprint", "calls",
#: "recordedLine": None, "why", "recorded", "asked", "nearest": {"line", "call", "text", "value"} | None,
#: "changes": [...]}`` — the same keys as the TypeScript SDK's ReplayAnswer.
ReplayAnswer = Dict[str, Any]


class Recording:
    """A recording, indexed by fingerprint in the core's memory.

    Example:
        >>> rec = Recording.loads('{"name":"search","args":{"q":"cats"},"result":[1]}\\n')
        >>> rec.answer({"name": "search", "args": {"q": "cats"}})["value"]["result"]
        [1]
    """

    def __init__(self, *, tools: Tools = None) -> None:
        """An empty recording; use :meth:`load` or :meth:`loads`."""
        self._st = _new_instance()  # the index lives in this instance's memory
        # One store, not to be entered by two threads at once; re-entrant, so that a call re-entered on
        # the same thread (a __del__ or signal handler mid-call) is refused, never a deadlock.
        self._lock = threading.RLock()
        #: The line the last answer built: the core leaves it out of the next answer from it (abi.ts F_REPLAY ``held``).
        self._held: Optional[Tuple[int, str, Any]] = None  # its number, text and value
        self._counts = {"lines": 0, "calls": 0}
        #: Lines the core could not read: ``(line number, FingerprintError)``; the rest is kept.
        self.bad_lines: List[Tuple[int, FingerprintError]] = []
        text = tools_text(tools)
        if text:
            self._run(R_TOOLS, 0, text)

    @classmethod
    def load(cls, source: Union[str, "os.PathLike[str]", bytes, Any], *, tools: Tools = None) -> "Recording":
        """Loads a recording (JSON Lines), streamed: a path (``str`` or ``os.PathLike``),
        its bytes, a binary file object, or an iterable of pieces — ``bytes``
        chunks cut anywhere, or ``str`` lines (one line each).

        Raises:
            FingerprintError: for bad declarations; bad lines go to ``bad_lines``.
        """
        rec = cls(tools=tools)
        if isinstance(source, (str, os.PathLike)):
            with open(source, "rb") as f:
                rec._file(f)
        elif isinstance(source, (bytes, bytearray, memoryview)):
            rec._send(bytes(source), 0)
        elif hasattr(source, "read"):
            rec._file(source)
        elif isinstance(source, Iterable):
            for piece in source:
                rec._piece(piece)
        else:
            raise host_error(W_RECORDING, type_word(source))
        rec._send(b"", LOAD_LAST)
        return rec

    @classmethod
    def loads(cls, text: str, *, tools: Tools = None) -> "Recording":
        """Loads a recording from its whole text."""
        rec = cls(tools=tools)
        rec._send(text, 0)
        rec._send(b"", LOAD_LAST)
        return rec

    @property
    def size(self) -> int:
        """Recorded calls in the index."""
        return self._counts["calls"]

    @property
    def memory_bytes(self) -> int:
        """Bytes of wasm memory the recording holds: its index and the recorded lines' bytes."""
        return self._st.memory_size()

    @property
    def lines(self) -> int:
        """Lines read (blank ones included)."""
        return self._counts["lines"]

    def answer(self, call: Any, index: int = 0) -> ReplayAnswer:
        """Answers a live call (a call mapping in any shape the core reads, or its
        JSON text): a hit with the recorded line, or a miss with the why answer.
        ``index`` picks one call of a message holding several. The line's ``value``
        is read as ``json.loads`` reads it, at any depth: a bare ``NaN``,
        ``Infinity`` or ``-Infinity`` in it (D12) is ``float("nan")`` / ``float("inf")``.
        Answers from the same recorded line in a row share its ``text`` and its
        ``value`` (one dict), so answering the n calls of one line costs what the
        line does, not n times it.

        Raises:
            FingerprintError: when the call cannot be read or fingerprinted.
        """
        # JSON text as it is; a mapping as made here (F_FROM_VALUE: a limit error names no offset into it).
        data, flags = _call_text(call) if isinstance(call, (str, bytes, bytearray, memoryview)) else (host_call_text(call), F_FROM_VALUE)
        held, self._held = self._held, None  # until this answer's line is built: after any failure the core sends it again
        record, _, items = self._run(R_ANSWER, index, data, flags, 1 if held else 0).partition(b"\n")
        r: Dict[str, Any] = json.loads(record)
        self._held = _fill([r if r["hit"] else r["nearest"]], items, held)
        return r

    def unused(self) -> List[Dict[str, Any]]:
        """The recorded calls never answered so far (a stale recording), in recorded
        order: ``{"line", "call", "name", "fingerprint", "text", "value"}``. The calls
        of one line share its ``text`` and its ``value`` (one dict: a change made
        through one call's value shows in the others')."""
        listed, _, items = self._run(R_UNUSED, 0, b"").partition(b"\n")
        out: List[Dict[str, Any]] = json.loads(listed)
        _fill(out, items, None)
        return out

    def _file(self, f: Any) -> None:
        while chunk := f.read(_CHUNK):
            if isinstance(chunk, str):
                raise host_error(W_BINARY)
            self._send(chunk, 0)

    def _piece(self, piece: Any) -> None:
        if isinstance(piece, str):
            return self._send(piece, LOAD_ENDS_LINE)
        if not isinstance(piece, (bytes, bytearray, memoryview)):
            raise host_error(W_PIECE, type_word(piece))
        self._send(bytes(piece), 0)

    def _send(self, data: Union[bytes, str], flags: int) -> None:
        """Bytes cut anywhere or a text, _CHUNK at a time (the core keeps a line they cut until a chunk
        ends it; a text encoded a slice at a time never doubles in memory); the last with ``flags`` (LOAD_*)."""
        for i in range(0, max(len(data), 1), _CHUNK):
            chunk = data[i:i + _CHUNK]
            chunk = chunk.encode("utf-8", "surrogatepass") if isinstance(chunk, str) else chunk
            self._counts = r = json.loads(self._run(R_LOAD, flags if i + _CHUNK >= len(data) else 0, chunk))
            self.bad_lines += [(b["line"], core_error(b["status"], b["offset"], b["detail"])) for b in r["bad"]]

    def _run(self, op: int, argument: int, data: bytes, flags: int = 0, held: int = 0) -> bytes:
        """Replay op ``op`` (R_*) on ``data``; ``held``: 1 when this host built the last line an answer
        sent. The core's answer (a copy). Its index lives in this instance: a call re-entered while it
        is busy cannot take a spare, it is refused."""
        st = self._st
        with self._lock:
            if st.busy or st.dead:
                raise host_error(W_REENTERED if st.busy else W_BROKEN)
            st.busy = True
            try:
                kind = {"op": op, "argument": argument, "held": held, "unit": U_CODE_POINTS}
                return _ask("replay", {"kind": kind, "args": data}, flags, None, st)[0]
            finally:
                st.busy = False


def _fill(calls: Iterable[Optional[Dict[str, Any]]], items: bytes, last: Optional[Tuple[int, str, Any]]) -> Optional[Tuple[int, str, Any]]:
    """Gives each recorded call its line's text and value. A call the core gives a "text" has its line
    built from the items that follow the records (u32 n and n bytes each, in order); one without is the
    same line as ``last`` (the call before it, or the line the host holds), checked by number."""
    at = 0
    for c in filter(None, calls):
        if "text" in c:
            n = int.from_bytes(items[at:at + 4], "little")
            try:  # any depth; bare NaN/Infinity (D12) as ``float("nan")`` / ``float("inf")``, as json.loads reads them
                last = (c["line"], c["text"], build_value(c["text"], items[at + 4:at + 4 + n]))
            except Exception as e:  # a scalar json.loads refuses (an int past sys.get_int_max_str_digits()), ...
                raise host_error(W_READ_BACK, e) from e
            at += 4 + n
        elif last is None or last[0] != c["line"]:
            raise host_error(W_LINE_MISSING, c["line"])
        c["text"], c["value"] = last[1], last[2]
    return last

