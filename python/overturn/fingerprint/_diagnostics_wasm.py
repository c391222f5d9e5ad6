"""The diagnostics module (``diagnostics.wasm``, entry ``assembly/entry/engine.ts``).

Internal; the TypeScript twin is ``src/_diagnostics_wasm.ts``. The module has
the fingerprint module's ABI plus calls (``F_CALL``, ``assembly/pipeline/call.ts``)
and Explanations (``F_EXPLAIN``, ``assembly/pipeline/explain.ts``). Transport
only: a call goes in as JSON text (a recording line, or a mapping encoded by
``_encode.to_json_text`` under D16), the core's Explanation comes out;
two calls or Explanations go in for their diff, a recording's calls one by one for the
nearest (``F_DIFF``, ``assembly/ops/compare.ts``).
It is compiled on first use (sharing the fingerprint module's Engine and its
disk cache), so the fingerprint path never pays for it, and called through
``_wasmtime.py`` as the fingerprint module is. One instance per thread, as in
``_core``; a trap drops the thread's instance and becomes a FingerprintError.
"""
from __future__ import annotations

import struct
import threading
TYPE_CHECKING = False  # typing is not imported at run time: ~3 ms of a CLI start (issue 13)
if TYPE_CHECKING:
    from typing import Any, Callable, Dict, List, Tuple

from . import _core, _limits
from ._abi import F_KEEP_MASK, F_TEXT
from ._abi import (ALL_CALLS, F_CALL, F_CLI, F_DIFF, F_DIGEST, F_EXPLAIN, F_FROM_VALUE, F_NTH_CALL, F_STRING_INPUT, F_TOOLS,
                   HEADER_BYTES, HEADER_WORDS, RESULT_CLI_CODE, RESULT_CLI_OUT, RESULT_DIGEST, RESULT_OFFSET,
                   RESULT_STATUS, RESULT_TEXT_PTR, W_MESSAGE, W_NO_ROOM, W_TEXT, W_TRAP)
from ._errors import FingerprintError, core_error, host_error, type_word
from ._module_cache import load_module
from ._wasmtime import Instance as _WasmInstance, Module, WasmError, engine

WASM_FILE = "diagnostics.wasm"

_lock = threading.Lock()
_module: Any = None  # the compiled diagnostics.wasm (a _wasmtime.Module)
_local = threading.local()
_HEADER = struct.Struct("<%dI" % HEADER_WORDS)
_RESULT = struct.Struct("<iiiII")  # status, offset, part, text ptr, text len (RESULT_* order)


def _compiled() -> Module:
    global _module
    if _module is None:
        with _lock:
            if _module is None:
                data = _core.package_bytes(WASM_FILE)  # (not importlib.resources: ~6 ms of a CLI's start)
                # Through the fingerprint module's disk cache (_module_cache.py): compiling this
                # 140 KB module costs ~100 ms per process, most of a CLI run's start (issue 13).
                _module = load_module(engine(), data, _core.ENGINE_TAG, "diagnostics")
    return _module


class _Instance:
    def __init__(self) -> None:
        w = self.w = _WasmInstance(_compiled())
        self.fn_run, self.fn_reserve, self.fn_limits = w.func("run"), w.func("reserve"), w.func("limits")
        self.sent: Any = None  # the limits last told (a Settings.core): nothing yet
        _core.check_module(w, "diagnostics.wasm")
        self.result = w.call(w.func("result"))
        self.cap = 64 * 1024
        self.ptr = self.reserve(self.cap)
        if self.ptr == 0:
            raise host_error(W_NO_ROOM, self.cap)
        self.busy = False  # a request is between its write and the read of its result (_acquire)

    def tell(self, s: Any = None) -> None:
        """Passes the limits (``s``: a call's Settings; None: the configured ones) when it was told others:
        the core checks every input against them (assembly/base/limits.ts)."""
        core = (s or _limits.active).core
        if self.sent is not core:
            if self.sent != core:
                try:
                    self.w.call(self.fn_limits, *core)
                except WasmError as e:  # pragma: no cover - limits() stores six numbers
                    _forget(self)
                    raise _core.trap_error(e) from None
            self.sent = core

    def reserve(self, n: int) -> int:
        """Room for n input bytes at ``ptr`` (the same address, more room); 0 when memory cannot grow."""
        return self.w.call(self.fn_reserve, n) & 0xFFFFFFFF

    def room(self, n: int, what: str) -> None:
        """Makes the input region hold n bytes, else raises out-of-memory."""
        if n > self.cap:
            if n > 0xFFFFFFFF or self.reserve(n) == 0:
                raise host_error(W_NO_ROOM, n)
            self.cap = n

    def run(self, n: int, what: str, on_trap: Callable[[], None]) -> int:
        """``run`` on the request of n bytes at ``ptr``: its status. A trap calls ``on_trap`` (the
        instance is not trusted after it) and becomes FingerprintError("internal-error")."""
        try:
            return self.w.call(self.fn_run, n)
        except WasmError as e:
            on_trap()
            raise host_error(W_TRAP, what, (str(e).splitlines() or [""])[0]) from None

    def read(self, start: int, end: int) -> bytes:
        return bytes(self.w.view()[start:end])


def _new_instance() -> _Instance:
    try:
        return _Instance()
    except FingerprintError:
        raise
    except Exception as e:  # a wasmtime failure never leaks as such
        raise FingerprintError("internal-error", "could not load the diagnostics core: %s" % e) from e


def _instance() -> _Instance:
    """This thread's instance, made on first use."""
    inst = getattr(_local, "inst", None)
    if inst is None:
        inst = _local.inst = _new_instance()
    return inst


def _acquire() -> _Instance:
    """This thread's instance, marked busy until ``_release``: a call re-entered on this thread
    meanwhile (a ``__del__`` under GC, a signal handler) gets a temporary instance of its own, as in
    ``_core``, and never writes over the request or the result of the call it interrupted."""
    st = _instance()
    if st.busy:
        st = _new_instance()
    st.busy = True
    return st


def _release(st: _Instance) -> None:
    st.busy = False


def _forget(st: _Instance) -> None:
    """Drops ``st`` if it is this thread's instance (its state is not trusted after a trap)."""
    if _local.__dict__.get("inst") is st:
        del _local.inst


def _call_text(text: Any) -> Tuple[bytes, int]:
    """A call's JSON text as bytes, and F_STRING_INPUT for a ``str``."""
    if isinstance(text, str):
        return text.encode("utf-8", "surrogatepass"), F_STRING_INPUT
    if isinstance(text, (bytes, bytearray, memoryview)):
        return bytes(text), 0
    raise host_error(W_TEXT, type_word(text))


def explain_call_text(text: Any, tools: bytes = b"", s: Any = None, from_value: bool = False) -> Tuple[Dict[str, Any], str]:
    """(Explanation, digest) for a call given as JSON text: ``str`` or UTF-8 ``bytes``; the
    Explanation as the core writes it (assembly/pipeline/explain.ts).
    ``tools``: declarations' JSON text (F_TOOLS, the ignoreArgs part; assembly/pipeline/tools.ts).
    ``s``: the call's limits (None: the configured ones); ``from_value``: the text was made here
    from the caller's mapping (F_FROM_VALUE: a limit error names no offset into it)."""
    data, flags = _call_text(text)
    flags |= F_CALL | F_EXPLAIN | F_DIGEST | (F_TOOLS if tools else 0) | (F_FROM_VALUE if from_value else 0)
    st = _acquire()
    try:
        text_out = _run(st, _HEADER.pack(flags, 0, 0, 0, len(tools), len(data)) + tools + data, s)
    finally:
        _release(st)
    import json  # here: the CLI never needs it (~5 ms of its start)

    record = json.loads(text_out)
    # Checked as every digest from a module is (_core.digest_text): never anything else as a fingerprint.
    return record, _core.digest_text(str(record.get("fingerprint")).encode("utf-8", "surrogatepass"))


def call_keep_mask(text: bytes, tools: bytes = b"", s: Any = None) -> str:
    """The core's keep-mask for a call's JSON text (made here from the caller's mapping) whose args
    are an object of its key names (``_select``): the call's own selection or its tool's decides."""
    flags = F_CALL | F_KEEP_MASK | F_TEXT | F_FROM_VALUE | (F_TOOLS if tools else 0)
    st = _acquire()
    try:
        return _run(st, _HEADER.pack(flags, 0, 0, 0, len(tools), len(text)) + tools + text, s)
    finally:
        _release(st)


def explain_calls_text(text: Any, tools: bytes = b"", from_value: bool = False) -> List[Dict[str, Any]]:
    """The Explanation of every call of a message holding several, from one
    request (ALL_CALLS: the core parses the message once and writes their JSON
    array); [] for a message without calls."""
    data, flags = _call_text(text)
    flags |= F_CALL | F_EXPLAIN | F_DIGEST | F_NTH_CALL | (F_TOOLS if tools else 0)
    if from_value:
        flags |= F_FROM_VALUE  # a limit error names no offset into text the caller never saw
    import json

    st = _acquire()
    try:
        text_out = _run(st, _HEADER.pack(flags, 4, 0, 0, len(tools), len(data)) + struct.pack("<I", ALL_CALLS) + tools + data)
    finally:
        _release(st)
    return json.loads(text_out)  # type: ignore[no-any-return]


# ---- diff and nearest (assembly/ops/compare.ts): sides in, the core's answer out ----

def compare(op: int, arg: int, a: bytes, flags_a: int, counters: bytes, target: bytes, b: bytes, flags_b: int) -> bytes:
    """One F_DIFF request: the kind part (op, argument, how a and b are sent), then the name (a),
    matchOn (counters), ignoreArgs (target) and args (b) parts; the answer's bytes."""
    kind = struct.pack("<IIII", op, arg, flags_a, flags_b)
    request = _HEADER.pack(F_DIFF, len(kind), len(a), len(counters), len(target), len(b)) + kind + a + counters + target + b
    st = _acquire()
    try:
        return run_request_bytes(st, request, "diagnostics", lambda: _forget(st))
    finally:
        _release(st)


_CLI_WORDS = struct.Struct("<IIIIi")  # RESULT_CLI_OUT, _ERR, _STATE, _LINES, _CODE (consecutive in abi.ts)


def cli_step(step: str, name: Any = b"", match: Any = b"", ignore: Any = b"",
             args: Any = b"") -> Tuple[memoryview, memoryview, memoryview, int, int]:
    """One step of the core's CLI engine (``assembly/cli/steps.ts`` lists the steps):
    (stdout bytes, stderr bytes, state to hand back, lines read, code), as views of one
    read of wasm memory (no further copies: a CLI moves megabytes a step)."""
    parts = [p.encode("utf-8", "surrogateescape") if isinstance(p, str) else p for p in (step, name, match, ignore)]
    st = _acquire()
    try:
        return _cli_step(st, parts, args)
    finally:
        _release(st)


def _cli_step(st: _Instance, parts: List[Any], args: Any) -> Tuple[memoryview, memoryview, memoryview, int, int]:
    n = HEADER_BYTES + sum(len(p) for p in parts) + len(args)
    st.room(n, "a request")
    head = _HEADER.pack(F_CLI, *[len(p) for p in parts], len(args)) + b"".join(parts)
    st.tell()  # the configured limits; a CLI run's --max-* options tighten them in the core (cli/args.ts)
    view = st.w.view()
    view[st.ptr:st.ptr + len(head)] = head
    view[st.ptr + n - len(args):st.ptr + n] = args
    status = st.run(n, "diagnostics", lambda: _forget(st))
    r = st.result
    view = st.w.view()  # the run may have grown memory
    head = bytes(view[r:r + RESULT_CLI_CODE + 4])
    if status:
        _status, offset, part, ptr, size = struct.unpack_from("<iiiII", head)
        raise core_error(status, offset, str(view[ptr:ptr + size], "utf-8", "surrogatepass") if size else "")
    ptr, size = struct.unpack_from("<II", head, RESULT_TEXT_PTR)
    n_out, n_err, n_state, lines, code = _CLI_WORDS.unpack_from(head, RESULT_CLI_OUT)
    text = memoryview(bytes(view[ptr:ptr + size]))
    return text[:n_out], text[n_out:n_out + n_err], text[n_out + n_err:n_out + n_err + n_state], lines, code


def _run(st: _Instance, request: bytes, s: Any = None) -> str:
    """One request; the returned text, or the FingerprintError. A trap drops the instance (D19)."""
    return run_request(st, request, "diagnostics", lambda: _forget(st), s)  # a trap: its state is not trusted


def run_request(st: _Instance, request: bytes, what: str, on_trap: Callable[[], None], s: Any = None) -> str:
    """One request on instance ``st`` under the limits ``s`` (None: the configured ones): the returned
    text, or the FingerprintError; a trap calls ``on_trap`` (the instance is not trusted after it) and
    becomes "internal-error"."""
    view, ptr, size = _request(st, request, what, on_trap, s)
    return str(view[ptr:ptr + size], "utf-8", "surrogatepass")


def run_request_bytes(st: _Instance, request: bytes, what: str, on_trap: Callable[[], None], s: Any = None) -> bytes:
    """:func:`run_request`, its answer as the bytes the core wrote (a copy)."""
    view, ptr, size = _request(st, request, what, on_trap, s)
    return bytes(view[ptr:ptr + size])


def _request(st: _Instance, request: bytes, what: str, on_trap: Callable[[], None], s: Any) -> Any:
    """Runs the request; the memory view and where the answer is in it, or the core's FingerprintError."""
    st.tell(s)
    n = len(request)
    st.room(n, "a request")
    st.w.view()[st.ptr:st.ptr + n] = request
    st.run(n, what, on_trap)
    r = st.result
    view = st.w.view()  # the run may have grown memory
    status, offset, part, ptr, size = _RESULT.unpack_from(view, r + RESULT_STATUS)
    if status:
        raise core_error(status, offset, str(view[ptr:ptr + size], "utf-8", "surrogatepass"))
    return view, ptr, size


def json_error_at(text: Any, offset: int) -> str:
    """" at byte N (line L, column C, X)" for an error at ``offset`` in a JSON text (the core's
    one wording, ``assembly/cli/message.ts``; X the character there, ``U+0001`` when invisible)."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else bytes(text)
    return bytes(cli_step("position", data, b"", str(offset))[0]).decode("utf-8")
