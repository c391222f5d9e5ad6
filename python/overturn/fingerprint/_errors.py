"""FingerprintError, the SDK's one exception type, and the core's error table.

Internal module (the public name is re-exported by ``overturn.fingerprint``).
Mirrors ``src/errors.ts``: every bad input — malformed JSON text, a value the
contract cannot fingerprint (D16), a bad kind or name (D17) — raises a
FingerprintError with a stable ``code`` and, where it applies, the byte
``offset`` into the JSON text or the ``path`` of the offending value (D19).
The codes (CORE_ERRORS, WORD_CODES) are generated from ``assembly/abi.ts``
into ``_abi.py`` by ``scripts/gen-abi.mjs``; every message is the core's.
"""
from __future__ import annotations

TYPE_CHECKING = False  # typing is not imported at run time: ~3 ms of a CLI start
if TYPE_CHECKING:
    from typing import Optional

from ._abi import CORE_ERRORS, F_PATH, F_TEXT, WORD_CODES

class FingerprintError(ValueError):
    """Raised for every input the fingerprint contract rejects.

    Attributes:
        code: a stable machine-readable reason, one of ``unexpected-end``,
            ``unexpected-character``, ``invalid-utf8``, ``bad-escape``,
            ``control-character``, ``bad-number``, ``trailing-content``,
            ``empty-input``, ``out-of-memory``, ``bad-kind``, ``bad-name``,
            ``bad-selection``, ``bad-request``, ``bad-call``,
            ``limit-exceeded``, ``no-calls``, ``bad-tools``,
            ``declaration-conflict``, ``partial-call`` (a piece of a streamed
            response: fingerprint the assembled message; from the core, in the
            order of its status codes), ``unsupported-value``, ``circular-value``,
            ``too-deep``, ``invalid-argument`` (from the host side) and
            ``internal-error`` (the core trapped: a defect, please report).
        offset: byte offset into the UTF-8 JSON text (text input), or None.
        path: where in the value the problem is, e.g. ``args.items[3].when``
            (value input), or None.
        index: the failing item's position in a batch (``fingerprint_batch``,
            ``fingerprint_batch_json``), or None.
    """

    code: str
    offset: Optional[int]
    path: Optional[str]
    index: Optional[int]

    def __init__(self, code: str, message: str, *, offset: Optional[int] = None,
                 path: Optional[str] = None, index: Optional[int] = None) -> None:
        super().__init__(message)
        self.code = code
        self.offset = offset
        self.path = path
        self.index = index

    def __reduce__(self):  # type: ignore[no-untyped-def]
        # Keeps code/offset/path/index across pickling (multiprocessing, logging, Spark).
        return (_rebuild, (self.code, str(self), self.offset, self.path, self.index))


def _rebuild(code: str, message: str, offset: Optional[int], path: Optional[str],
             index: Optional[int] = None) -> FingerprintError:
    return FingerprintError(code, message, offset=offset, path=path, index=index)


def core_error(status: int, offset: int, message: str) -> FingerprintError:
    """The FingerprintError of a failed core request: the core wrote its whole message
    (assembly/base/words.ts); its code comes from the status."""
    code = CORE_ERRORS[status - 1][0] if 1 <= status <= len(CORE_ERRORS) else "bad-request"
    return FingerprintError(code, message, offset=offset if offset >= 0 else None)


def host_error(word: int, *params: object, path: Optional[str] = None, offset: Optional[int] = None,
               index: Optional[int] = None) -> FingerprintError:
    """An error this host raises itself, worded by the core: word id ``word``
    (``assembly/abi.ts`` W_*, its code from there) and its parameters."""
    from . import _core  # imported here: _core imports this module
    return FingerprintError(WORD_CODES[word - 1], _core.word(word, [str(p) for p in params]), offset=offset,
                            path=path, index=index)


def path_error(word: int, at: "tuple", *params: object) -> FingerprintError:
    """A value this host refuses (D16), where ``at`` says: the keys (str) and
    indices (int) from the args (or from a whole call: None first) down to it.
    The core writes the path (abi.ts F_PATH) and the message, whose last
    parameter it is; no limit applies to the path's request."""
    import json  # here: the CLI loads this module and no JSON
    from . import _core, _limits  # imported here: _core imports this module
    free = _limits.Settings(_limits.Limits(), _limits.active.retain)
    p = _core.call(F_PATH | F_TEXT, b"", b"", b"", b"", json.dumps(at).encode("ascii"), free)
    return host_error(word, *params, p, path=p)


def type_word(x: object) -> str:
    """This host's word for a value's type in a message."""
    return type(x).__qualname__
