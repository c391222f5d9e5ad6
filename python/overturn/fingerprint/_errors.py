"""FingerprintError, the SDK's one exception type, and the core's error table.

Internal module (the public name is re-exported by ``overturn.fingerprint``).
Mirrors ``src/errors.ts``: every bad input — malformed JSON text, a value the
contract cannot fingerprint (D16), a bad kind or name (D17) — raises a
FingerprintError with a stable ``code`` and, where it applies, the byte
``offset`` into the JSON text or the ``path`` of the offending value (D19).
The order of CORE_ERRORS is the order of the status codes 1..16 in
``assembly/errors.ts``; keep the three tables in step.
"""
from __future__ import annotations

from typing import Optional, Tuple

#: Core status 1..16 → (code, plain-words reason), as in assembly/errors.ts.
CORE_ERRORS: Tuple[Tuple[str, str], ...] = (
    ("unexpected-end", "the text ends inside a value"),
    ("unexpected-character", "unexpected character"),
    ("invalid-utf8", "invalid UTF-8"),
    ("bad-escape", "invalid escape sequence"),
    ("control-character", "unescaped control character in a string"),
    ("bad-number", "invalid number"),
    ("trailing-content", "unexpected content after the JSON value"),
    ("empty-input", "no JSON value (empty text)"),
    ("out-of-memory", "out of memory"),
    ("bad-kind", "kind must be a non-empty string without line feeds or lone surrogates"),
    ("bad-name", "name must be a non-empty string without lone surrogates"),
    ("bad-selection", "match_on/ignore_args must be lists of strings"),
    ("bad-request", "malformed request to the core (an SDK bug)"),
    ("bad-call", "a call is a JSON object"),
    ("limit-exceeded", "nesting deeper than the maxDepth limit"),
    ("limit-exceeded", "an object with more members than the maxMembers limit"),
)

#: Which part of the request the core's error offset refers to (result block +8).
PARTS: Tuple[str, ...] = ("args", "kind", "name", "selection")


class FingerprintError(ValueError):
    """Raised for every input the fingerprint contract rejects.

    Attributes:
        code: a stable machine-readable reason, one of ``unexpected-end``,
            ``unexpected-character``, ``invalid-utf8``, ``bad-escape``,
            ``control-character``, ``bad-number``, ``trailing-content``,
            ``empty-input``, ``out-of-memory``, ``bad-kind``, ``bad-name``,
            ``bad-selection``, ``bad-request``, ``bad-call``,
            ``limit-exceeded`` (from the core, in the order of its status
            codes; ``limit-exceeded`` also from the host's byte limit), ``unsupported-value``, ``circular-value``,
            ``too-deep``, ``invalid-argument`` (from the host side) and
            ``internal-error`` (the core trapped: a defect, please report).
        offset: byte offset into the UTF-8 JSON text (text input), or None.
        path: where in the value the problem is, e.g. ``args.items[3].when``
            (value input), or None.
    """

    code: str
    offset: Optional[int]
    path: Optional[str]

    def __init__(self, code: str, message: str, *, offset: Optional[int] = None,
                 path: Optional[str] = None) -> None:
        super().__init__(message)
        self.code = code
        self.offset = offset
        self.path = path

    def __reduce__(self):  # type: ignore[no-untyped-def]
        # Keeps code/offset/path across pickling (multiprocessing, logging).
        return (_rebuild, (self.code, str(self), self.offset, self.path))


def _rebuild(code: str, message: str, offset: Optional[int], path: Optional[str]) -> FingerprintError:
    return FingerprintError(code, message, offset=offset, path=path)


def core_error(status: int, offset: int, part: int) -> FingerprintError:
    """The FingerprintError for a non-zero core status (result block fields)."""
    if 1 <= status <= len(CORE_ERRORS):
        code, reason = CORE_ERRORS[status - 1]
    else:
        code, reason = "bad-request", "core status %d" % status
    where = PARTS[part] if 0 <= part < len(PARTS) else "args"
    if where == "args" and offset >= 0:
        return FingerprintError(code, "invalid JSON: %s at byte %d" % (reason, offset), offset=offset)
    if where == "selection":
        return FingerprintError(code, "invalid match_on/ignore_args: %s" % reason)
    if where != "args":
        return FingerprintError(code, "invalid %s: %s" % (where, reason))
    return FingerprintError(code, reason)
