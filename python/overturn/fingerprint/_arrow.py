"""Arrow string arrays into the batch: buffers copied straight into linear memory.

Internal; imported only when a ``pyarrow`` array is passed (the optional
extra ``overturn-fingerprint[arrow]``), never by ``import overturn.fingerprint``.
A string array's offsets (int32) and data buffers are exactly the core's
batch column (``assembly/abi.ts`` ``BATCH_*``): each chunk's slice of them is
copied in as it is, with no Python object per row; the digests come back as
one buffer that becomes the result array's data.
"""
from __future__ import annotations

from array import array
from typing import Any, List

from bisect import bisect_right

from . import _batch_api, _limits
from ._abi import BATCH_CHUNK_BYTES, BATCH_CHUNK_ITEMS, DEFAULT_KIND, F_DIGEST, F_RAW_NAMES, F_STRING_INPUT, W_ARROW, W_LENGTHS
from ._batch import ZERO, Column, Target, finish, run_chunk
from ._errors import host_error

def _strings(x: Any, what: str) -> Any:
    """``x`` as one pyarrow string array (int32 offsets)."""
    import pyarrow as pa  # type: ignore[import-not-found, unused-ignore]

    if isinstance(x, pa.ChunkedArray):
        x = x.combine_chunks() if x.num_chunks != 1 else x.chunk(0)
    if not isinstance(x, pa.Array):
        x = pa.array(list(x), type=pa.string())  # the other side of an Arrow batch, given as a list
    if pa.types.is_dictionary(x.type) or pa.types.is_large_string(x.type) or getattr(pa.types, "is_string_view", bool)(x.type):
        x = x.cast(pa.string())
    if not pa.types.is_string(x.type):
        raise host_error(W_ARROW, what, x.type)
    return x


def _column(a: Any) -> Column:
    """The offsets column of a slice of a string array: its own buffers, no copy here."""
    _, offsets, data = a.buffers()
    om = memoryview(offsets).cast("B")[4 * a.offset:4 * (a.offset + len(a) + 1)]
    first, last = om.cast("i")[0], om.cast("i")[-1]  # native int32: little-endian, as Arrow's buffers
    dm = memoryview(data).cast("B")[first:last] if data is not None else memoryview(b"")
    return ("offsets", om, dm, first)


def batch_json(names: Any, args_json: Any, kind: Any, shared: List[Any], s: _limits.Settings,
               raise_errors: bool) -> Any:
    """fingerprint_batch_json over Arrow arrays; returns a pyarrow string array."""
    import pyarrow as pa  # type: ignore[import-not-found, unused-ignore]
    import pyarrow.compute as pc  # type: ignore[import-not-found, unused-ignore]

    na = _strings(names, "names")
    aa = _strings(args_json, "args_json")
    ka = None
    if shared[0] is None:
        ka = _strings(pc.fill_null(kind, DEFAULT_KIND), "kind")  # a null kind is the default (D17, assembly/abi.ts)
        if len(ka) != len(na):
            raise host_error(W_LENGTHS, "kind", "names")
    if len(na) != len(aa):
        raise host_error(W_LENGTHS, "names", "args_json")
    count = len(na)
    with Target(s) as t:
        digests = bytearray()
        failed: List[int] = []
        base = 0
        while base < count:
            n = _fit(na, aa, base, min(BATCH_CHUNK_ITEMS, count - base))
            a, nm = aa.slice(base, n), na.slice(base, n)
            kc = shared[0] if ka is None else _column(ka.slice(base, n))
            if nm.null_count or a.null_count:  # a null is a bad item: this chunk as lists, where the core words it
                d: Any = []
                _batch_api._run_texts(t, [kc] + shared[1:], nm.to_pylist(), a.to_pylist(), base, raise_errors, d)
                f = [i for i, x in enumerate(d) if x is None]
            else:
                d, errors = run_chunk(t, F_DIGEST | F_RAW_NAMES | F_STRING_INPUT, n, [kc, _column(nm), shared[2], shared[3],
                                                                                     _column(a)], base, lines=False)
                if raise_errors:
                    finish(d, errors, base, True)  # raises the first
                f = list(errors)
            for x in d:  # digests (several back to back in an entry), ZERO or None where an item failed
                digests += (x or ZERO).encode("ascii")
            failed.extend(base + i for i in f)
            base += n
    offsets = _digest_offsets(count)
    validity = None
    if failed:
        bits = bytearray(b"\xff" * ((count + 7) // 8))
        for i in failed:
            bits[i >> 3] &= ~(1 << (i & 7)) & 0xFF
        validity = pa.py_buffer(bytes(bits))
    return pa.StringArray.from_buffers(count, pa.py_buffer(offsets), pa.py_buffer(digests), validity, len(failed))


_offsets = b""


def _digest_offsets(count: int) -> memoryview:
    """The offsets of ``count`` 64-byte strings (0, 64, 128, ...): a slice of the longest built so far,
    which is kept (building them per call was a tenth of a small batch's host time)."""
    global _offsets
    if len(_offsets) < 4 * (count + 1):
        made = array("i", range(0, 64 * (2 * count + 1), 64)).tobytes()
        if count > _KEEP_OFFSETS:  # a huge batch's are not kept for the process's life
            return memoryview(made)[:4 * (count + 1)]
        _offsets = made
    return memoryview(_offsets)[:4 * (count + 1)]


_KEEP_OFFSETS = 1 << 20


class _Bytes:
    """Input bytes of the first k items from ``at`` of both arrays, by index (for bisect)."""

    def __init__(self, names: Any, texts: Any, at: int) -> None:
        self.offs = [memoryview(x.buffers()[1]).cast("B")[4 * (x.offset + at):4 * (x.offset + len(x) + 1)].cast("i")
                     for x in (names, texts)]

    def __getitem__(self, k: int) -> int:
        return sum(o[k] - o[0] for o in self.offs)


def _fit(names: Any, texts: Any, at: int, most: int) -> int:
    """How many of the next ``most`` items (at least one) a chunk takes: the rule of abi.ts BATCH_CHUNK_*."""
    return max(1, bisect_right(_Bytes(names, texts, at), BATCH_CHUNK_BYTES, 0, most + 1) - 1)
