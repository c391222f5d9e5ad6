"""Limits a server sets, and when an instance gives its memory back (issue 15).

Internal (``Limits`` and ``configure`` are re-exported by
``overturn.fingerprint``). The TypeScript twin is the ``Limits`` part of
``src/core.ts``; the rules are the same:

* ``max_input_bytes`` is checked by the host before the args are copied into
  linear memory: ``len`` of bytes; for a ``str`` first ``len`` (a lower
  bound of its UTF-8 length), then the exact encoded length; for a host value
  the length of the JSON text the encoder produced (the only bytes the core
  sees on that path).
* ``max_depth`` and ``max_members`` are checked by the core while it reads
  (``assembly/limits.ts``), through its ``limits(depth, members)`` export,
  which is called only when the values differ from what that instance was
  last told (a new instance starts unlimited).
* Wasm memory cannot shrink, so after a call that left an instance's memory
  larger than ``retain_memory_bytes`` (default 64 MiB) the instance is
  retired and the next call on that thread instantiates the kept module
  again (~0.6 ms, no compile).

Field values: ``None`` (or a key left out of a mapping) keeps the setting
underneath (the configured one, or no limit), an ``int`` ≥ 0 is the limit,
``math.inf`` removes a configured limit — the same meaning ``undefined``,
numbers and ``Infinity`` have in the TypeScript SDK.

Messages are the TypeScript SDK's, byte for byte, for the same text input
(which is why they name the limits in camelCase).
"""
from __future__ import annotations

import math
from collections.abc import Mapping

TYPE_CHECKING = False  # typing is not imported at run time: ~3 ms of a CLI start (issue 13)
if TYPE_CHECKING:
    from typing import Any, Optional, Tuple, Union

    LimitValue = Union[int, float, None]

from ._errors import FingerprintError

#: What the core reads as "no limit" (assembly/limits.ts NO_LIMIT).
NO_LIMIT = 0xFFFFFFFF
#: Core status codes of the limits the core checks (assembly/errors.ts).
from ._abi import E_LIMIT_DEPTH, E_LIMIT_MEMBERS  # generated from assembly/abi.ts

_UNLIMITED = 1 << 62  # max_bytes when there is no byte limit: every length compares below it
_DEFAULT_RETAIN = 64 * 1024 * 1024
# A call whose request is at most retain/_GROWTH bytes cannot have grown the
# memory past retain: the core's peak is ~4.5x its input on records and
# below 40x on the worst shapes measured (one byte per nesting level, see
# test_limits.py), so such calls skip measuring the memory (one comparison).
_GROWTH = 128



class Limits:
    """Caps on one call's args; ``None`` = the configured value (or no limit).

    Attributes:
        max_input_bytes: the largest args in bytes (UTF-8 JSON text; for a
            host value, the JSON text it becomes).
        max_depth: the deepest nesting of objects and arrays (1 = flat).
        max_members: the most members one object may have (duplicate keys count).

    Each is ``None``, an ``int`` ≥ 0, or ``math.inf`` (no limit, overriding a
    configured one). Anything else raises FingerprintError("invalid-argument").

    Example:
        >>> Limits(max_input_bytes=1 << 20, max_depth=64, max_members=1000).max_depth
        64
    """

    # A plain frozen class, not a dataclass: importing dataclasses pulls in
    # inspect (~7 ms of every process's start-up, issue 11).
    __slots__ = ("max_input_bytes", "max_depth", "max_members")
    max_input_bytes: LimitValue
    max_depth: LimitValue
    max_members: LimitValue

    def __init__(self, max_input_bytes: LimitValue = None, max_depth: LimitValue = None,
                 max_members: LimitValue = None) -> None:
        for field, v in (("max_input_bytes", max_input_bytes), ("max_depth", max_depth), ("max_members", max_members)):
            _check(v, field)
            object.__setattr__(self, field, v)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Limits is frozen")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Limits is frozen")

    def _key(self) -> Tuple[LimitValue, LimitValue, LimitValue]:
        return (self.max_input_bytes, self.max_depth, self.max_members)

    def __eq__(self, other: object) -> bool:
        return type(other) is Limits and self._key() == other._key()  # type: ignore[union-attr]

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return "Limits(max_input_bytes=%r, max_depth=%r, max_members=%r)" % self._key()


def _check(v: Any, what: str) -> None:
    if v is None or v == math.inf and isinstance(v, float):
        return
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise FingerprintError("invalid-argument",
                               "%s must be a non-negative int, math.inf or None, got %r" % (what, v))


def as_limits(x: Any) -> Limits:
    """A ``Limits`` or a mapping with its field names, checked."""
    if isinstance(x, Limits):
        return x
    if isinstance(x, Mapping):
        unknown = sorted(str(k) for k in x if k not in ("max_input_bytes", "max_depth", "max_members"))
        if unknown:
            raise FingerprintError("invalid-argument", "unknown limits %s: allowed are max_input_bytes, max_depth, "
                                   "max_members" % ", ".join(unknown))
        return Limits(**x)
    raise FingerprintError("invalid-argument", "limits must be a Limits or a mapping, got %s" % type(x).__qualname__)


class Settings:
    """The limits of a call, resolved (internal; immutable once made)."""

    __slots__ = ("limits", "max_bytes", "core", "retain", "measure_above")

    def __init__(self, limits: Limits, retain: float) -> None:
        self.limits = limits
        b = limits.max_input_bytes
        self.max_bytes = _UNLIMITED if b is None or b == math.inf else int(b)
        #: (depth, members) as the core's ``limits`` export takes them.
        self.core: Tuple[int, int] = (_u32(limits.max_depth), _u32(limits.max_members))
        self.retain = retain
        self.measure_above = _UNLIMITED if retain == math.inf else int(retain) // _GROWTH

    def over(self, call: Optional[Any]) -> "Settings":
        """These settings with a call's own limits laid over them."""
        if call is None:
            return self
        c = as_limits(call)
        mine = self.limits
        merged = Limits(*(mine_v if v is None else v for v, mine_v in (
            (c.max_input_bytes, mine.max_input_bytes), (c.max_depth, mine.max_depth),
            (c.max_members, mine.max_members))))
        return Settings(merged, self.retain)


def _u32(v: LimitValue) -> int:
    return NO_LIMIT if v is None or v >= NO_LIMIT else int(v)


#: The process-wide settings; replaced (never mutated) by configure(), so a
#: call in another thread sees either the old or the new object whole.
active = Settings(Limits(), _DEFAULT_RETAIN)


def configure(*, limits: Any = None, retain_memory_bytes: Optional[float] = None) -> None:
    """Process-wide settings for servers: limits every call gets, and memory kept.

    Args:
        limits: a :class:`Limits` or a mapping with its field names, laid over
            the current settings (a field that is ``None`` or left out keeps
            its setting; ``math.inf`` removes a limit). A call over a limit
            raises FingerprintError("limit-exceeded") before its args are
            copied into the core (bytes) or while the core reads them (depth,
            members).
        retain_memory_bytes: after a call leaves a thread's core instance with
            more linear memory than this (default 64 MiB), the instance is
            dropped and that thread's next call makes a fresh one, so the
            memory of a large request is given back. ``math.inf``: never.

    Raises:
        FingerprintError: ``invalid-argument`` for a value of the wrong type
            or a negative one; nothing is changed then.

    Example:
        >>> configure(limits={"max_input_bytes": 1 << 20, "max_depth": 64})
        >>> configure(limits=Limits(math.inf, math.inf, math.inf))  # back to no limits
    """
    global active
    cur = active
    retain = cur.retain if retain_memory_bytes is None else retain_memory_bytes
    _check(retain, "retain_memory_bytes")
    merged = cur.over(limits) if limits is not None else cur
    active = Settings(merged.limits, retain)


# --- giving the host heap back ----------------------------------------------

_trim: Any = None


def trim_heap() -> None:
    """Returns the C heap's free pages to the OS (glibc ``malloc_trim``), after a large call.

    Why: the host pieces of a large call (encoded text, the encoder's output)
    live in the C heap and are freed before the core runs, but once a
    program has freed one large buffer (a request body, a bytes copy),
    glibc raises its trim threshold to up to 64 MB and keeps that much freed
    heap resident. Measured: +34 MB kept after a 30 MB text and a 30 MB
    value call, 0.3 MB with this. Called only when an instance is retired,
    so never on small calls; a no-op where there is no ``malloc_trim``
    (musl, macOS, Windows).
    """
    global _trim
    if _trim is None:
        try:
            import ctypes
            _trim = ctypes.CDLL(None).malloc_trim
        except (OSError, AttributeError, TypeError):
            _trim = False
    if _trim:
        _trim(0)


# --- errors -----------------------------------------------------------------

def _error(what: str, value: LimitValue, detail: str, offset: Optional[int] = None) -> FingerprintError:
    shown = "Infinity" if value is None or value == math.inf else str(value)
    return FingerprintError("limit-exceeded", "limit exceeded: %s (%s is %s)" % (detail, what, shown), offset=offset)


def bytes_over(n: int, s: Settings) -> FingerprintError:
    """Bytes (or a buffer) of n bytes over max_input_bytes; TS says "at least" for a Uint8Array too."""
    return _error("maxInputBytes", s.limits.max_input_bytes, "args of at least %d bytes" % n)


def str_over(text: str, encoded: Optional[int], s: Settings) -> FingerprintError:
    """A str over max_input_bytes: by its length (encoded None) or by its UTF-8 length.

    The TypeScript SDK checks a string's UTF-16 length first and its UTF-8
    length after encoding; the UTF-16 length is counted here (only on this
    error path, in bounded pieces) so that both report the same numbers.
    """
    units = _utf16_units(text)
    if encoded is None or units > s.max_bytes:
        return _error("maxInputBytes", s.limits.max_input_bytes, "args of at least %d bytes" % units)
    return _error("maxInputBytes", s.limits.max_input_bytes, "args of %d bytes" % encoded)


def value_over(n: int, s: Settings) -> FingerprintError:
    """A host value whose JSON text is n bytes, over max_input_bytes."""
    return _error("maxInputBytes", s.limits.max_input_bytes, "args of %d bytes as JSON text" % n)


def _utf16_units(text: str) -> int:
    if text.isascii():
        return len(text)
    step = 1 << 20
    return sum(len(text[i:i + step].encode("utf-16-le", "surrogatepass")) for i in range(0, len(text), step)) // 2


def core_limit_error(status: int, offset: int, s: Settings) -> FingerprintError:
    """The core's E_LIMIT_DEPTH / E_LIMIT_MEMBERS as the TypeScript SDK words them."""
    if status == E_LIMIT_DEPTH:
        what, value, reason = "maxDepth", s.limits.max_depth, "nesting deeper than the maxDepth limit"
    else:
        what, value, reason = "maxMembers", s.limits.max_members, "an object with more members than the maxMembers limit"
    if offset >= 0:
        return _error(what, value, "%s at byte %d" % (reason, offset), offset)
    return _error(what, value, reason)


def without_offset(e: FingerprintError) -> FingerprintError:
    """A limit error of the value path: its offset points into text the caller never saw.

    The TypeScript value path has no offset there either, so the message
    loses its " at byte N" part.
    """
    if e.code != "limit-exceeded" or e.offset is None:
        return e
    msg = str(e).replace(" at byte %d " % e.offset, " ", 1)
    return FingerprintError(e.code, msg)
