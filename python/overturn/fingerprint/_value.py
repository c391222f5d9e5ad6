"""The common value call in the fewest Python steps: ``fingerprint(name, value)``
with the default kind, no key lists and no per-call limits. Internal.

At ~130 B the whole call is ~3 µs of CPU, of which marshal, the request
write, the call into wasm, the core and OpenSSL are ~2 µs; the rest is
Python around them, and each attribute load or check saved is ~1% of the
call. So this thread's function (``_api._value_fn``) binds once what cannot
change between calls — the instance's addresses, the memory view of the
request region (the base never moves, and the region lies within it), the
name cache's ``get`` — and tests per call only what can: the configured
settings (``configure`` replaces that object), the limits the instance was
last told, the busy flag (a call re-entered from ``__del__``), and whether
the header of the last request is still in place. Whatever is not the common
case goes where it went before: ``_core``'s plain function (``plain``) or the
JSON-text path (``text_path``), with the marshal stream already made.
"""
from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Dict

import ctypes

from . import _limits
from ._abi import F_DIGEST, F_MARSHAL, F_PREIMAGE
from ._errors import FingerprintError


def bind_value(st: Any, plain: Callable[..., Any], names: Dict[str, bytes], literal: Callable[..., bytes],
               text_path: Callable[..., str], hooks: Any) -> Callable[[Any, Any], str]:
    """``fingerprint(name, value)`` for one instance; ``hooks``: ``_core`` (host hash, header layout)."""
    from . import _stream

    run_unchecked = st.call_unchecked
    ctx, run_addr, raw_addr, one, trap_addr = st.ctx, st.run_addr, st.raw_addr, st.one, st.trap_addr
    slot = memoryview(st.raw).cast("B").cast("i")
    trapped = memoryview(st.trap).cast("B").cast("Q" if ctypes.sizeof(st.trap) == 8 else "I")
    p, text_word = st.in_ptr, st.text_word
    len_word = text_word + 1
    args_len_word = (p + hooks._ARGS_LEN_AT) >> 2
    hlen, pack = hooks._HEADER_LEN, hooks._HEADER.pack
    view, words = st.view, st.words
    # Requests up to `room` bytes are written through the views bound here: they cover the input region.
    room = min(st.in_cap, len(view) - p)
    dumps = _stream._dumps
    NOT_PLAIN, PLAIN = _stream.NOT_PLAIN, _stream.PLAIN
    use_marshal = _stream.marshal_allowed()
    names_get = names.get
    value_digest = F_DIGEST | F_MARSHAL
    value_preimage = value_digest ^ (F_DIGEST | F_PREIMAGE)  # the core writes the preimage, hashed here
    limits_mod = _limits
    checked: Any = None  # the settings object last found to allow this path (no byte limit)
    core: Any = None  # its limits, as the instance must have been told them
    most = 0  # the largest request this path writes under `checked`
    view_len = len(view)
    sha: Any = None  # OpenSSL's SHA-256 once _core loaded it (the first digests hash in the core)

    def slow(n: bytes, args: Any, s: Any) -> str:
        """Everything but the common case, as before: plain(), then the text path."""
        out = plain(value_digest, n, args, s)
        if out is NOT_PLAIN or out is PLAIN or out is _stream.UNKNOWN:
            return text_path(out, F_DIGEST, b"", n, args, s)
        return out  # type: ignore[no-any-return]

    last_name: Any = None  # the last name (an exact str), its literal and where its args go
    last_n, at = b"", 0

    def value_bound(name: Any, args: Any) -> str:
        nonlocal checked, core, most, view, words, view_len, sha, last_name, last_n, at
        if name is last_name:
            n = last_n
        else:
            got = names_get(name) if type(name) is str else None
            n = literal(name, "name") if got is None else got
            if type(name) is str:
                last_name, last_n, at = name, n, p + hlen + len(n)
            else:
                last_name = None
                at = p + hlen + len(n)
        s = limits_mod.active
        if s is not checked:
            if s.any_bytes or not use_marshal:
                return slow(n, args, s)
            checked, core, most = s, s.core, min(room, s.measure_above)
        if st.busy:  # re-entered (a __del__ or signal handler during a call): plain() takes another instance
            return slow(n, args, s)
        try:
            data = dumps(args, 4)
        except Exception:  # ValueError: unmarshallable or too deep; the text path decides
            return text_path(NOT_PLAIN, F_DIGEST, b"", n, args, s)
        ld = len(data)
        size = at - p + ld
        if size > most:
            return whole(n, args, data, s)
        if sha is None:
            sha = hooks._host_sha256 or hooks._load_host_sha256()
        flags = value_preimage if sha is not None else value_digest
        st.busy = True
        try:
            # Tested once busy, so that no call in between can tell the instance other limits.
            if st.sent is not core:
                st.busy = False
                return whole(n, args, data, s)
            if st.head is n and st.head_flags == flags:
                words[args_len_word] = ld
                view[at:at + ld] = data
            else:
                view[p:p + size] = pack(flags, 0, len(n), 0, 0, ld) + n + data
                st.head = n
                st.head_flags = flags
            slot[0] = size
            err = run_unchecked(ctx, run_addr, raw_addr, one, trap_addr)
            if err or slot[0]:
                st.busy = False
                return failed(err, n, args, data, s)
            if sha is None:
                r = st.result + hooks._DIGEST_AT
                return hooks.digest_text(view[r:r + 64])  # 64 lowercase hex digits, or an error
            ptr = words[text_word]
            end = ptr + words[len_word]
            if end > view_len:
                st.refresh()
                view, words = st.view, st.words
                view_len = len(view)
            return sha(view[ptr:end]).hexdigest()  # type: ignore[no-any-return]
        finally:
            st.busy = False

    def whole(n: bytes, args: Any, data: bytes, s: Any) -> str:
        """The marshal stream through ``_core.call`` (limits sent, memory grown or retired as needed)."""
        try:
            return hooks.call(value_digest, b"", n, b"", b"", data, s)  # type: ignore[no-any-return]
        except FingerprintError as e:
            if e.code == "limit-exceeded":
                raise  # the text path would read the same tree to the same limit
            return text_path(PLAIN, F_DIGEST, b"", n, args, s)

    def failed(err: Any, n: bytes, args: Any, data: bytes, s: Any) -> str:
        """The run failed: a trap (the instance is dropped), a limit (final), else the text path."""
        if err or trapped[0]:
            hooks._forget(st)
            st._trapped(err)
        elif slot[0] in hooks._LIMIT_STATUSES:
            st.head = None
            return hooks.call(value_digest, b"", n, b"", b"", data, s)  # type: ignore[no-any-return]
        return text_path(PLAIN, F_DIGEST, b"", n, args, s)

    return value_bound
