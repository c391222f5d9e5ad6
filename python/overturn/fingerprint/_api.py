"""The public API's value and text calls (``overturn.fingerprint`` loads them on first use).

Internal module; the names are documented where users import them, in
``overturn/fingerprint/__init__.py``. Example::

    >>> from overturn.fingerprint import fingerprint, canonical_json
    >>> canonical_json({"email": " a@b.c ", "plan": "pro"})
    '{"email":"a@b.c","plan":"pro"}'
    >>> len(fingerprint("search", {"q": " cats "}))
    64
"""
from __future__ import annotations

import json
from typing import Any, Dict, List, Mapping, Optional, Tuple, Union

from . import _core, _limits
from ._abi import DEFAULT_KIND, F_FROM_VALUE, F_MARSHAL, W_STRING, W_TEXT  # DEFAULT_KIND: D17
from ._core import F_DIGEST, F_IGNORE, F_MATCH_ON, F_STRING_INPUT, F_TEXT, _local
from ._encode import to_json_args
from ._stream import NOT_PLAIN, PLAIN, UNKNOWN, marshal_call
from ._select import keep_mask, key_list, select_value
from ._errors import host_error, type_word
from ._limits import Limits
from ._types import KeyList
from ._value import bind_value

_quote = json.encoder.encode_basestring  # JSON string literals, non-ASCII kept (C when available)
_names: Dict[str, bytes] = {}
_lists: Dict[Tuple[str, ...], bytes] = {}
_CACHE_MAX = 1024
_PLAIN_TEXT = 1 << 16  # characters: a str up to this takes _core.plain (its bytes live during the run)
_VALUE_DIGEST = F_DIGEST | F_MARSHAL  # plain's request for a value's digest
_TEXT_MARSHAL = F_TEXT | F_MARSHAL  # and for its canonical text


def _literal(s: Any, what: str) -> bytes:
    """A kind/name as a JSON string literal (WTF-8), memoized: names repeat.

    The caches here are keyed by exact ``str`` only (a subclass is turned into
    one first, by content): a subclass's ``__eq__``/``__hash__`` could make two
    different names share an entry.
    """
    t = type(s)
    if t is not str:
        if not issubclass(t, str):
            raise host_error(W_STRING, what, t.__qualname__)
        s = str.__str__(s)
    b = _names.get(s)
    return _remember(_names, s, _quote(s).encode("utf-8", "surrogatepass")) if b is None else b


def _list_text(keys: Tuple[str, ...]) -> bytes:
    """A key list as JSON array text, memoized; ``keys`` holds exact str (key_list)."""
    b = _lists.get(keys)
    if b is None:
        text = "[" + ",".join(_quote(str.__str__(k)) for k in keys) + "]"
        b = _remember(_lists, keys, text.encode("utf-8", "surrogatepass"))
    return b


def _remember(cache: Dict[Any, Any], key: Any, value: Any) -> Any:
    """``value``, kept in ``cache`` under ``key`` (a cache that is full is emptied first: bounded)."""
    if len(cache) >= _CACHE_MAX:
        cache.clear()
    cache[key] = value
    return value


def _options(kind: Any, match_on: Any, ignore_args: Any) -> Tuple[int, bytes, bytes, bytes]:
    """A call's request flags and its kind, matchOn and ignoreArgs parts (b"": the default kind, no list)."""
    k = b"" if type(kind) is str and kind == DEFAULT_KIND else _literal(kind, "kind")
    m = b"" if match_on is None else _list_text(key_list(match_on, "match_on"))
    g = b"" if ignore_args is None else _list_text(key_list(ignore_args, "ignore_args"))
    return F_DIGEST | (0 if match_on is None else F_MATCH_ON) | (0 if ignore_args is None else F_IGNORE), k, m, g


_masks: Dict[Tuple[int, bytes, bytes, Tuple[str, ...]], str] = {}
_MASK_KEYS_MAX = 64  # larger dicts ask: their key would cost what a request costs


def _keep_mask(flags: int, m: bytes, g: bytes, names: List[str]) -> str:
    """The core's keep-mask for the key names (``_select``), remembered by request: a tool's
    calls repeat their keys and lists, and the answer depends on nothing else (the
    core checks no limit on it, so none is sent either)."""
    key = (flags, m, g, tuple(names)) if len(names) <= _MASK_KEYS_MAX else None
    mask = _masks.get(key)  # (None: never a key)
    if mask is None:
        mask = keep_mask(flags, m, g, names)
        if key is not None:
            _remember(_masks, key, mask)
    return mask


LimitsArg = Union[Limits, Mapping[str, Any], None]


def _text_path(out: str, flags: int, k: bytes, n: bytes, args: Any, s: _limits.Settings) -> str:
    """``out``, the core's answer, unless it is one of ``_stream``'s markers: then the value path for
    what marshal or the core's stream reader did not take (``out``: why)."""
    if out is not NOT_PLAIN and out is not PLAIN and out is not UNKNOWN:
        return out
    # Unless PLAIN, user code may stand behind the value (a dict subclass's
    # items(), a tzinfo): the iterative walk reads it once and gives the text
    # or the error with its path; the C encoder could fail after calling it,
    # and a second walk would call it again (read once). UNKNOWN (a thread
    # with a small stack, where marshal is not asked) may hold it too: such
    # threads trade the C encoder's speed for that.
    data = to_json_args(args, reads_once=out is not PLAIN)
    # F_FROM_VALUE: text the caller never saw, so a limit error names no offset into it (assembly/base/limits.ts).
    return _core.call(flags | F_FROM_VALUE, k, n, b"", b"", data, s)


def fingerprint(name: str, args: Any, *, match_on: Optional[KeyList] = None,
                ignore_args: Optional[KeyList] = None, kind: str = DEFAULT_KIND,
                limits: LimitsArg = None) -> str:
    """Fingerprint of a tool call given as Python values.

    Args:
        name: the tool name exactly as declared (not trimmed); non-empty, no
            lone surrogates (D17).
        args: dict, list, tuple, str, int, float, bool, None, datetime or date,
            nested (D16). ``None`` at top level canonicalizes to ``null`` (D2).
        match_on: keep only these top-level keys (D9); wins over
            ``ignore_args``, even when empty. Values left out are never read.
        ignore_args: drop these top-level keys (D9).
        kind: defaults to ``"tool_call"``; non-empty, no ``"\\n"``, no lone
            surrogates (D17).
        limits: this call's :class:`Limits` (or a mapping of its fields); they
            can only tighten the configured ones (:func:`configure`). The byte
            limit counts the JSON text the value becomes.

    Returns:
        64 lowercase hex digits (D18).

    Raises:
        FingerprintError: a value D16 rejects (``code`` ``unsupported-value``
            or ``circular-value``, with ``path`` like ``args.items[3].when``),
            a bad kind/name (``bad-kind``/``bad-name``), a limit exceeded
            (``limit-exceeded``), or an argument of the wrong type
            (``invalid-argument``).

    Example:
        >>> fingerprint("search", {"email": " a@b.c ", "plan": "pro"})[:12]
        '7724594218f0'
    """
    if not (match_on is None and ignore_args is None and kind is DEFAULT_KIND and limits is None):
        return _fingerprint_with(name, args, match_on, ignore_args, kind, limits)
    # The common call in the fewest Python steps: this thread's function (_value.py).
    try:
        fn = _local.value
    except AttributeError:
        fn = _value_fn()
    return fn(name, args)  # type: ignore[no-any-return]


def _fingerprint_with(name: str, args: Any, match_on: Any, ignore_args: Any, kind: str, limits: LimitsArg) -> str:
    """``fingerprint`` given key lists, a kind or limits. A function of its own: the lambda's cells
    would otherwise be made on every common call too (~0.1 µs of ~4)."""
    n = _literal(name, "name")
    flags, k, m, g = _options(kind, match_on, ignore_args)
    if flags != F_DIGEST:
        # The core says which members to walk (D9, D10); the rest are never read, and
        # it gets no key lists after: applying them again would change nothing.
        args = select_value(args, lambda names: _keep_mask(flags ^ F_DIGEST, m, g, names))
    if k or limits is not None:
        s = _limits.active.over(limits)  # plain values: marshal, read by the core
        return _text_path(marshal_call(F_DIGEST, k, n, args, s), F_DIGEST, k, n, args, s)
    # Selected args with the default kind and limits: the common call (~8.7 µs with ignore_args).
    return fingerprint(name, args)


def _value_fn() -> Any:
    """This thread's ``fingerprint(name, value)`` for the common call (``_value.py``), made on first use."""
    st = _core.instance()
    fn = _local.value = bind_value(st, _core.plain_fn(), _names, _literal, _text_path, _core) if st.fast else _value_general
    return fn


def _value_general(name: Any, args: Any) -> str:
    """The common call where the instance's layout does not allow ``_value``'s shortcuts."""
    n = _literal(name, "name")
    out = _core.plain(_VALUE_DIGEST, n, args)
    return _text_path(PLAIN if out is None else out, F_DIGEST, b"", n, args, _limits.active)


def fingerprint_json(name: str, args_json: Union[str, bytes, bytearray, memoryview], *,
                     match_on: Optional[KeyList] = None, ignore_args: Optional[KeyList] = None,
                     kind: str = DEFAULT_KIND, limits: LimitsArg = None) -> str:
    """Fingerprint of a tool call whose args are JSON text (e.g. an LLM's ``arguments``).

    The text is read by the core, strictly (RFC 8259 with the tolerances of
    D12), never by ``json.loads``: numbers become the nearest double (D11),
    duplicate keys keep the last (D13), surrogate escapes pair up (D14).
    ``bytes`` may start with a UTF-8 byte order mark (skipped); a ``str`` may
    not (it is a character of the text, and an error there). ``limits``: as
    for :func:`fingerprint`; a text over the byte limit is not copied into
    the core beyond the limit.

    Raises:
        FingerprintError: malformed JSON (``offset`` is the byte offset into
            the UTF-8 text), a limit exceeded (``limit-exceeded``), a bad
            kind/name, or a wrong argument type.

    Example:
        >>> fingerprint_json("search", '{"plan":"pro","email":" a@b.c "}')[:12]
        '7724594218f0'
    """
    if match_on is None and ignore_args is None and kind is DEFAULT_KIND and limits is None:
        n = _names.get(name) if type(name) is str else None
        if n is None:
            n = _literal(name, "name")
        if type(args_json) is str and len(args_json) <= _PLAIN_TEXT and not _limits.active.any_bytes:
            # The common call in fewer Python steps; an error is
            # reported by the full path below (the core runs that text twice).
            out = _core.plain(F_DIGEST | F_STRING_INPUT, n, args_json.encode("utf-8", "surrogatepass"))
            if out is not None:
                return out
        data, text_flag = _text(args_json)
        return _core.call(F_DIGEST | text_flag, b"", n, b"", b"", data)
    n = _literal(name, "name")
    data, text_flag = _text(args_json)
    flags, k, m, g = _options(kind, match_on, ignore_args)
    return _core.call(flags | text_flag, k, n, m, g, data, _limits.active.over(limits))


def canonical_json(value: Any) -> str:
    """Canonical JSON text of a Python value (D1–D8, D16), without selection.

    The configured limits apply (:func:`configure`).

    Raises:
        FingerprintError: as for :func:`fingerprint`.

    Example:
        >>> canonical_json({"b": [1.0, None, float("nan")], "a": -0.0})
        '{"a":0,"b":[1]}'
    """
    out = _core.plain(_TEXT_MARSHAL, b"", value)
    if out is NOT_PLAIN or out is PLAIN or out is UNKNOWN:
        return _text_path(out, F_TEXT, b"", b"", value, _limits.active)
    return out


def canonicalize_json(text: Union[str, bytes, bytearray, memoryview]) -> str:
    """Canonical JSON text of JSON text, without selection.

    The configured limits apply (:func:`configure`).

    Raises:
        FingerprintError: malformed JSON, with the byte ``offset``.

    Example:
        >>> canonicalize_json('{ "b": 1e2, "a": " x " }')
        '{"a":"x","b":100}'
    """
    data, text_flag = _text(text)
    return _core.call(F_TEXT | text_flag, b"", b"", b"", b"", data)


def _text(t: Any) -> Tuple[Any, int]:
    # Tested on type(t) and read through the base type (a str subclass's
    # encode(), an object's lying __class__ are never used).
    # A str is encoded by _core, after the byte limit's lower bound (its
    # length) passed, in pieces when long; a subclass as a plain copy.
    c = type(t)
    if issubclass(c, str):
        return t if c is str else str.__str__(t), F_STRING_INPUT
    if issubclass(c, (bytes, bytearray)) or c is memoryview:
        return t, 0
    raise host_error(W_TEXT, type_word(t))
