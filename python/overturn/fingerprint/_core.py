"""The wasm core through wasmtime: one request in, one ``run``, digest or text out.

Internal. Implements the host side of the ABI documented at the top of
``assembly/entry/fingerprint.ts`` (the TypeScript twin is ``src/core.ts``):

* wasmtime is reached through its C API (``_wasmtime.py``: importing the
  ``wasmtime`` package's classes cost ~33 ms of every process);
* one ``Engine`` and ``Module`` per process, compiled lazily on the first
  call under a (re-entrant) lock: compiling at import would tax every program
  that imports the SDK without calling it (the disk cache makes a later
  process's load ~1 ms). Cranelift's default ``speed`` stays: ``none``
  compiles barely faster and runs about half as fast;
* one ``Store``/instance per thread (``threading.local``): a Store must never
  be used by two threads at once, and per-thread instances need no lock, so
  threads run the core in parallel (ctypes releases the GIL during the call);
* memory is reached through a ``memoryview`` over the linear memory's data
  pointer (slice writes ~0.24 µs for 130 B vs ~1.1 µs for ``ctypes.memmove``
  and more for ``Memory.write``). The engine is configured with
  ``memory_may_move = False``, so the base address is fixed for the
  instance's lifetime and only the length grows: the view is re-taken when a
  range we need lies beyond it (after ``reserve`` or a large output);
* the call itself uses wasmtime's C API ``wasmtime_func_call_unchecked`` on a
  preallocated ``wasmtime_val_raw_t`` slot, through our own ctypes prototype
  with prebuilt arguments and no argtypes: about 25 times cheaper than
  wasmtime-py's checked ``Func.__call__`` (docs/performance.md);
* the compiled module is cached on disk across processes (``_module_cache.py``),
  and every module, cached or compiled, gives known answers before its first
  use (``_selftest.py``); every digest read from the core is checked to be 64
  lowercase hex digits (``digest_text``, ``check_digests``; docs/security.md).

Calls do not nest: a call re-entered on the same thread (a signal handler or
``__del__`` that fingerprints while another call is writing its request) gets
a temporary instance of its own.

Limits and memory retention live in ``_limits.py``; the core
decides and words every limit (``assembly/base/limits.ts``). Here they are three
hooks in ``_call``: the limits passed to the instance when it was told
others (``_tell``; the core answers the byte limit in force), an input
longer than that limit cut after limit + 1 bytes before it is copied in
(the core refuses it by its length), and the instance retired after a call
that left its memory above ``retain_memory_bytes`` (checked only for
requests large enough to have grown it: small calls pay one integer
comparison).

A wasm trap is never expected (the core reports every bad input as a status,
D19); should one happen, the thread's instance is dropped (its state may be
corrupt), a new one is made on the next call, and the trap becomes a
FingerprintError("internal-error") — never a wasmtime exception.
"""
from __future__ import annotations

import os
import threading
TYPE_CHECKING = False  # typing is not imported at run time: ~3 ms of a CLI start
if TYPE_CHECKING:
    from typing import Any, List, Optional, Tuple

from . import _limits, _pieces, _value
from ._abi import (E_LIMIT_DEPTH, E_LIMIT_MEMBERS, E_LIMIT_SHARED, F_DIGEST, F_IGNORE, F_MARSHAL, F_MATCH_ON, F_PREIMAGE, F_STRING_INPUT,
                   F_TEXT, RESULT_DIGEST, RESULT_STATUS, WORD_OUT, W_BAD_DIGEST)
from ._errors import FingerprintError, core_error, host_error
from ._instance import HEADER as _HEADER, RESULT as _RESULT, Instance, Pool, check_module, trap_error  # noqa: F401 (re-exported)
from ._module_cache import load_module
from ._wasmtime import Module, engine

__all__ = ["F_DIGEST", "F_IGNORE", "F_MATCH_ON", "F_STRING_INPUT", "F_TEXT", "call"]

_DIGEST_AT = RESULT_DIGEST  # the digest in the result block (generated from assembly/abi.ts)
#: Characters of a str encoded in one piece; a longer one is encoded in
#: pieces by _call (``_pieces``). The one piece (at most 8 MB, ~2 MB for
#: typical text) is freed before the core runs, as a piece is; pieces and
#: their heap trim cost a 1.1 MB text ~3-4 ms more than one encode.
_SMALL_TEXT = 1 << 21

WASM_FILE = "fingerprint.wasm"
ENGINE_TAG = "memory_may_move=False"  # the engine's setting a cached module depends on

#: Core statuses that are a limit's answer: on the marshal path final, as the text path
#: would read the same tree to the same limit (and a reference bomb must not reach json.dumps).
_LIMIT_STATUSES = frozenset((E_LIMIT_DEPTH, E_LIMIT_MEMBERS, E_LIMIT_SHARED))

_lock = threading.RLock()  # re-entrant: a __del__ that fingerprints may run while this thread compiles
_module: Optional[Module] = None


def wasm_bytes() -> bytes:
    """The packaged core, byte for byte as built by scripts/build-wasm.mjs."""
    return package_bytes(WASM_FILE)


def package_bytes(name: str) -> bytes:
    """A file of this package (a .wasm module)."""
    # A plain read beside this file where there is one (every pip install):
    # importlib.resources took 15-22 ms of a fresh process's first call here.
    try:
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), name), "rb") as f:
            return f.read()
    except OSError:  # a zip import or another loader: ask it
        from importlib import resources

        return resources.files(__package__).joinpath(name).read_bytes()


def _compiled() -> Module:
    global _module
    if _module is not None:
        return _module
    with _lock:
        if _module is None:
            try:
                _module = load_module(engine(), wasm_bytes(), ENGINE_TAG)
            except (ImportError, OSError) as e:  # pragma: no cover - a dependency
                raise FingerprintError("internal-error", "the wasmtime package is required: %s" % e) from None
    return _module


_HEX = b"0123456789abcdef"


def digest_text(raw: Any) -> str:
    """The core's digest bytes as str, checked to be 64 lowercase hex digits: whatever a module
    (or memory) got wrong, a caller never receives anything else as a fingerprint."""
    b = bytes(raw)
    if len(b) != 64 or b.translate(None, _HEX):
        raise host_error(W_BAD_DIGEST)
    return b.decode("ascii")


def check_digests(block: bytes, stride: int) -> None:
    """Raises unless ``block`` (a batch's digests from the core) is whole digests of 64 lowercase
    hex digits, each followed by a newline when ``stride`` is 65. One pass (~30 ns a digest)."""
    k = len(block) // stride
    rest = block.translate(None, _HEX)  # all that is not hex: nothing, or the newlines where they belong
    ok = not rest if stride == 64 else rest == b"\n" * k and block[64::65] == b"\n" * k
    if not ok or len(block) != k * stride:
        raise host_error(W_BAD_DIGEST)


#: A digest is asked as the preimage and hashed here by OpenSSL (SHA
#: extensions), as the Node SDK does with node:crypto: measured (medians µs,
#: small/medium/large) core SHA-256 4.2/128/17,848 against preimage + hashlib
#: 3.9/100/16,700. The core still writes every byte. Not above
#: _HOST_HASH_MAX: there the core's streaming SHA-256 keeps the whole
#: preimage out of memory. OpenSSL's module costs ~2.7 ms to
#: import, so the first _HOST_HASH_AFTER digests hash in the core (start-up).
_HOST_HASH_MAX = 16 << 20
_HOST_HASH_AFTER = 32
_host_sha256: Any = None
_digests = 0


def _load_host_sha256(now: bool = False) -> Any:
    global _host_sha256, _digests
    _digests += 1
    if _digests > _HOST_HASH_AFTER or now:  # now: a batch (its OpenSSL import is a small part of it)
        try:
            from _hashlib import openssl_sha256 as sha  # the C module hashlib wraps, without hashlib's imports
        except ImportError:  # pragma: no cover - a Python built without OpenSSL
            from hashlib import sha256 as sha
        _host_sha256 = sha
    return _host_sha256


class _Instance(Instance):
    """An instance of the fingerprint module (the compiled one unless given)."""

    def __init__(self, module: Optional[Module] = None) -> None:
        super().__init__(module or _compiled(), "fingerprint")


# Each thread's instance; the functions bound to it (_api's value call, plain()) go with it.
_pool = Pool(_Instance, "fingerprint", ("plain", "value"))
_local = _pool.local
instance = _pool.instance
_forget = _pool.forget


def word(word_id: int, params: List[str]) -> str:
    """The message of an error this host raises itself, from the core (its ``word`` export,
    which touches only its own buffer: safe on an instance whose request is being written).
    Parameters past the buffer's room are cut."""
    if getattr(_local, "wording", False):  # the module failed while wording an error: no words to ask for
        return "error %d: %s" % (word_id, "; ".join(params))
    _local.wording = True
    try:
        st = instance()
        b = "\0".join(params).encode("utf-8", "surrogatepass")[:WORD_OUT]
        at = st.call(st.func("wordBuf")) & 0xFFFFFFFF
        st.refresh()
        st.view[at:at + len(b)] = b
        n = st.call(st.func("word"), word_id, len(b)) & 0xFFFFFFFF
        st.refresh()
        return str(st.view[at + WORD_OUT:at + WORD_OUT + n], "utf-8", "replace")
    finally:
        _local.wording = False


def limit_args(members: bytes) -> Tuple[int, ...]:
    """A limits mapping checked by the core (abi.ts F_LIMITS, named as this SDK names them): which
    were given, and the three numbers; or the core's FingerprintError. Not under the limits
    themselves (no tell): a request of its own on an idle instance (a spare when re-entered)."""
    st = _pool.acquire()
    try:
        return tuple(st.ask("limits", {"kind": b"_", "args": members}, tell=False)[3].values())
    finally:
        _pool.release(st)


def call(flags: int, kind: bytes, name: bytes, match: bytes, ignore: bytes, args: Any,
         settings: Optional[_limits.Settings] = None) -> str:
    """One core call; returns the digest (F_DIGEST) or the canonical text (F_TEXT).

    ``kind``/``name`` are JSON string literals, ``match``/``ignore`` JSON
    arrays of strings (b"" when absent), all UTF-8/WTF-8. ``args`` is JSON
    text as ``bytes`` (or another buffer), as a ``str`` (encoded here, after
    the byte limit's lower bound passed), or a ``list`` of ASCII ``str``
    pieces that this call empties while copying them in (see ``_pieces``).
    ``settings``: the call's limits (None: the configured ones).
    Raises FingerprintError for every core failure.
    """
    # Re-entered on this thread (a signal handler or __del__ that fingerprints): a spare instance,
    # never the half-written input region.
    st = _pool.acquire()
    try:
        return _call(st, _limits.active if settings is None else settings, flags, kind, name, match, ignore, args)
    finally:
        _pool.release(st)


def plain(flags: int, name: bytes, data: Any) -> Any:
    """The common call: ``data`` as bytes (JSON text) or, with F_MARSHAL, the host value (its marshal
    stream made here), the default kind, no key lists, the configured limits, no byte limit (the
    caller checks). The digest (F_DIGEST) or the text (F_TEXT); for a text the core refused None,
    for a value one of ``_stream``'s markers: the caller then takes its full path, which gives the
    answer or the error. The same request as ``call``, in fewer Python steps (``_value.bind``)."""
    try:
        fn = _local.plain[flags]
    except (AttributeError, KeyError):
        fn = plain_fn(flags)
    return fn(name, data)


def plain_fn(flags: int = F_DIGEST | F_MARSHAL) -> Any:
    """This thread's ``plain`` function for ``flags``, ``fn(name, data)``, kept beside the instance, not
    on it: the closure holds the instance, and a cycle would keep a retired Store alive until a GC."""
    fn = _local.__dict__.setdefault("plain", {})[flags] = _value.bind(instance(), flags)
    return fn


def _call(st: Instance, s: _limits.Settings, flags: int, kind: bytes, name: bytes, match: bytes,
          ignore: bytes, args: Any) -> str:
    most = st.tell(s)
    if type(args) is str and len(args) <= _SMALL_TEXT:  # a short text call: encoded here in one piece
        # Over the byte limit by its length (a character is a byte or more): its first limit + 1 go in,
        # which the core refuses by their length (assembly/base/limits.ts: its one message).
        args = (args if len(args) <= most else args[:most + 1]).encode("utf-8", "surrogatepass")
    pieces = None
    if type(args) is not bytes:  # type(): a subclass's lying __class__ is never trusted
        size, pieces = _pieces.prepare(args, most)  # at most its first most + 1 bytes (see _pieces)
        args = None
    elif len(args) > most:
        args = memoryview(args)[:most + 1]  # the core refuses it by its length, before reading it
    hash_here = args is not None and flags & F_DIGEST and len(args) <= _HOST_HASH_MAX and (
        _host_sha256 or _load_host_sha256())
    if hash_here:
        flags ^= F_DIGEST | F_PREIMAGE
    if args is not None:
        size = len(args)
    head = _HEADER.pack(flags, len(kind), len(name), len(match), len(ignore), size) + kind + name + match + ignore
    n = len(head) + size
    st.head = None  # the hot path rewrites its header after this request
    st.room(n)  # same address (fixed for the instance), more room
    p = st.in_ptr
    if args is not None and n <= 4096:  # one slice write beats two
        st.view[p:p + n] = head + args
    else:
        st.view[p:p + len(head)] = head
        if pieces is None:
            st.view[p + len(head):p + n] = args
        else:
            _pieces.write(st.view, p + len(head), pieces)
    # Nothing made here outlives the write: the core runs without a host copy beside it (a lower peak).
    args = pieces = None
    return _run(st, s, flags, n, bool(hash_here))


def _run(st: Instance, s: _limits.Settings, flags: int, n: int, hash_here: bool = False) -> str:
    """Runs the request of n bytes written at st.in_ptr (its limits told: _call); returns the digest or text."""
    st.slot.value = n  # the status goes to the result block
    err = st.call_unchecked(st.ctx, st.run_addr, st.raw_addr, st.one, st.trap_addr)
    if err or st.trap.value:  # dropped before its error is worded: the words come from a new instance
        _forget(st)
        raise st._trapped(err)
    if n > s.measure_above:  # only a large request can have grown memory past retain
        _pool.retire_if_large(st, s.retain)  # st stays usable until this call returns
    st.refresh()  # the run may have grown memory
    status, offset, _part, ptr, size = _RESULT.unpack_from(st.view, st.result + RESULT_STATUS)
    if status:  # the message is the core's, whole (assembly/base/words.ts)
        raise core_error(status, offset, str(st.view[ptr:ptr + size], "utf-8"))
    if flags & F_DIGEST:
        return digest_text(st.view[st.result + _DIGEST_AT:st.result + _DIGEST_AT + 64])
    text = st.view[ptr:ptr + size]
    return _host_sha256(text).hexdigest() if hash_here else str(text, "utf-8")  # type: ignore[no-any-return]
