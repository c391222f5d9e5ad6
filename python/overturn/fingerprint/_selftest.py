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
the digests are the core's SHA-256 (``F_DIGEST``), so the core's hashing is
tested too. ~0.1 ms on a fresh instance (instantiation ~35 µs here).
"""
from __future__ import annotations

import struct
TYPE_CHECKING = False  # typing is not imported at run time: ~3 ms of a CLI start
if TYPE_CHECKING:
    from typing import Optional

from ._abi import ABI_ID, F_DIGEST, FINGERPRINT_VERSION, HEADER_WORDS, RESULT_DIGEST
from ._selftest_vectors import VECTORS
from ._wasmtime import Instance, Module

_HEADER = struct.Struct("<%dI" % HEADER_WORDS)  # flags, kindLen, nameLen, matchLen, ignoreLen, argsLen
_U32 = 0xFFFFFFFF


def failure(module: Module) -> Optional[str]:
    """None when ``module`` gives every known answer; else what it got wrong (never raises)."""
    try:
        return _run(Instance(module))
    except Exception as e:  # a missing export, a trap, a refused instantiation: not this SDK's core
        return "%s: %s" % (type(e).__name__, (str(e).splitlines() or [""])[0])


def _run(w: Instance) -> Optional[str]:
    if w.call(w.func("version")) != FINGERPRINT_VERSION:
        return "contract version %r" % w.call(w.func("version"))
    if not w.has("abiId") or w.call(w.func("abiId")) != ABI_ID:
        return "another ABI"
    run, result = w.func("run"), w.func("result")
    r = w.call(result) & _U32
    requests = [(_HEADER.pack(F_DIGEST | flags, len(kind), len(name), len(match), len(ignore), len(args))
                 + kind + name + match + ignore + args, digest)
                for flags, kind, name, match, ignore, args, _canonical, digest in VECTORS]
    p = w.call(w.func("reserve"), max(len(q) for q, _ in requests)) & _U32
    if p == 0:
        return "no room for a request"
    for i, (request, digest) in enumerate(requests):
        n = len(request)
        w.view()[p:p + n] = request
        status = w.call(run, n)
        view = w.view()  # the run may have grown memory
        got = bytes(view[r + RESULT_DIGEST:r + RESULT_DIGEST + 64])
        if status != 0 or got != digest:
            return "vector %d: status %d, digest %r" % (i, status, got[:16])
    return None
