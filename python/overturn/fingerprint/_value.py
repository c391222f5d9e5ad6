"""The common calls in the fewest Python steps: ``fingerprint(name, value)`` with the default kind, no
key lists and no per-call limits, and ``_core.plain``'s requests (a short JSON text, a value's
canonical text). Internal.

At ~130 B the whole call is ~3 µs of CPU, of which marshal, the request write, the call into wasm,
the core and OpenSSL are ~2 µs; the rest is Python around them, and each attribute load or check
saved is ~1% of the call. So each thread's function binds once what cannot change between calls —
the instance's addresses, the memory view of the request region (the base never moves, and the
region lies within it), the name cache's ``get`` — and tests per call only what can: the configured
settings (``configure`` replaces that object), the limits the instance was last told, the busy flag
(a call re-entered from ``__del__``), and whether the header of the last request is still in place.
Whatever is not the common case goes through ``_core.call`` (limits told, memory grown or retired),
and a value the core's marshal reader refused to the JSON-text path.
"""
from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Dict, Optional

import ctypes

from . import _limits
from ._abi import F_DIGEST, F_MARSHAL, F_PREIMAGE, HEADER_BYTES, HEADER_WORDS
from ._errors import FingerprintError

_VALUE = F_DIGEST | F_MARSHAL  # a value's digest: the marshal stream in, read by the core


def bind(st: Any, flags: int = _VALUE, names: Optional[Dict[str, bytes]] = None,
         literal: Optional[Callable[..., bytes]] = None, text_path: Optional[Callable[..., str]] = None) -> Callable[..., Any]:
    """``run(name, data)``: the request ``flags`` on one instance, every test of the flags made here, once.

    ``name``: a JSON string literal (bytes), or with ``names``/``literal`` the name as given. With
    F_MARSHAL ``data`` is the host value and the marshal stream is made here; a value marshal or the
    core refused goes to ``text_path`` (``_api``'s), or without one its marker (``_stream``) is the
    answer. A text the core refused answers None (the caller's full path gives the error). With
    F_DIGEST the core writes the preimage and OpenSSL hashes it here, once ``_core`` loaded it."""
    from . import _core, _stream

    run_unchecked = st.call_unchecked
    ctx, run_addr, raw_addr, one, trap_addr = st.ctx, st.run_addr, st.raw_addr, st.one, st.trap_addr
    # The argument/result slot and the trap pointer as memoryview items: ~30 ns a read or write against ~45 for ctypes.
    slot = memoryview(st.raw).cast("B").cast("i")
    trapped = memoryview(st.trap).cast("B").cast("Q" if ctypes.sizeof(st.trap) == 8 else "I")
    p, text_word, len_word = st.in_ptr, st.text_word, st.text_word + 1
    args_len_word = (p + 4 * (HEADER_WORDS - 1)) >> 2  # the header's last word: argsLen
    pack, call, limits = _core._HEADER.pack, _core.call, _limits
    marshal, hashes = flags & F_MARSHAL, flags & F_DIGEST
    hashed = flags ^ (F_DIGEST | F_PREIMAGE) if hashes else flags  # what the core is asked: the preimage
    view, words = st.view, st.words
    view_len = len(view)
    room = min(st.in_cap, view_len - p)  # requests up to this are written through the views bound here
    dumps, use_marshal = _stream._dumps, _stream.marshal_allowed()  # decided once: a thread's stack is fixed
    markers = (_stream.NOT_PLAIN, _stream.PLAIN, _stream.UNKNOWN)
    names_get = names.get if names is not None else {}.get
    # The settings object last found to allow this path (no byte limit), its limits as the instance must have
    # been told them, and the largest request this path writes under them.
    checked: Any = None
    core: Any = None
    most = 0
    sha: Any = None  # OpenSSL's SHA-256 once _core loaded it (the first digests hash in the core)
    # The last name (an exact str, or bytes), its literal, the header's length with it and where its args go.
    last_name, last_n, head, at = None, b"", 0, 0

    def run(name: Any, value: Any) -> Any:
        nonlocal checked, core, most, view, words, view_len, sha, last_name, last_n, head, at
        if name is last_name:
            n = last_n
        else:
            n = names_get(name) if type(name) is str else None
            if n is None:
                n = literal(name, "name") if literal is not None else name
            last_name = name if type(name) is str or literal is None else None
            last_n, head = n, HEADER_BYTES + len(n)
            at = p + head
        s = checked
        if limits.active is not s:
            s = limits.active
            # A byte limit counts the JSON text a value becomes: the text path sends that text.
            if s.any_bytes or not use_marshal or not st.fast:
                return slow(n, value, s)
            checked, core, most = s, s.core, min(room, s.measure_above)
        if st.busy:  # re-entered (a __del__ or signal handler during a call): _core.call takes another instance
            return slow(n, value, s)
        if marshal:
            try:
                data = dumps(value, 4)
            except Exception:  # ValueError: unmarshallable or too deep; the text path decides
                return marker(markers[0], n, value, s)
        else:
            data = value
        ld = len(data)
        size = head + ld
        if size > most:
            return whole(n, value, data, s)
        st.busy = True
        try:
            # Tested once busy, so that no call in between can tell the instance other limits.
            if st.sent is not core:
                st.busy = False
                return whole(n, value, data, s)
            if hashes and sha is None:
                sha = _core._host_sha256
                if sha is None:  # the first digests: _core.call counts them (OpenSSL's import waits)
                    st.busy = False
                    return whole(n, value, data, s)
            if st.head is n and st.head_flags == hashed:  # the last request's header and name are in place
                words[args_len_word] = ld
                view[at:at + ld] = data
            else:
                view[p:p + size] = pack(hashed, 0, len(n), 0, 0, ld) + n + data
                st.head, st.head_flags = n, hashed
            slot[0] = size
            err = run_unchecked(ctx, run_addr, raw_addr, one, trap_addr)
            if err or slot[0]:  # a trap leaves the slot as written (size, never 0)
                st.busy = False
                return failed(err, n, value, data, s)
            ptr = words[text_word]
            end = ptr + words[len_word]
            if end > view_len:
                st.refresh()
                view, words = st.view, st.words
                view_len = len(view)
            if hashes:
                return sha(view[ptr:end]).hexdigest()
            return str(view[ptr:end], "utf-8")
        finally:
            st.busy = False

    def failed(err: Any, n: bytes, value: Any, data: bytes, s: Any) -> Any:
        """The run failed: a trap (the instance is dropped), a value's limit (final), else the caller's full path."""
        if err or trapped[0]:
            _core._forget(st)
            st._trapped(err)  # frees the trap; the full path answers (a new instance)
        elif marshal and slot[0] in _core._LIMIT_STATUSES:
            return call(flags, b"", n, b"", b"", data, s)  # the limit's error, worded (its request rewritten)
        return marker(markers[1], n, value, s)

    def marker(out: str, n: bytes, value: Any, s: Any) -> Any:
        """A value marshal or the core's reader did not take (``out``: why): the text path, or the marker
        without one; a text the core refused: None."""
        if not marshal:
            return None
        if text_path is None or out not in markers:
            return out
        return text_path(out, flags ^ F_MARSHAL, b"", n, value, s)

    def whole(n: bytes, value: Any, data: bytes, s: Any) -> Any:
        """The request (a marshal stream made) through ``_core.call``: limits told, memory grown or retired."""
        try:
            return call(flags, b"", n, b"", b"", data, s)
        except FingerprintError as e:
            if marshal and e.code == "limit-exceeded":
                raise  # the text path would read the same tree to the same limit (a reference bomb: minutes)
            return marker(markers[1], n, value, s)

    def slow(n: bytes, value: Any, s: Any) -> Any:
        """Everything but the common case: ``_core.call``, a value through ``_stream.marshal_call``."""
        if marshal:
            return marker(_stream.marshal_call(flags ^ F_MARSHAL, b"", n, value, s), n, value, s)
        return whole(n, value, value, s)

    return run


def bind_value(st: Any, plain: Any, names: Dict[str, bytes], literal: Callable[..., bytes],
               text_path: Callable[..., str], hooks: Any = None) -> Callable[..., str]:
    """``fingerprint(name, value)`` for one instance: ``bind`` with ``_api``'s name cache and text path."""
    return bind(st, _VALUE, names, literal, text_path)
