"""The wasm core through wasmtime: one request in, one ``run``, digest or text out.

Internal. Implements the host side of the ABI documented at the top of
``assembly/entry/fingerprint.ts`` (the TypeScript twin is ``src/core.ts``):

* wasmtime is reached through its C API (``_wasmtime.py``: importing the
  ``wasmtime`` package's classes cost ~33 ms of every process);
* one ``Engine`` and ``Module`` per process, compiled lazily on the first
  call under a (re-entrant) lock. Measured here (sessions 1-2, a 2-core EPYC
  shared with other jobs, so read ratios): compiling the ~35 KB module
  45-190 ms (now read from the disk cache in ~1 ms), instantiating
  0.5-0.7 ms, a later call ~0.1 ms; in session 7 loading wasmtime's native
  library ~3 ms and ``import overturn.fingerprint`` ~1 ms. Compiling at import would
  tax every program that imports the SDK without calling it, so the first
  call pays instead. Cranelift ``opt_level="none"`` compiles barely faster
  (85 vs 97 ms) but runs slower (small call 19 vs 11 µs, 1.1 MB 44 vs 31 ms
  under the same load), so the default ``speed`` stays;
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
  whose arguments are plain addresses. Per call of ``version()`` (no work
  in wasm), best of 40 interleaved batches, on the loaded 2-core machine:

  ===============================================  ========
  ``Func.__call__`` (wasmtime-py's checked path)   ~16 µs
  wasmtime-py's ``wasmtime_func_call_unchecked``  ~2.1 µs
  own prototype, int addresses                       ~0.9 µs
  own prototype, prebuilt c_void_p arguments        ~0.76 µs
  no argtypes, the same prebuilt arguments          ~0.63 µs  ← used
  ===============================================  ========

  (The last row measured later, in one process beside the one above it:
  540 vs 680 ns, issue 14.)

  A whole small fingerprint (~130 B) of a value then costs ~4.2 µs of CPU
  (issue 14, python/README.md "Speed"): ``marshal.dumps`` 0.46, the request
  0.2, the call 0.53, the core 0.47, ``hashlib`` 0.65, the rest Python
  around them; ``plain()`` is that call in the fewest steps.

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

import ctypes
import os
import struct
import threading
TYPE_CHECKING = False  # typing is not imported at run time: ~3 ms of a CLI start (issue 13)
if TYPE_CHECKING:
    from typing import Any, List, Optional, Tuple

from . import _limits, _pieces
from ._abi import (E_LIMIT_DEPTH, E_LIMIT_MEMBERS, E_LIMIT_SHARED, F_DIGEST, F_IGNORE, F_MARSHAL, F_MATCH_ON, F_PREIMAGE, F_STRING_INPUT,
                   F_TEXT, HEADER_BYTES, HEADER_WORDS, RESULT_DIGEST, RESULT_STATUS, RESULT_TEXT_PTR, WORD_OUT, W_BAD_DIGEST)
from ._errors import FingerprintError, core_error, host_error
from ._instance import HEADER as _HEADER, RESULT as _RESULT, Instance, Pool, check_module, trap_error  # noqa: F401 (re-exported)
from ._module_cache import load_module
from ._wasmtime import Module, engine

__all__ = ["F_DIGEST", "F_IGNORE", "F_MATCH_ON", "F_STRING_INPUT", "F_TEXT", "call"]

# Layouts from the generated ABI (assembly/abi.ts via scripts/gen-abi.mjs).
_HEADER_LEN = HEADER_BYTES
_ARGS_LEN_AT = 4 * (HEADER_WORDS - 1)  # the header's last word: argsLen
_DIGEST_AT = RESULT_DIGEST
_TEXT = struct.Struct("<II")  # text ptr, text len (RESULT_TEXT_PTR, RESULT_TEXT_LEN)
#: Characters of a str encoded in one piece; a longer one is encoded in
#: pieces by _put_large (issue 15). The one piece (at most 8 MB, ~2 MB for
#: typical text) is freed before the core runs, as a piece is; pieces and
#: their heap trim cost a 1.1 MB text ~3-4 ms more than one encode (issue 14).
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
        raise bad_digest()
    return b.decode("ascii")


def check_digests(block: bytes, stride: int) -> None:
    """Raises unless ``block`` (a batch's digests from the core) is whole digests of 64 lowercase
    hex digits, each followed by a newline when ``stride`` is 65. One pass (~30 ns a digest)."""
    k = len(block) // stride
    rest = block.translate(None, _HEX)  # all that is not hex: nothing, or the newlines where they belong
    ok = not rest if stride == 64 else rest == b"\n" * k and block[64::65] == b"\n" * k
    if not ok or len(block) != k * stride:
        raise bad_digest()


def bad_digest() -> FingerprintError:
    return host_error(W_BAD_DIGEST)


#: A digest is asked as the preimage and hashed here by OpenSSL (SHA
#: extensions), as the Node SDK does with node:crypto: measured (medians µs,
#: small/medium/large) core SHA-256 4.2/128/17,848 against preimage + hashlib
#: 3.9/100/16,700 (issue 14). The core still writes every byte. Not above
#: _HOST_HASH_MAX: there the core's streaming SHA-256 keeps the whole
#: preimage out of memory (issue 15). OpenSSL's module costs ~2.7 ms to
#: import, so the first _HOST_HASH_AFTER digests hash in the core (start-up, issue 11).
_HOST_HASH_MAX = 16 << 20
_HOST_HASH_AFTER = 32
_host_sha256: Any = None
_digests = 0


def _load_host_sha256() -> Any:
    global _host_sha256, _digests
    _digests += 1
    if _digests > _HOST_HASH_AFTER:
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
    pieces that this call empties while copying them in (see ``_put_large``).
    ``settings``: the call's limits (None: the configured ones).
    Raises FingerprintError for every core failure.
    """
    s = _limits.active if settings is None else settings
    try:
        st = _local.inst
    except AttributeError:
        st = instance()
    if st.busy:
        # Re-entered on this thread (a signal handler or __del__ that
        # fingerprints): never share the half-written input region.
        st = _pool.spare()
    st.busy = True
    try:
        return _call(st, s, flags, kind, name, match, ignore, args)
    finally:
        _pool.release(st)


def plain(flags: int, name: bytes, data: bytes) -> Optional[str]:
    """The common call (issue 14): args ``data`` as bytes (the value path's
    marshal stream with F_MARSHAL, or JSON text), the default kind, no key
    lists, the configured limits, no byte limit (the caller checks).

    Returns the digest (F_DIGEST) or the text (F_TEXT), or None when the
    core refused the request (the caller then takes its full path, which
    gives the answer or the error). The same request as ``call``, in fewer
    Python steps: this thread's ``plain_fn()``.
    """
    try:
        fn = _local.plain
    except AttributeError:
        fn = plain_fn()
    return fn(flags, name, data, _limits.active)  # type: ignore[no-any-return]


def plain_fn() -> Any:
    """This thread's ``plain`` function (hot callers keep ``_local.plain``
    and call it directly): ``fn(flags, name, data, settings)``."""
    st = instance()
    # Kept beside the instance, not on it: the closure holds the instance,
    # and a cycle would keep a retired Store alive until a GC (issue 15).
    fn = _local.plain = _bind_plain(st) if st.fast else _fallback_plain
    return fn


def _bind_plain(st: Instance) -> Any:
    """``plain`` for one instance, with every per-instance constant bound
    once as a closure variable: at ~130 B a call is ~4 µs, and each
    attribute load it saves is ~1% of that (issue 14). The header and name of
    the last request stay in place when the next one repeats them, so only
    the args length and the args are written; the run is inlined; limits and
    retirement are checked only where the settings and size show work to do;
    anything else goes through ``call``, as do instances whose words are not
    aligned for it (``_fallback_plain``).

    With F_MARSHAL, ``data`` is the host value and the marshal stream is
    made here (``_stream``: when marshal may run on this thread's stack);
    the answer is then the digest/text, or one of ``_stream``'s markers.
    """
    from . import _stream  # imports this module: bound at first use, not at import

    run_unchecked = st.call_unchecked
    ctx, run_addr, raw_addr, one, trap_addr = st.ctx, st.run_addr, st.raw_addr, st.one, st.trap_addr
    trap, p, text_word = st.trap, st.in_ptr, st.text_word
    # The argument/result slot and the trap pointer as memoryview items:
    # ~30 ns a read or write against ~45 for a ctypes .value (issue 14).
    slot = memoryview(st.raw).cast("B").cast("i")
    trapped = memoryview(trap).cast("B").cast("Q" if ctypes.sizeof(trap) == 8 else "I")
    len_word = text_word + 1
    args_len_word = (p + _ARGS_LEN_AT) >> 2
    pack = _HEADER.pack
    full_call = call
    hlen, digest, swap = _HEADER_LEN, F_DIGEST, F_DIGEST | F_PREIMAGE
    dumps = _stream._dumps
    # Decided once per thread: its stack was fixed when it started, before this first call.
    use_marshal = _stream.marshal_allowed()
    NOT_PLAIN, PLAIN, UNKNOWN = _stream.NOT_PLAIN, _stream.PLAIN, _stream.UNKNOWN

    def plain_bound(flags: int, name: bytes, data: Any, s: _limits.Settings) -> Optional[str]:
        miss = None  # the answer when the core refuses the request
        if flags & F_MARSHAL:
            if not use_marshal:
                return UNKNOWN
            try:
                data = dumps(data, 4)
            except Exception:  # ValueError: unmarshallable or too deep; the text path decides
                return NOT_PLAIN
            # A byte limit counts the JSON text a value becomes, so a
            # call under one takes the text path, which sends that text.
            if s.any_bytes:
                return PLAIN
            miss = PLAIN
        ld = len(data)
        n = hlen + len(name) + ld
        if st.busy or st.sent is not s.core or n > st.in_cap or n > s.measure_above:
            try:
                return full_call(flags, b"", name, b"", b"", data, s)
            except FingerprintError as e:
                if miss is not None and e.code == "limit-exceeded":
                    raise  # the text path reads the same tree: its answer, without its cost (D16 copies)
                return miss
        if flags & digest:
            sha = _host_sha256 or _load_host_sha256()
            if sha is not None:
                flags ^= swap  # the core writes the preimage, hashed here
        else:
            sha = None
        st.busy = True
        try:
            view = st.view
            words = st.words  # u32 view: the args length here, the result's text pointer and length below
            if st.head is name and st.head_flags == flags:
                # The header and name of the last request are still in place (no
                # other request was written since): only the args length and the args.
                words[args_len_word] = ld
                q = p + n
                view[q - ld:q] = data
            else:
                view[p:p + n] = pack(flags, 0, len(name), 0, 0, ld) + name + data
                st.head = name
                st.head_flags = flags
            slot[0] = n
            err = run_unchecked(ctx, run_addr, raw_addr, one, trap_addr)
            # A trap leaves the slot as written (n, never 0): one read settles the common case.
            if err or slot[0]:
                if err or trapped[0]:
                    _forget(st)
                    st._trapped(err)  # frees the trap; the full path answers (as call() failing would)
                elif miss is not None and slot[0] in _LIMIT_STATUSES:
                    st.head = None
                    st.busy = False
                    return full_call(flags ^ swap if sha is not None else flags, b"", name, b"", b"", data, s)
                return miss
            if flags & digest:
                r = st.result + _DIGEST_AT
                return digest_text(view[r:r + 64])
            ptr = words[text_word]
            end = ptr + words[len_word]
            if end > len(view):
                st.refresh()
                view = st.view
            if sha is not None:
                return sha(view[ptr:end]).hexdigest()  # type: ignore[no-any-return]
            return str(view[ptr:end], "utf-8")
        finally:
            st.busy = False

    return plain_bound


def _fallback_plain(flags: int, name: bytes, data: Any, s: _limits.Settings) -> Optional[str]:
    """``plain`` where the instance's layout does not allow its shortcuts: the full path."""
    from . import _stream

    if flags & F_MARSHAL:
        return _stream.marshal_call(flags & ~F_MARSHAL, b"", name, data, s)
    try:
        return call(flags, b"", name, b"", b"", data, s)
    except FingerprintError:
        return None


def _call(st: Instance, s: _limits.Settings, flags: int, kind: bytes, name: bytes, match: bytes,
          ignore: bytes, args: Any) -> str:
    most = st.tell(s)
    if type(args) is str and len(args) <= _SMALL_TEXT:  # a short text call: encoded here in one piece
        # Over the byte limit by its length (a character is a byte or more): its first limit + 1 go in,
        # which the core refuses by their length (assembly/base/limits.ts: its one message).
        args = (args if len(args) <= most else args[:most + 1]).encode("utf-8", "surrogatepass")
    if type(args) is not bytes:  # type(): a subclass's lying __class__ is never trusted
        # Nothing _put_large made outlives it: the core runs without a host copy beside it.
        return _run(st, s, flags, _put_large(st, most, flags, kind, name, match, ignore, args))
    if len(args) > most:
        args = memoryview(args)[:most + 1]  # the core refuses it by its length, before reading it
    hash_here = flags & F_DIGEST and len(args) <= _HOST_HASH_MAX and (_host_sha256 or _load_host_sha256())
    if hash_here:
        flags ^= F_DIGEST | F_PREIMAGE
    at, n = _head(st, flags, kind, name, match, ignore, len(args), args)
    if at >= 0:  # a large request: its args in a second write, then freed before the core runs (the peak of issue 15)
        st.view[at:st.in_ptr + n] = args
        args = None
    return _run(st, s, flags, n, bool(hash_here))


def _head(st: Instance, flags: int, kind: bytes, name: bytes, match: bytes, ignore: bytes, size: int,
          args: Any = None) -> Tuple[int, int]:
    """Writes the header and the four short parts at ``in_ptr``, and ``args`` too when the request is
    small (one slice write beats two): where args go (-1: written) and the request's length."""
    head = _HEADER.pack(flags, len(kind), len(name), len(match), len(ignore), size) + kind + name + match + ignore
    h = len(head)
    n = h + size
    st.head = None  # plain() rewrites its header after this request
    st.room(n)  # same address (fixed for the instance), more room
    p = st.in_ptr
    if args is not None and n <= 4096:
        st.view[p:p + n] = head + args
        return -1, n
    st.view[p:p + h] = head
    return p + h, n


def _run(st: Instance, s: _limits.Settings, flags: int, n: int, hash_here: bool = False) -> str:
    """Runs the request of n bytes written at st.in_ptr (its limits told: _call); returns the digest or text."""
    st.slot.value = n  # Instance.run inlined: this is the hot path
    err = st.call_unchecked(st.ctx, st.run_addr, st.raw_addr, st.one, st.trap_addr)
    if err or st.trap.value:
        _forget(st)
        raise st._trapped(err)
    status = st.slot.value
    r = st.result
    if n > s.measure_above:  # only a large request can have grown memory past retain
        _pool.retire_if_large(st, s.retain)  # st stays usable until this call returns
    if status:
        status, offset, part, ptr, size = _RESULT.unpack_from(st.view, r + RESULT_STATUS)
        if ptr + size > len(st.view):
            st.refresh()
        # The message is the core's, whole (assembly/base/words.ts).
        raise core_error(status, offset, str(st.view[ptr:ptr + size], "utf-8") if size else "")
    if flags & F_DIGEST:
        return digest_text(st.view[r + _DIGEST_AT:r + _DIGEST_AT + 64])
    ptr, size = _TEXT.unpack_from(st.view, r + RESULT_TEXT_PTR)
    if ptr + size > len(st.view):
        st.refresh()
    if hash_here:
        return _host_sha256(st.view[ptr:ptr + size]).hexdigest()  # type: ignore[no-any-return]
    return str(st.view[ptr:ptr + size], "utf-8")


def _put_large(st: Instance, most: int, flags: int, kind: bytes, name: bytes, match: bytes,
               ignore: bytes, args: Any) -> int:
    """Writes a request whose args are not ``bytes`` (see ``_pieces``); returns its length."""
    size, pieces = _pieces.prepare(args, most)  # over the byte limit `most`: its first most + 1 bytes
    at, n = _head(st, flags, kind, name, match, ignore, size)
    _pieces.write(st.view, at, pieces)
    return n
