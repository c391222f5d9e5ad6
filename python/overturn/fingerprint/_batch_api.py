"""The batch API: many calls in, fingerprints out, one crossing into the core per chunk.

Public functions, re-exported by ``overturn.fingerprint``; the TypeScript twin
is ``src/batch.ts``, the transport ``_batch.py``. Errors: a bad item is never
skipped silently. By default the first one raises a FingerprintError whose
``index`` names it (message ``item 3: …``); with ``on_error="null"`` its
fingerprint is None (an Arrow null) and the others are computed.
"""
from __future__ import annotations

from itertools import islice, repeat
from marshal import dumps as _dumps
from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Tuple

from . import _api, _batch, _limits, _stream
from ._abi import (BATCH_CHUNK_BYTES, BATCH_CHUNK_ITEMS, BATCH_ITEM_NOT_NAME, BATCH_ITEM_NOT_TEXT, DEFAULT_KIND, F_CALL,
                   F_DIGEST, F_MARSHAL, F_RAW_NAMES, F_STRING_INPUT, W_CHOICE, W_ITERABLE, W_LENGTHS, W_STRING)
from ._batch import SHARED_EMPTY, Target, finish, run_chunk
from ._errors import FingerprintError, host_error, type_word
from ._types import KeyList

_ENC = ("utf-8", "surrogatepass")


def fingerprint_batch_json(names: Any, args_json: Any, *, match_on: Optional[KeyList] = None,
                           ignore_args: Optional[KeyList] = None, kind: Any = DEFAULT_KIND,
                           limits: Any = None, on_error: str = "raise") -> Any:
    """Fingerprints of calls given as names plus JSON texts, one per pair, in order.

    Args:
        names: any iterable of ``str``, or a ``pyarrow`` string array.
        args_json: any iterable of JSON texts (``str``; or ``bytes``, which may
            start with a BOM), or a ``pyarrow`` string array. Read by the core,
            as :func:`fingerprint_json` reads one.
        match_on, ignore_args: for every item (D9).
        kind: for every item; with Arrow input also a string array (null: the
            default ``"tool_call"``).
        limits: each item's :class:`Limits`, which can only tighten the configured ones
            (``max_input_bytes`` counts one item as the core reads it).
        on_error: ``"raise"`` (default) or ``"null"``.

    Returns:
        A list of 64-hex-digit ``str`` (None where an item failed with
        ``on_error="null"``); a ``pyarrow.StringArray`` when given Arrow arrays,
        whose offsets and bytes were copied straight into the core (no Python
        object per row). A null name or args is a bad item.

    Raises:
        FingerprintError: the first bad item, with ``index`` (unless
            ``on_error="null"``); ``invalid-argument`` for lengths that differ.

    Example:
        >>> [f[:12] for f in fingerprint_batch_json(["search"], ['{"plan":"pro","email":" a@b.c "}'])]
        ['7724594218f0']
    """
    raise_errors = _on_error(on_error)
    s = _limits.active.over(limits) if limits is not None else _limits.active
    # Key lists as fingerprint_json sends them; the core applies them (D9: match_on wins).
    _, _, m, g = _api._options(DEFAULT_KIND, match_on, ignore_args)  # D17: generated from assembly/abi.ts
    if not _is_arrow(kind) and not isinstance(kind, str):
        raise host_error(W_STRING, "kind", type_word(kind))
    shared = [None if _is_arrow(kind) else ("shared", _batch.wtf8(kind)), None, ("shared", m), ("shared", g)]
    if _is_arrow(names) or _is_arrow(args_json) or _is_arrow(kind):
        from . import _arrow

        return _arrow.batch_json(names, args_json, kind, shared, s, raise_errors)
    out: List[Optional[str]] = []
    it_n, it_a = _chunks(_iterable(names, "names")), _chunks(_iterable(args_json, "args_json"))
    base = 0
    with Target(s) as t:
        while True:
            ns, texts = next(it_n), next(it_a)
            if len(ns) != len(texts):
                raise host_error(W_LENGTHS, "names", "args_json")
            if not ns:
                break
            for lo, hi in _byte_bounded(texts):
                _run_texts(t, shared, ns[lo:hi], texts[lo:hi], base + lo, raise_errors, out)
            base += len(ns)
    return out


def fingerprint_batch(calls: Iterable[Any], *, limits: Any = None, on_error: str = "raise") -> List[Optional[str]]:
    """Fingerprints of calls in the one call model, in order.

    Each call is a mapping ``{name, args | argsJSON, kind?, matchOn?,
    ignoreArgs?}`` or a recording line (its JSON text, ``str`` or ``bytes``),
    read by the core's call reader: a near miss of a key (``match_on``,
    ``args_json``) is an error naming the right one, never ignored.

    Raises:
        FingerprintError: the first bad item, with ``index`` (unless ``on_error="null"``).

    Example:
        >>> [f[:12] for f in fingerprint_batch([{"name": "search", "args": {"plan": "pro", "email": " a@b.c "}}])]
        ['7724594218f0']
    """
    from ._explain import explain_record
    from ._encode import host_call_text, to_json_text

    raise_errors = _on_error(on_error)
    s = _limits.active.over(limits) if limits is not None else _limits.active
    out: List[Optional[str]] = []
    it = _chunks(_iterable(calls, "calls"))
    base = 0
    with Target(s) as t:
        while True:
            chunk = next(it)
            if not chunk:
                break
            texts: List[bytes] = []
            sorts: List[int] = []  # F_MARSHAL (a plain mapping), F_STRING_INPUT (str line or JSON text), 0 (bytes)
            mine: Dict[int, Any] = {}  # items answered here: an error, or the digest of an item read alone
            dicts: Any = {}  # item index -> its dict, for a retry
            plain = _stream.marshal_allowed()
            if plain and set(map(type, chunk)) == {dict}:  # the common chunk: marshal in one C loop, one run
                try:
                    texts = list(map(_dumps, chunk, repeat(4)))
                    sorts, dicts = [F_MARSHAL] * len(chunk), chunk
                except Exception:  # ValueError: a value marshal does not take: item by item below
                    texts = []
            for i, c in enumerate(chunk if not sorts else ()):
                sorts.append(F_STRING_INPUT)
                try:
                    if isinstance(c, str):
                        texts.append(str.encode(c, *_ENC))
                        continue
                    if isinstance(c, (bytes, bytearray, memoryview)):
                        texts.append(bytes(c))
                        sorts[i] = 0
                        continue
                    if type(c) is not dict and not isinstance(c, Mapping):  # (the ABC check costs ~0.4 µs)
                        texts.append(host_call_text(c))  # an SDK object (D16b) or a list (D22); else invalid-argument
                        continue
                    d = dicts[i] = c if type(c) is dict else dict(c)
                    # Answered alone before its text is added: if that raises, the except adds the item's one text.
                    if isinstance(d.get("argsJSON"), (bytes, bytearray, memoryview)):
                        mine[i] = t.own(explain_record, d, b"", t.s)[1]  # the single path decodes it (D12: BOM)
                        texts.append(b"")
                        continue
                    try:
                        if plain:
                            texts.append(_dumps(d, 4))  # plain values: CPython marshal, read by the core
                            sorts[i] = F_MARSHAL
                            continue
                    except Exception:  # ValueError: a subclass, a datetime, too deep: the text path below
                        pass
                    try:
                        texts.append(to_json_text(d))
                    except FingerprintError:  # D9: a rejected value selection leaves out is no error
                        mine[i] = t.own(explain_record, d, b"", t.s)[1]
                        texts.append(b"")
                except FingerprintError as e:  # sent empty, which the core fails too: raised in its turn
                    texts.append(b"")
                    mine[i] = e
            # A marshal stream the core refuses (a surrogate, a large int, a shared list…)
            # takes the JSON-text path alone, which gives the D16 answer or the error.
            digests, failed = run_chunk(t, F_CALL | F_DIGEST, len(chunk), [SHARED_EMPTY] * 4 + [_batch.text_column(texts)],
                                        base, sorts)
            out.extend(finish(digests, failed, base, raise_errors, mine, lambda j: t.own(explain_record, dicts[j], b"", t.s)[1]))
            base += len(chunk)
    return out


def _run_strs(t: Target, shared: List[Any], names: List[Any], texts: List[Any], base: int, raise_errors: bool,
              out: List[Optional[str]]) -> bool:
    """The common chunk in one run: every item a ``str``, the chunk within BATCH_CHUNK_BYTES. False (nothing
    run) for any other chunk. The core checks each item against the limits."""
    most = BATCH_CHUNK_BYTES
    cols = [shared[0], _batch.str_column(names, most), shared[2], shared[3], _batch.str_column(texts, most)]
    while True:
        # Not all str, or (offsets) too big: pieces are capped as they are written.
        if cols[1] is None or cols[4] is None or cols[4][0] == "offsets" and len(cols[4][2]) > most:
            return False
        try:
            digests, failed = run_chunk(t, F_DIGEST | F_RAW_NAMES | F_STRING_INPUT, len(names), cols, base)
            break
        except _batch.NotSeparated as e:  # nothing ran: too big for one run, not all ASCII str, or a NUL in one
            if e.too_big:
                return False
            cols = [_batch.wide_column(c[1]) if c[0] == "pieces" and e.column in (i, -1) else c for i, c in enumerate(cols)]
    out.extend(finish(digests, failed, base, raise_errors))
    return True


def _run_texts(t: Target, shared: List[Any], names: List[Any], texts: List[Any], base: int, raise_errors: bool,
               out: List[Optional[str]]) -> None:
    """One chunk of names and JSON texts, each text with its sort (str, or bytes that may start with a BOM: D12)."""
    if _run_strs(t, shared, names, texts, base, raise_errors, out):
        return
    nb: List[bytes] = []
    ab: List[bytes] = []
    sorts: List[int] = []
    for n, x in zip(names, texts):
        # An item of the wrong type goes as its type's word: the core fails it in its turn (BATCH_ITEM_NOT_*).
        if isinstance(x, str):
            ab.append(str.encode(x, *_ENC))
            sorts.append(F_STRING_INPUT)
        elif isinstance(x, (bytes, bytearray, memoryview)):
            ab.append(bytes(x))
            sorts.append(0)  # bytes may start with a BOM (D12)
        else:
            ab.append(type_word(x).encode())
            sorts.append(BATCH_ITEM_NOT_TEXT)
        if isinstance(n, str):
            nb.append(_batch.wtf8(n))
        else:
            nb.append(type_word(n).encode())
            sorts[-1] |= BATCH_ITEM_NOT_NAME
    cols = [shared[0], _batch.text_column(nb), shared[2], shared[3], _batch.text_column(ab)]
    digests, failed = run_chunk(t, F_DIGEST | F_RAW_NAMES, len(names), cols, base, sorts)
    out.extend(finish(digests, failed, base, raise_errors))


def _byte_bounded(texts: List[Any]) -> List[Tuple[int, int]]:
    """Splits a chunk so each part holds about BATCH_CHUNK_BYTES of text (at least one item)."""
    try:
        total = sum(map(len, texts))
    except TypeError:
        return [(0, len(texts))]
    if total <= BATCH_CHUNK_BYTES:
        return [(0, len(texts))]
    parts, lo, n = [], 0, 0
    for i, x in enumerate(texts):
        n += len(x) * 3 if isinstance(x, str) else len(x)
        if n > BATCH_CHUNK_BYTES and i > lo:
            parts.append((lo, i))
            lo, n = i, len(x)
    parts.append((lo, len(texts)))
    return parts


def _on_error(on_error: Any) -> bool:
    if on_error == "raise" or on_error == "null":
        return on_error == "raise"
    raise host_error(W_CHOICE, "on_error", "raise", repr(on_error))


def _iterable(x: Any, what: str) -> Iterable[Any]:
    if isinstance(x, (str, bytes)) or not hasattr(x, "__iter__"):
        raise host_error(W_ITERABLE, what, type_word(x))
    return x  # type: ignore[no-any-return]


def _chunks(x: Iterable[Any]) -> Iterator[List[Any]]:
    """Lists of BATCH_CHUNK_ITEMS items in order as the iterable yields them, then empty lists."""
    it = iter(x)
    while True:
        yield list(islice(it, BATCH_CHUNK_ITEMS))


def _is_arrow(x: Any) -> bool:
    """A pyarrow array, told by its type's module: pyarrow is never imported unless given one."""
    return type(x).__module__.startswith("pyarrow")
