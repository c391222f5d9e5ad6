"""One instance of a wasm module (the fingerprint module or the engine) and the host's side of the
request ABI (``assembly/abi.ts``), for both modules. Internal; the TypeScript twin is
``src/_instance.ts``.

An :class:`Instance` is one Store (``_wasmtime.py``) with its input region, a view of linear memory
re-taken after it grows, the request header, the result block, the limits it was last told, and a
trap turned into FingerprintError (the instance is then ``dead``: its state is not trusted, D19).
A :class:`Pool` gives each thread its instance of a module (a Store must never be entered by two
threads at once) under one rule for re-entrancy: a call re-entered on the thread while its
instance is busy (a ``__del__`` under GC, a signal handler) gets a spare instance, never the
half-written request of the call it interrupted. The hot paths (``_core.plain``, ``_value``) bind
an instance's fields as closure variables; everything else calls its methods.
"""
from __future__ import annotations

import ctypes
import struct
import threading
TYPE_CHECKING = False  # typing is not imported at run time: ~3 ms of a CLI start
if TYPE_CHECKING:
    from typing import Any, Callable, Dict, List, Optional, Tuple

from . import _limits
from ._abi import (ABI_ID, FINGERPRINT_VERSION, HEADER_BYTES, HEADER_WORDS, INPUT_RESERVE_BYTES, REQUESTS, RESULT_DIGEST,
                   RESULT_STATUS, RESULT_TEXT_PTR, W_NO_ROOM, W_STACK, W_TRAP)
from ._errors import FingerprintError, core_error, host_error
from ._wasmtime import Instance as _Wasm, Module, WasmError

HEADER = struct.Struct("<%dI" % HEADER_WORDS)  # flags, kindLen, nameLen, matchLen, ignoreLen, argsLen
RESULT = struct.Struct("<iiiII")  # status, error offset, part, text ptr, text len (RESULT_* order)
_PART_NAMES = ("kind", "name", "matchOn", "ignoreArgs", "args")  # the header's order
_U32_MAX = 0xFFFFFFFF


class Instance(_Wasm):
    """One Store, its instance of ``module`` and the request ABI over it. ``what`` names the
    module in errors ("fingerprint", "engine")."""

    def __init__(self, module: Module, what: str = "fingerprint") -> None:
        super().__init__(module)
        self.what = what
        check_module(self, what)
        # What the hot paths pass to wasmtime_func_call_unchecked, prebuilt.
        self.call_unchecked = self._lib.call_unchecked
        self.one = self.counts[1]
        self.slot = ctypes.c_int32.from_address(ctypes.addressof(self.raw))
        self.run_addr, self.reserve_addr, self.limits_addr = self.func("run"), self.func("reserve"), self.func("limits")
        self.sent: Any = None  # what limits() last told this instance (a Settings.core): nothing yet
        self.max_bytes = _limits._UNLIMITED  # the byte limit it answered
        self.busy = False  # a request is between its write and the read of its result
        self.dead = False  # it trapped: its pool makes another
        self.head: Optional[bytes] = None  # name and flags of plain()'s header at in_ptr, if still there
        self.head_flags = 0
        self.result = self.checked(self.func("result"))
        self.text_word = (self.result + RESULT_TEXT_PTR) >> 2
        self.in_ptr = self.in_cap = 0
        self.room(INPUT_RESERVE_BYTES)
        # plain()'s conditions that hold for the instance's lifetime: words it
        # reads or writes as native u32 (little-endian like wasm, 4-aligned).
        self.fast = (self.result + RESULT_TEXT_PTR) & 3 == 0 and self.in_ptr & 3 == 0

    def checked(self, func: ctypes.c_void_p, *args: int) -> int:
        """One call of an export with i32 arguments; a trap marks the instance dead and raises FingerprintError."""
        try:
            return self.call(func, *args)
        except WasmError as e:
            self.dead = True
            raise trap_error(e, self.what) from None

    def _trapped(self, err: Optional[int]) -> FingerprintError:
        """Frees the failed call's trap/error object and turns it into a FingerprintError."""
        self.dead = True
        return trap_error(self.failure(err), self.what)

    def tell(self, s: Optional[_limits.Settings] = None) -> int:
        """Passes the limits (``s``: a call's Settings, None: the configured ones; six u32 to the ``limits``
        export) when it was told others; the byte limit in force, as the instance answered it (the core
        checks every input against them, assembly/base/limits.ts)."""
        core = (s or _limits.active).core
        if self.sent is not core:
            if self.sent != core:
                n = self.checked(self.limits_addr, *core) & _U32_MAX
                self.max_bytes = _limits._UNLIMITED if n == _limits.NO_LIMIT else n  # none: every length is below it
            self.sent = core  # the same object from now on: plain() tests identity
        return self.max_bytes

    def refresh(self) -> None:
        """Re-takes the view over linear memory (after it may have grown)."""
        self.view = _Wasm.view(self)
        self.words = self.view.cast("I")  # native u32 = wasm's little-endian on the hosts wasmtime runs on

    def room(self, n: int) -> None:
        """Makes the input region hold n bytes: at ``in_ptr``, the same address with more room, else out-of-memory."""
        if n > self.in_cap:
            p = self.checked(self.reserve_addr, n) & _U32_MAX if n <= _U32_MAX else 0
            if p == 0:
                raise host_error(W_NO_ROOM, n)
            self.refresh()
            self.in_ptr, self.in_cap = p, n

    def send(self, flags: int, data: Any, s: Optional[_limits.Settings] = None, tell: bool = True) -> Tuple[memoryview, int, int]:
        """Writes the header and the five parts (bytes, header order; each written in place, never joined:
        a CLI step moves megabytes) and runs the request under the limits ``s`` (``tell``: False for a
        request the limits do not govern): the memory view and where the returned text is in it, or
        the core's FingerprintError."""
        if tell:
            self.tell(s)
        n = HEADER_BYTES + sum(map(len, data))
        self.room(n)
        self.head = None  # plain() rewrites its header after this request
        view, at = self.view, self.in_ptr + HEADER_BYTES
        view[self.in_ptr:at] = HEADER.pack(flags, *map(len, data))
        for x in data:
            view[at:at + len(x)] = x
            at += len(x)
        self.checked(self.run_addr, n)  # the status is in the result block; a trap raises, the instance dead
        self.refresh()  # the run may have grown memory
        view = self.view
        status, offset, _part, ptr, size = RESULT.unpack_from(view, self.result + RESULT_STATUS)
        if status:
            raise core_error(status, offset, str(view[ptr:ptr + size], "utf-8", "surrogatepass") if size else "")
        return view, ptr, size

    def ask(self, kind: str, parts: Dict[str, Any], flags: int = 0, s: Optional[_limits.Settings] = None,
            tell: bool = True) -> Tuple[memoryview, int, int, Dict[str, int]]:
        """Runs request ``kind`` of the generated table (``_abi.REQUESTS``, abi.ts "request:" lines) with
        ``flags`` among its optional ones: each part as bytes, or a u32 part's fields by their table
        names (its fixed fields filled in). ``send()``'s answer and the result's words by name."""
        r = REQUESTS[kind]
        data = []
        for p in _PART_NAMES:
            x = parts.get(p)
            fields = r["u32"].get(p)
            if fields is not None and not isinstance(x, bytes):
                x = struct.pack("<%dI" % len(fields), *(f if type(f) is int else x[f] for f in fields))
            data.append(b"" if x is None else x)
        view, ptr, size = self.send(r["flags"] | flags, data, s, tell)
        words = r["words"]
        return view, ptr, size, dict(zip(words, struct.unpack_from("<%dI" % len(words), view, self.result + RESULT_DIGEST)))


def check_module(w: _Wasm, what: str) -> None:
    """The module must be this SDK's contract version and speak the ABI our constants were
    generated from (both modules)."""
    v = w.call(w.func("version"))
    got = w.call(w.func("abiId")) if w.has("abiId") else -1
    if v != FINGERPRINT_VERSION or got != ABI_ID:
        raise FingerprintError("internal-error", "the %s module has version %r / ABI %x, this SDK was generated for %d / %x "
                               "(reinstall the package)" % (what, v, got & _U32_MAX, FINGERPRINT_VERSION, ABI_ID))


def trap_error(exc: Exception, what: str = "fingerprint") -> FingerprintError:
    """A trap as the caller sees it: too-deep for the core's stack, else internal-error (a core bug, D19)."""
    msg = str(exc)
    if getattr(exc, "stack_overflow", False) or "stack overflow" in msg or "call stack exhausted" in msg:
        return host_error(W_STACK)
    return host_error(W_TRAP, what, msg.splitlines()[0] if msg else "unknown trap")


class Pool:
    """One module's instances: this thread's (``local.inst``), spares for calls re-entered while it
    is busy, a new one after a trap or a retirement. ``bound``: names in ``local`` holding functions
    bound to the thread's instance, dropped with it."""

    def __init__(self, make: Callable[[], Instance], what: str, bound: Tuple[str, ...] = ()) -> None:
        self.local = threading.local()
        self._make, self._what, self._bound = make, what, bound

    def new(self) -> Instance:
        """A new instance (a wasmtime or ctypes failure never leaks as such)."""
        try:
            return self._make()
        except FingerprintError:
            raise
        except Exception as e:
            raise FingerprintError("internal-error", "could not load the %s core: %s" % (self._what, e)) from e

    def instance(self) -> Instance:
        """This thread's instance, made on first use."""
        inst: Optional[Instance] = self.local.__dict__.get("inst")
        if inst is None:
            inst = self.local.inst = self.new()
        return inst

    def spare(self) -> Instance:
        """An idle spare of this thread's, marked busy (one per level of re-entry, kept)."""
        spares: List[Instance] = self.local.__dict__.setdefault("spares", [])
        for st in spares:
            if not st.busy and not st.dead:
                break
        else:
            st = self.new()
            spares.append(st)
        st.busy = True
        return st

    def acquire(self) -> Instance:
        """This thread's instance marked busy, or a spare when it is busy already."""
        st = self.instance()
        if st.busy:
            return self.spare()
        st.busy = True
        return st

    def release(self, st: Instance) -> None:
        st.busy = False
        if st.dead:
            self.forget(st)

    def forget(self, st: Instance) -> None:
        """Drops ``st`` (trapped: its state is not trusted; or retired); the next call makes a new one."""
        d = self.local.__dict__
        if d.get("inst") is st:
            del d["inst"]
            for name in self._bound:
                d.pop(name, None)
        elif st in d.get("spares", ()):
            d["spares"].remove(st)

    def retire_if_large(self, st: Instance, retain: float) -> None:
        """Drops ``st`` when its linear memory is above ``retain`` (wasm memory cannot shrink)."""
        st.refresh()
        if len(st.view) > retain:
            self.forget(st)
            _limits.trim_heap()
