"""Contract-v1 fingerprints of AI agent tool calls, from the shared wasm core.

Public API. A fingerprint identifies a tool call by what it means::

    sha256(kind + "\\n" + name + "\\n" + canonicalJSON(select(args)))  # lowercase hex

following the Overturn fingerprint contract, version 1, and its resolved
points D1–D19. The canonicalization runs in the very WebAssembly module the
TypeScript SDK runs (``fingerprint.wasm``, shipped in this package), so both
SDKs agree byte for byte; Python only turns host values into JSON text (D16).

Example::

    >>> from overturn.fingerprint import fingerprint, canonical_json
    >>> canonical_json({"email": " a@b.c ", "plan": "pro"})
    '{"email":"a@b.c","plan":"pro"}'
    >>> len(fingerprint("search", {"q": " cats "}))
    64

All functions are thread-safe. Every bad input raises FingerprintError.

Servers can cap what one call may take and how much memory stays behind
with ``configure(limits=Limits(...), retain_memory_bytes=...)`` for
every call, ``limits=`` on one call.
"""
from __future__ import annotations

TYPE_CHECKING = False  # typing itself is not imported at run time (below)
if TYPE_CHECKING:
    from ._abi import FINGERPRINT_VERSION as FINGERPRINT_VERSION  # the contract version (D18), generated from abi.ts
    from ._api import canonical_json, canonicalize_json, fingerprint, fingerprint_json
    from ._batch_api import fingerprint_batch, fingerprint_batch_json
    from ._explain import diff, explain, explain_call, explain_calls, explain_json, fingerprint_call, nearest
    from ._errors import FingerprintError
    from ._limits import Limits, configure
    from ._replay import Recording
    from ._types import KeyList as KeyList  # for annotations (not in __all__)

__version__ = "1.0.0"

# Every public name loads on first use (PEP 562), then is a plain attribute:
# importing the package costs ~1 ms, and a program pays only for what it
# touches. The value path's modules (json, typing, datetime; ~10 ms of a
# fresh process) are never loaded by the CLI, which needs none of them;
# batches, diagnostics and replay load apart.
_LAZY = {
    "fingerprint": "_api", "fingerprint_json": "_api", "canonical_json": "_api", "canonicalize_json": "_api",
    "fingerprint_batch": "_batch_api", "fingerprint_batch_json": "_batch_api",
    "diff": "_explain", "explain": "_explain", "explain_call": "_explain", "explain_calls": "_explain",
    "explain_json": "_explain", "fingerprint_call": "_explain", "nearest": "_explain",
    "FingerprintError": "_errors", "Limits": "_limits", "configure": "_limits", "Recording": "_replay",
    "KeyList": "_types", "FINGERPRINT_VERSION": "_abi",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:  # submodules (``from . import _cli``) are found by the import system after this
        raise AttributeError("module %r has no attribute %r" % (__name__, name))
    from importlib import import_module

    value = getattr(import_module("." + module, __name__), name)
    globals()[name] = value  # later lookups skip this hook
    return value


def __dir__() -> "list[str]":
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "FINGERPRINT_VERSION", "FingerprintError", "Limits", "Recording", "canonical_json", "canonicalize_json", "configure",
    "diff", "explain", "explain_call", "explain_calls", "explain_json", "fingerprint", "fingerprint_call",
    "fingerprint_batch", "fingerprint_batch_json", "fingerprint_json", "nearest",
]
