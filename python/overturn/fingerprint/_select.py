"""Selection (D9, D10) on a host value, decided by the core. Internal.

The host sends the top-level key names of a dict (never its values) and the
core answers which members to walk (``assembly/abi.ts`` F_KEEP_MASK,
``assembly/pipeline/select.ts``): which list governs, and how keys match
(exactly, surrogate pairs joined as in the text, D14) are the core's. Keys
are named as the JSON text names them (``7`` → ``"7"``, ``_read.key_name``),
by content: a key's own ``__eq__``/``__hash__`` never run.
"""
from __future__ import annotations

import json
from typing import Any, Callable, Dict, List, Optional, Tuple

from . import _core
from ._abi import W_KEEP_MASK, W_KEY_TYPE, W_STRINGS, W_STRINGS_HOLDING
from ._errors import host_error, path_error, type_word
from ._read import is_model, items_of, key_name, model_value, pair

_quote = json.encoder.encode_basestring_ascii  # C when available
_STR = {str}


def keep_mask(flags: int, match: bytes, ignore: bytes, names: List[str]) -> str:
    """The core's keep-mask for the key names under the lists (the generated "keepMask" request; no
    limit governs it, so none is told), on an idle instance of the fingerprint module. Its args: an
    object of the key names, every value ``1`` (never looked at)."""
    keys = ("{%s:1}" % ":1,".join(map(_quote, names)) if names else "{}").encode("ascii")
    st = _core._pool.acquire()
    try:
        view, ptr, size, _ = st.ask("keepMask", {"matchOn": match, "ignoreArgs": ignore, "args": keys}, flags, tell=False)
        return str(view[ptr:ptr + size], "ascii")
    finally:
        _core._pool.release(st)


def select_value(args: Any, ask: Callable[[List[str]], str], left: Optional[Callable[[Any], Any]] = None) -> Any:
    """The args with only the members the core keeps; values left out are never read.

    ``ask(names)``: the core's keep-mask for the key names (in order, each
    once). A dict (a subclass through its ``items()``) or an object with
    ``model_dump`` (as its dump, D16b, as ``explain`` reads it) is selected
    from; anything else passes through (D10). The result is a plain dict
    keyed by the names; where two keys share a name, all their members stay
    (``_Members``). ``left``: what stands for a member left out (None:
    nothing). A key D16 cannot name is left out under match_on, and an error
    under ignore_args, where it would be walked.
    """
    t = type(args)
    if not issubclass(t, dict):
        if not is_model(args):
            return args
        args = model_value(args, ())
        if not issubclass(type(args), dict):
            return args
    keys = list(args) if type(args) is dict else None
    if keys is not None and set(map(type, keys)) <= _STR:
        # The usual dict: its keys are its names, each once, in the mask's order.
        mask = _checked(ask(keys), len(keys))
        if not mask:
            return args
        if left is None:
            return {k: v for (k, v), c in zip(args.items(), mask[1:]) if c == "1"}
        return {k: v if c == "1" else left(v) for (k, v), c in zip(args.items(), mask[1:])}
    # An exact dict is read twice, which runs no user code; a subclass's items() once.
    pairs: Any = dict.items(args) if type(args) is dict else [pair(i, ()) for i in items_of(args, ())]
    index: Dict[str, int] = {}
    names = [k if type(k) is str else key_name(k) for k, _ in pairs]
    for n in names:
        if n is not None and n not in index:
            index[n] = len(index) + 1  # its character in the mask
    mask = _checked(ask(list(index)), len(index))
    if not mask:
        return args
    out: Dict[str, Any] = {}
    for (k, v), n in zip(pairs, names):
        if n is None:
            if mask[0] == "M":
                continue  # not a name match_on can list: left out, never read (D9)
            raise path_error(W_KEY_TYPE, (), type(k).__qualname__)
        if mask[index[n]] == "1":
            out[n] = v
        elif left is not None:
            out[n] = left(v)
    if len(index) == len(names):
        return out
    # Two keys share a name: every member of the kept names goes in, in order (the core keeps the last, D13).
    kept = [(n, v if mask[index[n]] == "1" else left(v)) for (k, v), n in zip(pairs, names)  # type: ignore[misc]
            if n is not None and (mask[index[n]] == "1" or left is not None)]
    return _Members(out, kept)


def _checked(mask: str, n: int) -> str:
    """The core's answer, which must be nothing or a character for each of the n names (abi.ts F_KEEP_MASK)."""
    if mask and len(mask) != n + 1:
        raise host_error(W_KEEP_MASK, len(mask) - 1, n)
    return mask


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


def key_list(keys: Any, what: str) -> Tuple[str, ...]:
    """A match_on/ignore_args argument as a tuple of exact ``str``, or invalid-argument.

    Subclass elements become plain ``str`` of the same content, so neither
    selection nor the key-list cache ever calls their ``__eq__``/``__hash__``.
    """
    t = type(keys)
    if issubclass(t, (str, bytes, bytearray, dict)) or getattr(t, "__iter__", None) is None:
        raise host_error(W_STRINGS, what, t.__qualname__)
    out = tuple(keys)  # user code (__iter__): its exceptions pass through
    if all(type(k) is str for k in out):
        return out
    for k in out:
        if not issubclass(type(k), str):
            raise host_error(W_STRINGS_HOLDING, what, type(k).__qualname__)
    return tuple(str.__str__(k) for k in out)
