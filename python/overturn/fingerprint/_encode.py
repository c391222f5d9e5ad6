"""Python host values → JSON text for the core (D16), and value-side selection (D9).

Internal. The fast path is the C ``json`` encoder (compact RFC 8259 text,
NaN/Infinity written as bare tokens) with a ``default`` hook for
``datetime``/``date``. For every type D16 admits, its output already has the
contract's meaning once the core reads it: the core drops null, reads
``NaN``/``Infinity`` as null (D12) and huge integer literals as the nearest
double (D11, so ``2**1024`` → Infinity → null, as D16 asks).

It writes non-ASCII as ``\\u`` escapes (``ensure_ascii``): lone surrogates
as ``\\udXXX``, astral characters and two-char surrogate pairs alike as an
escaped pair, which the core reads back as the same UTF-16 string (D14).
Measured on the 1.1 MB benchmark payload (unicode-heavy records), escaped
text costs ~57 ms to write + ~30 ms in the core against ~76 ms + ~28 ms for
raw UTF-8 (best of 12, loaded machine): the ASCII result is a compact str
whose ``encode`` is a plain copy.

Trimming (D4), surrogate joining (D14), key order (D5) and number text (D7)
all happen in the core, never here.

What the C encoder accepts beyond D16's list, and why that is kept:
subclasses are read as their base type, by value — ``IntEnum``/``IntFlag``
members as their int, ``StrEnum`` members and other ``str`` subclasses as
their text, ``OrderedDict``/``defaultdict``/``Counter`` as objects,
namedtuples and other tuple/list subclasses as arrays, ``datetime``
subclasses as datetimes. They *are* those types
(``isinstance`` says so), and their JSON meaning is unambiguous.
``bool`` is tested before ``int``, so it is never a number (D16).

Anything else — ``set``, ``bytes``, ``Decimal``, ``time``, ``timedelta``,
other objects, a dict key that is not str/int/float/bool/None, a circular
reference — makes the fast path fail; only then does a slower, iterative walk
run, which either writes text of the same meaning (the failure was only
recursion depth, which it does not have, or an int too long for ``str``,
which is ±Infinity → null) or raises a FingerprintError naming the path, in the
notation of D15 (``args.items[3].when``).
"""
from __future__ import annotations

import json
import re
import threading
from datetime import date, datetime, timedelta, timezone
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Set, Tuple

from ._errors import FingerprintError

# json.encoder picks the C implementations (module _json) when CPython has them.
_quote: Callable[[str], str] = json.encoder.encode_basestring_ascii
_c_make_encoder: Optional[Callable[..., Any]] = getattr(json.encoder, "c_make_encoder", None)

_UTC = timezone.utc
_EPOCH = datetime(1970, 1, 1)
_ALLOWED = "only dict, list, tuple, str, int, float, bool, None, datetime and date are allowed (D16)"


class _Unsupported(TypeError):
    """Raised by the default hook; makes the fast path fall back to the walk."""


# --- dates (D16) ----------------------------------------------------------

def _civil(days: int) -> Tuple[int, int, int]:
    """Proleptic Gregorian (year, month, day) of a day count from 1970-01-01.

    Only used when a UTC conversion leaves datetime's year range (year 0 or
    10000); counts 400-year eras of 146097 days, from March 1 so that the
    leap day ends the year.
    """
    z = days + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    return yoe + era * 400 + (1 if m <= 2 else 0), m, d


def iso_datetime(dt: datetime) -> str:
    """``Date.prototype.toISOString()`` of a datetime: UTC, milliseconds, ``Z``.

    Naive → taken as UTC; aware → converted to UTC; microseconds are
    truncated (floor on the time line, which is the same as dropping the
    sub-millisecond digits since the microsecond field is never negative).
    Years outside 0000..9999 print as ``+YYYYYY`` like JavaScript.
    """
    off = dt.utcoffset()
    if off is None or not off:
        if dt.tzinfo is not None:
            dt = dt.replace(tzinfo=None)
        return "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ" % (
            dt.year, dt.month, dt.day, dt.hour, dt.minute, dt.second, dt.microsecond // 1000)
    local = dt.replace(tzinfo=None)
    try:
        u = local - off
        return "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ" % (
            u.year, u.month, u.day, u.hour, u.minute, u.second, u.microsecond // 1000)
    except OverflowError:
        # The UTC instant is in year 0 or 10000, which datetime cannot hold.
        us = (local - _EPOCH) // timedelta(microseconds=1) - off // timedelta(microseconds=1)
        days, rest = divmod(us, 86_400_000_000)
        y, m, d = _civil(days)
        ms = rest // 1000
        year = "%04d" % y if 0 <= y <= 9999 else ("+%06d" % y if y > 0 else "-%06d" % -y)
        return "%s-%02d-%02dT%02d:%02d:%02d.%03dZ" % (
            year, m, d, ms // 3_600_000, ms // 60_000 % 60, ms // 1000 % 60, ms % 1000)


def iso_date(d: date) -> str:
    """A ``date`` as ``YYYY-MM-DD`` (D16)."""
    return "%04d-%02d-%02d" % (d.year, d.month, d.day)


def _default(o: Any) -> str:
    if isinstance(o, datetime):
        return iso_datetime(o)
    if isinstance(o, date):
        return iso_date(o)
    raise _Unsupported


# --- the fast path ----------------------------------------------------------

def _make_fast() -> Callable[[Any], Sequence[str]]:
    """A compact, ASCII-only, NaN-allowing JSON encoder, one per thread.

    It returns the text as the C encoder leaves it: a sequence of pieces
    (CPython 3.11 joins every 100,000 fragments into one piece, so a large
    value comes back as many ~100 KB-1 MB pieces), not yet joined.

    Each thread gets its own C encoder object because its ``markers`` dict
    (the cycle check) is state; the cycle check stays on so that a circular
    value is a clean ValueError even when a program raised the recursion
    limit far enough for the C encoder to exhaust the C stack first.
    """
    enc: Any = None
    markers: Dict[int, Any] = {}
    if _c_make_encoder is not None:
        try:  # the positional signature of json.encoder.c_make_encoder (CPython 3.9-3.13)
            enc = _c_make_encoder(markers, _default, _quote, None, ":", ",", False, False, True)
        except TypeError:  # pragma: no cover - a CPython that changed it
            enc = None
    if enc is not None:
        def encode(value: Any) -> Sequence[str]:
            try:
                return enc(value, 0)  # type: ignore[no-any-return]
            except BaseException:
                markers.clear()  # a failed encode may leave entries behind
                raise
        return encode
    py = json.JSONEncoder(ensure_ascii=True, allow_nan=True, separators=(",", ":"), default=_default)
    return lambda value: [py.encode(value)]  # pragma: no cover


_local = threading.local()


def to_json_text(value: Any) -> bytes:
    """JSON text (WTF-8 bytes) of a host value, checked against D16.

    Raises FingerprintError (with ``path``) for a value D16 rejects.
    """
    try:
        enc = _local.encode
    except AttributeError:
        enc = _local.encode = _make_fast()
    text: str
    try:
        text = "".join(enc(value))
    except (TypeError, ValueError, RecursionError, OverflowError):
        text = slow_text(value)
    return text.encode("utf-8", "surrogatepass")


#: Above this many bytes of JSON text, the value path hands the core the
#: encoder's pieces instead of one bytes object (issue 15, see to_json_args).
PIECES_ABOVE = 1 << 20


def to_json_args(value: Any) -> Any:
    """``to_json_text``'s text as the core call takes it: bytes, or a list of ASCII pieces.

    Small text (≤ PIECES_ABOVE) is one ``bytes``, as fast as before. Larger
    text stays in the encoder's pieces, which ``_core`` writes into linear
    memory and frees one by one: no joined ``str`` and no ``bytes`` copy of
    the whole text exist, so the call's peak is the core's own (issue 15).
    The text is ASCII (``ensure_ascii``), so its length in characters is its
    length in bytes.
    """
    try:
        enc = _local.encode
    except AttributeError:
        enc = _local.encode = _make_fast()
    try:
        parts = enc(value)
    except (TypeError, ValueError, RecursionError, OverflowError):
        parts = [slow_text(value)]
    if len(parts) == 1:
        text = parts[0]
        if len(text) <= PIECES_ABOVE:
            return text.encode("ascii")
        return [text]
    return list(parts)


# --- the slow walk: same text, or an error with a path ---------------------

_END = object()
_IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*\Z")


def _float_text(x: float) -> str:
    if x != x or x in (float("inf"), float("-inf")):
        return "null"  # D1: the core would read NaN/Infinity as null anyway
    return float.__repr__(x)


def _int_text(x: int) -> str:
    try:
        return int.__repr__(x)
    except ValueError:
        # Over sys.get_int_max_str_digits() (≥ 640 digits): far beyond the
        # largest double, so the nearest double is ±Infinity → null (D16).
        return "null"


def key_name(k: Any) -> Optional[str]:
    """The JSON name json.dumps gives a dict key (D16), None for other types."""
    if isinstance(k, str):
        return str.__str__(k)
    if k is True:
        return "true"
    if k is False:
        return "false"
    if k is None:
        return "null"
    if isinstance(k, int):
        return int.__repr__(k)
    if isinstance(k, float):
        if k != k:
            return "NaN"
        if k in (float("inf"), float("-inf")):
            return "Infinity" if k > 0 else "-Infinity"
        return float.__repr__(k)
    return None


def _describe(v: Any) -> str:
    t = type(v)
    name = t.__qualname__ if t.__module__ == "builtins" else "%s.%s" % (t.__module__, t.__qualname__)
    return "a value of type %s" % name


def _path(frames: List[List[Any]]) -> str:
    parts = ["args"]
    for f in frames:
        k = f[3]
        if f[2]:
            parts.append("." + k if _IDENT.match(k) else "[%s]" % json.dumps(k, ensure_ascii=False))
        else:
            parts.append("[%d]" % k)
    return "".join(parts)


def slow_text(value: Any) -> str:
    """Iterative twin of the fast path: the same JSON text, no depth limit.

    Raises FingerprintError naming the path of the first value D16 rejects.
    Frames are ``[container, iterator, is_dict, current key or index]``.
    """
    out: List[str] = []
    frames: List[List[Any]] = []
    active: Set[int] = set()  # ids of the containers on the current path
    v = value
    while True:
        # Same test order as the C encoder: None, True, False, str, int,
        # float, list/tuple, dict, then the default hook.
        if v is None:
            out.append("null")
        elif v is True:
            out.append("true")
        elif v is False:
            out.append("false")
        elif isinstance(v, str):
            out.append(_quote(v))
        elif isinstance(v, int):
            out.append(_int_text(v))
        elif isinstance(v, float):
            out.append(_float_text(v))
        elif isinstance(v, (list, tuple, dict)):
            if id(v) in active:
                p = _path(frames)
                raise FingerprintError("circular-value", "circular reference at %s" % p, path=p)
            active.add(id(v))
            if isinstance(v, dict):
                out.append("{")
                frames.append([v, iter(v.items()), True, None])
            else:
                out.append("[")
                it = list.__iter__(v) if isinstance(v, list) else tuple.__iter__(v)
                frames.append([v, it, False, -1])
        elif isinstance(v, datetime):
            out.append(_quote(iso_datetime(v)))
        elif isinstance(v, date):
            out.append(_quote(iso_date(v)))
        else:
            p = _path(frames)
            raise FingerprintError("unsupported-value",
                                   "cannot fingerprint %s at %s: %s" % (_describe(v), p, _ALLOWED), path=p)
        # Next value to write: the next member of the innermost open container.
        while frames:
            f = frames[-1]
            item: Any = next(f[1], _END)
            if item is _END:
                out.append("}" if f[2] else "]")
                active.discard(id(f[0]))
                frames.pop()
                continue
            if f[2]:
                k, v = item
                name = key_name(k)
                if name is None:
                    p = _path(frames[:-1])  # the object that holds the key
                    raise FingerprintError(
                        "unsupported-value",
                        "cannot fingerprint a dict key of type %s in the object at %s: keys must be str, int, "
                        "float, bool or None (D16)" % (type(k).__qualname__, p), path=p)
                if f[3] is not None:
                    out.append(",")
                f[3] = name
                out.append(_quote(name))
                out.append(":")
            else:
                if f[3] >= 0:
                    out.append(",")
                f[3] += 1
                v = item
            break
        else:
            return "".join(out)


# --- selection (D9, D10) ----------------------------------------------------

def select_value(args: Any, match_on: Optional[Tuple[str, ...]], ignore_args: Optional[Tuple[str, ...]]) -> Any:
    """Narrows a top-level dict before anything in it is encoded (D9).

    Keys are compared by the name the JSON text gives them (``7`` → ``"7"``),
    so value input and text input select alike. Values left out are never
    read. Non-dict args pass through (D10); the core applies the same lists
    again, which changes nothing.
    """
    if not isinstance(args, dict):
        return args
    if match_on is not None:
        keep = set(match_on)
        return {k: v for k, v in args.items() if (k if k.__class__ is str else key_name(k)) in keep}
    if ignore_args is not None:
        drop = set(ignore_args)
        return {k: v for k, v in args.items() if (k if k.__class__ is str else key_name(k)) not in drop}
    return args


def key_list(keys: Any, what: str) -> Tuple[str, ...]:
    """A match_on/ignore_args argument as a tuple of str, or invalid-argument."""
    if isinstance(keys, (str, bytes, bytearray, dict)) or not isinstance(keys, Iterable):
        raise FingerprintError("invalid-argument",
                               "%s must be a list of strings, got %s" % (what, type(keys).__qualname__))
    t = tuple(keys)
    for k in t:
        if not isinstance(k, str):
            raise FingerprintError("invalid-argument",
                                   "%s must be a list of strings, found %s" % (what, type(k).__qualname__))
    return t
