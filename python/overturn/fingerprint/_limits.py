"""Limits a server sets, and when an instance gives its memory back.

Internal (``Limits`` and ``configure`` are re-exported by
``overturn.fingerprint``). The TypeScript twin is ``src/_limits.ts``.

The core decides and words everything (``assembly/base/limits.ts``): this host
reads the caller's objects and passes the numbers on, to every instance
before it runs (``_core``, ``_engine``, ``_replay``, batches),
through the core's ``limits`` export: the configured limits and the call's
own, of which the core takes the smaller (a call's own can only tighten).
The core checks them wherever it reads a call's input and writes one
message per limit, the same in both SDKs:

* ``max_input_bytes``: the bytes of the input as the core receives it (JSON
  text as UTF-8; for a host value the JSON text it becomes, or its marshal
  stream when no byte limit is set). The core answers the limit in force,
  so a longer input is cut after that many bytes + 1 before it is copied
  in: the core refuses it by its length before reading a byte.
* ``max_depth`` and ``max_members``: checked by the core while it reads.
* Wasm memory cannot shrink, so after a call that left an instance's memory
  larger than ``retain_memory_bytes`` (default 64 MiB) the instance is
  retired and the next call on that thread instantiates the kept module
  again (~0.6 ms, no compile).

Field values: ``None`` (or a key left out of a mapping) keeps the setting
underneath, an ``int`` >= 0 is the limit, ``math.inf`` is none (in
``configure``, it removes a limit; a call's own ``math.inf`` keeps the
configured one) — the meaning ``null``, numbers and ``Infinity`` have in
the TypeScript SDK. An unknown key is an error, never ignored.
"""
from __future__ import annotations

import math
from collections.abc import Mapping

TYPE_CHECKING = False  # typing is not imported at run time: ~3 ms of a CLI start
if TYPE_CHECKING:
    from typing import Any, Dict, Optional, Tuple, Union

    LimitValue = Union[int, float, None]

from ._abi import RETAIN_BYTES, W_NON_NEGATIVE, W_OBJECT
from ._errors import host_error, type_word

#: What the core reads as "no limit" (assembly/base/limits.ts NO_LIMIT).
NO_LIMIT = 0xFFFFFFFF

_UNLIMITED = 1 << 62  # max_bytes when there is no byte limit: every length compares below it
# A call whose request is at most retain/_GROWTH bytes cannot have grown the
# memory past retain: the core's peak is ~4.5x its input on records and
# below 40x on the worst shapes measured (one byte per nesting level, see
# test_limits.py), so such calls skip measuring the memory (one comparison).
_GROWTH = 128



class Limits:
    """Caps on one input; ``None`` = the configured value (or no limit).

    Attributes:
        max_input_bytes: the largest input in bytes as the core reads it
            (UTF-8 JSON text; for a host value, the JSON text it becomes).
        max_depth: the deepest nesting of objects and arrays (1 = flat).
        max_members: the most members one object may have (duplicate keys count).

    Each is ``None``, an ``int`` ≥ 0, or ``math.inf`` (no limit; as a call's
    own it keeps the configured one: a call's limits only tighten). Anything
    else raises FingerprintError("invalid-argument").

    Example:
        >>> Limits(max_input_bytes=1 << 20, max_depth=64, max_members=1000).max_depth
        64
    """

    # A plain frozen class, not a dataclass: importing dataclasses pulls in
    # inspect (~7 ms of every process's start-up).
    __slots__ = ("max_input_bytes", "max_depth", "max_members", "_core")
    max_input_bytes: LimitValue
    max_depth: LimitValue
    max_members: LimitValue

    def __init__(self, max_input_bytes: LimitValue = None, max_depth: LimitValue = None,
                 max_members: LimitValue = None) -> None:
        _fill(self, {"max_input_bytes": max_input_bytes, "max_depth": max_depth, "max_members": max_members})

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


_FIELDS = ("max_input_bytes", "max_depth", "max_members")
_answers: Dict[bytes, Tuple[int, ...]] = {}


def _fill(lim: Limits, given: Mapping[Any, Any]) -> Limits:
    """Sets the fields as given and ``_core``, the three numbers the core read from them
    (abi.ts F_LIMITS: it decides every value and words every error)."""
    told = (7, NO_LIMIT, NO_LIMIT, NO_LIMIT)  # all None: nothing to ask (Limits() at import)
    if any(v is not None for v in given.values()) or any(k not in _FIELDS for k in given):
        import json  # here: the CLI's start-up does not load it (the CLI passes no limits)

        from . import _core  # imported here: _core imports this module
        text = json.dumps({str(k): _member(v) for k, v in given.items()}).encode()
        told = _answers.get(text) or _core.limit_args(text)
        if len(_answers) > 64:  # the same few limits call after call: the core's answers kept, bounded
            _answers.clear()
        _answers[text] = told
    for f in _FIELDS:
        object.__setattr__(lim, f, given.get(f))
    object.__setattr__(lim, "_core", tuple(v if told[0] >> i & 1 else NO_LIMIT for i, v in enumerate(told[1:])))
    return lim


def _member(v: Any) -> Any:
    """A member as the core takes it: None, a number as printed ("Infinity" for math.inf), else as shown."""
    if v is None or isinstance(v, bool) or not isinstance(v, (int, float)):
        return None if v is None else [repr(v)]
    try:
        return "Infinity" if v == math.inf else float.__repr__(v) if isinstance(v, float) else int.__repr__(v)
    except ValueError:  # an int past sys.get_int_max_str_digits(): past every limit too
        return "1e+9999"


def as_limits(x: Any) -> Limits:
    """A ``Limits`` or a mapping with its field names, checked by the core."""
    if isinstance(x, Limits):
        return x
    if isinstance(x, Mapping):
        return _fill(Limits.__new__(Limits), x)
    raise host_error(W_OBJECT, "limits", type_word(x))


class Settings:
    """The limits of a call, resolved (internal; immutable once made): the
    configured ``Limits`` and the call's own, as the core's ``limits`` export
    takes them (``core``: six u32, NO_LIMIT for none)."""

    __slots__ = ("limits", "core", "any_bytes", "retain", "measure_above")

    def __init__(self, limits: Limits, retain: float, own: Optional[Limits] = None) -> None:
        self.limits = limits
        self.core: Tuple[int, ...] = limits._core + ((NO_LIMIT,) * 3 if own is None else own._core)
        #: Some byte limit applies: a host value then goes in as JSON text (the size the limit counts).
        self.any_bytes = self.core[0] != NO_LIMIT or self.core[3] != NO_LIMIT
        self.retain = retain
        self.measure_above = _UNLIMITED if retain == math.inf else int(retain) // _GROWTH

    def over(self, call: Optional[Any]) -> "Settings":
        """These settings with a call's own limits (they can only tighten: the core takes the smaller)."""
        return self if call is None else Settings(self.limits, self.retain, as_limits(call))

    def merged(self, more: Any) -> Limits:
        """The configured limits with ``more`` laid over them (configure: ``math.inf`` removes one)."""
        return Limits(*(m if v is None else v for v, m in zip(as_limits(more)._key(), self.limits._key())))


#: The process-wide settings; replaced (never mutated) by configure(), so a
#: call in another thread sees either the old or the new object whole.
active = Settings(Limits(), RETAIN_BYTES)


def configure(*, limits: Any = None, retain_memory_bytes: Optional[float] = None) -> None:
    """Process-wide settings for servers: limits every call gets, and memory kept.

    Args:
        limits: a :class:`Limits` or a mapping with its field names, laid over
            the current settings (a field that is ``None`` or left out keeps
            its setting; ``math.inf`` removes a limit). A call's own limits can
            only tighten these. An input over a limit raises
            FingerprintError("limit-exceeded") from every function that reads
            input (fingerprints, explain, diff, nearest, batches, Recording).
        retain_memory_bytes: after a call leaves a thread's core instance with
            more linear memory than this (default 64 MiB), the instance is
            dropped and that thread's next call makes a fresh one, so the
            memory of a large request is given back. ``math.inf``: never.

    Raises:
        FingerprintError: ``invalid-argument`` for a value of the wrong type,
            a negative one or an unknown key; nothing is changed then.

    Example:
        >>> configure(limits={"max_input_bytes": 1 << 20, "max_depth": 64})
        >>> configure(limits=Limits(math.inf, math.inf, math.inf))  # back to no limits
    """
    global active
    cur = active
    retain = cur.retain if retain_memory_bytes is None else retain_memory_bytes
    if isinstance(retain, bool) or not isinstance(retain, (int, float)) or not retain >= 0:
        raise host_error(W_NON_NEGATIVE, "retain_memory_bytes", repr(retain))
    active = Settings(cur.limits if limits is None else cur.merged(limits), retain)


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
