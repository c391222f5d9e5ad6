"""wasmtime's C API through ctypes: the few calls this package makes. Internal.

The ``wasmtime`` package (the one dependency, pinned to one major in
``pyproject.toml``) ships the native library loaded here; its Python classes
are not used. Importing them costs ~33 ms of every process (ctypes
declarations of the whole C API), half of a Python CLI's start and
of a first fingerprint's; their checked calls cost ~16 µs against ~0.6 µs for
the unchecked call here (``_core.py`` has the table).

The handles below follow wasmtime 50's C API headers (``extern.h``,
``instance.h``, ``val.h``): ``wasmtime_instance_t`` is 16 bytes,
``wasmtime_extern_t`` 32 (a kind byte, its union at offset 8: the
``wasmtime_func_t``/``wasmtime_memory_t`` handle), ``wasmtime_val_raw_t`` 16.
Buffers are allocated larger than that, and every instance checks its module's
version and ABI id before use (``_core``/``_engine``).
"""
from __future__ import annotations

import ctypes
import os
import sys
import threading
from ctypes import byref, c_bool, c_size_t, c_uint8, c_void_p
TYPE_CHECKING = False  # typing is not imported at run time: ~3 ms of a CLI start
if TYPE_CHECKING:
    from typing import Any, Dict, Optional, Tuple

__all__ = ["WasmError", "Module", "Instance", "engine", "library_path"]

_EXTERN_FUNC, _EXTERN_MEMORY = 0, 3  # wasmtime_extern_kind_t
_TRAP_STACK_OVERFLOW = 0  # wasmtime_trap_code_t
_SLOTS = 6  # wasmtime_val_raw_t slots per call: the most params or results an export here has (limits: 6)
_EXTERN_BYTES = 64  # room for a wasmtime_extern_t (32 bytes in wasmtime 50)
_OF = 8  # offset of the extern's union (its handle) after the kind byte
_LIB_NAMES = {"linux": "_libwasmtime.so", "darwin": "_libwasmtime.dylib", "win32": "_wasmtime.dll"}


class WasmError(Exception):
    """A trap or a wasmtime error, as its message; ``stack_overflow`` from the trap's code."""

    def __init__(self, message: str, stack_overflow: bool = False) -> None:
        super().__init__(message)
        self.stack_overflow = stack_overflow


class _ByteVec(ctypes.Structure):
    _fields_ = [("size", c_size_t), ("data", c_void_p)]  # wasm_byte_vec_t (also wasm_name_t, wasm_message_t)


def library_path() -> str:
    """The wasmtime package's native library, in the first ``wasmtime`` package on sys.path (where
    the import system finds it), without importing the package or importlib.util (~3 ms)."""
    machine = os.uname().machine if hasattr(os, "uname") else os.environ.get("PROCESSOR_ARCHITECTURE", "")
    machine = {"AMD64": "x86_64", "amd64": "x86_64", "arm64": "aarch64", "ARM64": "aarch64"}.get(machine, machine)
    name = _LIB_NAMES.get(sys.platform)
    for entry in sys.path if name else ():
        folder = os.path.join(entry, "wasmtime")
        if os.path.isfile(os.path.join(folder, "__init__.py")):
            path = os.path.join(folder, "%s-%s" % (sys.platform, machine), name or "")
            if os.path.isfile(path):
                return path
            break  # that package's layout is another: it names its library itself (below)
    # Another layout (a platform named otherwise): ask the package itself, at its import's cost.
    from wasmtime import _ffi

    return str(_ffi.filename)


class _Lib:
    """Prototypes over the native library, bound once per process."""

    def __init__(self, path: str) -> None:
        dll = ctypes.CDLL(path)  # CDLL: every call releases the GIL, so threads run wasm in parallel
        self.path = path

        def fn(name: str, res: Any, *args: Any) -> Any:
            f = getattr(dll, name)
            f.restype, f.argtypes = res, list(args)
            return f

        p = c_void_p
        self.config_new = fn("wasm_config_new", p)
        self.config_memory_may_move = fn("wasmtime_config_memory_may_move_set", None, p, c_bool)
        self.engine_new = fn("wasm_engine_new_with_config", p, p)
        self.module_new = fn("wasmtime_module_new", p, p, ctypes.c_char_p, c_size_t, p)
        self.module_deserialize = fn("wasmtime_module_deserialize", p, p, ctypes.c_char_p, c_size_t, p)
        self.module_serialize = fn("wasmtime_module_serialize", p, p, p)
        self.module_delete = fn("wasmtime_module_delete", None, p)
        self.byte_vec_delete = fn("wasm_byte_vec_delete", None, p)
        self.store_new = fn("wasmtime_store_new", p, p, p, p)
        self.store_context = fn("wasmtime_store_context", p, p)
        self.store_delete = fn("wasmtime_store_delete", None, p)
        self.instance_new = fn("wasmtime_instance_new", p, p, p, p, c_size_t, p, p)
        self.export_get = fn("wasmtime_instance_export_get", c_bool, p, p, ctypes.c_char_p, c_size_t, p)
        self.memory_data = fn("wasmtime_memory_data", p, p, p)
        self.memory_data_size = fn("wasmtime_memory_data_size", c_size_t, p, p)
        self.error_message = fn("wasmtime_error_message", None, p, p)
        self.error_delete = fn("wasmtime_error_delete", None, p)
        self.trap_message = fn("wasm_trap_message", None, p, p)
        self.trap_code = fn("wasmtime_trap_code", c_bool, p, p)
        self.trap_delete = fn("wasm_trap_delete", None, p)
        # The hot call, without argtypes: callers pass prebuilt ctypes objects of
        # the parameters' C types, with no from_param() per argument (~0.1 µs).
        self.call_unchecked = dll.wasmtime_func_call_unchecked
        self.call_unchecked.restype = p

    def failure(self, err: Optional[int], trap: Optional[int]) -> WasmError:
        """The error or trap as a WasmError; frees it."""
        vec, overflow = _ByteVec(), False
        if err:
            self.error_message(err, byref(vec))
            self.error_delete(err)
        else:
            self.trap_message(trap, byref(vec))
            code = c_uint8(255)
            overflow = bool(self.trap_code(trap, byref(code))) and code.value == _TRAP_STACK_OVERFLOW
            self.trap_delete(trap)
        text = ctypes.string_at(vec.data, vec.size).rstrip(b"\0").decode("utf-8", "replace") if vec.data else ""
        self.byte_vec_delete(byref(vec))
        # wasmtime puts the backtrace first and the cause after "Caused by:": the cause leads here.
        cause = text.partition("Caused by:")[2].strip()
        if cause:
            text = "%s\n%s" % (cause.splitlines()[0].strip(), text)
        return WasmError(text or "unknown wasmtime failure", overflow)


_lock = threading.Lock()
_lib: Optional[_Lib] = None
_engine: Optional[int] = None


def lib() -> _Lib:
    global _lib
    if _lib is None:
        with _lock:
            if _lib is None:
                if sys.byteorder != "little":  # pragma: no cover - wasmtime's wheels are x86_64/aarch64
                    raise WasmError("this package reads wasm memory as a little-endian host")
                _lib = _Lib(library_path())
    return _lib


def new_engine(memory_may_move: bool = False) -> int:
    """A new engine. ``memory_may_move=False`` (the package's one engine): a linear
    memory keeps its base address for an instance's life, so views of it stay valid."""
    L = lib()
    config = L.config_new()
    L.config_memory_may_move(config, memory_may_move)
    e = L.engine_new(config)  # takes the config
    if not e:  # pragma: no cover - wasmtime refused its own settings
        raise WasmError("wasmtime could not make an engine")
    return int(e)


def engine() -> int:
    """The process's engine (never freed: modules compiled with it live as long)."""
    global _engine
    if _engine is None:
        e = new_engine()
        with _lock:
            if _engine is None:
                _engine = e
    return _engine


class Module:
    """A compiled module of an engine."""

    def __init__(self, ptr: int, engine_ptr: int) -> None:
        self.ptr = c_void_p(ptr)
        self.engine = c_void_p(engine_ptr)
        self._lib = lib()

    @classmethod
    def compile(cls, engine_ptr: int, wasm: bytes) -> "Module":
        return cls._made(engine_ptr, wasm, lib().module_new)

    @classmethod
    def deserialize(cls, engine_ptr: int, data: bytes) -> "Module":
        """A module from ``serialize()``'s bytes: machine code, to be trusted only from our own cache."""
        return cls._made(engine_ptr, data, lib().module_deserialize)

    @classmethod
    def _made(cls, engine_ptr: int, data: bytes, make: Any) -> "Module":
        out = c_void_p()
        data = bytes(data)  # a bytearray or view too
        err = make(c_void_p(engine_ptr), data, len(data), byref(out))
        if err:
            raise lib().failure(err, None)
        return cls(int(out.value or 0), engine_ptr)

    def serialize(self) -> bytes:
        vec = _ByteVec()
        err = self._lib.module_serialize(self.ptr, byref(vec))
        if err:
            raise self._lib.failure(err, None)
        try:
            return ctypes.string_at(vec.data, vec.size)
        finally:
            self._lib.byte_vec_delete(byref(vec))

    def __del__(self) -> None:
        if self.ptr:
            self._lib.module_delete(self.ptr)
            self.ptr = c_void_p(0)


class Instance:
    """One Store holding one instance of a module: its exports, calls and linear memory.
    A Store must never be entered by two threads at once: one instance per thread."""

    def __init__(self, module: Module) -> None:
        L = self._lib = module._lib
        self._module = module  # the Store's code lives as long as the module
        self._store = c_void_p(L.store_new(module.engine, None, None))
        self.ctx = c_void_p(L.store_context(self._store))
        self._inst = (c_uint8 * 32)()
        trap = c_void_p(0)
        err = L.instance_new(self.ctx, module.ptr, None, 0, byref(self._inst), byref(trap))
        if err or trap.value:
            raise L.failure(err, trap.value)
        self._exports: Dict[str, Tuple[Any, c_void_p]] = {}  # name: its wasmtime_extern_t, its handle
        self.raw = (ctypes.c_int64 * (2 * _SLOTS))()  # wasmtime_val_raw_t slots: arguments in, results out
        self.raw_addr = c_void_p(ctypes.addressof(self.raw))
        self.slots = memoryview(self.raw).cast("B").cast("i")  # slot k's i32 at index 4k
        self.trap = c_void_p(0)
        self.trap_addr = c_void_p(ctypes.addressof(self.trap))
        self.counts = [c_size_t(k) for k in range(_SLOTS + 1)]
        self.memory = self._export("memory", _EXTERN_MEMORY)

    def _export(self, name: str, kind: int) -> c_void_p:
        """The export's handle; asked again, the same one (it points into its wasmtime_extern_t, kept for
        the instance's life)."""
        known = self._exports.get(name)
        ext = self._lookup(name) if known is None else known[0]
        if ext is None or ext[0] != kind:
            raise WasmError("the wasm module has no %s export %r" % ("memory" if kind == _EXTERN_MEMORY else "function", name))
        if known is None:
            known = self._exports[name] = (ext, c_void_p(ctypes.addressof(ext) + _OF))
        return known[1]

    def func(self, name: str) -> c_void_p:
        """An exported function's handle, for ``call``."""
        return self._export(name, _EXTERN_FUNC)

    def has(self, name: str) -> bool:
        return self._lookup(name) is not None

    def _lookup(self, name: str) -> Any:
        """The export's wasmtime_extern_t (a buffer), or None if the module has no such export."""
        ext = (c_uint8 * _EXTERN_BYTES)()
        key = name.encode("ascii")
        return ext if self._lib.export_get(self.ctx, byref(self._inst), key, len(key), byref(ext)) else None

    def call(self, func: c_void_p, *args: int) -> int:
        """Calls an export taking i32 arguments; returns its i32 result (slot 0: meaningless for an
        export without one). A trap raises WasmError."""
        s = self.slots
        for k, a in enumerate(args):
            s[4 * k] = ((a & 0xFFFFFFFF) ^ 0x80000000) - 0x80000000  # its low 32 bits as an i32
        err = self._lib.call_unchecked(self.ctx, func, self.raw_addr, self.counts[max(len(args), 1)], self.trap_addr)
        if err or self.trap.value:
            raise self.failure(err)
        return int(s[0])

    def failure(self, err: Optional[int]) -> WasmError:
        """The failed call's error or trap (freed) as a WasmError."""
        trap, self.trap.value = self.trap.value, 0
        return self._lib.failure(err, trap)

    def view(self) -> memoryview:
        """Linear memory as bytes. Take it anew after a call that may have grown memory:
        the base address is fixed (memory_may_move=False), the length is not."""
        base = self._lib.memory_data(self.ctx, self.memory)
        return memoryview((ctypes.c_char * self.memory_size()).from_address(base)).cast("B")

    def memory_size(self) -> int:
        return int(self._lib.memory_data_size(self.ctx, self.memory))

    def __del__(self) -> None:
        store = getattr(self, "_store", None)
        if store:
            self._lib.store_delete(store)
            self._store = c_void_p(0)
