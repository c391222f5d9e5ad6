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
subclasses as datetimes. They *are* those types, and their JSON meaning is
unambiguous. ``bool`` is tested before ``int``, so it is never a number (D16).

Hostile values (issue #10). Types are tested on ``type(v)``, never through
``isinstance`` (which consults an instance's ``__class__`` and so lets any
object claim to be a ``str`` or a ``datetime``). A subclass is read by its
base type's value (``int.__repr__``, ``float.__repr__``, the ``datetime``
field descriptors), never through overridable methods, exactly as the C
encoder reads it — except where ``json.dumps`` itself calls back: a dict
subclass is read through its ``items()`` and a list/tuple subclass through
its iteration, on both paths. Data that cannot be read (``items()`` yielding
something other than pairs, an int key longer than the interpreter's int→str
limit, a ``utcoffset`` that returns a non-timedelta) is a FingerprintError
naming the path, with the original exception as ``__cause__``; an exception
raised by the user's own code passes through unchanged.

Re-entrancy: the C encoder is made without a cycle-check ``markers`` dict, so
it holds no per-call state and one encoder serves every thread and every
nested call (a fingerprint call made from inside a user's ``items()``,
``__iter__`` or ``utcoffset``). A circular value then exhausts the recursion
limit in C and the walk below names it.

Depth (D19): the C encoder recurses on the C stack, bounded only by
``sys.getrecursionlimit()``. Measured on CPython 3.11 (x86-64, 8 MiB main
stack): a 60,000-deep list encodes, 80,000 deep kills the process
(~110-130 bytes of C stack per level); in a thread with a 256 KiB stack
1,000 levels fit and 3,000 do not. The fast path is therefore used only while
the limit is at most FAST_MAX_RECURSION_LIMIT: 10,000 levels, or fewer when
the process stack (RLIMIT_STACK, which glibc also gives new threads) holds
less at 400 bytes a level (3× the measured cost), but never below 1,000,
CPython's default limit, where ``json.dumps`` itself runs. Above it every
value takes the iterative walk, whatever its depth. Not covered: a thread
started after ``threading.stack_size()`` was set below ~400 KiB.

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
import sys
from datetime import date, datetime, timedelta, timezone
from typing import Any, Callable, Dict, List, Optional, Set, Tuple

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


class BadData(TypeError):
    """Data that cannot be read (not an exception of the user's code).

    A TypeError so that the fast path falls back to the walk, which turns it
    into a FingerprintError with the path and ``__cause__`` set to ``cause``.
    """

    def __init__(self, message: str, cause: BaseException) -> None:
        super().__init__(message)
        self.cause = cause


_DAY_US = 86_400_000_000
_US = timedelta(microseconds=1)
_DT_FIELDS = tuple(getattr(datetime, n).__get__ for n in
                   ("year", "month", "day", "hour", "minute", "second", "microsecond", "tzinfo", "fold"))
_D_FIELDS = tuple(getattr(date, n).__get__ for n in ("year", "month", "day"))


def _exact_datetime(dt: datetime) -> datetime:
    """A subclass instance as a plain datetime, read through the base descriptors.

    A subclass may override ``year``, ``utcoffset``, ``replace`` or ``__sub__``;
    none of them is called (its value is its base type's, as for ``int``).
    """
    y, mo, d, h, mi, s, us, tz, fold = [f(dt) for f in _DT_FIELDS]
    return datetime(y, mo, d, h, mi, s, us, tz, fold=fold)


def _utcoffset_us(dt: datetime) -> Optional[int]:
    """The UTC offset of an exact datetime in microseconds, or None (naive).

    Calls ``tzinfo.utcoffset(dt)`` itself, as ``datetime.utcoffset`` does, so
    that an exception of the tzinfo's own code passes through unchanged while
    a result datetime would reject (not a timedelta, not strictly within ±24 h)
    becomes BadData — checked here, with the message datetime gives.
    """
    tz = dt.tzinfo
    if tz is None:
        return None
    off = tz.utcoffset(dt)  # user code: its exceptions pass through
    if off is None:
        return None
    if not issubclass(type(off), timedelta):
        e: Exception = TypeError("tzinfo.utcoffset() must return None or timedelta, not '%s'"
                                 % type(off).__name__)
        raise BadData("the tzinfo of a datetime returned a %s offset" % type(off).__name__, e)
    us = timedelta.__floordiv__(off, _US)
    if not -_DAY_US < us < _DAY_US:
        e = ValueError("offset must be a timedelta strictly between -timedelta(hours=24) and "
                       "timedelta(hours=24), not %s" % timedelta.__repr__(off))
        raise BadData("the tzinfo of a datetime returned an offset of 24 hours or more", e)
    return us


def iso_datetime(dt: datetime) -> str:
    """``Date.prototype.toISOString()`` of a datetime: UTC, milliseconds, ``Z``.

    Naive → taken as UTC; aware → converted to UTC; microseconds are
    truncated (floor on the time line, which is the same as dropping the
    sub-millisecond digits since the microsecond field is never negative).
    Years outside 0000..9999 print as ``+YYYYYY`` like JavaScript.
    Raises BadData for an offset datetime itself would reject.
    """
    if type(dt) is not datetime:
        dt = _exact_datetime(dt)
    off_us = _utcoffset_us(dt)
    if not off_us:
        return "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ" % (
            dt.year, dt.month, dt.day, dt.hour, dt.minute, dt.second, dt.microsecond // 1000)
    off = timedelta(microseconds=off_us)
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
    """A ``date`` as ``YYYY-MM-DD`` (D16), read through the base descriptors."""
    return "%04d-%02d-%02d" % (_D_FIELDS[0](d), _D_FIELDS[1](d), _D_FIELDS[2](d))


def _default(o: Any) -> str:
    t = type(o)
    if issubclass(t, datetime):
        return iso_datetime(o)
    if issubclass(t, date):
        return iso_date(o)
    raise _Unsupported


# --- the fast path ----------------------------------------------------------

def _fast_max_limit() -> int:
    """The deepest C encoder recursion this process's stack holds, in [1,000, 10,000]."""
    stack = 1 << 20  # where the size cannot be read (e.g. Windows' default thread stack)
    try:
        import resource
        soft = resource.getrlimit(resource.RLIMIT_STACK)[0]
        stack = soft if soft != resource.RLIM_INFINITY else 2 << 20  # glibc's thread default then
    except (ImportError, AttributeError, OSError, ValueError):  # pragma: no cover - not Unix
        pass
    return max(1_000, min(10_000, stack // 400))


#: The highest ``sys.getrecursionlimit()`` under which the C encoder runs (see
#: the module comment: 10,000 levels take ~1.3 MiB of C stack; 60,000 fit in 8 MiB).
FAST_MAX_RECURSION_LIMIT = _fast_max_limit()


def _make_fast() -> Callable[[Any], str]:
    """A compact, ASCII-only, NaN-allowing JSON encoder without per-call state.

    ``markers`` is None (no cycle check), so the encoder object is shared by
    all threads and by nested calls; a cycle becomes a RecursionError.
    """
    if _c_make_encoder is not None:
        try:  # the positional signature of json.encoder.c_make_encoder (CPython 3.9-3.13)
            enc = _c_make_encoder(None, _default, _quote, None, ":", ",", False, False, True)
        except TypeError:  # pragma: no cover - a CPython that changed it
            enc = None
        if enc is not None:
            return lambda value: "".join(enc(value, 0))
    py = json.JSONEncoder(ensure_ascii=True, allow_nan=True, check_circular=False,
                          separators=(",", ":"), default=_default)
    return py.encode  # pragma: no cover


_fast = _make_fast()
_limit = sys.getrecursionlimit


def to_json_text(value: Any) -> bytes:
    """JSON text (WTF-8 bytes) of a host value, checked against D16.

    Raises FingerprintError (with ``path``) for a value D16 rejects; an
    exception of the user's own code (``items()``, ``__iter__``,
    ``utcoffset``) passes through unchanged and is not retried: when the C
    encoder fails with an exception raised in a frame outside this module and
    ``json.encoder``, that exception is the caller's. Otherwise the walk reads
    the value again, so user callbacks that succeeded run a second time on
    this error path (TODO: read-once, as issue #10 asks of the JS host).
    RecursionError always falls back: it may surface inside a user's frame
    only because the value is deep (D19).
    """
    text: str
    if _limit() <= FAST_MAX_RECURSION_LIMIT:
        try:
            text = _fast(value)
        except RecursionError:
            text = slow_text(value)
        except (TypeError, ValueError, OverflowError) as e:
            if _raised_by_user(e):
                raise
            text = slow_text(value)
    else:
        text = slow_text(value)  # D19: the C stack could not hold the limit's depth
    return text.encode("utf-8", "surrogatepass")


_OWN_FILES = frozenset((_make_fast.__code__.co_filename, json.encoder.__file__))


def _raised_by_user(e: BaseException) -> bool:
    """Whether any frame between here and the raise belongs to neither this module nor json.encoder."""
    tb = e.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename not in _OWN_FILES:
            return True
        tb = tb.tb_next
    return False


# --- the slow walk: same text, or an error with a path ---------------------

_END = object()
_IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*\Z")


def _float_text(x: float) -> str:
    x = float.__float__(x)  # a subclass by its value: no overridden __ne__/__repr__
    if x != x or x in (_INF, -_INF):
        return "null"  # D1: the core would read NaN/Infinity as null anyway
    return float.__repr__(x)


def _int_text(x: int) -> str:
    try:
        return int.__repr__(x)
    except ValueError:
        # Over sys.get_int_max_str_digits() (≥ 640 digits): far beyond the
        # largest double, so the nearest double is ±Infinity → null (D16).
        return "null"


_INF = float("inf")


def key_name(k: Any, where: str = "args") -> Optional[str]:
    """The JSON name json.dumps gives a dict key (D16), None for other types.

    Always an exact ``str`` (a subclass key by its content: its ``__eq__`` and
    ``__hash__`` are never used, D9). An int key whose decimal digits exceed
    the interpreter's int→str limit raises FingerprintError naming ``where``
    (the object that holds the key), with the ValueError as cause.
    """
    t = type(k)
    if t is str:
        return k
    if issubclass(t, str):
        return str.__str__(k)
    if k is True:
        return "true"
    if k is False:
        return "false"
    if k is None:
        return "null"
    if issubclass(t, int):
        try:
            return int.__repr__(k)
        except ValueError as e:
            raise FingerprintError(
                "unsupported-value", "cannot fingerprint an int dict key of more digits than "
                "sys.get_int_max_str_digits() allows in the object at %s (D16)" % where, path=where) from e
    if issubclass(t, float):
        x = float.__float__(k)
        if x != x:
            return "NaN"
        if x in (_INF, -_INF):
            return "Infinity" if x > 0 else "-Infinity"
        return float.__repr__(x)
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


Where = Any  # a path (str), or a callable that makes it: only the error path pays for it


def _where(where: Where) -> str:
    return where if type(where) is str else where()


def _iterate(res: Any, what: str, where: Where) -> Any:
    """``iter(res)`` where ``res`` came from user code; not iterable → FingerprintError."""
    try:
        return iter(res)
    except TypeError as e:
        t = type(res)
        if getattr(t, "__iter__", None) is None and getattr(t, "__getitem__", None) is None:
            where = _where(where)
            raise FingerprintError("unsupported-value", "cannot fingerprint the object at %s: %s returned %s, "
                                   "which is not iterable" % (where, what, _describe(res)), path=where) from e
        raise  # raised by the object's own __iter__


def items_of(d: Dict[Any, Any], where: Where) -> Any:
    """An iterator over a dict's (key, value) pairs, read as json.dumps reads them.

    An exact dict is read directly; a subclass through its ``items()`` (user
    code, whose exceptions pass through) — unless its own storage is empty,
    which the C encoder writes as ``{}`` without calling ``items()``. Use
    with :func:`pair`.
    """
    if type(d) is dict or not dict.__len__(d):
        return dict.items(d).__iter__()
    return _iterate(d.items(), "items()", where)


def pair(item: Any, where: Where) -> Tuple[Any, Any]:
    """One element of ``items()`` as (key, value); anything but a 2-tuple is FingerprintError."""
    if type(item) is tuple and len(item) == 2:
        return item  # type: ignore[return-value]
    if issubclass(type(item), tuple) and tuple.__len__(item) == 2:
        return tuple.__getitem__(item, 0), tuple.__getitem__(item, 1)
    e = ValueError("items must return 2-tuples")  # the C json encoder's own message
    where = _where(where)
    raise FingerprintError("unsupported-value", "cannot fingerprint the dict at %s: its items() yielded %s, "
                           "not a (key, value) pair" % (where, _describe(item)), path=where) from e


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
        # float, list/tuple, dict, then the default hook; tested on type(v).
        t = type(v)
        if v is None:
            out.append("null")
        elif v is True:
            out.append("true")
        elif v is False:
            out.append("false")
        elif issubclass(t, str):
            out.append(_quote(v))
        elif issubclass(t, int):
            out.append(_int_text(v))
        elif issubclass(t, float):
            out.append(_float_text(v))
        elif issubclass(t, (list, tuple, dict)):
            if id(v) in active:
                p = _path(frames)
                raise FingerprintError("circular-value", "circular reference at %s" % p, path=p)
            if issubclass(t, dict):
                it = items_of(v, lambda: _path(frames)) if t is not dict else dict.items(v).__iter__()
                out.append("{")
                frames.append([v, it, True, None])
            else:
                # An exact list/tuple directly; a subclass through its own
                # iteration, as the C encoder's PySequence_Fast reads it.
                it = v.__iter__() if t is list or t is tuple else \
                    _iterate(v, "__iter__()", lambda: _path(frames))
                out.append("[")
                frames.append([v, it, False, -1])
            active.add(id(v))
        elif issubclass(t, datetime):
            out.append(_quote(_dated(iso_datetime, v, frames)))
        elif issubclass(t, date):
            out.append(_quote(iso_date(v)))
        else:
            p = _path(frames)
            raise FingerprintError("unsupported-value",
                                   "cannot fingerprint %s at %s: %s" % (_describe(v), p, _ALLOWED), path=p)
        # Next value to write: the next member of the innermost open container.
        while frames:
            f = frames[-1]
            item: Any = next(f[1], _END)  # user code for subclasses: exceptions pass through
            if item is _END:
                out.append("}" if f[2] else "]")
                active.discard(id(f[0]))
                frames.pop()
                continue
            if f[2]:
                if type(item) is tuple and len(item) == 2:
                    k, v = item
                else:
                    k, v = pair(item, lambda: _path(frames[:-1]))
                name = k if type(k) is str else None
                if name is None:
                    p = _path(frames[:-1])  # the object that holds the key
                    name = key_name(k, p)
                    if name is None:
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


def _dated(fn: Callable[[Any], str], v: Any, frames: List[List[Any]]) -> str:
    try:
        return fn(v)
    except BadData as e:
        p = _path(frames)
        raise FingerprintError("unsupported-value", "cannot fingerprint the datetime at %s: %s"
                               % (p, e), path=p) from e.cause


# --- selection (D9, D10) ----------------------------------------------------

def _utf16(s: str) -> str:
    """A name as the core compares it: a two-char surrogate pair is one code point (D14)."""
    return s.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def select_value(args: Any, match_on: Optional[Tuple[str, ...]], ignore_args: Optional[Tuple[str, ...]]) -> Any:
    """Narrows a top-level dict before anything in it is encoded (D9).

    Keys are compared by the name the JSON text gives them (``7`` → ``"7"``),
    exactly and by content, after joining surrogate pairs as the core does
    (D14), so value input and text input select alike. The result is a plain
    dict keyed by those names (exact ``str``), which encode to the same JSON
    text as the original keys; a key's own ``__eq__``/``__hash__`` never run.
    One set lookup per key: O(keys + list). Values left out are never read.
    Non-dict args pass through (D10). The lists come from :func:`key_list`.
    """
    t = type(args)
    if not issubclass(t, dict):
        return args
    keys = match_on if match_on is not None else ignore_args
    if keys is None:
        return args
    listed = {k if k.isascii() else _utf16(k) for k in keys}
    keep = match_on is not None
    out = {}
    if t is dict:
        for k, v in args.items():
            if type(k) is str and k.isascii():
                if (k in listed) is keep:
                    out[k] = v
            else:
                _select_one(out, k, v, listed, keep)
        return out
    for item in items_of(args, "args"):
        k, v = pair(item, "args")
        _select_one(out, k, v, listed, keep)
    return out


def _select_one(out: Dict[str, Any], k: Any, v: Any, listed: Set[str], keep: bool) -> None:
    name = key_name(k, "args")
    if name is None:
        if keep:
            return  # not a name match_on can list: left out, never read (D9)
        raise FingerprintError(
            "unsupported-value", "cannot fingerprint a dict key of type %s in the object at args: keys must be "
            "str, int, float, bool or None (D16)" % type(k).__qualname__, path="args")
    if ((name if name.isascii() else _utf16(name)) in listed) is keep:
        out[name] = v  # same name twice (1 and "1"): the last wins, as the core's D13 would decide


def key_list(keys: Any, what: str) -> Tuple[str, ...]:
    """A match_on/ignore_args argument as a tuple of exact ``str``, or invalid-argument.

    Subclass elements become plain ``str`` of the same content, so neither
    selection nor the key-list cache ever calls their ``__eq__``/``__hash__``.
    """
    t = type(keys)
    if issubclass(t, (str, bytes, bytearray, dict)) or getattr(t, "__iter__", None) is None:
        raise FingerprintError("invalid-argument",
                               "%s must be a list of strings, got %s" % (what, t.__qualname__))
    out = tuple(keys)  # user code (__iter__): its exceptions pass through
    for k in out:
        if type(k) is not str:
            break
    else:
        return out
    exact = []
    for k in out:
        kt = type(k)
        if kt is not str:
            if not issubclass(kt, str):
                raise FingerprintError("invalid-argument",
                                       "%s must be a list of strings, found %s" % (what, kt.__qualname__))
            k = str.__str__(k)
        exact.append(k)
    return tuple(exact)
