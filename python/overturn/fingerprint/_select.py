"""Value-side selection (D9, D10): ``match_on``/``ignore_args`` on a top-level dict.

Internal. Keys compare by their JSON name, exactly and by content (a str
subclass's ``__eq__``/``__hash__`` never run, issue #10), in O(keys + list).
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Set, Tuple

from ._abi import W_KEY_TYPE, W_STRINGS
from ._errors import FingerprintError, host_error, type_word
from ._read import is_model, items_of, key_name, model_value, pair


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
    Keys that share a name keep all their values (see ``_Members``).
    One set lookup per key: O(keys + list). Values left out are never read.
    Non-dict args pass through (D10). The lists come from :func:`key_list`.
    An object with ``model_dump`` is selected from as its dump (D16b), as
    the core selects from it in ``explain``: the two must agree.
    """
    keys = match_on if match_on is not None else ignore_args
    if keys is None:
        return args
    t = type(args)
    if not issubclass(t, dict):
        if not is_model(args):
            return args
        args = model_value(args, "args")
        t = type(args)
        if not issubclass(t, dict):
            return args
    listed = {k if k.isascii() else _utf16(k) for k in keys}
    keep = match_on is not None
    out: Dict[str, Any] = {}
    if t is dict:
        n = 0
        for k, v in args.items():
            if type(k) is str and k.isascii():
                if (k in listed) is keep:
                    out[k] = v
                    n += 1
            else:
                name = _selected_name(k, listed, keep)
                if name is not None:
                    out[name] = v
                    n += 1
        if n == len(out):
            return out
        # Two keys share a name: read the exact dict again (no user code runs) for every member.
        pairs = [(name, v) for name, v in ((_selected_name(k, listed, keep), v) for k, v in args.items())
                 if name is not None]
        return _Members(out, pairs)
    pairs = []
    for item in items_of(args, "args"):
        k, v = pair(item, "args")
        name = _selected_name(k, listed, keep)
        if name is not None:
            pairs.append((name, v))
            out[name] = v
    return out if len(pairs) == len(out) else _Members(out, pairs)


class _Members(dict):  # type: ignore[type-arg]
    """Selected members where two keys share a name (``{1: "a", "1": "b"}``).

    Encoded through ``items()`` like any dict subclass, so every value is
    written and checked, as without selection; the core keeps the last (D13).
    """

    def __init__(self, last: Dict[str, Any], pairs: List[Tuple[str, Any]]) -> None:
        super().__init__(last)  # non-empty storage: the C encoder calls items()
        self._pairs = pairs

    def items(self) -> List[Tuple[str, Any]]:  # type: ignore[override]
        return self._pairs


def _selected_name(k: Any, listed: Set[str], keep: bool) -> Optional[str]:
    """The JSON name of key ``k`` if selection keeps it, else None."""
    name = key_name(k, "args")
    if name is None:
        if keep:
            return None  # not a name match_on can list: left out, never read (D9)
        raise host_error(W_KEY_TYPE, type_word(k), "args", path="args")
    return name if ((name if name.isascii() else _utf16(name)) in listed) is keep else None


def key_list(keys: Any, what: str) -> Tuple[str, ...]:
    """A match_on/ignore_args argument as a tuple of exact ``str``, or invalid-argument.

    Subclass elements become plain ``str`` of the same content, so neither
    selection nor the key-list cache ever calls their ``__eq__``/``__hash__``.
    """
    t = type(keys)
    if issubclass(t, (str, bytes, bytearray, dict)) or getattr(t, "__iter__", None) is None:
        raise host_error(W_STRINGS, what, t.__qualname__)
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
                raise host_error(W_STRINGS, what, "an array holding " + kt.__qualname__)
            k = str.__str__(k)
        exact.append(k)
    return tuple(exact)

