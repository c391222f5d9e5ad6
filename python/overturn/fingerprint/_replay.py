"""Replay: load a recording once, answer live calls from it.

Everything is decided by the core (``assembly/ops/replay.ts``): line rules,
fingerprints, the index, the order of repeated answers, the why answer of a
miss, the unused calls. This host streams bytes in and turns the core's
records into dicts; a recorded line handed back is built from the core's items
of it (``_json_value.py``). The TypeScript twin is ``src/replay.ts``.
"""
from __future__ import annotations

import json
import os
from typing import Any, Dict, Iterable, List, Tuple, Union

from ._abi import F_FROM_VALUE, LOAD_CHUNK_BYTES, LOAD_ENDS_LINE, LOAD_LAST
from ._engine import _call_text
from ._encode import host_call_text
from ._abi import W_BINARY, W_LINE_MISSING, W_PIECE, W_READ_BACK, W_RECORDING
from ._errors import FingerprintError, core_error, host_error, type_word
from ._json_value import build_value
from ._replay_wasm import ReplayCore
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
        self._core = ReplayCore()
        #: The last recorded line an answer gave: its number, text and value (the core leaves it out of the next).
        self._held: Tuple[int, str, Any] = (0, "", None)
        self._lines = 0
        self._calls = 0
        #: Lines the core could not read: ``(line number, FingerprintError)``; the rest is kept.
        self.bad_lines: List[Tuple[int, FingerprintError]] = []
        text = tools_text(tools)
        if text:
            self._core.tools(text)

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
        for i in range(0, len(text), _CHUNK):  # encoded a slice at a time: a large text never doubles in memory
            rec._send(text[i:i + _CHUNK].encode("utf-8", "surrogatepass"), 0)
        rec._send(b"", LOAD_LAST)
        return rec

    @property
    def size(self) -> int:
        """Recorded calls in the index."""
        return self._calls

    @property
    def memory_bytes(self) -> int:
        """Bytes of wasm memory the recording holds: its index and the recorded lines' bytes."""
        return self._core.memory_bytes()

    @property
    def lines(self) -> int:
        """Lines read (blank ones included)."""
        return self._lines

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
        record, nl, rest = self._core.answer(data, flags, index, self._held[0]).partition(b"\n")
        r: Dict[str, Any] = json.loads(record)
        # The recorded call it names (a hit, or a miss's nearest) gets its line's text and value:
        # the line the core sent, or (none sent) the one held, which the core left out.
        at = r if r["hit"] else r["nearest"]
        if at is None:
            return r
        if nl:
            line, _, items = rest.partition(b"\n")
            self._held = (0, "", None)  # until the value is built
            text = str(line, "utf-8", "surrogatepass")
            self._held = (at["line"], text, self._value(text, items))
        elif self._held[0] != at["line"]:
            raise host_error(W_LINE_MISSING, at["line"])
        at["text"], at["value"] = self._held[1], self._held[2]
        return r

    def unused(self) -> List[Dict[str, Any]]:
        """The recorded calls never answered so far (a stale recording), in recorded
        order: ``{"line", "call", "name", "fingerprint", "text", "value"}``. The calls
        of one line share its ``text`` and its ``value`` (one dict: a change made
        through one call's value shows in the others')."""
        listed, _, items = self._core.unused().partition(b"\n")
        out: List[Dict[str, Any]] = []
        text, value, at = "", None, 0
        for u in json.loads(listed):
            if "text" in u:  # the core gives a line's text with the first of its calls only, its items after the list
                n = int.from_bytes(items[at:at + 4], "little")
                text, value, at = u["text"], self._value(u["text"], items[at + 4:at + 4 + n]), at + 4 + n
            out.append(dict(u, text=text, value=value))
        return out

    def _value(self, text: str, items: bytes) -> Dict[str, Any]:
        """A recorded line as a value, built from the core's items of it: any depth;
        bare NaN/Infinity (D12) as ``float("nan")`` / ``float("inf")``, as ``json.loads`` reads them."""
        try:
            value: Dict[str, Any] = build_value(text, items)
        except Exception as e:  # a scalar json.loads refuses (an int past sys.get_int_max_str_digits()), ...
            raise host_error(W_READ_BACK, e) from e
        return value

    def _file(self, f: Any) -> None:
        while True:
            chunk = f.read(_CHUNK)
            if not chunk:
                return
            if isinstance(chunk, str):
                raise host_error(W_BINARY)
            self._send(chunk, 0)

    def _piece(self, piece: Any) -> None:
        if isinstance(piece, (bytes, bytearray, memoryview)):
            self._send(bytes(piece), 0)
        elif isinstance(piece, str):
            self._send(piece.encode("utf-8", "surrogatepass"), LOAD_ENDS_LINE)
        else:
            raise host_error(W_PIECE, type_word(piece))

    def _send(self, data: bytes, flags: int) -> None:
        """Bytes cut anywhere, _CHUNK at a time (the core keeps a line they cut until a chunk ends it);
        the last with ``flags`` (LOAD_*)."""
        i = 0
        while True:
            r = json.loads(self._core.load(data[i:i + _CHUNK], flags if i + _CHUNK >= len(data) else 0))
            self._lines, self._calls = r["lines"], r["calls"]
            for b in r["bad"]:
                self.bad_lines.append((b["line"], core_error(b["status"], b["offset"], b["detail"])))
            i += _CHUNK
            if i >= len(data):
                return
