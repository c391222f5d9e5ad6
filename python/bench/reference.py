"""A plain pure-Python implementation of fingerprint contract v1 (D1–D19).

Benchmark baseline only: what a Python user would write without the SDK, kept
obviously correct rather than fast, and independent of ``overturn.fingerprint``
(which never imports it). It follows the contract page and the resolved
points directly:

* canonical JSON: keys sorted by code point (D5), null/NaN/±Infinity dropped
  in objects and arrays (D1) and ``null`` at top level (D2), strings trimmed
  with ECMAScript's whitespace set (D4) and escaped like JSON.stringify (D6),
  numbers printed like ECMAScript Number::toString (D7) from ``repr``'s
  shortest round-trip digits, empty containers kept (D8);
* selection before canonicalization (D9, D10); host values per D16;
* digest: sha256 of kind "\\n" name "\\n" canonical (D17, D18).

It is also the tests' oracle for hostile host values, so it reads
values the way ``json.dumps`` does and trusts no overridable method: types are
tested on ``type(v)`` (an instance's ``__class__`` can lie), a subclass of
str/int/float/datetime/date is read by its base type's value, a dict through
``items()`` and a list/tuple through its iteration (as json.dumps reads them),
keys are compared by content (a str subclass's ``__eq__``/``__hash__`` never
run). Anything it cannot read raises ReferenceError_; an exception of the
value's own code passes through. ``parse_json`` reads JSON text (D11-D14) with
the standard library's ``json`` module, for the text-input oracle.
"""
from __future__ import annotations

import hashlib
import json
import math
from datetime import date, datetime, timezone
from typing import Any, Iterable, List, Optional

# D4: String.prototype.trim's set (WhiteSpace + LineTerminator), exactly.
TRIM = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a" \
       "\u2028\u2029\u202f\u205f\u3000\ufeff"
ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}

DROP = object()  # a value that is left out (null, NaN, ±Infinity)


class ReferenceError_(ValueError):
    pass


def js_string(s: str) -> str:
    """Surrogate pairs joined (UTF-16 reading, D14); lone surrogates stay."""
    return s.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def quote(s: str) -> str:
    """JSON.stringify's escaping (D6): short escapes, \\u00xx, lone surrogates escaped."""
    out = ['"']
    for ch in s:
        c = ord(ch)
        if ch in ESCAPES:
            out.append(ESCAPES[ch])
        elif c < 0x20 or 0xD800 <= c <= 0xDFFF:
            out.append("\\u%04x" % c)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def number(x: float) -> Any:
    """ECMAScript Number::toString(10) (ECMA-262 §6.1.6.1.20), or DROP."""
    if math.isnan(x) or math.isinf(x):
        return DROP
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    mantissa, _, exp = repr(abs(x)).partition("e")  # shortest digits that round-trip
    whole, _, frac = mantissa.partition(".")
    digits = (whole + frac).lstrip("0")  # value = int(digits) × 10^(exp − len(frac))
    scale = int(exp or 0) - len(frac)
    stripped = digits.rstrip("0")
    scale += len(digits) - len(stripped)
    digits = stripped
    n = len(digits) + scale  # value = 0.digits × 10^n, the n of ECMA-262
    k = len(digits)
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    e = n - 1
    es = ("+" if e >= 0 else "-") + str(abs(e))
    return sign + (digits if k == 1 else digits[0] + "." + digits[1:]) + "e" + es


def exact_datetime(v: datetime) -> datetime:
    """A datetime (subclass) as a plain datetime, through datetime's own field descriptors."""
    f = [getattr(datetime, n).__get__(v) for n in ("year", "month", "day", "hour", "minute", "second",
                                                    "microsecond", "tzinfo", "fold")]
    return datetime(*f[:8], fold=f[8])


def iso(dt: datetime) -> str:
    """toISOString(): naive = UTC, aware converted; milliseconds truncated (D16)."""
    if dt.utcoffset() is None:
        dt = dt.replace(tzinfo=timezone.utc)
    u = dt.astimezone(timezone.utc)
    return "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ" % (u.year, u.month, u.day, u.hour, u.minute, u.second,
                                                    u.microsecond // 1000)


def key_name(k: Any, path: str) -> str:
    t = type(k)
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
            return "%d" % k
        except ValueError:  # beyond sys.get_int_max_str_digits()
            raise ReferenceError_("int key too long at %s" % path) from None
    if issubclass(t, float):
        return json.dumps(float.__float__(k))
    raise ReferenceError_("bad key at %s" % path)


def canon(v: Any, path: str = "args", active: Optional[set] = None) -> Any:
    """Canonical text of v, or DROP."""
    t = type(v)
    if v is None:
        return DROP
    if v is True:
        return "true"
    if v is False:
        return "false"
    if issubclass(t, str):
        return quote(js_string(str.__str__(v)).strip(TRIM))
    if issubclass(t, int):
        try:
            return number(int.__float__(v))
        except OverflowError:
            return DROP
    if issubclass(t, float):
        return number(float.__float__(v))
    if issubclass(t, (list, tuple, dict)):
        active = set() if active is None else active
        if id(v) in active:
            raise ReferenceError_("circular at %s" % path)
        active.add(id(v))
        if issubclass(t, dict):
            members = {}
            # json.dumps (C) writes a dict whose own storage is empty as {}, never calling items().
            for item in (v.items() if dict.__len__(v) else ()):
                if not (issubclass(type(item), tuple) and tuple.__len__(item) == 2):
                    raise ReferenceError_("items() must yield pairs at %s" % path)
                k, x = tuple.__getitem__(item, 0), tuple.__getitem__(item, 1)
                name = js_string(key_name(k, path))
                # Same name twice: the last wins (D13), but every value must be one D16 admits.
                members[name] = canon(x, path + "." + name, active)
            out: List[str] = []
            for name in sorted(members):  # Python compares str by code point (D5)
                text = members[name]
                if text is not DROP:
                    out.append(quote(name) + ":" + text)
            result = "{" + ",".join(out) + "}"
        else:
            parts = [canon(x, "%s[%d]" % (path, i), active) for i, x in enumerate(v)]
            result = "[" + ",".join(p for p in parts if p is not DROP) + "]"
        active.discard(id(v))
        return result
    if issubclass(t, datetime):
        try:
            return quote(iso(exact_datetime(v)))
        except (TypeError, ValueError) as e:  # datetime rejected the tzinfo's offset
            raise ReferenceError_("bad datetime at %s" % path) from e
    if issubclass(t, date):
        return quote("%04d-%02d-%02d" % tuple(getattr(date, n).__get__(v) for n in ("year", "month", "day")))
    raise ReferenceError_("cannot fingerprint %s at %s" % (t.__name__, path))


def canonical_json(value: Any) -> str:
    text = canon(value)
    return "null" if text is DROP else text


def select(args: Any, match_on: Optional[Iterable[str]], ignore_args: Optional[Iterable[str]]) -> Any:
    if not issubclass(type(args), dict):
        return args
    if match_on is None and ignore_args is None:
        return args
    listed = {js_string(str.__str__(k)) for k in (match_on if match_on is not None else ignore_args)}
    keep = match_on is not None
    out = {}
    for item in (args.items() if dict.__len__(args) else ()):
        if not (issubclass(type(item), tuple) and tuple.__len__(item) == 2):
            raise ReferenceError_("items() must yield pairs at args")
        k, x = tuple.__getitem__(item, 0), tuple.__getitem__(item, 1)
        if (js_string(key_name(k, "args")) in listed) == keep:
            out[k] = x
    return out


def parse_json(text: Any) -> Any:
    """JSON text as json.loads reads it under D11-D14 (raises ValueError when D12 rejects it).

    Bytes: a leading UTF-8 BOM is skipped, encoded surrogates pass (D14).
    Integer literals go straight to the nearest double (``float`` of the
    digits, D11), so no int-str digit limit applies.
    """
    if isinstance(text, (bytes, bytearray)):
        b = bytes(text)
        if b.startswith(b"\xef\xbb\xbf"):
            b = b[3:]
        text = b.decode("utf-8", "surrogatepass")
    return json.loads(text, parse_int=float)


def fingerprint(name: str, args: Any, *, match_on: Optional[Iterable[str]] = None,
                ignore_args: Optional[Iterable[str]] = None, kind: str = "tool_call") -> str:
    canonical = canonical_json(select(args, match_on, ignore_args))
    return hashlib.sha256((kind + "\n" + name + "\n" + canonical).encode("utf-8")).hexdigest()
