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
"""
from __future__ import annotations

import hashlib
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


def iso(dt: datetime) -> str:
    """toISOString(): naive = UTC, aware converted; milliseconds truncated (D16)."""
    if dt.utcoffset() is None:
        dt = dt.replace(tzinfo=timezone.utc)
    u = dt.astimezone(timezone.utc)
    return "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ" % (u.year, u.month, u.day, u.hour, u.minute, u.second,
                                                    u.microsecond // 1000)


def key_name(k: Any, path: str) -> str:
    if isinstance(k, str):
        return k
    if k is True:
        return "true"
    if k is False:
        return "false"
    if k is None:
        return "null"
    if isinstance(k, int):
        return str(int(k))
    if isinstance(k, float):
        import json
        return json.dumps(k)
    raise ReferenceError_("bad key at %s" % path)


def canon(v: Any, path: str = "args") -> Any:
    """Canonical text of v, or DROP."""
    if v is None:
        return DROP
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        try:
            return number(float(v))
        except OverflowError:
            return DROP
    if isinstance(v, float):
        return number(v)
    if isinstance(v, str):
        return quote(js_string(v).strip(TRIM))
    if isinstance(v, datetime):
        return quote(iso(v))
    if isinstance(v, date):
        return quote("%04d-%02d-%02d" % (v.year, v.month, v.day))
    if isinstance(v, (list, tuple)):
        parts = [canon(x, "%s[%d]" % (path, i)) for i, x in enumerate(v)]
        return "[" + ",".join(p for p in parts if p is not DROP) + "]"
    if isinstance(v, dict):
        members = {}
        for k, x in v.items():
            members[js_string(key_name(k, path))] = x  # same name twice: the last wins
        out: List[str] = []
        for name in sorted(members):  # Python compares str by code point (D5)
            text = canon(members[name], path + "." + name)
            if text is not DROP:
                out.append(quote(name) + ":" + text)
        return "{" + ",".join(out) + "}"
    raise ReferenceError_("cannot fingerprint %s at %s" % (type(v).__name__, path))


def canonical_json(value: Any) -> str:
    text = canon(value)
    return "null" if text is DROP else text


def select(args: Any, match_on: Optional[Iterable[str]], ignore_args: Optional[Iterable[str]]) -> Any:
    if not isinstance(args, dict):
        return args
    if match_on is not None:
        keep = set(match_on)
        return {k: x for k, x in args.items() if key_name(k, "args") in keep}
    if ignore_args is not None:
        drop = set(ignore_args)
        return {k: x for k, x in args.items() if key_name(k, "args") not in drop}
    return args


def fingerprint(name: str, args: Any, *, match_on: Optional[Iterable[str]] = None,
                ignore_args: Optional[Iterable[str]] = None, kind: str = "tool_call") -> str:
    canonical = canonical_json(select(args, match_on, ignore_args))
    return hashlib.sha256((kind + "\n" + name + "\n" + canonical).encode("utf-8")).hexdigest()
