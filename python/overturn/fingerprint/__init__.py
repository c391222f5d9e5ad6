"""Contract-v1 fingerprints of AI agent tool calls, from the shared wasm core.

Public API. A fingerprint identifies a tool call by what it means::

    sha256(kind + "\\n" + name + "\\n" + canonicalJSON(select(args)))  # lowercase hex

following the Overturn fingerprint contract, version 1, and its resolved
points D1–D19. The canonicalization runs in the very WebAssembly module the
TypeScript SDK runs (``fingerprint.wasm``, shipped in this package), so both
SDKs agree byte for byte; Python only turns host values into JSON text (D16).

Example::

    >>> from overturn.fingerprint import fingerprint, canonical_json
    >>> canonical_json({"email": " a@b.c ", "plan": "pro"})
    '{"email":"a@b.c","plan":"pro"}'
    >>> len(fingerprint("search", {"q": " cats "}))
    64

All functions are thread-safe. Every bad input raises FingerprintError.
"""
from __future__ import annotations

import json
from typing import Any, Dict, Optional, Tuple, Union

from . import _core
from ._core import F_DIGEST, F_IGNORE, F_MATCH_ON, F_STRING_INPUT, F_TEXT
from ._encode import to_json_text
from ._stream import value_call
from ._select import key_list, select_value
from ._errors import FingerprintError
from ._types import KeyList as KeyList  # re-exported for annotations (not in __all__)
from ._diagnostics import diff, explain, explain_json, nearest

__all__ = [
    "FINGERPRINT_VERSION",
    "FingerprintError",
    "canonical_json",
    "canonicalize_json",
    "diff",
    "explain",
    "explain_json",
    "fingerprint",
    "fingerprint_json",
    "nearest",
]

__version__ = "1.0.0"

#: The contract version these fingerprints follow (D18).
FINGERPRINT_VERSION = 1

_quote = json.encoder.encode_basestring  # JSON string literals, non-ASCII kept (C when available)
_names: Dict[str, bytes] = {}
_lists: Dict[Tuple[str, ...], bytes] = {}
_CACHE_MAX = 1024
_DEFAULT_KIND = "tool_call"


def _literal(s: Any, what: str) -> bytes:
    """A kind/name as a JSON string literal (WTF-8), memoized: names repeat.

    The caches here are keyed by exact ``str`` only (a subclass is turned into
    one first, by content): a subclass's ``__eq__``/``__hash__`` could make two
    different names share an entry (issue #10).
    """
    t = type(s)
    if t is not str:
        if not issubclass(t, str):
            raise FingerprintError("invalid-argument", "%s must be a str, got %s" % (what, t.__qualname__))
        s = str.__str__(s)
    b = _names.get(s)
    if b is None:
        b = _quote(s).encode("utf-8", "surrogatepass")
        if len(_names) >= _CACHE_MAX:
            _names.clear()
        _names[s] = b
    return b


def _list_text(keys: Tuple[str, ...]) -> bytes:
    """A key list as JSON array text, memoized; ``keys`` holds exact str (key_list)."""
    b = _lists.get(keys)
    if b is None:
        b = ("[" + ",".join(_quote(str.__str__(k)) for k in keys) + "]").encode("utf-8", "surrogatepass")
        if len(_lists) >= _CACHE_MAX:
            _lists.clear()
        _lists[keys] = b
    return b


def _options(kind: Any, match_on: Any, ignore_args: Any) -> Tuple[int, bytes, bytes, bytes,
                                                                    Optional[Tuple[str, ...]],
                                                                    Optional[Tuple[str, ...]]]:
    flags = F_DIGEST
    k = b"" if type(kind) is str and kind == _DEFAULT_KIND else _literal(kind, "kind")
    m = g = b""
    mt = gt = None
    if match_on is not None:
        mt = key_list(match_on, "match_on")
        m = _list_text(mt)
        flags |= F_MATCH_ON
    if ignore_args is not None:
        gt = key_list(ignore_args, "ignore_args")
        g = _list_text(gt)
        flags |= F_IGNORE
    return flags, k, m, g, mt, gt


def fingerprint(name: str, args: Any, *, match_on: Optional[KeyList] = None,
                ignore_args: Optional[KeyList] = None, kind: str = _DEFAULT_KIND) -> str:
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

    Returns:
        64 lowercase hex digits (D18).

    Raises:
        FingerprintError: a value D16 rejects (``code`` ``unsupported-value``
            or ``circular-value``, with ``path`` like ``args.items[3].when``),
            a bad kind/name (``bad-kind``/``bad-name``), or an argument of the
            wrong type (``invalid-argument``).

    Example:
        >>> fingerprint("search", {"email": " a@b.c ", "plan": "pro"})[:12]
        '7724594218f0'
    """
    n = _literal(name, "name")
    if match_on is None and ignore_args is None and kind is _DEFAULT_KIND:
        return value_call(F_DIGEST, b"", n, args)
    k = b"" if type(kind) is str and kind == _DEFAULT_KIND else _literal(kind, "kind")
    if match_on is not None:
        args = select_value(args, key_list(match_on, "match_on"), None)  # D9: match_on wins
        if ignore_args is not None:
            key_list(ignore_args, "ignore_args")  # still checked
    elif ignore_args is not None:
        args = select_value(args, None, key_list(ignore_args, "ignore_args"))
    # The selection is complete here, in O(keys + list) (issue #10), so the
    # core gets no key lists: applying them again would change nothing.
    return value_call(F_DIGEST, k, n, args)


def fingerprint_json(name: str, args_json: Union[str, bytes, bytearray, memoryview], *,
                     match_on: Optional[KeyList] = None, ignore_args: Optional[KeyList] = None,
                     kind: str = _DEFAULT_KIND) -> str:
    """Fingerprint of a tool call whose args are JSON text (e.g. an LLM's ``arguments``).

    The text is read by the core, strictly (RFC 8259 with the tolerances of
    D12), never by ``json.loads``: numbers become the nearest double (D11),
    duplicate keys keep the last (D13), surrogate escapes pair up (D14).
    ``bytes`` may start with a UTF-8 byte order mark (skipped); a ``str`` may
    not (it is a character of the text, and an error there).

    Raises:
        FingerprintError: malformed JSON (``offset`` is the byte offset into
            the UTF-8 text), a bad kind/name, or a wrong argument type.

    Example:
        >>> fingerprint_json("search", '{"plan":"pro","email":" a@b.c "}')[:12]
        '7724594218f0'
    """
    n = _literal(name, "name")
    data, text_flag = _text(args_json)
    if match_on is None and ignore_args is None and kind is _DEFAULT_KIND:
        return _core.call(F_DIGEST | text_flag, b"", n, b"", b"", data)
    flags, k, m, g, _, _ = _options(kind, match_on, ignore_args)
    return _core.call(flags | text_flag, k, n, m, g, data)


def canonical_json(value: Any) -> str:
    """Canonical JSON text of a Python value (D1–D8, D16), without selection.

    Raises:
        FingerprintError: as for :func:`fingerprint`.

    Example:
        >>> canonical_json({"b": [1.0, None, float("nan")], "a": -0.0})
        '{"a":0,"b":[1]}'
    """
    return value_call(F_TEXT, b"", b"", value)


def canonicalize_json(text: Union[str, bytes, bytearray, memoryview]) -> str:
    """Canonical JSON text of JSON text, without selection.

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
    # encode(), an object's lying __class__ are never used: issue #10).
    c = type(t)
    if issubclass(c, str):
        return str.encode(t, "utf-8", "surrogatepass"), F_STRING_INPUT
    if issubclass(c, (bytes, bytearray)):
        return t, 0
    if c is memoryview:
        return t.tobytes(), 0
    raise FingerprintError("invalid-argument",
                           "JSON text must be str or bytes, got %s" % type(t).__qualname__)
