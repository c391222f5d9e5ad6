"""The known-answer self-test every loaded core module passes before its first use. Internal.

A module from the disk cache is native code that the cache's checks
(``_module_cache.py``: owner, modes, size, header) say only this user could
have written; those checks cannot tell a module this user's files were
tricked into holding, or a compiler or hardware fault, from the right one.
So every module, cached or compiled, answers the vectors of
``_selftest_vectors.py`` (generated from the independent oracle: trimming,
number printing, key order, selection and SHA-256 at its padding edges)
before any caller sees it: a wrong answer means the module is not used
(docs/security.md). The requests are the core's own (``assembly/abi.ts``);
each is asked twice: its digest (``F_DIGEST``: the core's SHA-256) and its
preimage (``F_PREIMAGE``: the text hosts hash themselves after their first
calls). Under a millisecond once per module and process (docs/security.md).
"""
from __future__ import annotations

import struct
TYPE_CHECKING = False  # typing is not imported at run time: ~3 ms of a CLI start
if TYPE_CHECKING:
    from typing import Optional

from ._abi import F_DIGEST, F_PREIMAGE, RESULT_DIGEST, RESULT_TEXT_PTR
from ._instance import HEADER, check_module
from ._selftest_vectors import VECTORS
from ._wasmtime import Instance, Module

_TEXT = struct.Struct("<II")  # text ptr, text len (RESULT_TEXT_PTR, RESULT_TEXT_LEN)
_U32 = 0xFFFFFFFF


def failure(module: Module) -> Optional[str]:
    """None when ``module`` gives every known answer; else what it got wrong (never raises)."""
    try:
        return _run(Instance(module))
    except Exception as e:  # another version or ABI, a missing export, a trap: not this SDK's core
        return "%s: %s" % (type(e).__name__, (str(e).splitlines() or [""])[0])


def _run(w: Instance) -> Optional[str]:
    check_module(w, "core")
    run = w.func("run")
    r = w.call(w.func("result")) & _U32
    p = w.call(w.func("reserve"), HEADER.size + max(sum(map(len, v[1:6])) for v in VECTORS)) & _U32
    if p == 0:
        return "no room for a request"
    for i, (select, kind, name, match, ignore, args, preimage, digest) in enumerate(VECTORS):
        # Its digest (the core's SHA-256), then its preimage (the text hosts hash themselves).
        for flags, want in ((F_DIGEST, digest), (F_PREIMAGE, preimage)):
            request = HEADER.pack(flags | select, len(kind), len(name), len(match), len(ignore), len(args))
            request += kind + name + match + ignore + args
            w.view()[p:p + len(request)] = request
            status = w.call(run, len(request))
            view = w.view()  # the run may have grown memory
            if flags == F_DIGEST:
                got = bytes(view[r + RESULT_DIGEST:r + RESULT_DIGEST + 64])
            else:
                ptr, size = _TEXT.unpack_from(view, r + RESULT_TEXT_PTR)
                got = bytes(view[ptr:ptr + size]) if ptr + size <= len(view) else b""
            if status != 0 or got != want:
                return "vector %d (flags %d): status %d, got %r" % (i, flags, status, got[:16])
    return None
