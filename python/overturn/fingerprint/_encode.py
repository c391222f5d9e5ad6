"""Python host values → JSON text for the core (D16).

Internal. Plain values first go to the core as marshal
(``_stream.py``); this module is the path for everything that refuses — and
what gives every D16 error its path. Its fast path is the C ``json`` encoder (compact RFC 8259 text,
NaN/Infinity written as bare tokens) with a ``default`` hook for
``datetime``/``date`` (whose text the core prints, ``_date_text``). For every type D16 admits, its output already has the
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

Hostile values. Types are tested on ``type(v)``, never through
``isinstance`` (which consults an instance's ``__class__`` and so lets any
object claim to be a ``str`` or a ``datetime``). A subclass is read by its
base type's value (``int.__repr__``, ``float.__repr__``, the ``datetime``
field descriptors, see ``_date_text``), never through overridable methods,
exactly as the C encoder reads it — except where ``json.dumps`` itself calls
back: a dict subclass is read through its ``items()`` (unless its own storage
is empty) and a list/tuple subclass through its iteration, on both paths
(``_read``). Data that cannot be read (``items()`` yielding
something other than pairs, an int key longer than the interpreter's int→str
limit, a ``utcoffset`` that returns a non-timedelta) is a FingerprintError
naming the path, with the original exception as ``__cause__``; an exception
raised by the user's own code passes through unchanged.

Re-entrancy: the C encoder is made without a cycle-check ``markers`` dict, so
it holds no per-call state and one encoder serves every thread and every
nested call (a fingerprint call made from inside a user's ``items()``,
``__iter__`` or ``utcoffset``). A circular value then exhausts the recursion
limit in C and the walk below names it.

Depth (D19): the C encoder recurses on the C stack. Up to CPython 3.11 its
depth is bounded by ``sys.getrecursionlimit()``; from 3.12 on by the
interpreter's C recursion limit instead, whatever ``sys.getrecursionlimit()``
says (measured: ~1,500 levels in 3.12.1, ~10,000 in 3.13.0). Measured on
CPython 3.11 (x86-64, 8 MiB main stack): a 60,000-deep list encodes, 80,000
deep kills the process (~110-130 bytes of C stack per level); in a thread
with a 256 KiB stack 1,000 levels fit and 3,000 do not; 3.13 takes ~150-210
bytes a level (a 1 MiB thread holds 5,000 levels, not 7,000). So the fast path
runs only where the stack holds the deepest recursion the encoder may make,
at 400 bytes a level (``stack_levels``: the process stack, RLIMIT_STACK,
which glibc also gives new threads, as FAST_MAX_RECURSION_LIMIT, or a smaller
``threading.stack_size()``): up to 3.11 the recursion limit, from 3.12 on
10,000 levels, the larger of those C limits. Elsewhere every value takes the
iterative walk, whatever its depth: a thread of 64 KiB or a process stack of
128 KiB gets the walk even at the default limit, where ``json.dumps`` itself
would crash it, and so does every value on 3.12 and later where the process
stack is unlimited (new threads then get glibc's 2 MiB, too little for 10,000
levels). Not covered: a thread started while a smaller ``stack_size`` was set,
after it was set back to 0.

An object with ``model_dump`` (the provider SDKs' pydantic types, D16b) is
refused by the fast path and read by the walk, once, as
``model_dump(mode="json", by_alias=True)`` (``_read.model_value``).

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
import sys
from collections.abc import Mapping
from datetime import date, datetime, timedelta
from typing import Any, Callable, List, Sequence, Set, Tuple

import struct
from _thread import stack_size

from . import _core
from ._abi import F_TEXT, F_VALUES, V_DATE, V_DAY
from ._abi import W_CALL, W_CIRCULAR, W_DATETIME, W_KEY_TYPE, W_UNSUPPORTED_PY
from ._errors import host_error, path_error
from ._read import is_model, items_of, iterate, key_name, model_in_dump, model_value, pair, type_name
from ._select import key_list

__all__ = ["FAST_MAX_RECURSION_LIMIT", "key_list", "key_name",
           "host_call_text", "slow_text", "to_json_args", "to_json_text"]  # key_list/key_name: re-exported for _explain

# json.encoder picks the C implementations (module _json) when CPython has them.
_quote: Callable[[str], str] = json.encoder.encode_basestring_ascii

_INF = float("inf")


def _default(o: Any) -> str:
    if issubclass(type(o), date):  # datetime too
        return _date_text(o)
    raise TypeError  # the fast path falls back to the walk, which names the value and its path


# --- dates: the host reads the instant, the core prints it (D16) -------------

class BadData(TypeError):
    """Data that cannot be read (not an exception of the user's code): a
    TypeError so that the fast path falls back to the walk, which turns it into
    a FingerprintError with the path and ``__cause__`` set to ``cause``."""

    def __init__(self, message: str, cause: BaseException) -> None:
        super().__init__(message)
        self.cause = cause


_DATE_ITEM = struct.Struct("<Bd")  # a value-stream date item (assembly/json/values.ts)
_EPOCH_DAY = 719_163  # date(1970, 1, 1).toordinal()
_DAY_US = 86_400_000_000
_US = timedelta(microseconds=1)
_DT_FIELDS = tuple(getattr(datetime, n).__get__ for n in
                   ("year", "month", "day", "hour", "minute", "second", "microsecond", "tzinfo", "fold"))
_toordinal = date.toordinal


def _date_text(v: Any) -> str:
    """The text the core prints for a datetime (``toISOString()``: its UTC
    instant, a naive one taken as UTC, microseconds truncated) or a date
    (``YYYY-MM-DD``), sent as a time value in ms or a day count (D16).

    A subclass is read through ``datetime``'s own field descriptors (its
    overridden ``year``, ``utcoffset()``, ``toordinal()`` never run); the
    tzinfo's ``utcoffset(dt)`` is called directly, as ``datetime.utcoffset``
    does, so its own exception passes through while a result datetime would
    reject is BadData.
    """
    if not issubclass(type(v), datetime):
        item = _DATE_ITEM.pack(V_DAY, _toordinal(v) - _EPOCH_DAY)
    else:
        y, mo, d, h, mi, sec, us, tz, fold = [f(v) for f in _DT_FIELDS]
        if type(v) is not datetime:
            v = datetime(y, mo, d, h, mi, sec, us, tz, fold=fold)
        local = (((_toordinal(v) - _EPOCH_DAY) * 24 + h) * 60 + mi) * 60 + sec
        item = _DATE_ITEM.pack(V_DATE, (local * 1_000_000 + us - _utcoffset_us(v, tz)) // 1000)
    return _core.call(F_TEXT | F_VALUES, b"", b"", b"", b"", item)[1:-1]  # a JSON string of ASCII


def _utcoffset_us(dt: datetime, tz: Any) -> int:
    """The UTC offset of an exact datetime in microseconds (0: naive, or no offset)."""
    if tz is None:
        return 0
    off = tz.utcoffset(dt)  # user code: its exceptions pass through
    if off is None:
        return 0
    if not issubclass(type(off), timedelta):
        e: Exception = TypeError("tzinfo.utcoffset() must return None or timedelta, not '%s'" % type(off).__name__)
        raise BadData("the tzinfo of a datetime returned a %s offset" % type(off).__name__, e)
    us = timedelta.__floordiv__(off, _US)
    if not -_DAY_US < us < _DAY_US:
        e = ValueError("offset must be a timedelta strictly between -timedelta(hours=24) and "
                       "timedelta(hours=24), not %s" % timedelta.__repr__(off))
        raise BadData("the tzinfo of a datetime returned an offset of 24 hours or more", e)
    return us  # type: ignore[no-any-return]


# --- the fast path ----------------------------------------------------------

def _fast_max_limit() -> int:
    """The deepest C encoder recursion this process's stack holds, at most 10,000 (none is assumed: a 128 KiB
    stack holds 327, and 1,000 levels of the default limit crashed Python 3.9 there)."""
    stack = 1 << 20  # where the size cannot be read (e.g. Windows' default thread stack)
    try:
        import resource
        soft = resource.getrlimit(resource.RLIMIT_STACK)[0]
        stack = soft if soft != resource.RLIM_INFINITY else 2 << 20  # glibc's thread default then
    except (ImportError, AttributeError, OSError, ValueError):  # pragma: no cover - not Unix
        pass
    return min(10_000, stack // 400)


#: Levels of C recursion the process stack holds, the bound of a thread without a stack size of its own (see the
#: module comment: 10,000 levels of the C encoder take ~1.3 MiB of C stack in 3.11; 60,000 fit in 8 MiB).
FAST_MAX_RECURSION_LIMIT = _fast_max_limit()

#: From CPython 3.12 on, the deepest the C encoder recurses (its C recursion limit, the larger of 3.12's and 3.13's).
_C_RECURSION = 10_000 if sys.version_info >= (3, 12) else 0


def stack_levels() -> int:
    """Levels of C recursion at 400 bytes each this thread's stack holds: the process stack's, or less when
    ``threading.stack_size()`` is set (the size new threads get, this one's as far as can be told)."""
    size = stack_size()
    if size:
        stack_size(size)  # asking set it to 0 (the argument's default): the caller's setting again
    # The smaller of the two, without min(): ~90 ns a call against ~250 (every JSON-text call asks).
    return size // 400 if 0 < size < 400 * FAST_MAX_RECURSION_LIMIT else FAST_MAX_RECURSION_LIMIT


def _make_fast() -> Callable[[Any], Sequence[str]]:
    """A compact, ASCII-only, NaN-allowing JSON encoder without per-call state.

    ``markers`` is None (no cycle check), so the encoder object is shared by
    all threads and by nested calls; a cycle becomes a RecursionError.

    It returns the text as the C encoder leaves it: a sequence of pieces
    (CPython 3.11 joins every 100,000 fragments into one piece, so a large
    value comes back as many ~100 KB pieces), not yet joined (see
    to_json_args).
    """
    try:  # the positional signature of json.encoder.c_make_encoder (CPython 3.9-3.13)
        make = json.encoder.c_make_encoder  # type: ignore[attr-defined]
        enc = make(None, _default, _quote, None, ":", ",", False, False, True)
        return lambda value: enc(value, 0)  # type: ignore[no-any-return]
    except (AttributeError, TypeError):  # pragma: no cover - no C encoder, or one whose signature changed
        py = json.JSONEncoder(ensure_ascii=True, allow_nan=True, check_circular=False, separators=(",", ":"),
                              default=_default)
        return lambda value: [py.encode(value)]


_fast = _make_fast()


#: Where a path starts: at the args (``()``), or at a whole call (``CALL_ROOT``: its args are ``args…``).
Root = Tuple[Any, ...]
CALL_ROOT: Root = (None,)


def to_json_text(value: Any, root: Root = ()) -> bytes:
    """JSON text (WTF-8 bytes) of a host value, checked against D16.

    Raises FingerprintError (with ``path``) for a value D16 rejects; an
    exception of the user's own code (``items()``, ``__iter__``,
    ``utcoffset``) passes through unchanged and is not retried: when the C
    encoder fails with an exception raised in a frame outside this module and
    ``json.encoder``, that exception is the caller's. Otherwise the walk reads
    the value again. The SDK's value path never takes that second read
    (D15 read once): a value marshal refuses, where user code can stand, goes to
    the walk directly (``reads_once``); one marshal accepts holds none.
    (Diagnostics and a process whose thread stacks are too small for marshal
    still can.)
    RecursionError always falls back: it may surface inside a user's frame
    only because the value is deep (D19).
    """
    return "".join(_text_parts(value, False, root)).encode("utf-8", "surrogatepass")


def _text_parts(value: Any, reads_once: bool = False, root: Root = ()) -> Sequence[str]:
    """to_json_text's text in pieces (ASCII: ``ensure_ascii``), not yet joined.

    ``reads_once``: the value may hold user code (marshal refused it), so the
    walk, which calls it once, is used instead of the C encoder (~3× slower
    on such values: 430 against 130 µs on 7 KB with one datetime).
    """
    depth = _C_RECURSION or sys.getrecursionlimit()  # the deepest the C encoder may recurse (D19: the module comment)
    if not reads_once and depth <= stack_levels():
        try:
            return _fast(value)
        except (RecursionError, TypeError, ValueError, OverflowError) as e:
            if not isinstance(e, RecursionError) and _raised_by_user(e):
                raise
    return [slow_text(value, root)]


#: Above this many bytes of JSON text, the value path hands the core the
#: encoder's pieces instead of one bytes object (see to_json_args).
PIECES_ABOVE = 1 << 20


def to_json_args(value: Any, reads_once: bool = False) -> Any:
    """``to_json_text``'s text as the core call takes it: bytes, or a list of ASCII pieces.

    Small text (≤ PIECES_ABOVE) is one ``bytes``, as fast as before. Larger
    text stays in the encoder's pieces, which ``_core`` writes into linear
    memory and frees one by one (``_pieces``): no joined ``str`` and no
    ``bytes`` copy of the whole text exist beside the core's peak.
    The text is ASCII (``ensure_ascii``), so its length in characters is its
    length in bytes. Raises as to_json_text does.
    """
    parts = _text_parts(value, reads_once)
    if len(parts) == 1 and len(parts[0]) <= PIECES_ABOVE:
        return parts[0].encode("ascii")
    return list(parts)


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



def _at(frames: List[List[Any]], root: Root) -> Root:
    """Where the walk is (path_error's ``at``): the current key or index of each open container."""
    return root + tuple(f[3] for f in frames)

def slow_text(value: Any, root: Root = (), models: bool = True) -> str:
    """Iterative twin of the fast path: the same JSON text, no depth limit.

    Raises FingerprintError naming the path of the first value D16 rejects.
    Frames are ``[container, iterator, is_dict, current key or index]``.
    An object with ``model_dump`` (D16b; the fast path refuses it, so it is
    read once, here) is written as its dump, walked with ``models`` off: a
    dump holding a model again is an error, never followed. ``root``: the
    path's start (the dumped object's own path for its dump).
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
                raise path_error(W_CIRCULAR, _at(frames, root))
            if issubclass(t, dict):
                it = items_of(v, lambda: _at(frames, root)) if t is not dict else dict.items(v).__iter__()
                out.append("{")
                frames.append([v, it, True, None])
            else:
                # An exact list/tuple directly; a subclass through its own
                # iteration, as the C encoder's PySequence_Fast reads it.
                it = v.__iter__() if t is list or t is tuple else \
                    iterate(v, "__iter__()", lambda: _at(frames, root))
                out.append("[")
                frames.append([v, it, False, -1])
            active.add(id(v))
        elif issubclass(t, date):  # datetime too
            try:
                out.append(_quote(_date_text(v)))
            except BadData as e:
                raise path_error(W_DATETIME, _at(frames, root), e) from e.cause
        elif is_model(v):
            p = _at(frames, root)
            if not models:
                raise model_in_dump(v, p)
            out.append(slow_text(model_value(v, p), p, False))
        else:
            raise path_error(W_UNSUPPORTED_PY, _at(frames, root), type_name(v))
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
                    k, v = pair(item, lambda: _at(frames[:-1], root))
                name = k
                if type(k) is not str:
                    p = _at(frames[:-1], root)  # the object that holds the key
                    name = key_name(k, p)
                    if name is None:
                        raise path_error(W_KEY_TYPE, p, type(k).__qualname__)
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


def host_call_text(call: Any, word: int = W_CALL) -> bytes:
    """The JSON text of a call or message given as a host value: a mapping, a list
    or tuple of calls or messages (D22), or an SDK object read through its
    ``model_dump`` (D16b, in the walker). Anything else is invalid-argument."""
    if isinstance(call, Mapping):
        return to_json_text(dict(call), CALL_ROOT)
    if isinstance(call, (list, tuple)) or is_model(call):
        return to_json_text(call, CALL_ROOT)
    raise host_error(word, type(call).__qualname__)
