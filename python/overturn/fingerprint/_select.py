"""Value-side selection (D9, D10): ``match_on``/``ignore_args`` on a top-level dict.

Internal. Keys compare by their JSON name, exactly and by content (a str
subclass's ``__eq__``/``__hash__`` never run, issue #10), in O(keys + list).
"""
from __future__ import annotations

from typing import Any, Dict, Optional, Set, Tuple

from ._errors import FingerprintError
from ._read import items_of, key_name, pair


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

