"""Dates for the JSON text (D16): ``toISOString()`` of a datetime, ``YYYY-MM-DD`` of a date.

Internal. Hostile-value rules (issue #10): a subclass is read through
``datetime``'s own field descriptors (its overridden ``year``,
``utcoffset()``, ``replace()`` or ``__sub__`` never run), and
``tzinfo.utcoffset(dt)`` is called directly, as ``datetime.utcoffset`` does,
so that an exception of the tzinfo's own code passes through unchanged while
a result datetime would reject is BadData (a FingerprintError with a path,
once the walk in ``_encode`` catches it).
"""
from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Optional, Tuple

_EPOCH = datetime(1970, 1, 1)


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


